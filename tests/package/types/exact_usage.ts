// The types that catch mistakes (issue 38): exact snapshot, basket, answer and reason types. This
// file uses no platform global, so that it compiles under each lib of the tsconfig.*.json beside it
// (ES2022 with Node's types, DOM, WebWorker), and the consumer suite compiles it against the packed package.
import {
  createQualifier,
  type BelowMinimumReason,
  type ExplainEntry,
  type ExplainReason,
  type PointsProductRecord,
  type QualifyRequest,
  type RewardRecord,
  type Snapshot,
} from 'loyalty-qualifier';
import { formatReason } from 'loyalty-qualifier/messages';

const reward: RewardRecord = {
  id: 'rw_welcome5',
  value: '5.00',
  minimum: 15,
  maximum: null,
  label: '$5 off your order',
  state: 'redeemable',
  type: 'amount',
  products: [],
  fine_print: '',
  retire_at: '2027-01-31T23:59:59-05:00',
  restriction_location_ids: [],
  user_id: 'u_1001',
  merchant_id: null,
  redemption_venue: 'instore',
  handoff: null,
  starts_at: null,
  time_restrictions: [{ days: ['mon', 'tue'], start: '07:00', end: '11:00' }, { start: '22:00', end: '02:00' }],
  item_kind: null,
  categories: ['coffee'],
  discount_unknown: false,
  hold: null,
};
const product: PointsProductRecord = { id: 'pp_drip', points: 150, type: 'item', item_kind: 'free_item', products: ['drip'], points_experience_id: 'beans' };

// Either list alone makes a snapshot; so do both.
const full: Snapshot = {
  schema_version: 1,
  generated_at: '2026-11-24T12:00:00Z',
  merchant: { id: 'm_harbor_coffee', time_zone: 'America/New_York', tz_rule: 'EST5EDT,M3.2.0,M11.1.0' },
  locations: [{ uid: 'harbor-downtown', id: 'loc_downtown', merchant_id: 'm_harbor_coffee', time_zone: null, tz_rule: null }],
  user: { id: 'u_1001' },
  points: [{ points_experience_id: 'beans', balance: '450' }],
  rewards: [reward],
  points_products: [product],
};
const rewardsOnly: Snapshot = { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [reward] };
const productsOnly: Snapshot = { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, points_products: null };
// A list read back from a snapshot: readonly, possibly absent.
const firstReward: RewardRecord | undefined = full.rewards?.[0];

const basket: QualifyRequest = {
  redemption_venue: 'instore',
  order_timestamp: null,
  location_uid: 'harbor-downtown',
  subtotal: '15.45',
  handoff: null,
  items: [{ id: 'latte', name: 'Latte', price: 4.5, quantity: 2, categories: null, modifiers: [{ id: 'oat', price: '0.75', item_base_price: null }] }],
};
const frozenItems = Object.freeze([{ id: 'latte', price: '4.50' }] as const);
const fromFrozen: QualifyRequest = { items: frozenItems };

/** A reason's figure, read without a cast: `code` discriminates the reason. */
export function figureOf(reason: ExplainReason): string | number | null {
  switch (reason.code) {
    case 'BELOW_MINIMUM': {
      const remaining: string = reason.remaining;
      return remaining;
    }
    case 'INSUFFICIENT_POINTS': {
      const needed: number = reason.points_needed;
      return needed;
    }
    case 'PENDING_ORDER':
    case 'CLAIMED_ELSEWHERE':
      // @ts-expect-error a hold has no figure
      return reason.remaining;
    default:
      return null;
  }
}

export async function exact(): Promise<void> {
  const q = await createQualifier(full);
  for (const entry of q.explain(basket).entries) {
    const reasons: ExplainReason[] = entry.reasons;
    for (const reason of reasons) {
      if (reason.code === 'BELOW_MINIMUM') {
        const below: BelowMinimumReason = reason;
        console.log(below.remaining.length);
      }
      console.log(figureOf(reason), formatReason(reason, { locale: 'es' }));
    }
  }
  const entry: ExplainEntry | undefined = q.explain(fromFrozen).entries[0];
  // noUncheckedIndexedAccess: an index may be out of range.
  // @ts-expect-error entries[0] may be undefined
  const unchecked: ExplainEntry = q.explain(basket).entries[0];
  q.setSnapshot(rewardsOnly);
  q.setSnapshot(productsOnly);
  console.log(entry, unchecked, firstReward);
  q.dispose();
}

// Misspelt or misplaced members are type errors (at run time they would be ignored).
export const misspelt: Snapshot[] = [
  // @ts-expect-error a misspelt list (rewrds) leaves neither rewards nor points_products
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewrds: [reward] },
  // @ts-expect-error a snapshot names rewards or points_products
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' } },
  // @ts-expect-error a misspelt member beside a list (generatd_at)
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [], generatd_at: 'x' },
  // @ts-expect-error only schema_version 1 is read
  { schema_version: 2, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [] },
  // @ts-expect-error merchant.id is required
  { schema_version: 1, merchant: {}, user: { id: 'u' }, rewards: [] },
  // @ts-expect-error a misspelt record member (minimun)
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [{ id: 'r', minimun: 15 }] },
  // @ts-expect-error retire_at belongs to rewards, not points products
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, points_products: [{ id: 'p', retire_at: null }] },
  // @ts-expect-error a day is three lowercase letters
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [{ id: 'r', time_restrictions: [{ days: ['Monday'], start: '07:00', end: '11:00' }] }] },
  // @ts-expect-error a hold is PENDING_ORDER or CLAIMED_ELSEWHERE
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [{ id: 'r', hold: 'HELD' }] },
  // @ts-expect-error a misspelt location member (merchant)
  { schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [], locations: [{ uid: 'l', merchant: 'm' }] },
];

// @ts-expect-error a misspelt basket member (subtotl)
export const misspeltBasket: QualifyRequest = { subtotl: '5.00' };
// @ts-expect-error redemption_venue is instore or online (null is a 400)
export const nullVenue: QualifyRequest = { redemption_venue: null };

export function misreadReason(reason: ExplainReason): void {
  // @ts-expect-error remaining is BELOW_MINIMUM's, not every reason's
  console.log(reason.remaining);
  if (reason.code === 'INSUFFICIENT_POINTS') {
    // @ts-expect-error INSUFFICIENT_POINTS carries points_needed, not remaining
    console.log(reason.remaining);
  }
  // @ts-expect-error not a reason code
  if (reason.code === 'BELOW_MINIMUN') console.log(reason);
}
