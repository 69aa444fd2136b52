// Local answers at once, confirmed by the service: qualify() runs the engine on a snapshot of the
// account (local_snapshot.js: its life cycle); confirm() asks the service, falls back to the
// local answer (marked provisional) when the service cannot be reached, and refreshes the
// snapshot when the two disagree. checkout() bills orders through a durable outbox (web/orders/),
// whose guest on screen is this hybrid's (an OrderGuest over its snapshot).
import { QualifyError } from '../engine/qualify_error.js';
import { isServiceUnavailable } from '../http/loyalty_client.js';
import { memorySnapshotStore } from '../snapshots/snapshot_store.js';
import { defaultOrderOutbox } from '../orders/order_outbox.js';
import { OrderCheckout } from '../orders/order_checkout.js';
import { OrderGuest } from '../orders/order_guest.js';
import { offlinePolicy } from '../orders/offline_policy.js';
import { sameJson } from '../storage/json_equality.js';
import { engineFactory } from '../worker/engine_factory.js';
import { checkOutbox, checkStore, hybridOptions } from './hybrid_options.js';
import { LocalSnapshot } from './local_snapshot.js';

export { describeAge } from './describe_age.js';

export class HybridQualifier {
  #client;
  #maxAgeMs;
  #onDivergence;
  #snapshots;
  #orders;
  #disposed = false;

  constructor(options) {
    const checked = hybridOptions(options);
    const { client, store, qualifierOptions = {}, outbox, offline, onOrderSettled, credentialsFor, storeCredentials, backoff, worker } = checked;
    this.#client = client;
    this.#maxAgeMs = checked.maxAgeMs;
    this.#onDivergence = checked.onDivergence ?? null;
    const snapshotStore = checkStore(store ?? memorySnapshotStore());
    const engine = engineFactory(worker, qualifierOptions ?? {});
    this.#snapshots = new LocalSnapshot({ ...checked, store: snapshotStore, qualifierOptions: qualifierOptions ?? {}, engine });
    this.#orders = new OrderCheckout({
      outbox: checkOutbox(outbox ?? defaultOrderOutbox()),
      guest: new OrderGuest({ client, snapshots: this.#snapshots, credentialsFor }),
      policy: offlinePolicy(offline),
      onOrderSettled,
      storeCredentials,
      backoff,
    });
    this.#orders.start();
  }

  /**
   * Loads a snapshot once: the `snapshot` option, else a stored one not older than maxStaleMs
   * (refreshed in the background when older than maxAgeMs), else the service's
   * (GET /api/account). Called by qualify() and confirm() as needed.
   */
  ready() {
    this.#live();
    return this.#snapshots.ready();
  }

  /**
   * The local answer (docs/reference.md#answer) from the snapshot in hand, without waiting for the network
   * (except the very first time, when there is no usable snapshot at all). An expired snapshot
   * still answers while a fresh one is fetched in the background.
   */
  async qualify(basket) {
    this.#live();
    const { answer, ageMs } = await this.#snapshots.localAnswer((engine) => engine.qualify(basket));
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  /** The local explain (docs/reference.md#explain) of the basket, on the same terms as qualify(). */
  async explain(basket) {
    this.#live();
    const { answer, ageMs } = await this.#snapshots.localAnswer((engine) => engine.explain(basket));
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  /**
   * Bills an order: POST /api/baskets with state "billed", the offer and one basket id (a UUID
   * when omitted), kept in the outbox until the service decides it. Resolves
   * { status: 'billed' | 'refused' | 'queued', basketId, discount, message, ... }. Once the order
   * is stored it never rejects; before, a storage failure rejects with QualifyError 507 (nothing
   * placed, nothing sent), a pending order with the same id and another body with 409.
   */
  checkout(request, options = {}) {
    this.#live();
    return this.#orders.checkout(request, options);
  }

  /** The orders of this guest not decided yet (with { all: true }: every one on the device), oldest first. */
  pendingOrders(options = {}) {
    this.#live();
    return this.#orders.pendingOrders(options);
  }

  /** The outbox entries that could not be read as orders (its damaged(); [] without one). */
  damagedOrders() {
    this.#live();
    return this.#orders.damagedOrders();
  }

  /** Sends every pending order on the device now, in order; resolves their outcomes ('queued' while undecided). */
  flush() {
    this.#live();
    return this.#orders.flush();
  }

  /**
   * The service's answer, { result, source: 'remote', provisional: false }; when the service
   * cannot be reached (network failure, timeout, 5xx), the local answer as
   * { result, source: 'local', provisional: true, error }. A 4xx of the service rejects. When the
   * two answers differ, the snapshot is refreshed and onDivergence is told.
   */
  async confirm(basket) {
    let local;
    let localAgeMs;
    let localError = null;
    try {
      this.#live();
      ({ answer: local, ageMs: localAgeMs } = await this.#snapshots.localAnswer((engine) => engine.qualify(basket)));
    } catch (e) {
      localError = e;
    }
    let remote;
    try {
      remote = await this.#client.qualify(basket);
    } catch (e) {
      if (!isServiceUnavailable(e)) throw e;
      if (localError !== null) throw localError;
      return { result: local, source: 'local', provisional: true, error: e, snapshotAgeMs: localAgeMs };
    }
    if (localError !== null || !sameJson(local, remote)) {
      let refreshError = null;
      try {
        await this.refresh();
      } catch (e) {
        refreshError = e;
      }
      this.#onDivergence?.({ basket, local: localError === null ? local : null, localError, remote, refreshError });
    }
    return { result: remote, source: 'remote', provisional: false };
  }

  /**
   * Fetches the account snapshot now (conditionally, with the ETag of the one in hand), loads it
   * and stores it; resolves the snapshot in use. A 304 costs no reload and no store write. A
   * failure rejects and leaves the snapshot in hand (and the stored one) as they were.
   */
  refresh() {
    this.#live();
    return this.#snapshots.refresh();
  }

  /** The snapshot in use: when it was saved (epoch ms), its age and whether it is expired; or null. */
  snapshotInfo() {
    return this.#snapshots.info();
  }

  /**
   * Where the local engine runs: 'worker' (a Web Worker or worker thread) or 'thread' (this one:
   * `worker: false`, or a worker that could not start); null before the first snapshot is loaded.
   */
  get engineLocation() {
    return this.#snapshots.engineLocation;
  }

  /** The snapshot in use (the same object until a refresh brings a changed one), or null. */
  currentSnapshot() {
    return this.#snapshots.current();
  }

  /** Frees the engine and stops the replay timer; later calls reject with QualifyError (410). */
  dispose() {
    this.#disposed = true;
    this.#orders.dispose();
    this.#snapshots.dispose();
  }

  #live() {
    if (this.#disposed) throw new QualifyError(410, 'this hybrid qualifier has been disposed');
  }
}
