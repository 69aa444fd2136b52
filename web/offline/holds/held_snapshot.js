// The snapshot the hybrid's engine answers from: the service's snapshot with what undecided
// orders hold taken off. A reward redeemed by one of this device's pending orders is marked
// `hold: 'PENDING_ORDER'`, one claimed by another kiosk `hold: 'CLAIMED_ELSEWHERE'` (the engine
// gives those codes); points debited by pending orders, or held by other kiosks' claims, come off
// `points[].balance` (so INSUFFICIENT_POINTS and points_needed come out right). The service's
// snapshot itself is never changed.

// The balance of `experience` in `snapshot`, as a number (a missing experience: 0).
function balanceOf(snapshot, experience) {
  const entry = (snapshot.points ?? []).find((p) => p?.points_experience_id === experience);
  const balance = Number(entry?.balance ?? 0);
  return Number.isFinite(balance) ? balance : 0;
}

/** The points experience a points product of `snapshot` is paid from ('' when none). */
export function experienceOf(snapshot, product) {
  return product?.points_experience_id ?? snapshot.points?.[0]?.points_experience_id ?? '';
}

/**
 * The points each experience has held: { [experience]: points } from the points products' ids
 * (pending orders: `pointsProducts`, priced by the snapshot's records) and `claimedPoints`
 * (other kiosks' claims: { [experience]: points }).
 */
export function heldPoints(snapshot, { pointsProducts = [], claimedPoints = {} } = {}) {
  const held = { ...claimedPoints };
  for (const id of pointsProducts) {
    const product = (snapshot.points_products ?? []).find((p) => p?.id === id);
    const points = Number(product?.points ?? 0);
    if (!product || !(points > 0)) continue;
    const experience = experienceOf(snapshot, product);
    held[experience] = (held[experience] ?? 0) + points;
  }
  return held;
}

/**
 * `snapshot` with `holds` ({ rewards: ids of this device's pending orders, claimedRewards: ids
 * claimed elsewhere, pointsProducts, claimedPoints }) applied; the same object when nothing is held.
 */
export function heldSnapshot(snapshot, holds) {
  if (snapshot === null || typeof snapshot !== 'object') return snapshot;
  const pending = new Set(holds.rewards ?? []);
  const claimed = new Set(holds.claimedRewards ?? []);
  const points = heldPoints(snapshot, holds);
  const heldRewards = (snapshot.rewards ?? []).some((r) => pending.has(r?.id) || claimed.has(r?.id));
  if (!heldRewards && Object.keys(points).length === 0) return snapshot;
  const derived = { ...snapshot };
  if (heldRewards) {
    derived.rewards = snapshot.rewards.map((r) =>
      pending.has(r?.id) ? { ...r, hold: 'PENDING_ORDER' } : claimed.has(r?.id) ? { ...r, hold: 'CLAIMED_ELSEWHERE' } : r,
    );
  }
  if (Array.isArray(snapshot.points)) {
    derived.points = snapshot.points.map((p) =>
      points[p?.points_experience_id] > 0 ? { ...p, balance: Math.max(0, balanceOf(snapshot, p.points_experience_id) - points[p.points_experience_id]) } : p,
    );
  }
  return derived;
}
