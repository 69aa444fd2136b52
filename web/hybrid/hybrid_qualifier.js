// Local answers at once, confirmed by the service: qualify() runs the engine on a snapshot of the
// account; confirm() asks the service, falls back to the local answer (marked provisional) when
// the service cannot be reached, and refreshes the snapshot when the two disagree. Snapshots
// outlive outages: a failed refresh never removes one; past maxAgeMs answers are provisional, past
// maxStaleMs they stop (503). checkout() bills orders through a durable outbox (order_checkout.js).
import { createQualifier } from '../engine/qualifier.js';
import { QualifyError } from '../engine/qualify_error.js';
import { isServiceUnavailable } from '../http/loyalty_client.js';
import { memorySnapshotStore } from '../snapshots/snapshot_store.js';
import { defaultOrderOutbox } from '../orders/order_outbox.js';
import { OrderCheckout, offlinePolicy, ownerOfSnapshot } from '../orders/order_checkout.js';
import { RetryBackoff } from '../http/retry_backoff.js';
import { snapshotFromAccount } from '../account/snapshot_from_account.js';
import { sha256Hex } from '../storage/sha256_hex.js';
import { sameJson } from '../storage/json_equality.js';

const DEFAULT_MAX_AGE_MS = 15 * 60_000;
const DEFAULT_MAX_STALE_MS = 7 * 24 * 60 * 60_000;

/** 93784000 -> "1 day 2 h 3 min": an age as people read it. */
export function describeAge(ms) {
  if (!Number.isFinite(ms)) return 'infinitely long';
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return `${Math.floor(Math.max(0, ms) / 1000)} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const parts = [];
  if (days > 0) parts.push(`${days} day${days === 1 ? '' : 's'}`);
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes % 60 > 0 && days === 0) parts.push(`${minutes % 60} min`);
  return parts.join(' ');
}

// The account-read options (LoyaltyClient.account) of a 'loyalty-api' context: its location and
// venue, when it names them.
function accountReadOf(context) {
  const read = {};
  if (context.locationUid !== undefined && context.locationUid !== null) read.locationUid = context.locationUid;
  if (context.venue !== undefined && context.venue !== null) read.redemptionVenue = context.venue;
  return read;
}

function checkOutbox(outbox) {
  for (const method of ['list', 'put', 'remove']) {
    if (typeof outbox?.[method] !== 'function') {
      throw new TypeError(`outbox must have list(), put(order) and remove(order) (missing ${method})`);
    }
  }
  return outbox;
}

function checkStore(store) {
  for (const method of ['load', 'save', 'remove']) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`store must have load(key), save(key, entry) and remove(key) (missing ${method})`);
    }
  }
  return store;
}

// `worker: true`: the HybridQualifiers of a page share one Web Worker (loyalty-qualifier/worker,
// imported only then), started by the first one, so that the engine loads while the account is
// fetched, and ended by the last one's dispose(). `worker: aWorker` (a Worker running
// loyalty-qualifier/worker/script that the page started itself, e.g. from a script inside its
// service worker's scope): the hybrids given it share it, and the page ends it. A worker that
// cannot start (its script or the engine's modules cannot be fetched) leaves the engine in this
// thread, for this page's life, with a console warning: offers still show.
const pageWorkers = new Map(); // true or the page's Worker -> { starting, users, unavailable }

function isWorker(value) {
  return value !== null && typeof value === 'object' && typeof value.postMessage === 'function';
}

function sharedWorkerEngine(key, wasm) {
  let shared = pageWorkers.get(key);
  if (shared === undefined) {
    shared = { starting: null, users: 0, unavailable: false };
    pageWorkers.set(key, shared);
  }
  shared.users += 1;
  if (shared.starting === null) {
    shared.starting = import('../worker/worker.js').then((api) => ({
      api,
      worker: key === true ? api.startQualifierWorker({ wasm }) : key,
    }));
    shared.starting.catch(() => {}); // reported by the first snapshot load
  }
  const starting = shared.starting;
  let released = false;
  return {
    async create(snapshot, options) {
      if (!shared.unavailable) {
        try {
          const { api, worker } = await starting;
          return { qualifier: await api.createQualifierWorker(snapshot, { ...options, worker }), location: 'worker' };
        } catch (e) {
          // 503: the worker (or the engine in it) could not load; the thread's engine says why, if it cannot either.
          if (e instanceof QualifyError && e.code !== 503) throw e;
          shared.unavailable = true;
          console.warn(`loyalty-qualifier: the qualifier worker could not start (${e?.message ?? e}); ` +
            'HybridQualifier runs the engine in this thread instead (docs/workers.md)');
        }
      }
      return { qualifier: await createQualifier(snapshot, options), location: 'thread' };
    },
    release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0 || shared.starting !== starting) return;
      pageWorkers.delete(key);
      if (key === true) starting.then(({ worker }) => worker.terminate(), () => {});
    },
  };
}

// How the local engine is made: createQualifier in this thread; the page's shared worker
// (`worker: true` or a Worker); or a createQualifierWorker function (e.g. the Node one: a worker each).
function engineFactory(worker, qualifierOptions) {
  if (worker === true || isWorker(worker)) return sharedWorkerEngine(worker, qualifierOptions.wasm);
  if (worker === false) {
    return { create: async (snapshot, options) => ({ qualifier: await createQualifier(snapshot, options), location: 'thread' }), release() {} };
  }
  return { create: async (snapshot, options) => ({ qualifier: await worker(snapshot, options), location: 'worker' }), release() {} };
}

export class HybridQualifier {
  #client;
  #store;
  #storeKey;
  #maxAgeMs;
  #maxStaleMs;
  #now;
  #onDivergence;
  #qualifierOptions;
  #engine;
  #engineLocation = null;
  #initialSnapshot;
  #accountShape;
  #context;
  #accountRead;
  #qualifier = null;
  #snapshot = null;
  #etag = null;
  #savedAt = 0;
  #loading = null;
  #refreshing = null;
  #refreshBackoff;
  #orders;
  #disposed = false;

  constructor(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const {
      client,
      snapshot,
      store,
      maxAgeMs = DEFAULT_MAX_AGE_MS,
      maxStaleMs = Math.max(DEFAULT_MAX_STALE_MS, typeof maxAgeMs === 'number' ? maxAgeMs : 0),
      onDivergence,
      now,
      storeKey,
      qualifierOptions,
      outbox,
      offline,
      onOrderSettled,
      credentialsFor,
      storeCredentials = true,
      backoff,
      accountShape = 'snapshot',
      context,
      worker = false,
    } = options;
    if (accountShape !== 'snapshot' && accountShape !== 'loyalty-api') {
      throw new TypeError("accountShape must be 'loyalty-api' or 'snapshot'");
    }
    if (accountShape === 'loyalty-api' && (typeof context?.merchantId !== 'string' || context.merchantId === '')) {
      throw new TypeError("accountShape 'loyalty-api' needs context: { merchantId, locationUid?, venue?, timeZone? }");
    }
    if (typeof client?.qualify !== 'function' || typeof client?.account !== 'function') {
      throw new TypeError('client must be a LoyaltyClient (or have qualify(basket) and account())');
    }
    if (typeof maxAgeMs !== 'number' || !(maxAgeMs >= 0)) {
      throw new TypeError('maxAgeMs must be a non-negative number of milliseconds');
    }
    if (typeof maxStaleMs !== 'number' || !(maxStaleMs >= maxAgeMs)) {
      throw new TypeError('maxStaleMs must be a number of milliseconds (Infinity allowed), at least maxAgeMs');
    }
    if (onDivergence !== undefined && typeof onDivergence !== 'function') {
      throw new TypeError('onDivergence must be a function');
    }
    if (onOrderSettled !== undefined && typeof onOrderSettled !== 'function') {
      throw new TypeError('onOrderSettled must be a function');
    }
    if (credentialsFor !== undefined && typeof credentialsFor !== 'function') {
      throw new TypeError('credentialsFor must be a function (order) => { baseUrl, merchantKey, accessToken } | null');
    }
    if (typeof storeCredentials !== 'boolean') throw new TypeError('storeCredentials must be true or false');
    if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function');
    if (typeof worker !== 'boolean' && typeof worker !== 'function' && !isWorker(worker)) {
      throw new TypeError('worker must be true, false, a Worker running loyalty-qualifier/worker/script or a createQualifierWorker function');
    }
    this.#client = client;
    this.#store = checkStore(store ?? memorySnapshotStore());
    this.#storeKey = storeKey ?? null;
    this.#maxAgeMs = maxAgeMs;
    this.#maxStaleMs = maxStaleMs;
    this.#now = now ?? Date.now;
    this.#onDivergence = onDivergence ?? null;
    this.#qualifierOptions = qualifierOptions ?? {};
    this.#engine = engineFactory(worker, this.#qualifierOptions);
    this.#initialSnapshot = snapshot ?? null;
    this.#refreshBackoff = new RetryBackoff(backoff);
    this.#orders = new OrderCheckout({
      client,
      outbox: checkOutbox(outbox ?? defaultOrderOutbox()),
      identify: () => this.#identify(),
      knownOwner: () => ownerOfSnapshot(this.#qualifier === null ? null : this.#snapshot),
      policy: offlinePolicy(offline),
      onOrderSettled,
      credentialsFor,
      storeCredentials,
      backoff,
      localDiscount: (request, offer) => this.#localDiscount(request, offer),
    });
    this.#orders.start();
    this.#accountShape = accountShape;
    this.#context = context ?? null;
    // The loyalty service's account read is narrowed to one location and venue: ask for the
    // ones the snapshot is made for.
    this.#accountRead = accountShape === 'loyalty-api' ? accountReadOf(context) : null;
  }

  /**
   * Loads a snapshot once: the `snapshot` option, else a stored one not older than maxStaleMs
   * (refreshed in the background when older than maxAgeMs), else the service's
   * (GET /api/account). Called by qualify() and confirm() as needed.
   */
  ready() {
    this.#live();
    if (this.#qualifier !== null) return Promise.resolve();
    if (this.#loading === null) {
      this.#loading = this.#load().finally(() => {
        this.#loading = null;
      });
    }
    return this.#loading;
  }

  /**
   * The local answer (docs/reference.md#answer) from the snapshot in hand, without waiting for the network
   * (except the very first time, when there is no usable snapshot at all). An expired snapshot
   * still answers while a fresh one is fetched in the background.
   */
  async qualify(basket) {
    const { answer, ageMs } = await this.#localAnswer((engine) => engine.qualify(basket));
    return ageMs > this.#maxAgeMs ? { ...answer, provisional: true, snapshotAgeMs: ageMs } : answer;
  }

  /** The local explain (docs/reference.md#explain) of the basket, on the same terms as qualify(). */
  async explain(basket) {
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
  refresh() {
    this.#live();
    if (this.#refreshing === null) {
      this.#refreshing = this.#fetchSnapshot().finally(() => {
        this.#refreshing = null;
      });
    }
    return this.#refreshing;
  }

  /** The snapshot in use: when it was saved (epoch ms), its age and whether it is expired; or null. */
  snapshotInfo() {
    if (this.#qualifier === null) return null;
    const ageMs = this.#now() - this.#savedAt;
    return { savedAt: this.#savedAt, ageMs, expired: ageMs > this.#maxAgeMs };
  }

  /**
   * Where the local engine runs: 'worker' (a Web Worker or worker thread) or 'thread' (this one:
   * `worker: false`, or a worker that could not start); null before the first snapshot is loaded.
   */
  get engineLocation() {
    return this.#engineLocation;
  }

  /** The snapshot in use (the same object until a refresh brings a changed one), or null. */
  currentSnapshot() {
    return this.#qualifier === null ? null : this.#snapshot;
  }

  /** Frees the engine and stops the replay timer; later calls reject with QualifyError (410). */
  dispose() {
    this.#disposed = true;
    this.#orders.dispose();
    // An engine in a worker frees its snapshot (and the worker, with the last user) in the background.
    Promise.resolve(this.#qualifier?.dispose()).catch(() => {});
    this.#qualifier = null;
    this.#engine.release();
  }

  // Whose orders this client places: the (merchant, user) of the account snapshot (read when
  // none is in hand yet), or null when it cannot be read now.
  async #identify() {
    if (this.#qualifier === null) {
      try {
        await this.ready();
      } catch {
        return null;
      }
    }
    return ownerOfSnapshot(this.#qualifier === null ? null : this.#snapshot);
  }

  #live() {
    if (this.#disposed) throw new QualifyError(410, 'this hybrid qualifier has been disposed');
  }

  // The engine's answer on the snapshot in hand and that snapshot's age; past maxAgeMs a refresh
  // starts in the background (within the backoff), past maxStaleMs it is a 503.
  async #localAnswer(compute) {
    await this.ready();
    this.#live();
    const ageMs = this.#now() - this.#savedAt;
    if (ageMs > this.#maxAgeMs) this.#refreshInBackground();
    if (ageMs > this.#maxStaleMs) throw this.#tooOld(ageMs);
    return { answer: await compute(this.#qualifier), ageMs };
  }

  #tooOld(ageMs, cause = undefined) {
    const error = new QualifyError(
      503,
      `the account snapshot is ${describeAge(ageMs)} old, older than maxStaleMs ` +
        `(${describeAge(this.#maxStaleMs)}), and the service cannot be reached for a fresh one`,
    );
    if (cause !== undefined) error.cause = cause;
    return error;
  }

  // The local engine's discount for an offer on a request (for the offline policy), or null.
  async #localDiscount(request, offer) {
    if (this.#qualifier === null || this.#now() - this.#savedAt > this.#maxStaleMs) return null;
    try {
      const entry = (await this.#qualifier.explain(request)).entries.find((e) => e.kind === offer.kind && e.id === offer.id && e.qualifies);
      return entry?.discount ?? null;
    } catch {
      return null;
    }
  }

  async #load() {
    if (this.#initialSnapshot !== null) {
      const snapshot = this.#initialSnapshot;
      this.#initialSnapshot = null;
      await this.#use(snapshot, this.#now());
      await this.#save(snapshot);
      return;
    }
    const stored = await this.#loadStored();
    if (stored !== null && this.#qualifier !== null) {
      if (this.#now() - stored.savedAt > this.#maxAgeMs) this.#refreshInBackground();
      return;
    }
    try {
      await this.refresh();
    } catch (e) {
      // The stored snapshot (kept, never removed) is older than maxStaleMs: say how old.
      if (stored !== null && isServiceUnavailable(e)) throw this.#tooOld(this.#now() - stored.savedAt, e);
      throw e;
    }
  }

  // The stored entry; it is loaded when not older than maxStaleMs. Nothing is ever removed here:
  // an entry too old or invalid stays until a successful refresh replaces it.
  async #loadStored() {
    let entry = null;
    try {
      entry = await this.#store.load(await this.#snapshotKey());
    } catch {
      return null; // an unreadable store is an empty one
    }
    if (entry === null || entry === undefined) return null;
    if (this.#now() - entry.savedAt > this.#maxStaleMs) return entry;
    try {
      await this.#use(entry.snapshot, entry.savedAt);
      this.#etag = typeof entry.etag === 'string' ? entry.etag : null;
    } catch (e) {
      if (!(e instanceof QualifyError)) throw e;
      return null;
    }
    return entry;
  }

  async #fetchSnapshot() {
    let fetched;
    try {
      fetched = await this.#fetchAccount();
    } catch (e) {
      this.#refreshBackoff.failed(this.#now());
      throw e;
    }
    this.#live();
    this.#refreshBackoff.succeeded();
    if (fetched.notModified) {
      this.#savedAt = this.#now(); // confirmed current: no reload, no store write
      return this.#snapshot;
    }
    const snapshot = this.#snapshotOf(fetched.body);
    await this.#use(snapshot, this.#now());
    this.#etag = fetched.etag;
    await this.#save(snapshot);
    return snapshot;
  }

  // GET /api/account, with If-None-Match when the client can send it and a snapshot is in hand.
  async #fetchAccount() {
    if (typeof this.#client.accountIfChanged === 'function') {
      const etag = this.#qualifier !== null ? this.#etag : null;
      const answer = await (this.#accountRead
        ? this.#client.accountIfChanged(etag, this.#accountRead)
        : this.#client.accountIfChanged(etag));
      if (answer.notModified && this.#qualifier !== null) return { notModified: true };
      if (!answer.notModified) return { notModified: false, body: answer.snapshot, etag: answer.etag ?? null };
    }
    const body = await (this.#accountRead ? this.#client.account(this.#accountRead) : this.#client.account());
    return { notModified: false, body, etag: null };
  }

  // The one step from a fetched account body to the snapshot the engine loads: the snapshot
  // itself (the local service), or the loyalty service's own account read, made a snapshot as of
  // the time it was fetched.
  #snapshotOf(body) {
    if (this.#accountShape === 'snapshot') return body;
    return snapshotFromAccount(body, { ...this.#context, fetchedAt: this.#now() });
  }

  async #use(snapshot, savedAt) {
    if (this.#qualifier === null) {
      const { qualifier, location } = await this.#engine.create(snapshot, this.#qualifierOptions);
      if (this.#disposed) {
        await qualifier.dispose();
        this.#live();
      }
      if (this.#qualifier === null) {
        this.#qualifier = qualifier;
        this.#engineLocation = location;
      } else {
        await qualifier.dispose(); // a concurrent load won; load this snapshot into it instead
        await this.#qualifier.setSnapshot(snapshot);
      }
    } else {
      await this.#qualifier.setSnapshot(snapshot);
    }
    this.#snapshot = snapshot;
    this.#savedAt = savedAt;
  }

  // The store key: storeKey, else the SHA-256 of the client's (base URL, merchant key, current
  // token), so two guests never share an entry (a client without credentials(): its identity).
  async #snapshotKey() {
    if (this.#storeKey !== null) return this.#storeKey;
    if (typeof this.#client.credentials !== 'function') return `snapshot:${this.#client.identity ?? 'default'}`;
    const { baseUrl, merchantKey, accessToken } = await this.#client.credentials();
    return `snapshot:${await sha256Hex(JSON.stringify([baseUrl, merchantKey, accessToken]))}`;
  }

  async #save(snapshot) {
    try {
      const entry = { snapshot, savedAt: this.#savedAt };
      if (this.#etag !== null) entry.etag = this.#etag;
      await this.#store.save(await this.#snapshotKey(), entry);
    } catch {
      // Persistence is best effort (a full quota, a read-only disk): the snapshot is in use anyway.
    }
  }

  #refreshInBackground() {
    if (this.#refreshing !== null || this.#disposed) return;
    if (!this.#refreshBackoff.ready(this.#now())) return; // failures back off: no refresh storm
    this.refresh().catch(() => {
      // Offline: keep answering from the snapshot in hand; the next call tries again.
    });
  }
}
