// What the hybrid's engine must count as spent for the guest on screen: the offers of this
// device's undecided orders (pending_holds.js), and of orders billed with their offer since the
// snapshot in hand was read (until a refresh brings the service's own state). derive(snapshot)
// gives the snapshot the engine loads (held_snapshot.js); withheld(entry, offer) says why a
// checkout may not promise an offer the engine no longer gives.
import { pendingHolds } from './pending_holds.js';
import { heldPoints, heldSnapshot, experienceOf } from './held_snapshot.js';

const HOLD_CODES = new Set(['PENDING_ORDER', 'CLAIMED_ELSEWHERE']);

export class GuestHolds {
  #orders = [];
  #billed = [];
  #claims = [];
  #claimsAsOf = 0;
  #key = '';

  /** The holds of the derived snapshot, as one comparable text. */
  get key() {
    return this.#key;
  }

  /** The guest's undecided orders now (their holds: pending_holds.js); true when what they hold changed. */
  setOrders(orders) {
    this.#orders = orders;
    return this.#rekey();
  }

  /**
   * The guest's live claims at the store hub (or [] when it cannot tell) and the time of the
   * service's snapshot (a spend it already shows is not counted); true when what they hold changed.
   */
  setClaims(claims, snapshotTime) {
    this.#claims = claims ?? [];
    this.#claimsAsOf = Date.parse(snapshotTime ?? '') || 0;
    return this.#rekey();
  }

  /** An order billed with its offer: held until the snapshot is the service's after it. */
  billed(order) {
    this.#billed.push(order);
    return this.#rekey();
  }

  /** How many billed orders are held now: refreshed(mark) forgets those, once a refresh started after them is in hand. */
  mark() {
    return this.#billed.length;
  }

  /** A snapshot read after the first `mark` billings (default: all) is in hand. */
  refreshed(mark = this.#billed.length) {
    this.#billed = this.#billed.slice(mark);
    return this.#rekey();
  }

  /** The holds counted against `order` (or against a new order when null). */
  holds(order = null) {
    const orders = new Map([...this.#billed, ...this.#orders].map((o) => [JSON.stringify([o.owner, o.basketId]), o]));
    const mine = pendingHolds([...orders.values()], order);
    // Claims of other baskets: another kiosk's, or this one's for orders already settled.
    const own = new Set([...orders.values()].map((o) => o.basketId));
    if (order !== null) own.add(order.basketId);
    const claimedRewards = [];
    const claimedPoints = {};
    for (const claim of this.#claims) {
      if (own.has(claim.basket_id)) continue;
      if (claim.state === 'spent' && claim.billed_at && Date.parse(claim.billed_at) <= this.#claimsAsOf) continue; // the snapshot shows it
      if (claim.reward_id) claimedRewards.push(claim.reward_id);
      else if (claim.points_experience_id) claimedPoints[claim.points_experience_id] = (claimedPoints[claim.points_experience_id] ?? 0) + (Number(claim.points) || 0);
    }
    return { ...mine, claimedRewards, claimedPoints };
  }

  /** The snapshot the engine loads: `snapshot` with every hold applied. */
  derive(snapshot) {
    return heldSnapshot(snapshot, this.holds());
  }

  /** The snapshot `order`'s own promise is decided on: only what was held before it counts. */
  deriveFor(snapshot, order) {
    return heldSnapshot(snapshot, this.holds(order));
  }

  /**
   * Why `offer` may not be promised, from its explain `entry` on the derived snapshot
   * ({ kind, id, code, message }), or null: a held reward, or points that the holds leave short.
   */
  withheld(snapshot, entry, offer) {
    if (!entry || entry.qualifies) return null;
    const reason = entry.reasons.find((r) => HOLD_CODES.has(r.code));
    if (reason) return { kind: offer.kind, id: offer.id, code: reason.code, message: reason.message };
    const short = entry.reasons.find((r) => r.code === 'INSUFFICIENT_POINTS');
    if (!short || offer.kind !== 'points_product') return null;
    const product = (snapshot.points_products ?? []).find((p) => p?.id === offer.id);
    if (!(heldPoints(snapshot, this.holds())[experienceOf(snapshot, product)] > 0)) return null;
    return { kind: offer.kind, id: offer.id, code: short.code, message: `${short.message} (points are held by orders not confirmed yet)` };
  }

  #rekey() {
    const { rewards, pointsProducts, claimedRewards, claimedPoints } = this.holds();
    const key = JSON.stringify([[...rewards].sort(), [...pointsProducts].sort(), [...claimedRewards].sort(), Object.entries(claimedPoints).sort()]);
    const changed = key !== this.#key;
    this.#key = key;
    return changed;
  }
}
