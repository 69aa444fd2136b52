// Local answers at once, confirmed by the service: qualify() runs the engine on a snapshot of the
// account; confirm() asks the service, falls back to the local answer (marked provisional) when
// the service cannot be reached, and refreshes the snapshot when the two disagree.
import { createQualifier } from './qualifier.js';
import { QualifyError } from './qualify_error.js';
import { isServiceUnavailable } from './loyalty_client.js';
import { memorySnapshotStore } from './snapshot_store.js';
import { snapshotFromAccount } from './snapshot_from_account.js';

const DEFAULT_MAX_AGE_MS = 15 * 60_000;

// Deep equality of JSON values; object key order does not matter, array order does.
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((value, i) => sameJson(value, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson(a[key], b[key]));
}

function checkStore(store) {
  for (const method of ['load', 'save', 'remove']) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`store must have load(key), save(key, entry) and remove(key) (missing ${method})`);
    }
  }
  return store;
}

export class HybridQualifier {
  #client;
  #store;
  #storeKey;
  #maxAgeMs;
  #now;
  #onDivergence;
  #qualifierOptions;
  #initialSnapshot;
  #snapshotOf;
  #qualifier = null;
  #savedAt = 0;
  #loading = null;
  #refreshing = null;
  #disposed = false;

  constructor(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const { client, snapshot, store, maxAgeMs = DEFAULT_MAX_AGE_MS, onDivergence, now, storeKey, qualifierOptions } =
      options;
    const { accountShape = 'snapshot', context } = options;
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
    if (onDivergence !== undefined && typeof onDivergence !== 'function') {
      throw new TypeError('onDivergence must be a function');
    }
    if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function');
    this.#client = client;
    this.#store = checkStore(store ?? memorySnapshotStore());
    this.#storeKey = storeKey ?? `snapshot:${client.identity ?? 'default'}`;
    this.#maxAgeMs = maxAgeMs;
    this.#now = now ?? Date.now;
    this.#onDivergence = onDivergence ?? null;
    this.#qualifierOptions = qualifierOptions ?? {};
    this.#initialSnapshot = snapshot ?? null;
    // What client.account() answers: the snapshot itself (the local service), or the loyalty
    // service's own account read, made a snapshot as of the time it was fetched.
    this.#snapshotOf =
      accountShape === 'loyalty-api'
        ? (body) => snapshotFromAccount(body, { ...context, fetchedAt: this.#now() })
        : (body) => body;
  }

  /**
   * Loads a snapshot once: the `snapshot` option, else a stored one not older than maxAgeMs,
   * else the service's (GET /api/account). Called by qualify() and confirm() as needed.
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
   * The local answer (API spec 2.2) from the snapshot in hand, without waiting for the network
   * (except the very first time, when there is no usable snapshot at all). An expired snapshot
   * still answers while a fresh one is fetched in the background.
   */
  async qualify(basket) {
    await this.ready();
    this.#live();
    if (this.#expired()) this.#refreshInBackground();
    return this.#qualifier.qualify(basket);
  }

  /**
   * The service's answer, { result, source: 'remote', provisional: false }; when the service
   * cannot be reached (network failure, timeout, 5xx), the local answer as
   * { result, source: 'local', provisional: true, error }. A 4xx of the service rejects. When the
   * two answers differ, the snapshot is refreshed and onDivergence is told.
   */
  async confirm(basket) {
    let local;
    let localError = null;
    try {
      local = await this.qualify(basket);
    } catch (e) {
      localError = e;
    }
    let remote;
    try {
      remote = await this.#client.qualify(basket);
    } catch (e) {
      if (!isServiceUnavailable(e)) throw e;
      if (localError !== null) throw localError;
      return { result: local, source: 'local', provisional: true, error: e };
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

  /** Fetches the account snapshot now, loads it and stores it; resolves the snapshot. */
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

  /** Frees the engine; later calls reject with QualifyError (410). */
  dispose() {
    this.#disposed = true;
    this.#qualifier?.dispose();
    this.#qualifier = null;
  }

  #live() {
    if (this.#disposed) throw new QualifyError(410, 'this hybrid qualifier has been disposed');
  }

  #expired() {
    return this.#now() - this.#savedAt > this.#maxAgeMs;
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
    if (stored !== null) return;
    await this.refresh();
  }

  // A stored snapshot not older than maxAgeMs, loaded; an expired or invalid one is removed.
  async #loadStored() {
    let entry = null;
    try {
      entry = await this.#store.load(this.#storeKey);
    } catch {
      return null; // an unreadable store is an empty one
    }
    if (entry === null || entry === undefined) return null;
    if (this.#now() - entry.savedAt > this.#maxAgeMs) {
      await this.#removeStored();
      return null;
    }
    try {
      await this.#use(entry.snapshot, entry.savedAt);
    } catch (e) {
      if (!(e instanceof QualifyError)) throw e;
      await this.#removeStored();
      return null;
    }
    return entry;
  }

  async #removeStored() {
    try {
      await this.#store.remove(this.#storeKey);
    } catch {
      // nothing more to do: the entry is ignored anyway
    }
  }

  async #fetchSnapshot() {
    const snapshot = this.#snapshotOf(await this.#client.account());
    this.#live();
    await this.#use(snapshot, this.#now());
    await this.#save(snapshot);
    return snapshot;
  }

  async #use(snapshot, savedAt) {
    if (this.#qualifier === null) {
      const qualifier = await createQualifier(snapshot, this.#qualifierOptions);
      if (this.#disposed) {
        qualifier.dispose();
        this.#live();
      }
      if (this.#qualifier === null) {
        this.#qualifier = qualifier;
      } else {
        qualifier.dispose(); // a concurrent load won; load this snapshot into it instead
        this.#qualifier.setSnapshot(snapshot);
      }
    } else {
      this.#qualifier.setSnapshot(snapshot);
    }
    this.#savedAt = savedAt;
  }

  async #save(snapshot) {
    try {
      await this.#store.save(this.#storeKey, { snapshot, savedAt: this.#savedAt });
    } catch {
      // Persistence is best effort (a full quota, a read-only disk): the snapshot is in use anyway.
    }
  }

  #refreshInBackground() {
    if (this.#refreshing !== null) return;
    this.refresh().catch(() => {
      // Offline: keep answering from the snapshot in hand; the next call tries again.
    });
  }
}
