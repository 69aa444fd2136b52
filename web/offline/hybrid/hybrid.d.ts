// Types of HybridQualifier (hand-written). web/index.d.ts re-exports them.
import type { ExplainResult, QualifierOptions, QualifyError, QualifyRequest, QualifyResult } from '../../engine/engine.js';
import type { Snapshot } from '../../engine/snapshot.js';
import type { AccountContext, AccountRead } from '../../account/account.js';
import type { QualifierWorkerHost } from '../../worker/worker.js';
import type { AccountAnswer, AccountReadOptions, BackoffOptions, BasketBody, BasketResponse, ReplayCredentials } from '../../http/http.js';
import type { SnapshotStore } from '../snapshots/snapshots.js';
import type { CheckoutOptions, CheckoutOutcome, DamagedOrder, OfflinePolicy, OrderOutbox, PendingOrder } from '../orders/orders.js';
import type { HybridQualifierEventMap, QualifierEventListener, QualifierListenerOptions } from '../../events/events.js';
import type { CallOptions } from '../../lifecycle/lifecycle.js';

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
   * Told of every order the service decided ('billed' or 'refused'), also on replays (the
   * 'ordersettled' event tells the same). Called after the order left the outbox; must not throw. After a crash between the service's answer
   * and that removal, the replay re-sends the order and it is reported again (billed once).
   */
  onOrderSettled?: (order: PendingOrder, outcome: CheckoutOutcome) => void;
  /**
   * The credentials that replay an order (sync or async, within the client's timeoutMs), or null
   * for the default: the guest on screen's client for their own orders, else those stored with
   * the order. Whatever credentials replay an order are first proven to be its guest's: their
   * account read (once per credentials) must name the order's merchant and user; credentials of
   * anyone else leave the order queued, its lastError naming whose they are.
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
  /**
   * The store hub (docs/hub.md): every redemption claims its offer there first, online or not;
   * an offer claimed by another kiosk (or a hub that cannot be reached or refuses this kiosk) is
   * not promised, and explain shows other kiosks' claims as CLAIMED_ELSEWHERE.
   */
  hub?: StoreHubOption;
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
   * snapshotFromAccount and `context`, `servedAt` being the service's time of each answer, its
   * HTTP Date, and `fetchedAt` this device's time of each fetch: generated_at is the service's
   * time when the answer says it and the page may read it, else this device's clock).
   */
  accountShape?: 'snapshot' | 'loyalty-api';
  /**
   * Required with accountShape 'loyalty-api'. Its `locationUid` and `venue` are also sent with
   * each account read (`locationUid`, `redemptionVenue`), so the read is the one the snapshot is
   * made for.
   */
  context?: Omit<AccountContext, 'fetchedAt' | 'servedAt'>;
}

export type ConfirmResult =
  | {
      result: QualifyResult;
      source: 'remote';
      provisional: false;
      /**
       * true when the local answer differed from the service's (or failed): the snapshot was
       * refreshed and onDivergence told. The one comparison of the two; a page that showed the
       * local answer says, from this, that the offers changed.
       */
      diverged: boolean;
    }
  | { result: QualifyResult; source: 'local'; provisional: true; error: QualifyError; snapshotAgeMs: number };

export interface SnapshotInfo {
  savedAt: number;
  ageMs: number;
  expired: boolean;
}

/** Whether the store hub answered the last call made to it (HybridDiagnostics.hub). */
export interface HubReachability {
  /** null before the first call. */
  reachable: boolean | null;
  /** Why it is not reachable (no answer within hub.timeoutMs, a 5xx), or null. */
  message: string | null;
}

/** HybridQualifier.diagnostics(). */
export interface HybridDiagnostics {
  /** As snapshotInfo(). */
  snapshot: SnapshotInfo | null;
  holds: {
    /**
     * The guest's undecided orders, as the outbox held them at the last read (with those queued
     * before the account was read with this client's merchant key and token).
     */
    pendingOrders: number;
    /**
     * The outbox's records of the guest's orders billed with their offer (by any tab or process)
     * that the snapshot in hand does not show: read before the billing (BilledOrder).
     */
    billedSinceSnapshot: number;
    /** The store hub's live claims of the guest (null without a hub). */
    claims: StoreClaimsDiagnostics | null;
  };
  /** The store hub's reachability as the last call found it ('hubreachabilitychange' tells each change); null without a hub. */
  hub: HubReachability | null;
}

/** How the live claims the local answers count stand: they are asked for in the background, never waited for. */
export interface StoreClaimsDiagnostics {
  /** How long ago the claims in use were asked for (the `now` option's clock), or null when none are known yet. */
  ageMs: number | null;
  /** Whether a request for them is under way (bounded by hub.timeoutMs). */
  refreshing: boolean;
  /** Whether the hub cut the list (it answers at most 100 claims per guest). */
  truncated: boolean;
  /** Why the last request brought none (the last claims known stay in use), or null. */
  lastError: string | null;
}

/** An age as people read it: "2 h 10 min", "3 days 4 h", "12 s". */
export function describeAge(ms: number): string;

/**
 * Answers locally at once and confirms with the service. An EventTarget (docs/reference.md#events):
 * 'snapshotchange', 'ordersettled', 'hubreachabilitychange'. Every call takes { signal }
 * (CallOptions): an abort rejects it at once with the signal's reason (an 'AbortError'
 * DOMException); dispose() rejects the calls in flight with DisposedError.
 */
export declare class HybridQualifier {
  constructor(options: HybridQualifierOptions);
  /**
   * Loads a snapshot: the option, else a stored one not older than maxStaleMs (refreshed in the
   * background when past maxAgeMs), else the service's.
   */
  ready(options?: CallOptions): Promise<void>;
  /**
   * The local answer; provisional with `snapshotAgeMs` past maxAgeMs. Rejects with QualifyError
   * 400 for a malformed basket, 503 past maxStaleMs (the message names the snapshot's age).
   */
  qualify(basket: QualifyRequest | string, options?: CallOptions): Promise<LocalQualifyResult>;
  /** The local explain (docs/reference.md#explain), on the same terms as qualify(). */
  explain(basket: QualifyRequest | string, options?: CallOptions): Promise<LocalExplainResult>;
  /**
   * Bills an order (POST /api/baskets, state "billed") with one basket id, kept in the outbox
   * until the service decides it. A network error, timeout or 5xx is an unknown outcome: 'queued',
   * re-sent with the same id. Rejects only before the order is stored: QualifyError 400 for a
   * malformed request or option, 409 for a pending basket id with another basket, 507 when it
   * cannot be stored (nothing placed, nothing sent), 503 when the account cannot be read and
   * storeCredentials is false. Once stored it never rejects, except with the abort of `signal`
   * (or a dispose()), which never takes an order back: aborted before the order is written,
   * nothing is placed; after, it stays placed and is sent as any queued order. Checking out
   * again with the same basketId and request is always safe (docs/reference.md#cancellation-and-disposal).
   */
  checkout(request: QualifyRequest | string, options?: CheckoutOptions & CallOptions): Promise<CheckoutOutcome>;
  /** This guest's undecided orders (all: every one on the device), oldest first. */
  pendingOrders(options?: { all?: boolean } & CallOptions): Promise<PendingOrder[]>;
  /** The outbox's damaged entries (its damaged(); [] for an outbox without it). */
  damagedOrders(options?: CallOptions): Promise<DamagedOrder[]>;
  /**
   * Sends every pending order on the device now (whichever guest placed it), oldest first, each
   * once, one replayer at a time per outbox; after one that gets no answer, the rest for the same
   * service wait. Resolves one outcome per pending order. Replays also run on start-up, on the
   * browser's `online` event and on a backoff timer.
   */
  flush(options?: CallOptions): Promise<CheckoutOutcome[]>;
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
  confirm(basket: QualifyRequest | string, options?: CallOptions): Promise<ConfirmResult>;
  /**
   * Fetches the account snapshot now, conditionally (If-None-Match): unchanged, it costs a 304 and
   * no reload or store write. A failure rejects and changes nothing.
   */
  refresh(options?: CallOptions): Promise<Snapshot>;
  snapshotInfo(): SnapshotInfo | null;
  /**
   * What the local answers rest on, as last known, without asking anyone: the snapshot and the
   * holds (the guest's undecided orders last read, the orders billed since the snapshot, and with
   * a store hub the live claims' age).
   */
  diagnostics(): HybridDiagnostics;
  /**
   * Frees the engine, stops the replay timer and the account read in flight; the calls in flight
   * and every later one reject with DisposedError (a QualifyError 410). No event after it.
   */
  dispose(): void;
  /** `using hybrid = new HybridQualifier(...)`: dispose() at the end of the block. */
  [Symbol.dispose](): void;
  /** `await using`: dispose(), then waits for the work of the calls it cut short and the engine's release. */
  [Symbol.asyncDispose](): Promise<void>;
  addEventListener<K extends keyof HybridQualifierEventMap>(
    type: K,
    listener: QualifierEventListener<HybridQualifierEventMap[K]> | null,
    options?: boolean | QualifierListenerOptions,
  ): void;
  removeEventListener<K extends keyof HybridQualifierEventMap>(
    type: K,
    listener: QualifierEventListener<HybridQualifierEventMap[K]> | null,
    options?: boolean | { capture?: boolean },
  ): void;
  dispatchEvent(event: { readonly type: string }): boolean;
}

/** HybridQualifier's `hub` option. */
export interface StoreHubOption {
  /** The hub's base URL, e.g. "http://127.0.0.1:8091" (a page: its own origin's, e.g. "/" behind the kiosk server). */
  url: string;
  /** The store key every call carries (1 to 512 visible ASCII characters). */
  storeKey: string;
  /** This kiosk, shown to the others (a non-empty string of at most 256 bytes). */
  kioskId: string;
  /** Each call's bound; default 3000. */
  timeoutMs?: number;
  /** default globalThis.fetch. */
  fetch?: typeof fetch;
}
