// Types of SandboxClient (hand-written): the consumer API's sandbox operations and the local
// service's emulator helpers, beside sandbox_client.js. web/index.d.ts re-exports them.
import type { Decimal, QualifyError, RewardEntity } from '../engine/engine.js';
import type { FetchLike, RequestOptions } from './http.js';

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
 * more than one user of the same merchant (other merchants' users never count), is high-risk; on
 * a user holding one, the rewards of the fraud-protected
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
