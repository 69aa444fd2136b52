// What a kiosk may promise for an order it cannot confirm now (the `offline` option): 'never'
// sends it at full price; 'provisional' keeps the offer when the local engine gives it a discount
// of at most maxDiscount. Decided while no attempt may have reached the service (never after: the
// body is then frozen), though 'provisional' may still promise the offer a frozen order carries
// (so that a refusal later has a known shortfall). What the local engine would discount comes from
// the guest's holds (web/offline/holds/: counting the guest's other orders as the outbox holds them now),
// handed in; the decision is taken under the guest's lock, so two processes never both promise.
import { centsOf, decimalOfCents } from '../../account/money_text.js';
import { maybeSent } from './order_record.js';

/** Validated `offline` policy: { redeem: 'never' | 'provisional', maxDiscountCents } (internal). */
export function offlinePolicy(offline = {}) {
  if (offline === null || typeof offline !== 'object') throw new TypeError('offline must be an object');
  const { redeem = 'never', maxDiscount } = offline;
  if (redeem !== 'never' && redeem !== 'provisional') {
    throw new TypeError("offline.redeem must be 'never' or 'provisional'");
  }
  let maxDiscountCents = Infinity;
  if (maxDiscount !== undefined && maxDiscount !== Infinity) {
    maxDiscountCents = centsOf(maxDiscount, { round: 'up' }); // never over-promise
    if (maxDiscountCents === null) {
      throw new TypeError('offline.maxDiscount must be a non-negative decimal amount, e.g. "5.00" or 5');
    }
  }
  return { redeem, maxDiscountCents };
}

// The local engine's discount for the order's offer when 'provisional' may promise it (above 0,
// at most maxDiscount), in cents; else null. An outbox that cannot be read now promises nothing.
async function provisionalCents(order, policy, holds) {
  if (!order.offer || policy.redeem !== 'provisional') return null;
  const discount = await holds.discountFor(order).catch(() => null);
  const cents = discount === null ? null : centsOf(discount, { round: 'up' });
  return cents !== null && cents > 0 && cents <= policy.maxDiscountCents ? cents : null;
}

/**
 * Applies `policy` to `order` once (the local discount from `holds`, the guest's GuestHolds:
 * discountFor(order)): sets what it promises and, while nothing may have been sent, takes off an
 * offer it may not promise. True when it changed the order.
 */
export async function applyOfflinePolicy(order, policy, holds) {
  if (order.policyApplied) return false;
  const cents = await provisionalCents(order, policy, holds);
  order.policyApplied = true;
  if (cents !== null) order.promisedDiscount = decimalOfCents(cents);
  if (maybeSent(order)) return true;
  if (cents === null) {
    order.offer = null;
    order.promisedDiscount = '0.00';
    delete order.body.rewards;
    delete order.body.points_products;
  }
  return true;
}
