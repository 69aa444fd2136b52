// Types of the account snapshot the engine reads (hand-written): its records, merchant, locations,
// user and balances (docs/reference.md#snapshot). web/index.d.ts re-exports them.
import type { Decimal } from './engine.js';

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
