// Types of the loyalty service's account read as a snapshot (hand-written), IANA zones as POSIX
// rules, money text and cents. web/index.d.ts re-exports them.
import type { Decimal } from '../engine/engine.js';
import type { Snapshot } from '../engine/snapshot.js';

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
