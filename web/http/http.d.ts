// Types of the loyalty service's client (hand-written): the transport, LoyaltyClient, the retry
// backoff. SandboxClient's are in sandbox_client.d.ts. web/index.d.ts re-exports them.
import type { QualifyError, QualifyRequest, QualifyResult } from '../engine/engine.js';
import type { Snapshot } from '../engine/snapshot.js';

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

/**
 * What accountIfChanged() resolves. `servedAt`: the service's time of the answer from its HTTP
 * `Date` header, as RFC 3339 to the second (`2026-11-24T13:15:00Z`), or null when the answer has
 * none or the page may not read it (a cross-origin answer whose Access-Control-Expose-Headers does
 * not name Date).
 */
export type AccountAnswer =
  | { notModified: true; etag: string; servedAt: string | null }
  | { notModified: false; snapshot: Snapshot; etag: string | null; servedAt: string | null };

/** What account()'s `onAnswer` is told of the answer before account() resolves. */
export interface AccountAnswerInfo {
  etag: string | null;
  /** As AccountAnswer's servedAt. */
  servedAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// LoyaltyClient

export interface LoyaltyClientOptions {
  /**
   * The loyalty API, e.g. http://127.0.0.1:8080 (the local service's base URL); in a page or a
   * worker also a path, '/' or '/api', resolved against its address when the client is made (a
   * dev server's proxy, as hub.url). The paths /api/... are appended to it.
   */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <accessToken>`: the token, or a function (sync or async)
   * giving the current one, called for each request (a refreshed token needs no new client). A
   * function that throws, gives no string or gives nothing within timeoutMs fails the request
   * with NETWORK_ERROR (nothing sent).
   */
  accessToken: string | (() => string | Promise<string>);
  /** Sent as `Merchant-Key`. */
  merchantKey: string;
  /** Default: globalThis.fetch, looked up at each call. */
  fetch?: FetchLike;
  /**
   * Per request; default 10000. A request without an answer by then fails with TIMEOUT. Also the
   * bound of one call of the token function, and of HybridQualifier's credentialsFor.
   */
  timeoutMs?: number;
}

/** What a replay of an order needs to reach its guest's account. */
export interface ReplayCredentials {
  baseUrl: string;
  merchantKey: string;
  accessToken: string;
}

/** An offer an order uses: a reward or a points product of the guest, by id. */
export interface OfferRef {
  kind: 'reward' | 'points_product';
  id: string;
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
  /** The timeoutMs option (default 10000). */
  readonly timeoutMs: number;
  /** The current token (the string, or what the token function gives within timeoutMs). */
  accessToken(): Promise<string>;
  /** { baseUrl, merchantKey, accessToken } as they are now (the token included: a secret). */
  credentials(): Promise<ReplayCredentials>;
  /** A client with the same fetch and timeoutMs for other credentials. */
  withCredentials(credentials: ReplayCredentials): LoyaltyClient;
  /** POST /api/baskets/qualifying (docs/reference.md#http-api). */
  qualify(basket: QualifyRequest | string, options?: RequestOptions): Promise<QualifyResult>;
  /**
   * GET /api/account: the account snapshot (docs/reference.md#snapshot), narrowed by the read
   * options. `onAnswer` is told the answer's ETag and the service's time of it (its Date header).
   */
  account(options?: RequestOptions & AccountReadOptions & { onAnswer?: (answer: AccountAnswerInfo) => void }): Promise<Snapshot>;
  /**
   * GET /api/account with `If-None-Match: etag` (when etag is a string): the service answers 304
   * when the account's snapshot is unchanged (its strong ETag changes exactly when it changes).
   * The read options are account()'s; the ETag is that of the narrowed read they ask for.
   */
  accountIfChanged(etag: string | null, options?: RequestOptions & AccountReadOptions): Promise<AccountAnswer>;
  /** POST /api/baskets: creates or updates a basket. */
  saveBasket(body: BasketBody | string, options?: RequestOptions): Promise<BasketResponse>;
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
