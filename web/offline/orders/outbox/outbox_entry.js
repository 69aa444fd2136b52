// What every order outbox checks and sorts the same way: whether a stored value is an order, the
// copy an outbox keeps, the queue order, and the tags of quarantined entries.

/** Why `value` is not a stored order, or null when it is one. */
export function orderProblem(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an order: not a JSON object';
  const { owner, basketId, sequence, body } = value;
  if (typeof owner !== 'string' || owner.length === 0) return 'not an order: no owner (a non-empty string)';
  if (typeof basketId !== 'string' || basketId.length === 0) return 'not an order: no basketId (a non-empty string)';
  if (typeof sequence !== 'number' || !Number.isFinite(sequence)) return 'not an order: no numeric sequence';
  if (body === null || typeof body !== 'object' || body.id !== basketId) return 'not an order: no body whose id is basketId';
  return null;
}

/** A copy of `order` to store; a TypeError when it is not one. */
export function checkOrder(order) {
  if (orderProblem(order) !== null) {
    throw new TypeError('an order needs owner, basketId, a numeric sequence and a body whose id is basketId');
  }
  return structuredClone(order);
}

/** Queue order: by increasing sequence. */
export const bySequence = (a, b) => a.sequence - b.sequence;
/** Quarantined entries, oldest first. */
export const byQuarantineTime = (a, b) => a.quarantinedAt - b.quarantinedAt;

/** A short random tag that keeps two quarantine entries of one moment apart. */
export const randomTag = () => Math.random().toString(36).slice(2, 10);
