// What the undecided orders of a guest hold: the offer each one carries (a reward it redeems, a
// points product whose points it debits) is spent until the service decides the order, so the
// local answers must not offer it again. An order holds its offer while it carries one (an
// order the offline policy took its offer off, or placed without it, holds nothing).

/** The offer `order` holds ({ kind, id }), or null. */
export function heldOffer(order) {
  return order?.offer ?? null;
}

/**
 * The offers held by `orders` (the guest's undecided orders): { rewards: [ids], pointsProducts:
 * [ids, one per order] }. With `before` (an order), only the orders of its owner queued before it:
 * what holds against that order when its own promise is decided.
 */
export function pendingHolds(orders, before = null) {
  const rewards = [];
  const pointsProducts = [];
  for (const order of orders) {
    if (before !== null && (order.owner !== before.owner || order.basketId === before.basketId || !(order.sequence < before.sequence))) continue;
    const offer = heldOffer(order);
    if (offer === null) continue;
    (offer.kind === 'reward' ? rewards : pointsProducts).push(offer.id);
  }
  return { rewards, pointsProducts };
}
