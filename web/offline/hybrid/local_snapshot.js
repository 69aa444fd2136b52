// The account snapshot in hand and its engine, through its life: loaded once (the `snapshot`
// option, else a stored one, else the service's), answered from at once, refreshed in the
// background past maxAgeMs (conditionally, with its ETag; failures back off), stored after each
// load. Snapshots outlive outages: a failed refresh never removes one; past maxStaleMs answers
// stop (503). A snapshot is its guest's: when the client's token comes to belong to someone else
// (a token function that now gives another guest's), the next answer loads that guest's first.
// An EventTarget: 'snapshotchange' whenever what its engine answers from changes.
import { QualifyError } from '../../engine/qualify_error.js';
import { DisposedError } from '../../engine/disposed_error.js';
import { SnapshotChangeEvent } from '../../events/qualifier_events.js';
import { snapshotFromAccount } from '../../account/snapshot_from_account.js';
import { isServiceUnavailable } from '../../http/loyalty_client.js';
import { RetryBackoff } from '../../http/retry_backoff.js';
import { sha256Hex } from '../storage/sha256_hex.js';
import { describeAge } from './describe_age.js';

// The account-read options (LoyaltyClient.account) of a 'loyalty-api' context: its location and
// venue, when it names them.
function accountReadOf(context) {
  const read = {};
  if (context.locationUid !== undefined && context.locationUid !== null) read.locationUid = context.locationUid;
  if (context.venue !== undefined && context.venue !== null) read.redemptionVenue = context.venue;
  return read;
}

// `offer`'s discount on `request` when it qualifies there, else null: the engine's offerOutcome
// (the offer's explain() entry, computed for it alone; a 404 when the snapshot has no such offer).
async function qualifyingDiscount(qualifier, request, offer) {
  const outcome = await qualifier.offerOutcome(request, offer);
  return outcome.qualifies ? outcome.discount : null;
}

export class LocalSnapshot extends EventTarget {
  #client;
  #store;
  #storeKey;
  #maxAgeMs;
  #maxStaleMs;
  #now;
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
  #refreshAgain = null; // a read asked for while another was in flight: it starts after that one
  #refreshBackoff;
  #derive;
  #reads;
  #disposed = false;
  #signal;
  // The credentials (base URL, merchant key, token as JSON) the snapshot in hand was read with.
  #loadedFor = null;
  // Set when the guest changed: only the service's account read (no stored entry) until one succeeds.
  #mustRead = false;

  /**
   * Options as HybridQualifier's (checked), with engine: engineFactory()'s { create, release }
   * and store: a snapshot store; derive(snapshot): the snapshot the engine loads (what pending
   * orders hold taken off; default: the snapshot itself); reads: { before(startedAt) -> mark,
   * after(mark, snapshot) }, awaited around every account read (the holds: which billings the
   * read comes after); signal: aborted at the owner's disposal (it aborts the account read in
   * flight), or null.
   */
  constructor({ client, snapshot, store, storeKey, maxAgeMs, maxStaleMs, now, qualifierOptions, engine, backoff, accountShape, context, derive, reads, signal = null }) {
    super();
    this.#signal = signal;
    this.#derive = derive ?? ((s) => s);
    this.#reads = reads ?? { before: () => null, after: () => {} };
    this.#client = client;
    this.#store = store;
    this.#storeKey = storeKey ?? null;
    this.#maxAgeMs = maxAgeMs;
    this.#maxStaleMs = maxStaleMs;
    this.#now = now ?? Date.now;
    this.#qualifierOptions = qualifierOptions;
    this.#engine = engine;
    this.#initialSnapshot = snapshot ?? null;
    this.#refreshBackoff = new RetryBackoff(backoff);
    this.#accountShape = accountShape;
    this.#context = context ?? null;
    // The loyalty service's account read is narrowed to one location and venue: ask for the
    // ones the snapshot is made for.
    this.#accountRead = accountShape === 'loyalty-api' ? accountReadOf(context) : null;
  }

  /**
   * Loads a snapshot once (see HybridQualifier.ready()), and again when the client's credentials
   * now belong to another guest: the snapshot in hand is dropped and the new guest's loaded.
   */
  ready() {
    this.#live();
    if (this.#loading === null) {
      this.#loading = this.#ensure().finally(() => {
        this.#loading = null;
      });
    }
    return this.#loading;
  }

  /** The account read with `client` (the order path's proof of whose credentials they are), as a snapshot. */
  async accountSnapshot(client) {
    return this.#snapshotOf(await (this.#accountRead ? client.account(this.#accountRead) : client.account()), null);
  }

  async #ensure() {
    if (this.#snapshot !== null && this.#qualifier !== null) {
      const now = await this.#credentialsNow();
      if (now === null || this.#loadedFor === null || now === this.#loadedFor) {
        this.#loadedFor ??= now;
        return;
      }
      // The token is another guest's now: nothing of the one in hand may be shown or used.
      this.#snapshot = null;
      this.#etag = null;
      this.#savedAt = 0;
      this.#mustRead = this.#storeKey !== null; // a fixed store key holds the previous guest's
    }
    await this.#load();
  }

  // The client's credentials now as JSON, or null (a client without them, or no token now).
  async #credentialsNow() {
    if (typeof this.#client.credentials !== 'function') return null;
    try {
      const { baseUrl, merchantKey, accessToken } = await this.#client.credentials();
      return JSON.stringify([baseUrl, merchantKey, accessToken]);
    } catch {
      return null;
    }
  }

  /**
   * Fetches the account snapshot now (HybridQualifier.refresh()), by a read sent after this call:
   * after a read in flight (perhaps answered before it), a next read those calls share.
   */
  refresh() {
    this.#live();
    if (this.#refreshing === null) {
      this.#refreshing = this.#fetchSnapshot().finally(() => {
        this.#refreshing = null;
      });
      return this.#refreshing;
    }
    this.#refreshAgain ??= this.#refreshing
      .catch(() => {})
      .then(() => {
        this.#refreshAgain = null;
        return this.refresh();
      });
    return this.#refreshAgain;
  }

  /**
   * Whether a snapshot's generated_at may be said to the second: the 'loyalty-api' shape, whose
   * time is its answer's HTTP Date (the 'snapshot' shape's is the service's own, to the millisecond).
   */
  get timesToTheSecond() {
    return this.#accountShape === 'loyalty-api';
  }

  /** How long a snapshot may answer after it was read (the maxStaleMs option). */
  get maxStaleMs() {
    return this.#maxStaleMs;
  }

  /** The snapshot in use (the same object until a refresh brings a changed one), or null. */
  current() {
    return this.#qualifier === null ? null : this.#snapshot;
  }

  /** The snapshot in use: when it was saved (epoch ms), its age and whether it is expired; or null. */
  info() {
    if (this.#qualifier === null || this.#snapshot === null) return null;
    const ageMs = this.#now() - this.#savedAt;
    return { savedAt: this.#savedAt, ageMs, expired: ageMs > this.#maxAgeMs };
  }

  /** 'worker' or 'thread'; null before the first snapshot is loaded. */
  get engineLocation() {
    return this.#engineLocation;
  }

  /**
   * compute(engine)'s answer on the snapshot in hand, and that snapshot's age: { answer, ageMs }.
   * Past maxAgeMs a refresh starts in the background (within the backoff), past maxStaleMs it is a 503.
   */
  async localAnswer(compute) {
    await this.ready();
    this.#live();
    const ageMs = this.#now() - this.#savedAt;
    if (ageMs > this.#maxAgeMs) this.#refreshInBackground();
    if (ageMs > this.#maxStaleMs) throw this.#tooOld(ageMs);
    return { answer: await compute(this.#qualifier), ageMs };
  }

  /** Loads the engine again with derive() of the snapshot in hand (what is held changed). */
  async rederive() {
    if (this.#qualifier === null || this.#snapshot === null) return;
    await this.#qualifier.setSnapshot(this.#derive(this.#snapshot));
    if (!this.#disposed) this.dispatchEvent(new SnapshotChangeEvent('holds'));
  }

  /**
   * The local engine's discount for an offer on a request when the engine answers from
   * `snapshot` (a derived one: the offline policy's, web/offline/holds/), or null: a throwaway engine,
   * freed at once.
   */
  async discountOn(snapshot, request, offer) {
    if (this.#qualifier === null || this.#now() - this.#savedAt > this.#maxStaleMs) return null;
    let created = null;
    try {
      created = await this.#engine.create(snapshot, this.#qualifierOptions);
      return await qualifyingDiscount(created.qualifier, request, offer);
    } catch {
      return null;
    } finally {
      Promise.resolve(created?.qualifier.dispose()).catch(() => {});
    }
  }

  /** Frees the engine (resolves once it is freed); later calls reject with DisposedError (a QualifyError 410). */
  dispose() {
    this.#disposed = true;
    // An engine in a worker frees its snapshot (and the worker, with the last user) in the background.
    const freed = Promise.resolve(this.#qualifier?.dispose()).catch(() => {});
    this.#qualifier = null;
    this.#engine.release();
    return freed;
  }

  #live() {
    if (this.#disposed) throw new DisposedError('this hybrid qualifier has been disposed');
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

  async #load() {
    this.#loadedFor = await this.#credentialsNow();
    if (this.#initialSnapshot !== null) {
      const snapshot = this.#initialSnapshot;
      this.#initialSnapshot = null;
      await this.#use(snapshot, this.#now());
      await this.#save(snapshot);
      return;
    }
    const stored = this.#mustRead ? null : await this.#loadStored();
    if (stored !== null && this.#snapshot !== null) {
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
    const readWith = await this.#credentialsNow();
    const mark = await this.#reads.before(this.#now());
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
      // Unchanged as of the answer's time (servedAt), which the holds may take as the snapshot's.
      await this.#reads.after(mark, this.#snapshot, fetched.servedAt);
      return this.#snapshot;
    }
    const snapshot = this.#snapshotOf(fetched.body, fetched.servedAt);
    await this.#use(snapshot, this.#now());
    this.#loadedFor = readWith;
    this.#mustRead = false;
    this.#etag = fetched.etag;
    await this.#save(snapshot);
    await this.#reads.after(mark, snapshot);
    return snapshot;
  }

  // GET /api/account, with If-None-Match when the client can send it and a snapshot is in hand;
  // servedAt: the service's time of the answer (its Date header), or null; aborted when the owner
  // is disposed (a read nobody will use is not left running).
  async #fetchAccount() {
    const read = this.#signal === null ? this.#accountRead : { ...this.#accountRead, signal: this.#signal };
    if (typeof this.#client.accountIfChanged === 'function') {
      const etag = this.#snapshot !== null ? this.#etag : null;
      const answer = await (read ? this.#client.accountIfChanged(etag, read) : this.#client.accountIfChanged(etag));
      if (answer.notModified && this.#snapshot !== null) return { notModified: true, servedAt: answer.servedAt ?? null };
      if (!answer.notModified) return { notModified: false, body: answer.snapshot, etag: answer.etag ?? null, servedAt: answer.servedAt ?? null };
    }
    // A client of your own with account() only: its answer's time is not known here.
    const body = await (read ? this.#client.account(read) : this.#client.account());
    return { notModified: false, body, etag: null, servedAt: null };
  }

  // The one step from a fetched account body to the snapshot the engine loads: the snapshot
  // itself (the local service), or the loyalty service's own account read, made a snapshot as of
  // the service's time of the answer (`servedAt`, its Date header), else of this device's clock
  // when it was fetched (the header absent, or hidden from a cross-origin page).
  #snapshotOf(body, servedAt) {
    if (this.#accountShape === 'snapshot') return body;
    return snapshotFromAccount(body, { ...this.#context, fetchedAt: this.#now(), servedAt: servedAt ?? undefined });
  }

  async #use(snapshot, savedAt) {
    const reason = this.#snapshot === null ? 'load' : 'refresh';
    if (this.#qualifier === null) {
      const { qualifier, location } = await this.#engine.create(this.#derive(snapshot), this.#qualifierOptions);
      if (this.#disposed) {
        await qualifier.dispose();
        this.#live();
      }
      if (this.#qualifier === null) {
        this.#qualifier = qualifier;
        this.#engineLocation = location;
      } else {
        await qualifier.dispose(); // a concurrent load won; load this snapshot into it instead
        await this.#qualifier.setSnapshot(this.#derive(snapshot));
      }
    } else {
      await this.#qualifier.setSnapshot(this.#derive(snapshot));
    }
    this.#snapshot = snapshot;
    this.#savedAt = savedAt;
    this.dispatchEvent(new SnapshotChangeEvent(reason));
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
