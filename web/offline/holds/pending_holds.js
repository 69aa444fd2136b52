// What the undecided orders of a guest hold: the offer each one carries (a reward it redeems, a
// points product whose points it debits) is spent until the service decides the order, so the
// local answers must not offer it again. An order holds its offer while it carries one (an order
// the offline policy took its offer off, or placed without it, holds nothing).

/** The offer `order` holds ({ kind, id }), or null. */
export function heldOffer(order) {
  return order?.offer ?? null;
}

/**
 * Whether `order` holds its offer against `other`, an order whose promise is being decided (both
 * of one guest: an order queued before the guest's account was read, with the guest's
 * credentials, is the guest's too): it does when its own promise was decided already
 * (`policyApplied`), or when it was queued before `other`. An undecided order queued after
 * `other` does not: it counts `other` when its own turn comes, since `other` is decided by then.
 * So two orders never both count nothing, whatever their processes' clocks (their sequences) say,
 * as long as each decision is taken under the guest's lock.
 */
export function holdsAgainst(order, other) {
  if (order.basketId === other.basketId) return false;
  return order.policyApplied === true || order.sequence < other.sequence;
}

/**
 * The offers held by `orders` (the undecided orders of one guest): { rewards: [ids], pointsProducts:
 * [ids, one per order] }. With `against` (an order whose promise is decided), only the orders that
 * hold against it (holdsAgainst).
 */
export function pendingHolds(orders, against = null) {
  const rewards = [];
  const pointsProducts = [];
  for (const order of orders) {
    if (against !== null && !holdsAgainst(order, against)) continue;
    const offer = heldOffer(order);
    if (offer === null) continue;
    (offer.kind === 'reward' ? rewards : pointsProducts).push(offer.id);
  }
  return { rewards, pointsProducts };
}
