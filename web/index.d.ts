// Types of the loyalty-qualifier package (hand-written; checked with tsc by `npm test`).
import type { QualifierEventMap, QualifierEvents } from './events/events.js';

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

/** A day of a time window: three letters, lowercase. */
export type WeekDay = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

/** When a record may be used, in local time (docs/reference.md#reward-record). */
export interface TimeWindow {
  /** Omitted, null or [] for every day. */
  days?: readonly WeekDay[] | null;
  /** "HH:MM". */
  start: string;
  /** "HH:MM", exclusive ("24:00" allowed); at or before `start` it crosses midnight. */
  end: string;
}

/** A record's `type`: another value never qualifies (UNSUPPORTED_TYPE). */
export type OfferType = 'amount' | 'percent' | 'item' | 'fixed_price' | (string & {});
/** A record's `item_kind` (type 'item'): another value never qualifies. */
export type ItemKind = 'free_item' | 'bogo' | 'modifier' | (string & {});
/** A record's `redemption_venue`: another value matches no request venue. */
export type RecordVenue = 'instore' | 'online' | 'all' | (string & {});

/** The members a reward record and a points product record share (docs/reference.md#reward-record). */
export interface OfferRecordFields {
  /** Required. */
  id: string;
  /** Default 0. */
  value?: Decimal | null;
  minimum?: Decimal | null;
  maximum?: Decimal | null;
  label?: string | null;
  fine_print?: string | null;
  /** Default 'redeemable'. */
  state?: string | null;
  type?: OfferType | null;
  products?: readonly string[] | null;
  restriction_location_ids?: readonly string[] | null;
  redemption_venue?: RecordVenue | null;
  handoff?: string | null;
  time_restrictions?: readonly TimeWindow[] | null;
  item_kind?: ItemKind | null;
  categories?: readonly string[] | null;
  /** true: its discount is left to the service (it never qualifies locally: DISCOUNT_UNKNOWN). */
  discount_unknown?: boolean | null;
}

/** A reward the snapshot's user owns, with its eligibility fields (docs/reference.md#reward-record). */
export interface RewardRecord extends OfferRecordFields {
  /** RFC 3339; null: never expires. */
  retire_at?: string | null;
  /** RFC 3339; not usable before. */
  starts_at?: string | null;
  /** Default: the snapshot's user.id. */
  user_id?: string | null;
  /** Default: the snapshot's merchant.id. */
  merchant_id?: string | null;
  /** Set by HybridQualifier: the reward is spent by an order not confirmed yet. */
  hold?: 'PENDING_ORDER' | 'CLAIMED_ELSEWHERE' | null;
}

/** A product bought with points (docs/reference.md#points-product-record). */
export interface PointsProductRecord extends OfferRecordFields {
  /** The cost: a non-negative integer (or integer string); default 0. */
  points?: number | string | null;
  /** The balance it is paid from; default the first entry of `points`. */
  points_experience_id?: string | null;
}

export interface SnapshotMerchant {
  id: string;
  /** IANA name, informational. */
  time_zone?: string | null;
  /** POSIX TZ rule of the merchant's local time, e.g. "EST5EDT,M3.2.0,M11.1.0"; default UTC. */
  tz_rule?: string | null;
}

export interface SnapshotLocation {
  /** What a request's location_uid names. */
  uid: string;
  /** The location's hashid, as restriction_location_ids list it. */
  id?: string | null;
  /** Default: merchant.id. */
  merchant_id?: string | null;
  time_zone?: string | null;
  tz_rule?: string | null;
}

export interface SnapshotUser {
  /** The owner of the rewards. */
  id: string;
}

export interface PointsBalance {
  points_experience_id: string;
  /** An integer (or integer string); default 0. */
  balance?: number | string | null;
}

/** Every member of a schema-1 snapshot (docs/reference.md#snapshot). */
export interface SnapshotFields {
  schema_version: 1;
  /** RFC 3339, informational. */
  generated_at?: string | null;
  merchant: SnapshotMerchant;
  /** Every location the snapshot knows, other merchants' included. */
  locations?: readonly SnapshotLocation[] | null;
  user: SnapshotUser;
  points?: readonly PointsBalance[] | null;
  rewards?: readonly RewardRecord[] | null;
  points_products?: readonly PointsProductRecord[] | null;
}

/**
 * The account snapshot (docs/reference.md#snapshot): it names `rewards` or `points_products` (or
 * both; `[]` for none), so that a misspelt list is a type error here and a QualifyError (422) at
 * run time. Unknown members are ignored at run time but are not part of the type. Its JSON
 * Schema: `loyalty-qualifier/schemas/snapshot.schema.json`.
 */
export type Snapshot =
  | (SnapshotFields & { rewards: readonly RewardRecord[] | null })
  | (SnapshotFields & { points_products: readonly PointsProductRecord[] | null });

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

/**
 * An account-read body of the loyalty service (GET /api/account), as its public docs describe
 * it. Every field is optional; unknown ones are ignored.
 */
export interface AccountRead {
  id?: string | number;
  email?: string;
  rewards?: AccountReward[] | null;
  points_products?: AccountPointsProduct[] | null;
  /** Later versions; earlier ones send the same entries as `points`. */
  points_balances?: AccountPointsBalance[] | null;
  points?: AccountPointsBalance[] | null;
  progress?: { percentage?: number; towards?: string; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface AccountReward {
  id: string | number;
  value?: Decimal | null;
  minimum?: Decimal | null;
  maximum?: Decimal | null;
  label?: string | null;
  state?: string | null;
  type?: string | null;
  products?: string[] | null;
  fine_print?: string | null;
  retire_at?: string | null;
  [field: string]: unknown;
}

export interface AccountPointsProduct {
  id: string | number;
  /** Points it costs (later versions); earlier ones send `points`. */
  cost?: number | string | null;
  points?: number | string | null;
  label?: string | null;
  state?: string | null;
  fine_print?: string | null;
  points_experience_id?: string | null;
  /** The discount fields: without `type` (or `value`, except for `item`) it never qualifies locally. */
  value?: Decimal | null;
  type?: string | null;
  minimum?: Decimal | null;
  maximum?: Decimal | null;
  products?: string[] | null;
  [field: string]: unknown;
}

export interface AccountPointsBalance {
  points_experience_id: string;
  /** A fractional balance counts down to whole points. */
  balance?: number | string | null;
  [field: string]: unknown;
}

/** What an account read was made for. */
export interface AccountContext {
  /** The merchant of the Merchant-Key. */
  merchantId: string;
  /** The location the read was made for (`location_uid`); informational. */
  locationUid?: string;
  /** The venue the read was made for: its rewards then only qualify locally at that venue. */
  venue?: 'instore' | 'online';
  /** IANA zone of the merchant (or location): becomes `tz_rule` through Intl. */
  timeZone?: string;
  /** When the body was fetched (this device's clock): `generated_at` and the year of the zone rule without `servedAt`. Default now. */
  fetchedAt?: Date | number | string;
  /**
   * The service's time of the answer (its HTTP `Date`, e.g. LoyaltyClient's `servedAt`): when
   * given, `generated_at` (written without a fraction when it has none: said to the second) and the
   * year of the zone rule.
   */
  servedAt?: Date | number | string;
}

/**
 * A schema-v1 snapshot from the loyalty service's account read. Throws QualifyError (422) naming
 * the field for a body it cannot read, TypeError for a bad context, RangeError for an unknown zone.
 */
export function snapshotFromAccount(account: AccountRead | string, context: AccountContext): Snapshot;

/**
 * The POSIX TZ rule (`tz_rule`) of an IANA zone for this year and next, from Intl (no tzdata
 * files): e.g. `<-05>5<-04>,M3.2.0,M11.1.0`. `options.at` picks "this year" (default now).
 * Throws RangeError for a zone the runtime does not know.
 */
export function tzRuleFromIntl(timeZone: string, options?: { at?: Date | number }): string;

/**
 * An amount as the API writes it ("5.25" or 5.25) in integer cents: 525; null for anything that
 * is not a non-negative decimal. Digits below the cent round half up, or up with
 * `{ round: 'up' }` (5.001 -> 501). No binary floating point on the way.
 */
export function centsOf(amount: Decimal, options?: { round?: 'half-up' | 'up' }): number | null;

/** Integer cents as the decimal text the API expects: 475 -> "4.75", -5 -> "-0.05". */
export function decimalOfCents(cents: number): string;

export * from './events/events.js';
export * from './lifecycle/lifecycle.js';
export * from './http/http.js';
export * from './snapshots/snapshots.js';
export * from './storage/storage.js';
export * from './orders/orders.js';
export * from './hybrid/hybrid.js';
