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
import { StoreHubClient } from '../hub/hub_client.js';
import { StoreClaims } from '../holds/store_claims.js';
import { ownerOfSnapshot } from '../orders/order_record.js';
import { GuestHolds } from '../holds/guest_holds.js';
import { LocalSnapshot } from './local_snapshot.js';

export { describeAge } from './describe_age.js';

export class HybridQualifier {
  #client;
  #maxAgeMs;
  #onDivergence;
  #snapshots;
  #orders;
  #holds = new GuestHolds();
  #claims = null;
  #holdsStale = true;
  #loadedHolds = null;
  #settleRefresh = null;
  #settleAgain = false;
  #disposed = false;

  constructor(options) {
    const checked = hybridOptions(options);
    const { client, store, qualifierOptions = {}, outbox, offline, onOrderSettled, credentialsFor, storeCredentials, backoff, worker } = checked;
    this.#client = client;
    this.#maxAgeMs = checked.maxAgeMs;
    this.#onDivergence = checked.onDivergence ?? null;
    const snapshotStore = checkStore(store ?? memorySnapshotStore());
    const engine = engineFactory(worker, qualifierOptions ?? {});
    if (checked.hub !== null) this.#claims = new StoreClaims({ hub: new StoreHubClient(checked.hub), store: snapshotStore });
    const derive = (snapshot) => {
      this.#loadedHolds = this.#holds.key;
      return this.#holds.derive(snapshot);
    };
    this.#snapshots = new LocalSnapshot({ ...checked, store: snapshotStore, qualifierOptions: qualifierOptions ?? {}, engine, derive });
    // The order path sees the guest's account through the pending holds: what it promises counts them.
    const snapshots = {
      current: () => this.#snapshots.current(),
      ready: () => this.#snapshots.ready(),
      localDiscount: (request, offer, order) => this.#localDiscount(request, offer, order),
      withheld: (request, offer, basketId) => this.#withheld(request, offer, basketId),
      accountSnapshot: (client) => this.#snapshots.accountSnapshot(client),
    };
    this.#orders = new OrderCheckout({
      outbox: checkOutbox(outbox ?? defaultOrderOutbox()),
      guest: new OrderGuest({ client, snapshots, credentialsFor }),
      policy: offlinePolicy(offline),
      onOrderSettled: (order, outcome) => {
        this.#settled(order, outcome);
        onOrderSettled?.(order, outcome);
      },
      storeCredentials,
      backoff,
    });
    this.#orders.start();
    this.#claims?.retry();
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
    const { answer, ageMs } = await this.#localAnswer((engine) => engine.qualify(basket));
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  /** The local explain (docs/reference.md#explain) of the basket, on the same terms as qualify(). */
  async explain(basket) {
    this.#live();
    const { answer, ageMs } = await this.#localAnswer((engine) => engine.explain(basket));
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  /**
   * Bills an order: POST /api/baskets with state "billed", the offer and one basket id (a UUID
   * when omitted), kept in the outbox until the service decides it. Resolves
   * { status: 'billed' | 'refused' | 'queued', basketId, discount, message, ... }. Once the order
   * is stored it never rejects; before, a storage failure rejects with QualifyError 507 (nothing
   * placed, nothing sent), a pending order with the same id and another body with 409.
   */
  async checkout(request, options = {}) {
    this.#live();
    try {
      return await this.#orders.checkout(request, options);
    } finally {
      this.#holdsStale = true; // the pending set changed
    }
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
      ({ answer: local, ageMs: localAgeMs } = await this.#localAnswer((engine) => engine.qualify(basket)));
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
  async refresh() {
    this.#live();
    const mark = this.#holds.mark();
    const snapshot = await this.#snapshots.refresh();
    this.#holds.refreshed(mark);
    await this.#reloadHolds();
    return snapshot;
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

  // compute(engine) on the snapshot in hand with what the guest's pending orders hold taken off.
  async #localAnswer(compute) {
    await this.#snapshots.ready();
    await this.#syncHolds();
    return this.#snapshots.localAnswer(compute);
  }

  // The pending set is read again after a checkout or a settlement; the engine reloads when what
  // it holds changed. An unreadable outbox keeps the holds as they were.
  async #syncHolds() {
    if (this.#holdsStale) {
      this.#holdsStale = false;
      try {
        this.#holds.setOrders(await this.#orders.pendingOrders());
      } catch {
        this.#holdsStale = true;
      }
    }
    if (this.#claims !== null) {
      const me = ownerOfSnapshot(this.#snapshots.current());
      if (me !== null) this.#holds.setClaims(await this.#claims.live(me), this.#snapshots.current().generated_at);
    }
    await this.#reloadHolds();
  }

  async #reloadHolds() {
    if (this.#loadedHolds !== null && this.#loadedHolds !== this.#holds.key) await this.#snapshots.rederive();
  }

  // The discount the offline policy may promise for `order`'s offer: on the snapshot with only
  // what was held before that order taken off (an order never holds against itself).
  async #localDiscount(request, offer, order) {
    const snapshot = this.#snapshots.current();
    if (snapshot === null) return null;
    await this.#syncHolds();
    return this.#snapshots.discountOn(this.#holds.deriveFor(snapshot, order ?? null), request, offer);
  }

  // Why a new order may not promise `offer`: the local explain on the held snapshot; then, with a
  // store hub, the claim of basket `basketId` (every redemption, online or not).
  async #withheld(request, offer, basketId) {
    let local = null;
    try {
      const { answer } = await this.#localAnswer((engine) => engine.explain(request));
      const entry = answer.entries.find((e) => e.kind === offer.kind && e.id === offer.id);
      local = this.#holds.withheld(this.#snapshots.current(), entry, offer);
    } catch (e) {
      if (this.#claims === null) throw e;
    }
    if (local !== null || this.#claims === null) return local;
    const snapshot = this.#snapshots.current();
    const me = ownerOfSnapshot(snapshot);
    if (me === null) return { kind: offer.kind, id: offer.id, code: 'HUB_UNREACHABLE', message: 'Not redeemed: the account could not be read to claim the offer at the store hub, so no offer is promised.' };
    return this.#claims.claim(me, basketId, offer, snapshot);
  }

  // An order was decided: the pending set changed; billed with its offer, it stays held until
  // the service's snapshot after it is in hand (a refresh now, in the background).
  #settled(order, outcome) {
    this.#holdsStale = true;
    this.#claims?.settle(order, outcome).catch(() => {});
    this.#claims?.retry();
    if (this.#disposed) return;
    if (outcome.status === 'billed' && order.offer && !order.derivedFrom) this.#holds.billed(order);
    if (this.#settleRefresh !== null) {
      this.#settleAgain = true; // refreshed again once the running refresh ends
      return;
    }
    this.#settleRefresh = (async () => {
      do {
        this.#settleAgain = false;
        // Offline again: the billed orders stay held until a refresh succeeds.
        if (this.#disposed || (await this.refresh().then(() => false, () => true))) return;
      } while (this.#settleAgain);
    })().finally(() => {
      this.#settleRefresh = null;
    });
  }

  #live() {
    if (this.#disposed) throw new QualifyError(410, 'this hybrid qualifier has been disposed');
  }
}
