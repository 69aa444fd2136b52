// Types of the engine (hand-written): requests, answers and explanations, the wasm module's
// source, the qualifier handle and its errors. web/index.d.ts re-exports them.
import type { QualifierEventMap, QualifierEvents } from '../events/events.js';
import type { Snapshot } from './snapshot.js';

/** A decimal as stored in the snapshot: a JSON number or a numeric string. */
export type Decimal = number | string;

/** A reward the user owns (docs/reference.md#answer), echoed from the snapshot. */
export interface RewardEntity {
  readonly id: string;
  readonly value: Decimal;
  readonly minimum: Decimal | null;
  readonly maximum: Decimal | null;
  readonly label: string;
  readonly state: string;
  readonly type: string;
  readonly products: readonly string[];
  readonly fine_print: string;
  readonly retire_at: string | null;
  readonly restriction_location_ids: readonly string[];
}

/** A points-exchange product (docs/reference.md#answer), echoed from the snapshot. */
export interface PointsProductEntity {
  readonly id: string;
  readonly points: number;
  readonly value: Decimal;
  readonly minimum: Decimal | null;
  readonly maximum: Decimal | null;
  readonly label: string;
  readonly state: string;
  readonly type: string;
  readonly products: readonly string[];
  readonly fine_print: string;
  readonly restriction_location_ids: readonly string[];
}

/** The qualifying response body (docs/reference.md#answer). The entities are frozen and shared. */
export interface QualifyResult {
  rewards: RewardEntity[];
  points_products: PointsProductEntity[];
}

/**
 * Extra fields forwarded with a request (the loyalty service passes unknown request fields through). The
 * request types reject unknown fields by default, so that a misspelt field is a compile error;
 * name the extra fields to forward them, e.g. `QualifyRequest<{ pos_ref: string }>`, or use
 * `Forwarded` (any field) to forward whatever a caller sends.
 */
export type Forwarded = Record<string, unknown>;

export type BasketModifier<Extra extends object = {}> = {
  id?: string | null;
  name?: string | null;
  price?: Decimal | null;
  item_base_price?: Decimal | null;
} & Extra;

/** A basket line; `ItemExtra` / `ModifierExtra` name forwarded fields (see Forwarded). */
export type BasketItem<ItemExtra extends object = {}, ModifierExtra extends object = {}> = {
  id?: string | null;
  name?: string | null;
  /** Price of ONE unit. */
  price?: Decimal | null;
  categories?: readonly string[] | null;
  modifiers?: readonly BasketModifier<ModifierExtra>[] | null;
  /** Integer from 1 to 1000000000; default 1. */
  quantity?: number | null;
} & ItemExtra;

/**
 * The qualifying request (docs/reference.md#request); every field is optional, and null means
 * absent (except for redemption_venue). Unknown fields are a compile error unless named in
 * `Extra` (top level), `ItemExtra` (items) or `ModifierExtra` (modifiers):
 * `const r: QualifyRequest<{ pos_ref: string }, { pos_line: number }>` is accepted wherever a
 * QualifyRequest is. Its JSON Schema: `loyalty-qualifier/schemas/basket.schema.json`.
 */
export type QualifyRequest<
  Extra extends object = {},
  ItemExtra extends object = {},
  ModifierExtra extends object = {},
> = {
  /** Default 'online'. */
  redemption_venue?: 'instore' | 'online';
  /** RFC 3339; absent = the qualifier's clock. */
  order_timestamp?: string | null;
  location_uid?: string | null;
  subtotal?: Decimal | null;
  items?: readonly BasketItem<ItemExtra, ModifierExtra>[] | null;
  handoff?: string | null;
} & Extra;

export type ReasonCode =
  | 'NOT_REDEEMABLE'
  | 'NOT_OWNED'
  | 'OTHER_MERCHANT'
  | 'EXPIRED'
  | 'NOT_STARTED'
  | 'VENUE_MISMATCH'
  | 'LOCATION_REQUIRED'
  | 'LOCATION_MISMATCH'
  | 'OUTSIDE_TIME_WINDOW'
  | 'HANDOFF_REQUIRED'
  | 'HANDOFF_MISMATCH'
  | 'SUBTOTAL_REQUIRED'
  | 'BELOW_MINIMUM'
  | 'NO_MATCHING_ITEM'
  | 'ITEM_PRICE_MISSING'
  | 'ZERO_DISCOUNT'
  | 'INSUFFICIENT_POINTS'
  | 'EMPTY_BASKET'
  | 'UNSUPPORTED_TYPE'
  /** A record marked `discount_unknown` (a points product of an account read without its discount fields). */
  | 'DISCOUNT_UNKNOWN'
  /** A reward record held (`hold: 'PENDING_ORDER'`): used by an order of this device not confirmed yet. */
  | 'PENDING_ORDER'
  /** A reward record held (`hold: 'CLAIMED_ELSEWHERE'`): used by an order at another kiosk of the store. */
  | 'CLAIMED_ELSEWHERE';

/** A reason without a figure of its own: every code but BELOW_MINIMUM and INSUFFICIENT_POINTS. */
export interface PlainReason {
  code: Exclude<ReasonCode, 'BELOW_MINIMUM' | 'INSUFFICIENT_POINTS'>;
  /** The engine's English message, e.g. "Not redeemable at this location." */
  message: string;
}

export interface BelowMinimumReason {
  code: 'BELOW_MINIMUM';
  /** e.g. "Spend $3.50 more to unlock." */
  message: string;
  /** What the subtotal lacks, rounded up to the cent, e.g. "3.50". */
  remaining: string;
}

export interface InsufficientPointsReason {
  code: 'INSUFFICIENT_POINTS';
  /** e.g. "150 more points needed." */
  message: string;
  /** Points still needed: the product's points less the balance. */
  points_needed: number;
}

/**
 * One failing rule of an explain entry, discriminated on `code`: after
 * `reason.code === 'BELOW_MINIMUM'`, `reason.remaining` is a string.
 */
export type ExplainReason = PlainReason | BelowMinimumReason | InsufficientPointsReason;

export interface ExplainEntry {
  id: string;
  kind: 'reward' | 'points_product';
  qualifies: boolean;
  /** What the entry would give on this basket, e.g. "2.50". */
  discount: string;
  /** Every failing rule; empty exactly when it qualifies. */
  reasons: ExplainReason[];
}

/** The explanation (docs/reference.md#explain). */
export interface ExplainResult {
  entries: ExplainEntry[];
  /** The qualifying entry with the largest discount, or null. */
  best: string | null;
}

/** The clock for requests without order_timestamp: a Date or epoch milliseconds. */
export type Clock = () => Date | number;

/**
 * Where the wasm module comes from: a URL or string (fetched; in Node a file: URL or a path is
 * read from disk), the bytes, a Response or a Promise of one (e.g. `fetch(url)`), or a compiled
 * WebAssembly.Module. Default: `dist/loyalty_qualifier.wasm` beside the package's module, which
 * is also the subpath export `loyalty-qualifier/wasm`.
 */
export type WasmSource =
  | URL
  | string
  | ArrayBuffer
  | ArrayBufferView
  | Response
  | PromiseLike<Response>
  | WasmModule;

/**
 * A compiled WebAssembly.Module, where the program's types declare one (lib DOM or WebWorker);
 * `never` otherwise (`lib: ["ES2022"]` with Node's types has no WebAssembly namespace).
 */
export type WasmModule = typeof globalThis extends {
  WebAssembly: { Module: abstract new (...args: never[]) => infer M };
}
  ? M
  : never;

export interface LoadOptions {
  /**
   * Where to load the wasm module from; used by the first load only (the module is loaded once
   * and shared). Default: the file beside the package.
   */
  wasm?: WasmSource;
}

export interface QualifierOptions extends LoadOptions {
  /** Default Date.now; a fixed Date or number is also accepted. */
  now?: Clock | Date | number;
}

/**
 * A loaded snapshot. Every method throws DisposedError (a QualifyError 410) after dispose(). An
 * EventTarget: 'snapshotchange' (reason 'set') after each setSnapshot().
 */
export interface Qualifier extends QualifierEvents<QualifierEventMap> {
  /**
   * Throws QualifyError (400) for a malformed request. A string, or UTF-8 bytes (a Uint8Array such
   * as a Buffer read from a file), goes to the engine as it is: the same message as the service
   * gives for that body.
   */
  qualify(request: QualifyRequest | string | Uint8Array): QualifyResult;
  /** Throws QualifyError (400) for a malformed request (a string or bytes: as qualify). */
  explain(request: QualifyRequest | string | Uint8Array): ExplainResult;
  /**
   * How one offer fares on the basket (docs/reference.md#offer-outcome): the entry explain() gives
   * it, computed for that offer alone (the first of that kind and id). Throws QualifyError (400) for
   * a malformed request, (404) when the snapshot has no such offer; a TypeError when `offer` is not
   * `{ kind, id }`.
   */
  offerOutcome(
    request: QualifyRequest | string | Uint8Array,
    offer: Pick<ExplainEntry, 'kind' | 'id'>,
  ): ExplainEntry;
  /** Throws QualifyError (422) for an invalid snapshot; the previous one stays in force. */
  setSnapshot(snapshot: Snapshot | string | Uint8Array): void;
  /** Frees the wasm memory; idempotent. */
  dispose(): void;
  /** `using q = await createQualifier(...)`: dispose() at the end of the block. */
  [Symbol.dispose](): void;
  readonly disposed: boolean;
}

/**
 * The error body (docs/reference.md#errors) as an Error: 400 request, 422 snapshot, 410 disposed, 500 engine
 * stopped, 503 the wasm module could not be loaded (the message starts with MODULE_LOAD_FAILED and
 * names the source tried; `cause` is the underlying error).
 */
export class QualifyError extends Error {
  constructor(code: number, message: string);
  /** 'DisposedError' for the DisposedError subclass. */
  name: 'QualifyError' | 'DisposedError';
  code: number;
  toJSON(): { code: number; message: string };
}

/**
 * The error of a call on a disposed object, and of every call in flight when it was disposed: a
 * QualifyError 410 (code, message and toJSON() as before) whose name is 'DisposedError', so that
 * a caller tells "this object is gone" from a failure (docs/reference.md#cancellation-and-disposal).
 */
export class DisposedError extends QualifyError {
  constructor(message: string);
  name: 'DisposedError';
  code: 410;
}

/**
 * Loads the wasm module once, up front (optional: createQualifier loads it too). Rejects with
 * QualifyError (503, MODULE_LOAD_FAILED) when it cannot be loaded.
 */
export function initQualifier(options?: LoadOptions): Promise<void>;

/**
 * Loads the engine (once) and a snapshot; rejects with QualifyError (422) for an invalid
 * snapshot, (503) when the wasm module cannot be loaded.
 */
export function createQualifier(
  snapshot: Snapshot | string | Uint8Array,
  options?: QualifierOptions,
): Promise<Qualifier>;

/** Leak checks: live wasm snapshot handles and the wasm memory size in bytes. */
export function diagnostics(): Promise<{ liveHandles: number; wasmMemoryBytes: number }>;
