// Types of the HTTP clients of the loyalty-qualifier package (hand-written): LoyaltyClient,
// HybridQualifier with its snapshot stores, checkout and order outboxes, and SandboxClient.
// web/index.d.ts re-exports them.
import type {
  AccountContext,
  AccountRead,
  Decimal,
  ExplainResult,
  QualifierOptions,
  QualifyError,
  QualifyRequest,
  QualifyResult,
  RewardEntity,
  Snapshot,
} from '../index.js';
import type { QualifierWorkerHost } from '../worker/worker.js';

// ---------------------------------------------------------------------------------------------
// Transport

/** QualifyError code of a request that reached no service (refused, DNS, offline, CORS). */
export declare const NETWORK_ERROR: 0;
/** QualifyError code of a request that got no complete answer within `timeoutMs`. */
export declare const TIMEOUT: 599;

/** True for NETWORK_ERROR, TIMEOUT and 5xx QualifyErrors: failures that say nothing about the request. */
export function isServiceUnavailable(error: unknown): error is QualifyError;

/** What the clients pass to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** The part of a fetch Response the clients read. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  /** Read for the ETag of GET /api/account (optional: without it, refreshes are unconditional). */
  readonly headers?: { get(name: string): string | null };
  text(): Promise<string>;
}

/** globalThis.fetch, or anything that answers like it. */
export type FetchLike = (input: string, init: FetchInit) => Promise<FetchResponse>;

export interface RequestOptions {
  /** Aborts the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The account read's query parameters, which narrow it as the loyalty service does: only the
 * rewards and points products usable now at that location and venue. Without any, the whole
 * account. An option of the wrong type, or an unknown one, is a TypeError before any request.
 */
export interface AccountReadOptions {
  /** `location_uid`: usable at this location (one of another merchant keeps only unrestricted records). */
  locationUid?: string;
  /** `redemption_venue`: usable at this venue (the service's default: online); anything else is a 400. */
  redemptionVenue?: 'instore' | 'online';
  /** `reward_states[]`, sent once per state: rewards in one of these states (default redeemable). */
  rewardStates?: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// LoyaltyClient

export interface LoyaltyClientOptions {
  /** The loyalty API, e.g. http://127.0.0.1:8080 (the local service's base URL). */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <accessToken>`: the token, or a function (sync or async)
   * giving the current one, called for each request (a refreshed token needs no new client). A
   * function that throws or gives no string fails the request with NETWORK_ERROR (nothing sent).
   */
  accessToken: string | (() => string | Promise<string>);
  /** Sent as `Merchant-Key`. */
  merchantKey: string;
  /** Default: globalThis.fetch, looked up at each call. */
  fetch?: FetchLike;
  /** Per request; default 10000. A request without an answer by then fails with TIMEOUT. */
  timeoutMs?: number;
}

/** What a replay of an order needs to reach its guest's account. */
export interface ReplayCredentials {
  baseUrl: string;
  merchantKey: string;
  accessToken: string;
}

export type BasketState = 'checkout' | 'placed' | 'billed' | 'completed' | 'voided' | 'refunded';

/** The basket create/update body of the local service: the qualifying body plus these fields. */
export interface BasketBody extends QualifyRequest {
  id: string;
  state?: BasketState;
  /** At most one id in `rewards` and `points_products` together. */
  rewards?: string[];
  points_products?: string[];
}

export interface BasketResponse {
  id: string;
  state: BasketState;
  /** The offer's discount on this basket, e.g. "5.25"; "0.00" without an offer. */
  discount: string;
  /** The offer the service billed, when it says (a billing answer): null for none. */
  offer?: OfferRef | null;
}

/**
 * The loyalty API of one user at one merchant. Every failure rejects with QualifyError: the
 * service's { code, message } (400, 401, 406, 409, 413 ...), NETWORK_ERROR (0) or TIMEOUT (599).
 */
export declare class LoyaltyClient {
  constructor(options: LoyaltyClientOptions);
  /** The base URL without a trailing slash. */
  readonly baseUrl: string;
  /**
   * A short 32-bit fingerprint of (base URL, merchant key, token), for logs and display only: it
   * decides nothing (orders belong to the account's merchant and user; the default snapshot store
   * key is the full SHA-256 of the credentials).
   */
  readonly identity: string;
  /** The current token (the string, or what the token function gives now). */
  accessToken(): Promise<string>;
  /** { baseUrl, merchantKey, accessToken } as they are now (the token included: a secret). */
  credentials(): Promise<ReplayCredentials>;
  /** A client with the same fetch and timeoutMs for other credentials. */
  withCredentials(credentials: ReplayCredentials): LoyaltyClient;
  /** POST /api/baskets/qualifying (docs/reference.md#http-api). */
  qualify(basket: QualifyRequest | string, options?: RequestOptions): Promise<QualifyResult>;
  /** GET /api/account: the account snapshot (docs/reference.md#snapshot), narrowed by the read options. */
  account(options?: RequestOptions & AccountReadOptions): Promise<Snapshot>;
  /**
   * GET /api/account with `If-None-Match: etag` (when etag is a string): the service answers 304
   * when the account's snapshot is unchanged (its strong ETag changes exactly when it changes).
   * The read options are account()'s; the ETag is that of the narrowed read they ask for.
   */
  accountIfChanged(etag: string | null, options?: RequestOptions & AccountReadOptions): Promise<AccountAnswer>;
  /** POST /api/baskets: creates or updates a basket. */
  saveBasket(body: BasketBody | string, options?: RequestOptions): Promise<BasketResponse>;
}

// ---------------------------------------------------------------------------------------------
// Snapshot stores

/** What accountIfChanged() resolves. */
export type AccountAnswer =
  | { notModified: true; etag: string }
  | { notModified: false; snapshot: Snapshot; etag: string | null };

/** A stored snapshot; `savedAt` is epoch milliseconds; `etag` the service's ETag for it. */
export interface StoredSnapshot {
  snapshot: Snapshot;
  savedAt: number;
  etag?: string;
}

/** Where HybridQualifier keeps snapshots; every method may be synchronous or return a Promise. */
export interface SnapshotStore {
  load(key: string): StoredSnapshot | null | undefined | Promise<StoredSnapshot | null | undefined>;
  save(key: string, entry: StoredSnapshot): void | Promise<void>;
  remove(key: string): void | Promise<void>;
  readonly kind?: string;
}

/** The Web Storage methods the localStorage store uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The IndexedDB factory the IndexedDB store uses (globalThis.indexedDB). */
export interface IndexedDbFactoryLike {
  open(name: string, version?: number): unknown;
}

export interface IndexedDbSnapshotStore extends SnapshotStore {
  /** Closes the database connection; it reopens on the next use. */
  close(): Promise<void>;
}

export interface FileSnapshotStore extends SnapshotStore {
  readonly directory: string;
}

/** In memory only: nothing survives the process (HybridQualifier's default). */
export function memorySnapshotStore(): SnapshotStore;
/** Web Storage (default globalThis.localStorage), one JSON string per key under `prefix`. */
export function localStorageSnapshotStore(options?: { storage?: StorageLike; prefix?: string }): SnapshotStore;
/** IndexedDB (default database "loyalty-qualifier", object store "snapshots"). */
export function indexedDbSnapshotStore(options?: {
  indexedDB?: IndexedDbFactoryLike;
  databaseName?: string;
  storeName?: string;
}): IndexedDbSnapshotStore;
/** Node: one JSON file per key in `directory`, written to a temporary file, synced, renamed (the directory synced too); node:fs is loaded on first use. */
export function fileSnapshotStore(options: { directory: string }): FileSnapshotStore;
/** IndexedDB, else localStorage, else (Node) files under ~/.cache/loyalty-qualifier, else memory. */
export function defaultSnapshotStore(options?: { directory?: string }): SnapshotStore;

// ---------------------------------------------------------------------------------------------
// Order outboxes

/** An offer an order uses: a reward or a points product of the guest, by id. */
export interface OfferRef {
  kind: 'reward' | 'points_product';
  id: string;
}

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
   * Why the last attempt stayed undecided: no answer, or (after an attempt without an answer) a
   * 4xx other than 400 that does not say whether the order was billed, e.g. a 409.
   */
  lastError: string | null;
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
  /** The quarantined entries, oldest first (the built-in outboxes always have it). */
  damaged?(): DamagedOrder[] | Promise<DamagedOrder[]>;
  /**
   * Runs fn() while holding the outbox's replay lock and settles with fn's result. Without it,
   * replays are one at a time in this process only.
   */
  exclusive?<T>(fn: () => T | Promise<T>): Promise<T>;
  readonly kind?: string;
}

/** The built-in outboxes: quarantine and a replay lock included. */
export interface LockingOrderOutbox extends OrderOutbox {
  damaged(): DamagedOrder[] | Promise<DamagedOrder[]>;
  /**
   * memory: one at a time in this process; IndexedDB: navigator.locks
   * "loyalty-qualifier-outbox:<databaseName>/<storeName>" across tabs and workers (this realm
   * only without navigator.locks); file: the lock directory `<directory>/replay.lock` across
   * processes, taken over at once when its holder ran on this host and is gone, else after 30 s
   * without its heartbeat. Not re-entrant: fn must not call exclusive() of the same outbox.
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
}

export interface MemoryOrderOutbox extends LockingOrderOutbox {
  list(): PendingOrder[];
  put(order: PendingOrder): void;
  remove(order: Pick<PendingOrder, 'owner' | 'basketId'>): void;
  /** Always empty: every order was checked when put. */
  damaged(): DamagedOrder[];
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
 */
export function indexedDbOrderOutbox(options?: {
  indexedDB?: IndexedDbFactoryLike;
  databaseName?: string;
  storeName?: string;
}): IndexedDbOrderOutbox;
/**
 * Node: one JSON file per order in `directory`, named by the SHA-256 of JSON [owner, basketId]
 * (75 bytes; files of the first layout, encodeURIComponent(owner)~encodeURIComponent(basketId),
 * are still read and removed), written to a temporary file, synced, renamed (the directory synced
 * too). Damaged entries move to `<directory>/quarantine/`.
 */
export function fileOrderOutbox(options: { directory: string }): FileOrderOutbox;
/** IndexedDB, else (Node) files under ~/.local/state/loyalty-qualifier/orders, else memory. */
export function defaultOrderOutbox(options?: { directory?: string }): LockingOrderOutbox;

// ---------------------------------------------------------------------------------------------
// HybridQualifier

/** What HybridQualifier needs of its client (a LoyaltyClient). */
export interface QualifyingClient {
  qualify(basket: QualifyRequest | string): Promise<QualifyResult>;
  /**
   * The snapshot (accountShape 'snapshot') or the loyalty service's account read ('loyalty-api',
   * asked for with the context's location and venue as `options` when it names them).
   */
  account(options?: AccountReadOptions): Promise<Snapshot | AccountRead>;
  /** Used for conditional refreshes when present; `options` as for account(). */
  accountIfChanged?(etag: string | null, options?: AccountReadOptions): Promise<AccountAnswer>;
  /** Needed by checkout(). */
  saveBasket?(body: BasketBody | string): Promise<BasketResponse>;
  /** Stored with a queued order (unless storeCredentials is false) for its device-wide replay. */
  credentials?(): Promise<ReplayCredentials>;
  /** The client that replays an order with its stored credentials (default: a LoyaltyClient). */
  withCredentials?(credentials: ReplayCredentials): Pick<QualifyingClient, 'saveBasket'> & { readonly baseUrl?: string };
  readonly baseUrl?: string;
  /** A short fingerprint for display (a client without credentials(): the default snapshot store key). */
  readonly identity?: string;
}

/**
 * What checkout stores with an order, besides the outbox's fields (declared here by the
 * checkout: the outbox keeps them as given).
 */
export interface PendingOrder {
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
  /** A sale billed without its offer: the order it replaces, the offer refused and what was promised. */
  derivedFrom?: { basketId: string; offer: OfferRef; promisedDiscount: string | null; message: string };
}

/** An outbox entry that could not be read as an order (kept for a person to look at). */
export interface DamagedOrderEntry {
  key: string;
  reason: string;
  quarantinedAt: number;
}

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

/** Waits between failed refreshes and replays: min(maxMs, initialMs * 2^n), with jitter. */
export interface BackoffOptions {
  /** Default 1000. */
  initialMs?: number;
  /** Default 300000 (5 minutes). */
  maxMs?: number;
  /** Default Math.random: the jitter's source, in [0, 1). */
  random?: () => number;
}

/** A local answer; past maxAgeMs it is marked provisional, with the snapshot's age. */
export type LocalQualifyResult = QualifyResult & { provisional?: true; snapshotAgeMs?: number };
export type LocalExplainResult = ExplainResult & { provisional?: true; snapshotAgeMs?: number };

/** Told when the service's answer differs from the local one (after the snapshot refresh). */
export interface DivergenceEvent {
  basket: QualifyRequest | string;
  /** The local answer, or null when the local engine rejected the basket (see localError). */
  local: QualifyResult | null;
  localError: unknown;
  remote: QualifyResult;
  /** Why the snapshot could not be refreshed, or null when it was. */
  refreshError: unknown;
}

export interface HybridQualifierOptions {
  client: QualifyingClient;
  /** A snapshot to start from (saved to the store); default: the stored one, else the service's. */
  snapshot?: Snapshot;
  /** Default memorySnapshotStore(); see defaultSnapshotStore() for persistence. */
  store?: SnapshotStore;
  /**
   * Age after which a snapshot is expired: it is refreshed (in the background, within the backoff)
   * and answers from it are provisional. Default 900000 (15 min).
   */
  maxAgeMs?: number;
  /**
   * Age after which a snapshot no longer answers: qualify() rejects with QualifyError 503 naming
   * its age. At least maxAgeMs; default 604800000 (7 days); Infinity allowed. A failed refresh
   * never removes or replaces a snapshot, whatever its age.
   */
  maxStaleMs?: number;
  /** Undecided orders; default defaultOrderOutbox() (IndexedDB in browsers, files in Node). */
  outbox?: OrderOutbox;
  /** What may be promised for an order the service cannot confirm now; default { redeem: 'never' }. */
  offline?: OfflinePolicy;
  /**
   * Told of every order the service decided ('billed' or 'refused'), also on replays. Called
   * after the order left the outbox; must not throw. After a crash between the service's answer
   * and that removal, the replay re-sends the order and it is reported again (billed once).
   */
  onOrderSettled?: (order: PendingOrder, outcome: CheckoutOutcome) => void;
  /**
   * The credentials that replay an order (sync or async), or null for the default: the guest on
   * screen's client for their own orders, else those stored with the order.
   */
  credentialsFor?: (order: PendingOrder) => ReplayCredentials | null | Promise<ReplayCredentials | null>;
  /**
   * Default true: a queued order keeps the credentials it was placed with (the token at rest
   * until the order settles), so any kiosk replays it after its guest left. false: only its
   * guest's client or credentialsFor replays it.
   */
  storeCredentials?: boolean;
  /** Waits between failed refreshes, and between replays of pending orders. */
  backoff?: BackoffOptions;
  /** Must not throw: an exception rejects the confirm() that called it. */
  onDivergence?: (event: DivergenceEvent) => void;
  /** The clock of snapshot ages, in epoch milliseconds; default Date.now. */
  now?: () => number;
  /** Default: "snapshot:" + the SHA-256 (hex) of the client's [baseUrl, merchantKey, current token]. */
  storeKey?: string;
  /** Passed to createQualifier (e.g. its `now`, the clock of requests without order_timestamp). */
  qualifierOptions?: QualifierOptions;
  /**
   * Runs the local engine in a worker (docs/workers.md). `true`: a module Web Worker
   * (loyalty-qualifier/worker, imported only then) shared by the page's HybridQualifiers, started
   * by the first one's constructor (the engine loads while the account is fetched) and ended by
   * the last one's dispose(). A Worker the page started running loyalty-qualifier/worker/script
   * (e.g. from a script inside its service worker's scope, so that it starts offline): shared by
   * the hybrids given it, ended by the page. When the worker cannot start (its script
   * unreachable; a runtime without Web Workers, such as Node), the engine runs in this thread
   * instead, with a console warning, and `engineLocation` is 'thread'. Or a createQualifierWorker
   * function (in Node, the one of loyalty-qualifier/worker: a worker thread each, ended by
   * dispose()). Default: false, the engine in this thread.
   */
  worker?: boolean | QualifierWorkerHost | ((snapshot: Snapshot, options: QualifierOptions) => Promise<unknown>);
  /**
   * What `client.account()` answers: 'snapshot' (default: the local service's GET /api/account)
   * or 'loyalty-api' (the loyalty service's own account read, made a snapshot with
   * snapshotFromAccount and `context`, `fetchedAt` being the time of each fetch).
   */
  accountShape?: 'snapshot' | 'loyalty-api';
  /**
   * Required with accountShape 'loyalty-api'. Its `locationUid` and `venue` are also sent with
   * each account read (`locationUid`, `redemptionVenue`), so the read is the one the snapshot is
   * made for.
   */
  context?: Omit<AccountContext, 'fetchedAt'>;
}

export type ConfirmResult =
  | { result: QualifyResult; source: 'remote'; provisional: false }
  | { result: QualifyResult; source: 'local'; provisional: true; error: QualifyError; snapshotAgeMs: number };

export interface SnapshotInfo {
  savedAt: number;
  ageMs: number;
  expired: boolean;
}

/** An age as people read it: "2 h 10 min", "3 days 4 h", "12 s". */
export function describeAge(ms: number): string;

/** Answers locally at once and confirms with the service. */
export declare class HybridQualifier {
  constructor(options: HybridQualifierOptions);
  /**
   * Loads a snapshot: the option, else a stored one not older than maxStaleMs (refreshed in the
   * background when past maxAgeMs), else the service's.
   */
  ready(): Promise<void>;
  /**
   * The local answer; provisional with `snapshotAgeMs` past maxAgeMs. Rejects with QualifyError
   * 400 for a malformed basket, 503 past maxStaleMs (the message names the snapshot's age).
   */
  qualify(basket: QualifyRequest | string): Promise<LocalQualifyResult>;
  /** The local explain (docs/reference.md#explain), on the same terms as qualify(). */
  explain(basket: QualifyRequest | string): Promise<LocalExplainResult>;
  /**
   * Bills an order (POST /api/baskets, state "billed") with one basket id, kept in the outbox
   * until the service decides it. A network error, timeout or 5xx is an unknown outcome: 'queued',
   * re-sent with the same id. Rejects only before the order is stored: QualifyError 400 for a
   * malformed request or option, 409 for a pending basket id with another basket, 507 when it
   * cannot be stored (nothing placed, nothing sent), 503 when the account cannot be read and
   * storeCredentials is false. Once stored it never rejects.
   */
  checkout(request: QualifyRequest | string, options?: CheckoutOptions): Promise<CheckoutOutcome>;
  /** This guest's undecided orders (all: every one on the device), oldest first. */
  pendingOrders(options?: { all?: boolean }): Promise<PendingOrder[]>;
  /** The outbox's damaged entries (its damaged(); [] for an outbox without it). */
  damagedOrders(): Promise<DamagedOrderEntry[]>;
  /**
   * Sends every pending order on the device now (whichever guest placed it), oldest first, each
   * once, one replayer at a time per outbox; after one that gets no answer, the rest for the same
   * service wait. Resolves one outcome per pending order. Replays also run on start-up, on the
   * browser's `online` event and on a backoff timer.
   */
  flush(): Promise<CheckoutOutcome[]>;
  /**
   * Where the local engine runs: 'worker' (a Web Worker or worker thread), 'thread' (this one:
   * `worker: false`, or a worker that could not start); null before the first snapshot is loaded.
   */
  readonly engineLocation: 'worker' | 'thread' | null;
  /** The snapshot in use (the same object until a refresh brings a changed one), or null. */
  currentSnapshot(): Snapshot | null;
  /**
   * The service's answer; the local one marked provisional when the service cannot be reached
   * (NETWORK_ERROR, TIMEOUT, 5xx). Rejects with the service's QualifyError for a 4xx.
   */
  confirm(basket: QualifyRequest | string): Promise<ConfirmResult>;
  /**
   * Fetches the account snapshot now, conditionally (If-None-Match): unchanged, it costs a 304 and
   * no reload or store write. A failure rejects and changes nothing.
   */
  refresh(): Promise<Snapshot>;
  snapshotInfo(): SnapshotInfo | null;
  /** Frees the engine; later calls reject with QualifyError (410). */
  dispose(): void;
}

// ---------------------------------------------------------------------------------------------
// SandboxClient

/** The Accept-Version of the consumer API (docs/reference.md#sandbox-operations). */
export declare const CONSUMER_API_VERSION: 'v4.0';

export interface PollSchedule {
  /** Wait before the first poll; the sandbox's schedule: at least 60000. */
  firstDelayMs: number;
  /** Cap of the doubling waits; the sandbox's schedule: 300000 (5 minutes). */
  maxDelayMs: number;
  /** Give up after this much time in all; the sandbox's schedule: about 45 minutes (2700000). */
  totalMs: number;
}

/** The sandbox's polling schedule (docs/reference.md#polling-schedule): { firstDelayMs: 60000, maxDelayMs: 300000, totalMs: 2700000 }. */
export declare const SANDBOX_POLL_SCHEDULE: Readonly<PollSchedule>;

/** The waits of a schedule when polls take no time: 60, 120, 240, 300 x 7, 180 s by default. */
export function pollDelays(schedule?: Partial<PollSchedule>): number[];

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;

/** `?states[]=a&states[]=b&limit=5`: arrays in the bracket convention (docs/reference.md#array-query-parameters). */
export function encodeQuery(params?: Record<string, QueryValue>): string;

export interface GrantRequest {
  /** The hashid form of the program's external_uid; a numeric program id does not resolve. */
  campaign_id: string;
  user_id: string;
}

/** The reward record created by a grant, and each entry of GET /rewards. */
export interface SandboxReward extends RewardEntity {
  readonly user_id: string;
  readonly merchant_id: string;
  /** The campaign's hashid, or null for a reward that came from no campaign. */
  readonly campaign_id: string | null;
  readonly created_at: string;
  readonly redeemed_at: string | null;
  readonly [field: string]: unknown;
}

/** A simulated purchase (docs/reference.md#sandbox-operations; sent wrapped as {"purchase": ...}). */
export interface PurchaseRequest {
  merchant_id: string;
  /** The location hashid (its uid is accepted too); null or absent: no location. */
  location_id?: string | null;
  user_id: string;
  amount: Decimal;
  /** ISO 8601 with offset; default the service's clock. */
  purchased_at?: string;
}

/** A landed purchase (GET /purchases). */
export interface SandboxPurchase {
  id: string;
  source: 'sandbox' | 'basket';
  merchant_id: string;
  location_id: string | null;
  user_id: string;
  basket_id: string | null;
  /** Exact decimal text, e.g. "12.50". */
  amount: string;
  points: number;
  points_experience_id: string;
  purchased_at: string;
  received_at: string;
  landed_at: string;
  /** Rewards the campaigns it triggered issued. */
  triggered_rewards: string[];
}

export interface PurchaseFilters {
  ids?: readonly string[];
  location_ids?: readonly string[];
  sources?: readonly ('sandbox' | 'basket')[];
  /** Inclusive, ISO 8601 with offset. */
  purchased_since?: string;
  /** Exclusive, ISO 8601 with offset. */
  purchased_before?: string;
  /** 1 to 1000; default 100. */
  limit?: number | string;
  [name: string]: QueryValue;
}

export interface RewardFilters {
  states?: readonly string[];
  ids?: readonly string[];
  campaign_ids?: readonly string[];
  [name: string]: QueryValue;
}

/** A predicate, or fields a purchase must equal (`amount` by decimal value, `*_at` as instants). */
export type PurchaseMatch =
  | ((purchase: SandboxPurchase) => boolean)
  | { [K in keyof SandboxPurchase]?: SandboxPurchase[K] | number };

export function purchaseMatcher(match: PurchaseMatch): (purchase: SandboxPurchase) => boolean;

export interface PollTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Epoch milliseconds. */
  now(): number;
}

interface ProgressBase {
  /** Polls made so far (for 'waiting': the number of the coming poll). */
  attempt: number;
  elapsedMs: number;
  totalMs: number;
}

/** One step of waitForPurchase(), for a UI or a CLI to render. */
export type WaitProgress =
  | (ProgressBase & { type: 'waiting'; delayMs: number; nextPollAt: number })
  | (ProgressBase & { type: 'polling' })
  | (ProgressBase & { type: 'not-found'; seen: number })
  | (ProgressBase & { type: 'poll-failed'; error: QualifyError })
  | (ProgressBase & { type: 'found'; purchase: SandboxPurchase })
  | (ProgressBase & { type: 'gave-up' });

export interface WaitOptions {
  onProgress?: (event: WaitProgress) => void;
  signal?: AbortSignal;
  /** Replaces setTimeout, clearTimeout and the clock (tests run the schedule in milliseconds). */
  timers?: Partial<PollTimers>;
  /** Default SANDBOX_POLL_SCHEDULE. */
  schedule?: Partial<PollSchedule>;
  /** Sent with every GET /purchases. */
  filters?: PurchaseFilters;
}

/**
 * The sandbox fraud rule (docs/reference.md#sandbox-fraud-rule), as the local service emulates it in sandbox mode: a
 * standard test card number (4111111111111111, 4242424242424242, 5555555555554444,
 * 378282246310005, 6011111111111117 ... docs/service.md lists them), or any card registered to
 * more than one user, is high-risk; on a user holding one, the rewards of the fraud-protected
 * reward types (intro, birthday, winback, signup) silently fail to activate (grant) or to be
 * earned (campaign trigger): same answer, no error. Points products and free_item or promotion
 * rewards are not affected. Workaround: a unique card number per test user, keeping the first 6
 * and last 4 digits of a standard test card (middle digits your own, the same on every run; no
 * Luhn check).
 */
export type CampaignRewardType = 'intro' | 'birthday' | 'winback' | 'signup' | 'free_item' | 'promotion';

/** The local service's helper POST /emulator/cards (not an operation of the loyalty API). */
export interface CardRegistration {
  /** 12 to 19 digits (spaces and dashes allowed): the first 6 and last 4 of a standard test card. */
  card_number: string;
  /** Drop the user's other cards first (e.g. a high-risk one). */
  replace?: boolean;
  /** The token's user (403 for another). */
  user_id?: string;
}

export interface RegisteredCard {
  /** Masked: "411111******1111". */
  card: string;
  brand: string;
  user_id: string;
  registered_at: string;
}

/** The local service's helper GET /emulator/fraud_report: what `sandbox doctor` renders. */
export interface FraudReport {
  user_id: string;
  merchant_id: string;
  /** The rule, in words. */
  rule: string;
  cards: { card: string; brand: string | null; high_risk: boolean; reason: string | null }[];
  campaigns: {
    campaign_id: string;
    program_id: number;
    label: string;
    reward_type: CampaignRewardType;
    fraud_protected: boolean;
    issued_by: ('grant' | 'purchase trigger')[];
    /** false: its reward would silently fail to activate or be earned for this user. */
    activates: boolean;
    reason: string | null;
  }[];
  /** How many campaigns' rewards would silently fail. */
  silent_failures: number;
  /** null when no card is high-risk. */
  fix: { card_number: string; replace: true; message: string } | null;
}

export interface SandboxClientOptions {
  /** The consumer API sandbox, e.g. http://127.0.0.1:8080 (the local service in sandbox mode). */
  sandboxApiUrl: string;
  /** Sent as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  /** Sent as `X-ClientId`. */
  clientId: string;
  fetch?: FetchLike;
  /** Per request; default 10000. */
  timeoutMs?: number;
}

/** The consumer API's sandbox operations; failures reject with QualifyError as LoyaltyClient's. */
export declare class SandboxClient {
  constructor(options: SandboxClientOptions);
  readonly sandboxApiUrl: string;
  /**
   * POST /rewards/grant: resolves the reward created. An intro, birthday, winback or signup reward
   * granted to a user holding a standard test card silently does not activate (same answer; see
   * CampaignRewardType for the rule and the workaround).
   */
  grantReward(request: GrantRequest, options?: RequestOptions): Promise<SandboxReward>;
  /** POST /purchases: accepted, processed asynchronously (no body). */
  simulatePurchase(purchase: PurchaseRequest, options?: RequestOptions): Promise<void>;
  /** GET /purchases: landed purchases, latest first. */
  listPurchases(filters?: PurchaseFilters, options?: RequestOptions): Promise<SandboxPurchase[]>;
  /** GET /rewards, e.g. listRewards({ states: ['redeemable', 'redeemed'] }). */
  listRewards(filters?: RewardFilters, options?: RequestOptions): Promise<SandboxReward[]>;
  /** The local service's POST /emulator/cards: registers a card (the fraud rule's input). */
  registerCard(registration: CardRegistration, options?: RequestOptions): Promise<RegisteredCard>;
  /** The local service's GET /emulator/fraud_report: which rewards would silently fail. */
  fraudReport(query?: { user_id?: string }, options?: RequestOptions): Promise<FraudReport>;
  /** Polls on the sandbox's schedule (docs/reference.md#polling-schedule); resolves the matching purchase, or null after about 45 minutes. */
  waitForPurchase(match: PurchaseMatch, options?: WaitOptions): Promise<SandboxPurchase | null>;
}
