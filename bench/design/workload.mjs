// Deterministic benchmark workloads: a small café account and a large one.
const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-03-02T09:00:00Z');

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A snapshot of `rewards` rewards and `pointsProducts` points products; a basket of `items`. */
export function workload({ rewards, pointsProducts, items, seed = 7 }) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const products = Array.from({ length: 60 }, (_, i) => `p${i}`);
  const categories = ['coffee', 'tea', 'food', 'pastry', 'breakfast', 'cold'];
  const kinds = [
    { type: 'amount', value: '3.00' },
    { type: 'percent', value: 15, maximum: '5.00' },
    { type: 'item', item_kind: 'free_item', value: 0 },
    { type: 'item', item_kind: 'bogo', value: 0 },
    { type: 'item', item_kind: 'modifier', value: 0 },
    { type: 'fixed_price', value: '1.50' },
  ];
  const offer = (i) => {
    const kind = pick(kinds);
    const restricted = next() < 0.6;
    return {
      value: kind.value,
      minimum: next() < 0.2 ? '10.00' : null,
      maximum: kind.maximum ?? null,
      label: `Offer ${i}`,
      state: 'redeemable',
      type: kind.type,
      item_kind: kind.item_kind,
      products:
        kind.item_kind === 'modifier'
          ? ['m1', 'm2']
          : restricted
            ? [pick(products), pick(products)]
            : [],
      categories: restricted && next() < 0.5 ? [pick(categories)] : [],
      fine_print: 'Some fine print.',
      restriction_location_ids: next() < 0.1 ? ['hash_main'] : [],
      time_restrictions:
        next() < 0.1 ? [{ days: ['mon', 'tue'], start: '07:00', end: '11:00' }] : [],
    };
  };
  const snapshot = {
    schema_version: 1,
    generated_at: '2026-03-02T08:00:00Z',
    merchant: { id: 'm_cafe', time_zone: 'Europe/Berlin', tz_rule: 'CET-1CEST,M3.5.0,M10.5.0/3' },
    locations: [{ uid: 'cafe-main', id: 'hash_main' }],
    user: { id: 'u_7' },
    points: [{ points_experience_id: 'beans', balance: 5000 }],
    rewards: Array.from({ length: rewards }, (_, i) => ({
      id: `r${String(i).padStart(4, '0')}`,
      retire_at:
        next() < 0.7 ? new Date(NOW + Math.floor(next() * 90) * DAY_MS).toISOString() : null,
      ...offer(i),
    })),
    points_products: Array.from({ length: pointsProducts }, (_, i) => ({
      id: `pp${i}`,
      points: 100 + Math.floor(next() * 60) * 100,
      ...offer(i),
    })),
  };
  const request = {
    redemption_venue: 'online',
    location_uid: 'cafe-main',
    order_timestamp: '2026-03-02T09:00:00Z',
    subtotal: (items * 4.5).toFixed(2),
    items: Array.from({ length: items }, (_, i) => ({
      id: pick(products),
      name: `Item ${i}`,
      price: (1 + Math.floor(next() * 600) / 100).toFixed(2),
      categories: [pick(categories)],
      quantity: next() < 0.2 ? 2 : 1,
      modifiers:
        next() < 0.3 ? [{ id: pick(['m1', 'm2', 'm3']), name: 'Extra', price: '0.60' }] : [],
    })),
  };
  return { snapshot, request, now: NOW };
}

export const small = () => workload({ rewards: 10, pointsProducts: 4, items: 5 });
export const large = () => workload({ rewards: 500, pointsProducts: 50, items: 200 });

function batch(fn, calls) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; ++i) fn();
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

/**
 * Microseconds per call of each function in `fns` (name -> function). The functions take turns,
 * `rounds` batches of `calls` calls each, and each keeps its fastest batch: on a shared machine
 * the fastest batch is the least disturbed one, and taking turns exposes every candidate to the
 * same load.
 */
export function compareTimes(fns, { calls, rounds = 15 }) {
  const best = {};
  for (const [name, fn] of Object.entries(fns)) {
    batch(fn, calls); // warm up
    best[name] = Infinity;
  }
  for (let r = 0; r < rounds; ++r) {
    for (const [name, fn] of Object.entries(fns))
      best[name] = Math.min(best[name], batch(fn, calls));
  }
  return best;
}
