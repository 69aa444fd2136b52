// The record an outbox keeps of an order billed with its offer, once the order itself has left:
// the offer the guest spent, and when the loyalty service billed it, on its clock (`billedAt`,
// null until an account read made after the billing says it). It holds the offer against every
// account snapshot generated before `billedAt` (and against every snapshot while it is null), in
// every tab and process on the outbox, until it expires. It is never an order: no outbox lists it
// with its orders, and no replay sends it.

// Kept at most this long, whatever the hybrid's maxStaleMs (which may be Infinity): the longest
// a store hub keeps a claim (366 days).
const LONGEST_KEPT_MS = 366 * 24 * 3600 * 1000;

const isOffer = (offer) => offer !== null && typeof offer === 'object' && (offer.kind === 'reward' || offer.kind === 'points_product') && typeof offer.id === 'string' && offer.id !== '';

/** Why `value` is not a billing record, or null when it is one. */
export function billedProblem(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a billing record: not a JSON object';
  const { owner, basketId, offer, billedAt, recordedAt, expiresAt } = value;
  if (typeof owner !== 'string' || owner === '') return 'not a billing record: no owner (a non-empty string)';
  if (typeof basketId !== 'string' || basketId === '') return 'not a billing record: no basketId (a non-empty string)';
  if (!isOffer(offer)) return 'not a billing record: no offer ({ kind, id })';
  if (billedAt !== null && (typeof billedAt !== 'string' || Number.isNaN(Date.parse(billedAt)))) return 'not a billing record: billedAt is neither null nor a time';
  if (!Number.isFinite(recordedAt) || !Number.isSafeInteger(expiresAt) || expiresAt < 0) return 'not a billing record: no numeric recordedAt and expiresAt (epoch ms)';
  return null;
}

/** A copy of `record` to store; a TypeError when it is not one. */
export function checkBilled(record) {
  const problem = billedProblem(record);
  if (problem !== null) throw new TypeError(`a billing record needs owner, basketId, offer, billedAt, recordedAt and expiresAt (${problem})`);
  return structuredClone(record);
}

/**
 * The record of `order`, billed with its offer just now: kept for `keptMs` (the billing hybrid's
 * maxStaleMs, at most 366 days) from `now` (epoch ms). An order whose owner is not known yet
 * keeps the credentials it was placed with, so that its guest's holds count it.
 */
export function billedRecord(order, { keptMs, now = Date.now() }) {
  const record = {
    owner: order.owner,
    merchantId: order.merchantId ?? null,
    userId: order.userId ?? null,
    basketId: order.basketId,
    offer: { kind: order.offer.kind, id: order.offer.id },
    billedAt: null,
    recordedAt: now,
    expiresAt: Math.floor(now + Math.min(LONGEST_KEPT_MS, Math.max(0, keptMs))),
  };
  if (order.replay && order.merchantId == null) record.replay = order.replay;
  return record;
}

/** Whether `record` has expired at `now` (epoch ms): no snapshot it holds against may answer any more. */
export const billedExpired = (record, now = Date.now()) => !(record.expiresAt > now);

/** Of two records of one basket, the one that holds longer (null billedAt holds against every snapshot). */
export function longerHold(a, b) {
  if (a.billedAt === null) return a;
  if (b.billedAt === null) return b;
  return Date.parse(a.billedAt) >= Date.parse(b.billedAt) ? a : b;
}
