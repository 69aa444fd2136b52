// Types of the order path (hand-written): order records, outboxes, checkout options and outcomes.
// web/index.d.ts re-exports them.
import type { Decimal, QualifyRequest } from '../../engine/engine.js';
import type { BasketBody, OfferRef, ReplayCredentials } from '../../http/http.js';
import type { IndexedDbFactoryLike } from '../storage/storage.js';

// ---------------------------------------------------------------------------------------------
// Order outboxes

/** A random UUID (RFC 9562 version 4): the basket id checkout gives an order without `basketId`. */
export function newBasketId(): Promise<string>;

/** An order not decided yet, as the outbox keeps it. */
export interface PendingOrder {
  /** Whose order: JSON.stringify([merchantId, userId]) of the account it was placed for. */
  owner: string;
  basketId: string;
  /** Queue order: orders are replayed by increasing sequence. */
  sequence: number;
  /** Epoch milliseconds. */
  queuedAt: number;
  /** The POST /api/baskets body re-sent on every attempt (same id). */
  body: BasketBody;
  /** The offer asked for at checkout. */
  requestedOffer: OfferRef | null;
  /** The offer the order is sent with now (null once the offline policy took it off). */
  offer: OfferRef | null;
  /** What the kiosk may promise while undecided, e.g. "0.00"; null before the first attempt. */
  promisedDiscount: string | null;
  policyApplied: boolean;
  attempts: number;
  lastAttemptAt?: number;
  /**
   * Why it waits: no answer, a 5xx, an answer that is not this basket billed, (after an attempt
   * without an answer) a 4xx other than 400 that does not say whether it was billed (e.g. a 409),
   * no credentials proven to be its guest's, or the service giving no answer to an earlier order.
   */
  lastError: string | null;
  // What checkout stores besides the outbox's own fields (the outbox keeps them as given).
  /** The account's merchant, or null for an order queued before the account could be read. */
  merchantId?: string | null;
  /** The account's user, or null as merchantId. */
  userId?: string | null;
  /** The qualifying body as checkout() was given it (compared when a basket id is re-used). */
  request?: QualifyRequest;
  /**
   * Whether an attempt may have reached the service: from then on the body is never changed
   * (the offline policy decides only before).
   */
  maybeSent?: boolean;
  /** The credentials it was placed with (the token as it was), unless storeCredentials is false; deleted with the order. */
  replay?: ReplayCredentials;
  /** The offer asked for was already held (by a pending order, or at another kiosk): placed without it, at full price. */
  withheld?: WithheldOffer;
  /** A sale billed without its offer: the order it replaces, the offer refused and what was promised. */
  derivedFrom?: { basketId: string; offer: OfferRef; promisedDiscount: string | null; message: string };
}

/** An outbox entry that could not be read as an order, kept in quarantine for a person to look at. */
export interface DamagedOrder {
  /** What it was stored as: the file name (file outbox), the record's key as JSON (IndexedDB). */
  key: string;
  /** Why it is not an order, e.g. "not JSON (truncated or garbled, ...)", "unreadable: a directory", "not an order: no owner (...)". */
  reason: string;
  /** Epoch milliseconds. */
  quarantinedAt: number;
  /** File outbox: where it is now, `<directory>/quarantine/<quarantinedAt>-<tag>/<key>` (or still `<directory>/<key>` when it could not be moved). */
  path?: string;
}

/**
 * The record an outbox keeps of an order billed with its offer once the order has left it: the
 * offer stays held, in every tab and process on the outbox, against every account snapshot
 * generated before `billedAt`. Never an order: no list() returns it, no replay sends it.
 */
export interface BilledOrder {
  /** Whose order it was (as PendingOrder.owner). */
  owner: string;
  merchantId: string | null;
  userId: string | null;
  basketId: string;
  /** The offer it was billed with. */
  offer: OfferRef;
  /**
   * When the loyalty service billed it at the latest, on the service's clock: the generated_at of
   * an account read made after the billing (the last millisecond of its second when that time is
   * an HTTP Date, said to the second); null until such a read is made: it then holds against
   * every snapshot.
   */
  billedAt: string | null;
  /** Epoch milliseconds (the billing device's clock). */
  recordedAt: number;
  /** Epoch milliseconds: dropped from then on (the billing hybrid's maxStaleMs after recordedAt, at most 366 days). */
  expiresAt: number;
  /** An order queued before its account was read: the credentials it was placed with (its guest's holds count it). */
  replay?: ReplayCredentials;
}

/** Where HybridQualifier keeps undecided orders; every method may be synchronous or return a Promise. */
export interface OrderOutbox {
  /**
   * Every well-formed order (of every owner), by increasing sequence. An entry that is not one is
   * moved to quarantine (see damaged()), never returned, never in the way of the others.
   */
  list(): PendingOrder[] | Promise<PendingOrder[]>;
  /**
   * Inserts or replaces the order with the same (owner, basketId); durable when it resolves. When
   * it cannot write durably it throws the storage's own error unchanged (e.g. the file system's
   * ENOSPC, with `code`), leaving the orders stored before as they were.
   */
  put(order: PendingOrder): void | Promise<void>;
  remove(order: Pick<PendingOrder, 'owner' | 'basketId'>): void | Promise<void>;
  /**
   * The order with this (owner, basketId), or null (the built-in outboxes have it). The replay
   * reads each order again by key before its turn; without it, it lists them all.
   */
  get?(key: Pick<PendingOrder, 'owner' | 'basketId'>): PendingOrder | null | Promise<PendingOrder | null>;
  /**
   * The orders of one guest (`owner`), by increasing sequence (the built-in outboxes have it).
   * Every decision about a guest's order (checkout's check of a held offer, the offline policy's
   * promise) reads the guest's orders this way, so it costs what that guest's orders cost;
   * without it, the whole list() is read and filtered.
   */
  listOwner?(owner: string): PendingOrder[] | Promise<PendingOrder[]>;
  /**
   * A value that changes whenever the orders of `owner` may have changed (the built-in outboxes
   * have it), or null when it cannot say now: the local answers read the guest's orders again
   * only when it moved. Without it, they read them for every answer.
   */
  changeStamp?(owner: string): string | number | null | Promise<string | number | null>;
  /** The quarantined entries, oldest first (the built-in outboxes always have it). */
  damaged?(): DamagedOrder[] | Promise<DamagedOrder[]>;
  /**
   * The billing records of `owner` not expired yet (the built-in outboxes have them, beside the
   * guest's orders; a change moves changeStamp(owner)). Without listBilled() and putBilled(), the
   * hybrid that billed an order holds its offer in its memory only.
   */
  listBilled?(owner: string): BilledOrder[] | Promise<BilledOrder[]>;
  /** Inserts or replaces the record of (owner, basketId); durable when it resolves. */
  putBilled?(record: BilledOrder): void | Promise<void>;
  removeBilled?(key: Pick<BilledOrder, 'owner' | 'basketId'>): void | Promise<void>;
  /**
   * Runs fn() while holding the lock of the orders of `options.owner` (a guest: checkout and the
   * replay take it for one order at a time, so a guest never waits for another guest's orders),
   * and settles with fn's result. An outbox that ignores the owner locks all its orders at once:
   * correct, only less concurrent. Without exclusive(), the lock is navigator.locks' (across tabs)
   * or this process's. A lock that can be lost passes fn a lease: the order path asks
   * lease.held() before each send, settle and write, and stops once it is false.
   */
  exclusive?<T>(fn: (lease?: ReplayLease) => T | Promise<T>, options?: ExclusiveOptions): Promise<T>;
  readonly kind?: string;
}

/** Whose lock exclusive() takes, and how it waits. */
export interface ExclusiveOptions {
  /** The guest whose orders are locked; without one, the whole outbox (a lock the package no longer takes). */
  owner?: string;
  /**
   * A holder in the background (the replay's turns): it lets a waiter that is not (a checkout)
   * take the lock first. The file outbox honours it across processes (a checkout that waits leaves
   * a waiting mark beside the lock directory); navigator.locks and the memory outbox serve
   * waiters in order anyway.
   */
  background?: boolean;
}

/** Whether a replay lock is still its holder's (false once another replayer took it over). */
export interface ReplayLease {
  held(): Promise<boolean>;
}

/** The built-in outboxes: quarantine, the orders of one guest, change stamps and a lock per guest included. */
export interface LockingOrderOutbox extends OrderOutbox {
  damaged(): DamagedOrder[] | Promise<DamagedOrder[]>;
  /**
   * Per guest (`options.owner`; without one, a lock of the whole outbox that the package no
   * longer takes). memory: one at a time in this process; IndexedDB: navigator.locks
   * "loyalty-qualifier-outbox:<databaseName>/<storeName>:<owner>" across tabs and workers (this
   * realm only without navigator.locks); file: the lock directory
   * `<directory>/locks/guest-<SHA-256 of the owner>.lock` across processes, a lease: its holder
   * touches it every third of `staleMs` (default 10 s); it is taken over when untouched that long
   * (a holder stopped with SIGSTOP, frozen, or on another host gone silent), and at once when its
   * holder ran on this host and its process is gone. Not re-entrant: fn must not call exclusive()
   * of the same outbox and guest.
   */
  exclusive<T>(fn: (lease: ReplayLease) => T | Promise<T>, options?: ExclusiveOptions): Promise<T>;
  get(key: Pick<PendingOrder, 'owner' | 'basketId'>): PendingOrder | null | Promise<PendingOrder | null>;
  listOwner(owner: string): PendingOrder[] | Promise<PendingOrder[]>;
  changeStamp(owner: string): string | number | null | Promise<string | number | null>;
  listBilled(owner: string): BilledOrder[] | Promise<BilledOrder[]>;
  putBilled(record: BilledOrder): void | Promise<void>;
  removeBilled(key: Pick<BilledOrder, 'owner' | 'basketId'>): void | Promise<void>;
}

export interface MemoryOrderOutbox extends LockingOrderOutbox {
  list(): PendingOrder[];
  listOwner(owner: string): PendingOrder[];
  /** How many times the guest's orders changed. */
  changeStamp(owner: string): number;
  get(key: Pick<PendingOrder, 'owner' | 'basketId'>): PendingOrder | null;
  put(order: PendingOrder): void;
  remove(order: Pick<PendingOrder, 'owner' | 'basketId'>): void;
  /** Always empty: every order was checked when put. */
  damaged(): DamagedOrder[];
  listBilled(owner: string): BilledOrder[];
  putBilled(record: BilledOrder): void;
  removeBilled(key: Pick<BilledOrder, 'owner' | 'basketId'>): void;
}

export interface IndexedDbOrderOutbox extends LockingOrderOutbox {
  /** Closes the database connection; it reopens on the next use. */
  close(): Promise<void>;
}

export interface FileOrderOutbox extends LockingOrderOutbox {
  readonly directory: string;
}

/** In memory only: nothing survives the process. */
export function memoryOrderOutbox(): MemoryOrderOutbox;
/**
 * IndexedDB (default database "loyalty-qualifier-orders", object store "orders", key
 * [owner, basketId]), strict durability. A record that is not an order moves to the key
 * [0, quarantinedAt, old key as JSON, tag] of the same store, as { quarantine: { key, reason, quarantinedAt }, value }.
 * listOwner() reads the key range of the guest; changeStamp() moves with this object's writes
 * and with the notes every other tab or worker of the origin posts on the BroadcastChannel
 * "loyalty-qualifier-outbox:<databaseName>/<storeName>" after each of its writes. Billing records
 * live in the database "<databaseName>-billed" (object store `storeName`, key [owner, basketId]),
 * which no earlier version opens.
 */
export function indexedDbOrderOutbox(options?: {
  indexedDB?: IndexedDbFactoryLike;
  databaseName?: string;
  storeName?: string;
  /** For listOwner()'s key range; default globalThis.IDBKeyRange (without one, listOwner() filters list()). */
  IDBKeyRange?: { bound(lower: unknown, upper: unknown): unknown };
}): IndexedDbOrderOutbox;
/**
 * Node: one JSON file per order, `<directory>/guest-<SHA-256 of the owner>/<SHA-256 of JSON
 * [owner, basketId]>.order.json` (files of the two earlier layouts directly in `directory` are
 * still read and removed, and moved by the next put() of their order), written to a temporary
 * file, synced, renamed (the folder synced too). Damaged entries move to `<directory>/quarantine/`.
 * changeStamp() is the guest folder's modification time (null while it changed within the last
 * 50 ms: read again). A billing record is `<SHA-256 of JSON [owner, basketId]>.<expiresAt>.billed.json`
 * in its guest's folder (readers of orders list only `*.order.json`); list() removes expired ones by name.
 */
export function fileOrderOutbox(options: {
  directory: string;
  /** The lease of a guest's lock directory: untouched this long, it is taken over; default 10000. */
  staleMs?: number;
}): FileOrderOutbox;
/** IndexedDB, else (Node) files under ~/.local/state/loyalty-qualifier/orders, else memory. */
export function defaultOrderOutbox(options?: { directory?: string }): LockingOrderOutbox;

/**
 * What a kiosk may promise for an order it cannot confirm now. 'never' (the default): the order
 * is queued at full price, without the offer. 'provisional': it is queued with the offer when the
 * local engine gives it a discount of at most `maxDiscount` (default: no limit).
 */
export interface OfflinePolicy {
  redeem?: 'never' | 'provisional';
  /** A decimal amount, e.g. "5.00" or 5. */
  maxDiscount?: Decimal | number;
}

/** The outcome of an order: 'billed' and 'refused' are final; 'queued' is not decided yet. */
export interface CheckoutOutcome {
  status: 'billed' | 'refused' | 'queued';
  /** The basket billed: the order's id, or for a sale billed without its offer the derived id. */
  basketId: string;
  /**
   * billed: the service's discount; refused: "0.00"; queued: what the offline policy promises
   * ("0.00" at full price), or null when unknown (an attempt with the offer may have reached the
   * service: it may or may not be redeemed).
   */
  discount: string | null;
  /** refused: the service's message; queued: why and what happens next. */
  message: string;
  /** queued: why the last attempt stayed undecided (or could not be made), or null. */
  lastError?: string | null;
  /** billed: the offer the service says it billed (when its answer carries `offer`). */
  offer?: OfferRef | null;
  /** A sale billed without its offer (`basketId` is then `<id>~without-offer`): the order's own id. */
  originalBasketId?: string;
  /** The offer the service refused on replay, with its message. */
  offerRefused?: OfferRef & { message: string };
  /** The discount the guest was promised and the books did not bill, e.g. "4.75"; null when none was promised. */
  shortfall?: string | null;
  /** The offer asked for was not promised because it is already held: the order is placed without it, at full price. */
  withheld?: WithheldOffer;
}

/**
 * An offer a checkout did not promise: `code` says why: PENDING_ORDER (an undecided order of
 * this device redeems it), CLAIMED_ELSEWHERE (another kiosk's order does), INSUFFICIENT_POINTS
 * (the points are held by undecided orders), HUB_UNREACHABLE / HUB_REFUSED (with a store hub:
 * it could not be reached, or refused this kiosk; nothing is promised without a claim).
 */
export interface WithheldOffer extends OfferRef {
  code: 'PENDING_ORDER' | 'CLAIMED_ELSEWHERE' | 'INSUFFICIENT_POINTS' | 'HUB_UNREACHABLE' | 'HUB_REFUSED';
  message: string;
}

export interface CheckoutOptions {
  /** The offer to redeem, or null / absent for none. */
  offer?: OfferRef | null;
  /**
   * One id per order; default a new UUID. Re-using the id of a pending order with the same basket
   * and offer returns that order's outcome (never a second order); with another basket or offer
   * it rejects with QualifyError 409.
   */
  basketId?: string;
}
