// Deterministic benchmark workloads, shared by the JS bench (bench/run.mjs) and the native one
// (lq_native_bench): the same seeded generator always writes the same bytes.
//
//   node bench/workloads.mjs [dir]     writes the files below into dir (default build/bench)
//
// Per workload W in S, M, L (rewards / points products / basket lines of issue 6):
//   W.snapshot.json    the account snapshot (contract section 1)
//   W.requests.jsonl   64 baskets, one JSON request text per line (exactly what JSON.stringify
//                      gives, so the JS and native benches read identical bytes)
// plus load.snapshot.json (5,000 rewards) and malformed.requests.jsonl (requests the engine must
// refuse with a 400, one per way of being wrong).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const defaultDir = path.join(root, 'build/bench');

/** Issue 6: rewards, points products and basket lines of each workload. */
export const WORKLOADS = {
  S: { rewards: 10, pointsProducts: 5, items: 5 },
  M: { rewards: 50, pointsProducts: 20, items: 30 },
  L: { rewards: 500, pointsProducts: 100, items: 200 },
};
export const LOAD_REWARDS = 5000;
export const BASKETS_PER_WORKLOAD = 64;
/** Every basket carries this order time, so answers do not depend on the clock. */
export const ORDER_TIME = '2026-11-24T13:15:00Z';
export const NOW_MS = Date.parse(ORDER_TIME);

// mulberry32: small, fast and the same on every engine.
function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const money = (cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

// A catalogue proportional to the basket size: product ids, categories, modifier ids.
function catalogue(items) {
  const products = Array.from({ length: Math.max(8, items * 2) }, (_, i) => `prod_${i}`);
  const categories = Array.from({ length: Math.max(4, Math.ceil(items / 3)) }, (_, i) => `cat_${i}`);
  const modifiers = Array.from({ length: 12 }, (_, i) => `mod_${i}`);
  return { products, categories, modifiers };
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const LOCATIONS = [
  { uid: 'loc-downtown', id: 'hash_downtown' },
  { uid: 'loc-airport', id: 'hash_airport', tz_rule: 'CST6CDT,M3.2.0,M11.1.0' },
  { uid: 'loc-harbor', id: 'hash_harbor' },
];

function offerRecord(rng, shop, id, kind) {
  const type = rng.pick(['amount', 'amount', 'percent', 'item', 'item', 'fixed_price']);
  const record = {
    id,
    value: type === 'percent' ? rng.int(5, 50) : money(rng.int(1, 40) * 25),
    minimum: rng.chance(0.25) ? money(rng.int(10, 60) * 100) : null,
    maximum: rng.chance(0.2) ? money(rng.int(3, 15) * 100) : null,
    label: `Offer ${id}`,
    state: kind === 'reward' && rng.chance(0.1) ? 'redeemed' : 'redeemable',
    type,
    products: [],
    fine_print: rng.chance(0.3) ? 'One per order. Not valid with other offers.' : '',
    restriction_location_ids: rng.chance(0.15) ? [rng.pick(LOCATIONS).id] : [],
  };
  if (kind === 'reward') {
    const days = rng.int(-10, 120);
    record.retire_at = rng.chance(0.2)
      ? null
      : new Date(Date.parse(ORDER_TIME) + days * 86400000).toISOString().replace('.000Z', 'Z');
  } else {
    record.points = rng.int(1, 40) * 50;
  }
  if (type === 'item') {
    record.item_kind = rng.pick(['free_item', 'free_item', 'bogo', 'modifier']);
    if (record.item_kind === 'modifier') {
      record.products = [rng.pick(shop.modifiers), rng.pick(shop.modifiers)];
    }
  }
  // About half the offers are restricted to some products or categories.
  if (record.products.length === 0 && rng.chance(0.5)) {
    const count = rng.int(1, 4);
    for (let i = 0; i < count; ++i) record.products.push(rng.pick(shop.products));
    if (rng.chance(0.4)) record.categories = [rng.pick(shop.categories)];
  }
  if (rng.chance(0.1)) record.redemption_venue = rng.pick(['instore', 'online']);
  if (rng.chance(0.1)) record.handoff = rng.pick(['delivery', 'pickup']);
  if (rng.chance(0.15)) {
    record.time_restrictions = [
      {
        days: DAYS.filter(() => rng.chance(0.6)),
        start: `${String(rng.int(5, 12)).padStart(2, '0')}:00`,
        end: `${String(rng.int(13, 23)).padStart(2, '0')}:30`,
      },
    ];
  }
  return record;
}

/** The account snapshot of a workload (object). */
export function makeSnapshot(spec, seed) {
  const rng = generator(seed);
  const shop = catalogue(spec.items);
  return {
    schema_version: 1,
    generated_at: '2026-11-24T12:00:00Z',
    merchant: { id: 'm_bench', time_zone: 'America/New_York', tz_rule: 'EST5EDT,M3.2.0,M11.1.0' },
    locations: [
      ...LOCATIONS.map((l) => ({ ...l, merchant_id: 'm_bench' })),
      { uid: 'loc-other', id: 'hash_other', merchant_id: 'm_other' },
    ],
    user: { id: 'u_bench' },
    points: [
      { points_experience_id: 'beans', balance: 1200 },
      { points_experience_id: 'stars', balance: 40 },
    ],
    rewards: Array.from({ length: spec.rewards }, (_, i) =>
      offerRecord(rng, shop, `rw_${String(i).padStart(5, '0')}`, 'reward'),
    ),
    points_products: Array.from({ length: spec.pointsProducts }, (_, i) => {
      const record = offerRecord(rng, shop, `pp_${String(i).padStart(4, '0')}`, 'points_product');
      if (rng.chance(0.2)) record.points_experience_id = 'stars';
      return record;
    }),
  };
}

/** `count` baskets of `spec.items` lines each (objects). */
export function makeRequests(spec, count, seed) {
  const rng = generator(seed);
  const shop = catalogue(spec.items);
  return Array.from({ length: count }, () => {
    const items = Array.from({ length: spec.items }, () => {
      const id = rng.pick(shop.products);
      const item = {
        id,
        name: `Product ${id}`,
        price: money(rng.int(150, 1800)),
        categories: [rng.pick(shop.categories)],
      };
      if (rng.chance(0.3)) item.categories.push(rng.pick(shop.categories));
      if (rng.chance(0.25)) item.quantity = rng.int(2, 3);
      if (rng.chance(0.3)) {
        item.modifiers = [{ id: rng.pick(shop.modifiers), name: 'Extra', price: money(rng.int(25, 150)) }];
      }
      return item;
    });
    const request = {
      redemption_venue: rng.chance(0.7) ? 'instore' : 'online',
      order_timestamp: ORDER_TIME,
      location_uid: rng.pick(['loc-downtown', 'loc-airport', 'loc-harbor', 'loc-other']),
      items,
    };
    if (rng.chance(0.6)) request.handoff = rng.pick(['pickup', 'delivery']);
    if (rng.chance(0.5)) {
      const total = items.reduce((sum, item) => sum + Math.round(Number(item.price) * 100) * (item.quantity ?? 1), 0);
      request.subtotal = money(total);
    }
    return request;
  });
}

/** One request per way of being wrong; each must be refused with a 400. */
export function makeMalformed() {
  const deep = '['.repeat(100) + ']'.repeat(100);
  return [
    '{"items": [',
    '[]',
    '"just a string"',
    '{"redemption_venue": "drive-thru"}',
    '{"order_timestamp": "2026-11-24 13:15"}',
    '{"items": [{"id": "prod_1", "price": "-1.00"}]}',
    '{"items": [{"id": "prod_1", "price": "abc"}]}',
    '{"items": [{"id": "prod_1", "quantity": 0}]}',
    '{"items": {"id": "prod_1"}}',
    `{"items": ${deep}}`,
  ];
}

/** Writes every workload file into `dir`; returns their paths by name. */
export function writeWorkloads(dir = defaultDir) {
  mkdirSync(dir, { recursive: true });
  const files = {};
  let seed = 20261124;
  for (const [name, spec] of Object.entries(WORKLOADS)) {
    const snapshot = path.join(dir, `${name}.snapshot.json`);
    const requests = path.join(dir, `${name}.requests.jsonl`);
    writeFileSync(snapshot, JSON.stringify(makeSnapshot(spec, seed++)));
    const lines = makeRequests(spec, BASKETS_PER_WORKLOAD, seed++).map((r) => JSON.stringify(r));
    writeFileSync(requests, `${lines.join('\n')}\n`);
    files[name] = { snapshot, requests };
  }
  const load = path.join(dir, 'load.snapshot.json');
  writeFileSync(
    load,
    JSON.stringify(makeSnapshot({ rewards: LOAD_REWARDS, pointsProducts: 100, items: 200 }, seed++)),
  );
  files.load = { snapshot: load };
  const malformed = path.join(dir, 'malformed.requests.jsonl');
  writeFileSync(malformed, `${makeMalformed().join('\n')}\n`);
  files.malformed = { requests: malformed };
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = writeWorkloads(process.argv[2] ? path.resolve(process.argv[2]) : defaultDir);
  for (const [name, paths] of Object.entries(files)) {
    console.log(`${name}: ${Object.values(paths).map((p) => path.relative(root, p)).join(', ')}`);
  }
}
