// Local answers at once, confirmed by the service: a facade over the account snapshot's life cycle
// (local_snapshot.js), what the guest has promised away (web/offline/holds/: the guest's undecided orders
// in the outbox, the orders billed since the snapshot, the store hub's claims) and the order path
// (web/offline/orders/). qualify() runs the engine on the snapshot with the holds taken off; confirm()
// asks the service, falls back to the local answer (marked provisional) when the service cannot be
// reached, and refreshes the snapshot when the two disagree; checkout() bills orders through a
// durable outbox. Each part is handed what it needs; none calls back into this one: the parts
// that change what the answers rest on (the snapshot's life cycle, the store's claims, the hub
// client) are EventTargets, whose events this one passes on as its own (docs/reference.md#events).
// Every call takes { signal } and ends with the object: dispose() rejects the calls in flight
// with DisposedError and aborts the account read nobody will use.
import { DisposedError } from '../../engine/disposed_error.js';
import { HubReachabilityEvent, OrderSettledEvent, SnapshotChangeEvent } from '../../events/qualifier_events.js';
import { abortable, signalOption } from '../../lifecycle/abortable.js';
import { ASYNC_DISPOSE, DISPOSE } from '../../lifecycle/disposal.js';
import { isServiceUnavailable } from '../../http/loyalty_client.js';
import { memorySnapshotStore } from '../snapshots/memory_snapshot_store.js';
import { defaultOrderOutbox } from '../orders/outbox/order_outbox.js';
import { OrderCheckout } from '../orders/order_checkout.js';
import { OrderGuest } from '../orders/order_guest.js';
import { offlinePolicy } from '../orders/offline_policy.js';
import { sameJson } from '../storage/json_equality.js';
import { engineFactory } from '../../worker/engine_factory.js';
import { checkOutbox, checkStore, hybridOptions } from './hybrid_options.js';
import { StoreHubClient } from '../hub/hub_client.js';
import { GuestHolds } from '../holds/guest_holds.js';
import { KeptSettlements } from '../holds/kept_settlements.js';
import { StoreClaims } from '../holds/store_claims.js';
import { LocalSnapshot } from './local_snapshot.js';

export { describeAge } from './describe_age.js';

const disposedError = () => new DisposedError('this hybrid qualifier has been disposed');

export class HybridQualifier extends EventTarget {
  #client;
  #maxAgeMs;
  #now;
  #onDivergence;
  #snapshots;
  #holds;
  #orders;
  #hub = null;
  #settleRefresh = null;
  #settleAgain = false;
  #disposed = false;
  // Aborted by dispose(): calls in flight reject with its DisposedError, the account read stops.
  #lifetime = new AbortController();
  // The work of the calls in flight (awaited by Symbol.asyncDispose).
  #inflight = new Set();
  #freed = Promise.resolve();

  constructor(options) {
    super();
    const checked = hybridOptions(options);
    const { client, store, qualifierOptions = {}, outbox, offline, onOrderSettled, credentialsFor, storeCredentials, backoff, worker } = checked;
    this.#client = client;
    this.#maxAgeMs = checked.maxAgeMs;
    this.#now = checked.now ?? Date.now;
    this.#onDivergence = checked.onDivergence ?? null;
    const snapshotStore = checkStore(store ?? memorySnapshotStore());
    const orderOutbox = checkOutbox(outbox ?? defaultOrderOutbox());
    const engine = engineFactory(worker, qualifierOptions ?? {});
    this.#hub = checked.hub === null ? null : new StoreHubClient(checked.hub);
    const claims =
      this.#hub === null
        ? null
        : new StoreClaims({ hub: this.#hub, kept: new KeptSettlements({ store: snapshotStore, kioskId: checked.hub.kioskId }), now: this.#now });
    // The engine loads the snapshot with the guest's holds taken off; the holds answer through its engine.
    let holds = null;
    const reads = { before: (startedAt) => holds.beforeRead(startedAt), after: (mark, snapshot, confirmedAt) => holds.afterRead(mark, snapshot, confirmedAt) };
    this.#snapshots = new LocalSnapshot({
      ...checked,
      store: snapshotStore,
      qualifierOptions: qualifierOptions ?? {},
      engine,
      derive: (snapshot) => holds.derive(snapshot),
      reads,
      signal: this.#lifetime.signal,
    });
    const guest = new OrderGuest({ client, snapshots: this.#snapshots, credentialsFor });
    holds = new GuestHolds({ outbox: orderOutbox, claims, snapshots: this.#snapshots, guest });
    this.#holds = holds;
    this.#snapshots.addEventListener('snapshotchange', (e) => this.#tell(new SnapshotChangeEvent(e.reason)));
    // Other baskets' claims changed: the engine takes them off now, not at the next answer.
    claims?.addEventListener('change', () => this.#resync());
    this.#hub?.addEventListener('hubreachabilitychange', (e) => this.#tell(new HubReachabilityEvent(e.reachable, e.message)));
    this.#orders = new OrderCheckout({
      outbox: orderOutbox,
      guest,
      holds,
      policy: offlinePolicy(offline),
      onOrderSettled: (order, outcome) => {
        this.#settled(order, outcome);
        onOrderSettled?.(order, outcome);
        this.#tell(new OrderSettledEvent(order, outcome));
      },
      storeCredentials,
      backoff,
    });
    this.#orders.start();
    // After this turn: a hybrid disposed at once (React's StrictMode mounts twice) sends nothing.
    if (claims !== null) queueMicrotask(() => this.#disposed || claims.retry());
  }

  /**
   * Loads a snapshot once: the `snapshot` option, else a stored one not older than maxStaleMs
   * (refreshed in the background when older than maxAgeMs), else the service's
   * (GET /api/account). Called by qualify() and confirm() as needed.
   */
  ready(options) {
    return this.#call(options, 'ready', () => this.#snapshots.ready());
  }

  /**
   * The local answer (docs/reference.md#answer) from the snapshot in hand, without waiting for the network
   * (except the very first time, when there is no usable snapshot at all). An expired snapshot
   * still answers while a fresh one is fetched in the background.
   */
  qualify(basket, options) {
    return this.#call(options, 'qualify', () => this.#provisional((engine) => engine.qualify(basket)));
  }

  /** The local explain (docs/reference.md#explain) of the basket, on the same terms as qualify(). */
  explain(basket, options) {
    return this.#call(options, 'explain', () => this.#provisional((engine) => engine.explain(basket)));
  }

  /**
   * Bills an order: POST /api/baskets with state "billed", the offer and one basket id (a UUID
   * when omitted), kept in the outbox until the service decides it. Resolves
   * { status: 'billed' | 'refused' | 'queued', basketId, discount, message, ... }. Once the order
   * is stored it never rejects, except with the abort of options.signal (or a dispose()), which
   * never takes back an order stored: an abort before the order is written places nothing.
   */
  checkout(request, options = {}) {
    return this.#call(options, 'checkout', async (signal) => {
      const outcome = await this.#orders.checkout(request, options === null ? options : { ...options, signal });
      this.#resync(); // the guest's orders changed: what is held, now
      return outcome;
    });
  }

  /** The orders of this guest not decided yet (with { all: true }: every one on the device), oldest first. */
  pendingOrders(options = {}) {
    return this.#call(options, 'pendingOrders', () => this.#orders.pendingOrders(options));
  }

  /** The outbox entries that could not be read as orders (its damaged(); [] without one). */
  damagedOrders(options) {
    return this.#call(options, 'damagedOrders', () => this.#orders.damagedOrders());
  }

  /** Sends every pending order on the device now, in order; resolves their outcomes ('queued' while undecided). */
  flush(options) {
    return this.#call(options, 'flush', () => this.#orders.flush());
  }

  /**
   * The service's answer, { result, source: 'remote', provisional: false }; when the service
   * cannot be reached (network failure, timeout, 5xx), the local answer as
   * { result, source: 'local', provisional: true, error }. A 4xx of the service rejects. When the
   * two answers differ (`diverged: true`), the snapshot is refreshed and onDivergence is told.
   */
  confirm(basket, options) {
    return this.#call(options, 'confirm', (signal) => this.#confirm(basket, signal));
  }

  async #confirm(basket, signal) {
    let local;
    let localAgeMs;
    let localError = null;
    try {
      ({ answer: local, ageMs: localAgeMs } = await this.#localAnswer((engine) => engine.qualify(basket)));
    } catch (e) {
      localError = e;
    }
    let remote;
    try {
      remote = await this.#client.qualify(basket, { signal });
    } catch (e) {
      if (!isServiceUnavailable(e)) throw e;
      if (localError !== null) throw localError;
      return { result: local, source: 'local', provisional: true, error: e, snapshotAgeMs: localAgeMs };
    }
    const diverged = localError !== null || !sameJson(local, remote);
    if (diverged) {
      let refreshError = null;
      try {
        await this.#refresh();
      } catch (e) {
        refreshError = e;
      }
      this.#onDivergence?.({ basket, local: localError === null ? local : null, localError, remote, refreshError });
    }
    return { result: remote, source: 'remote', provisional: false, diverged };
  }

  /**
   * Fetches the account snapshot now (conditionally, with the ETag of the one in hand), loads it
   * and stores it; resolves the snapshot in use. A 304 costs no reload and no store write. A
   * failure rejects and leaves the snapshot in hand (and the stored one) as they were.
   */
  refresh(options) {
    return this.#call(options, 'refresh', () => this.#refresh());
  }

  async #refresh() {
    // Around the read, the holds learn the service's time of the billings before it (GuestHolds.afterRead).
    const snapshot = await this.#snapshots.refresh();
    await this.#holds.sync();
    return snapshot;
  }

  /** The snapshot in use: when it was saved (epoch ms), its age and whether it is expired; or null. */
  snapshotInfo() {
    return this.#snapshots.info();
  }

  /**
   * What the local answers rest on, as last known, without asking anyone: the snapshot (as
   * snapshotInfo()) and the holds: the guest's undecided orders last read, the orders billed since
   * the snapshot, and with a store hub the live claims' age, whether they are being asked for,
   * whether the hub cut the list and its last error.
   */
  diagnostics() {
    return { snapshot: this.#snapshots.info(), holds: this.#holds.diagnostics(), hub: this.#hub?.reachability ?? null };
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

  /**
   * Frees the engine, stops the replay timer and the account read in flight; the calls in flight
   * and every later one reject with DisposedError (a QualifyError 410). No event after it.
   */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#lifetime.abort(disposedError());
    this.#orders.dispose();
    this.#holds.claims?.dispose();
    this.#freed = this.#snapshots.dispose();
  }

  /** `using hybrid = new HybridQualifier(...)`: dispose() at the end of the block. */
  [DISPOSE]() {
    this.dispose();
  }

  /** `await using`: dispose(), then waits for the work of the calls it cut short and the engine's release. */
  async [ASYNC_DISPOSE]() {
    this.dispose();
    await Promise.allSettled([...this.#inflight, this.#settleRefresh, this.#freed]);
  }

  // `work(signal)` as a call of this object: options.signal checked, rejected at once when it
  // aborts or when this object is disposed (then with DisposedError; after dispose() at once).
  #call(options, what, work) {
    let signal;
    try {
      signal = signalOption(options, what);
    } catch (e) {
      return Promise.reject(e);
    }
    if (this.#disposed) return Promise.reject(disposedError());
    return abortable([signal, this.#lifetime.signal], (combined) => {
      const running = work(combined);
      this.#inflight.add(running);
      const forget = () => this.#inflight.delete(running);
      running.then(forget, forget);
      return running;
    });
  }

  // An event of this object's, unless it is disposed.
  #tell(event) {
    if (!this.#disposed) this.dispatchEvent(event);
  }

  // What is held changed (an order placed or settled, other kiosks' claims): the engine reloads
  // now, in the background, and 'snapshotchange' says so.
  #resync() {
    if (!this.#disposed) this.#holds.sync().catch(() => {});
  }

  async #provisional(compute) {
    const { answer, ageMs } = await this.#localAnswer(compute);
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  // compute(engine) on the snapshot in hand with what the guest has promised away taken off (the
  // holds as last known: the outbox read again only when it changed, the claims never waited for).
  async #localAnswer(compute) {
    await this.#snapshots.ready();
    await this.#holds.sync();
    return this.#snapshots.localAnswer(compute);
  }

  // An order was decided: the holds know (billed with its offer, it stays held until the
  // service's snapshot after it is in hand: a refresh now, in the background). An order that asked
  // for no offer changed nothing the holds count: no refresh for it.
  #settled(order, outcome) {
    this.#holds.settled(order, outcome);
    this.#holds.claims?.retry();
    this.#resync();
    if (this.#disposed || !order.requestedOffer) return;
    if (this.#settleRefresh !== null) {
      this.#settleAgain = true; // refreshed again once the running refresh ends
      return;
    }
    this.#settleRefresh = (async () => {
      do {
        this.#settleAgain = false;
        // Offline again: the billed orders stay held until a refresh succeeds.
        if (this.#disposed || (await this.#refresh().then(() => false, () => true))) return;
      } while (this.#settleAgain);
    })().finally(() => {
      this.#settleRefresh = null;
    });
  }
}
