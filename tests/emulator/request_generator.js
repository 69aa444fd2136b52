// 1,000 generated requests for the differential test (differential.test.js), the same sequence
// for every seed: qualifying calls, baskets walked through every state, account reads with their
// filters and conditional GETs, sandbox grants, purchases, their lists and filters, cards and the
// fraud report, malformed bodies, wrong credentials, versions, media types and methods, unknown
// routes and encodings. Each is { method, path, headers, body } for fetch().
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
const MEDIA_TYPE = 'application/vnd.service-v1+json';

/** mulberry32: a small deterministic PRNG. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const users = fixture.users.map((u) => u.id);
const userOf = (id) => fixture.users.find((u) => u.id === id);
const keyOf = (id) => fixture.merchants.find((m) => m.id === userOf(id).merchant_id).merchant_key;
const clientOf = (id) => fixture.clients.find((c) => c.merchant_id === userOf(id).merchant_id).client_id;
const rewardIds = fixture.rewards.map((r) => r.id);
const productIds = fixture.points_products.map((p) => p.id);
const campaigns = fixture.campaigns.map((c) => c.external_uid_hashid);
const locations = fixture.merchants.flatMap((m) => m.locations.map((l) => l));
const ITEMS = [
  { id: 'latte', price: '5.25', categories: ['coffee'] },
  { id: 'cappuccino', price: '4.75', categories: ['coffee'] },
  { id: 'drip_coffee', price: '2.50', categories: ['coffee'] },
  { id: 'croissant', price: '3.25', categories: ['pastry'] },
  { id: 'muffin', price: '3.00', categories: ['pastry'] },
  { id: 'sourdough', price: '8.00' },
  { id: 'cookie', price: '1.99' },
  { id: 'oat_milk', price: '0.75', categories: ['modifier'] },
];
const TIMES = ['2026-11-24T13:15:00Z', '2026-11-24T08:00:00-05:00', '2026-11-23T23:30:00-08:00', '2026-11-24T13:20:01Z', '2026-11-10T12:00:00Z', 'yesterday', '2026-02-30T10:00:00Z'];
const STATES = ['checkout', 'placed', 'billed', 'completed', 'voided', 'refunded', 'lost'];

function loyaltyHeaders(r, user) {
  const headers = {};
  if (!r.chance(0.04)) headers.Authorization = `Bearer ${r.chance(0.03) ? 'at_wrong' : userOf(user).access_token}`;
  if (!r.chance(0.04)) headers['Merchant-Key'] = r.chance(0.03) ? keyOf(r.pick(users)) : keyOf(user);
  if (!r.chance(0.04)) headers.Accept = r.chance(0.05) ? 'application/json' : r.chance(0.1) ? `text/plain, ${MEDIA_TYPE};q=0.9` : MEDIA_TYPE;
  return headers;
}

function consumerHeaders(r, user) {
  const headers = {};
  if (!r.chance(0.04)) headers.Authorization = `Bearer ${r.chance(0.03) ? 'at_wrong' : userOf(user).access_token}`;
  if (!r.chance(0.04)) headers['X-ClientId'] = r.chance(0.04) ? clientOf(r.pick(users)) : clientOf(user);
  if (!r.chance(0.04)) headers['Accept-Version'] = r.chance(0.05) ? 'v3.0' : 'v4.0';
  if (!r.chance(0.03)) headers.Accept = 'application/json';
  return headers;
}

function items(r) {
  const list = [];
  for (let i = r.int(0, 4); i > 0; i--) {
    const item = { ...r.pick(ITEMS) };
    if (r.chance(0.3)) item.quantity = r.int(1, 3);
    if (r.chance(0.03)) item.price = r.pick(['-1.00', 'free', 12, null]);
    list.push(item);
  }
  return list;
}

function basketFields(r) {
  const fields = { items: items(r) };
  if (r.chance(0.8)) fields.redemption_venue = r.pick(['instore', 'online', 'online', 'drive_thru']);
  if (r.chance(0.8)) fields.location_uid = r.pick(locations).uid;
  if (r.chance(0.7)) fields.order_timestamp = r.pick(TIMES);
  if (r.chance(0.3)) fields.subtotal = r.pick(['19.00', '5.00', '250.00', '0', '1e3']);
  return fields;
}

// A body the engine must refuse or read strangely: cut short, wrong types, not JSON at all.
function malformed(r, valid) {
  const text = JSON.stringify(valid);
  return r.pick([
    text.slice(0, r.int(0, Math.max(0, text.length - 1))),
    '{"items":[}',
    '[]',
    'null',
    '{"items":"latte"}',
    '\uFEFF{}',
    `${text}garbage`,
    '{"items":[{"id":"x","price":"1.00","quantity":0}]}',
    '{"items":[{"id":"x","price":"1.00"}],"redemption_venue":null}',
    '',
  ]);
}

function json(r, value) {
  return r.chance(0.06) ? malformed(r, value) : JSON.stringify(value);
}

function request(method, path, headers, body) {
  if (body !== undefined) headers = { 'Content-Type': 'application/json', ...headers };
  return { method, path, headers, body };
}

const GENERATORS = [
  // The qualifying endpoint.
  [24, (r) => {
    const user = r.pick(users);
    return request('POST', '/api/baskets/qualifying', loyaltyHeaders(r, user), json(r, basketFields(r)));
  }],
  // Baskets: a small pool of ids per user, so that each walks through states, re-sends and 409s.
  [22, (r) => {
    const user = r.pick(users);
    const body = { ...basketFields(r), id: `b-${user}-${r.int(1, 6)}` };
    if (r.chance(0.85)) body.state = r.pick(STATES);
    if (r.chance(0.35)) body.rewards = [r.pick(rewardIds)];
    else if (r.chance(0.2)) body.points_products = [r.pick(productIds)];
    return request('POST', '/api/baskets', loyaltyHeaders(r, user), json(r, body));
  }],
  // The account read, its filters and its conditional GET.
  [14, (r) => {
    const user = r.pick(users);
    const query = [];
    if (r.chance(0.3)) query.push(`location_uid=${r.pick(locations).uid}`);
    if (r.chance(0.15)) query.push(`location_id=${r.pick(locations).id}`);
    if (r.chance(0.25)) query.push(`redemption_venue=${r.pick(['instore', 'online', 'moon'])}`);
    if (r.chance(0.2)) query.push(`reward_states[]=${r.pick(['redeemable', 'redeemed', 'expired'])}`);
    const headers = loyaltyHeaders(r, user);
    if (r.chance(0.15)) headers['If-None-Match'] = r.pick(['"nope"', '*', 'W/"x", "y"']);
    return request('GET', `/api/account${query.length ? `?${query.join('&')}` : ''}`, headers);
  }],
  // Sandbox grants.
  [8, (r) => {
    const user = r.pick(users);
    const body = { campaign_id: r.chance(0.1) ? 'cmp_nope' : r.pick(campaigns), user_id: r.chance(0.1) ? r.pick(users) : user };
    return request('POST', '/rewards/grant', consumerHeaders(r, user), json(r, body));
  }],
  // Simulated purchases.
  [8, (r) => {
    const user = r.pick(users);
    const merchant = userOf(user).merchant_id;
    const purchase = {
      merchant_id: r.chance(0.05) ? 'm_other' : merchant,
      location_id: r.pick(locations).id,
      user_id: r.chance(0.05) ? r.pick(users) : user,
      amount: r.pick(['12.50', '25.00', '0.99', '-3', 'lots']),
      purchased_at: r.pick(TIMES),
    };
    if (r.chance(0.2)) purchase.card_number = r.pick(['4111111111111111', '4000 0000 0000 0002', 'x']);
    return request('POST', '/purchases', consumerHeaders(r, user), json(r, { purchase }));
  }],
  // Purchase and reward lists with their filters.
  [10, (r) => {
    const user = r.pick(users);
    const query = [];
    if (r.chance(0.5)) {
      if (r.chance(0.3)) query.push(`limit=${r.pick(['1', '10', '0', '1001', 'ten'])}`);
      if (r.chance(0.3)) query.push(`purchased_since=${encodeURIComponent(r.pick(TIMES))}`);
      if (r.chance(0.2)) query.push(`sources[]=${r.pick(['pos', 'sandbox'])}`);
      if (r.chance(0.2)) query.push(`location_ids[]=${r.pick(locations).id}`);
      return request('GET', `/purchases${query.length ? `?${query.join('&')}` : ''}`, consumerHeaders(r, user));
    }
    if (r.chance(0.4)) query.push(`states[]=${r.pick(['redeemable', 'redeemed', 'expired'])}`);
    if (r.chance(0.2)) query.push(`campaign_ids[]=${r.pick(campaigns)}`);
    if (r.chance(0.2)) query.push(`ids=${r.pick(rewardIds)}`);
    return request('GET', `/rewards${query.length ? `?${query.join('&')}` : ''}`, consumerHeaders(r, user));
  }],
  // The emulator's helpers: cards and the fraud report.
  [5, (r) => {
    const user = r.pick(users);
    if (r.chance(0.5)) {
      const body = { card_number: r.pick(['4111111111111111', '5500 0000 0000 0004', '12', '']), replace: r.chance(0.3) };
      return request('POST', '/emulator/cards', consumerHeaders(r, user), json(r, body));
    }
    const query = r.chance(0.3) ? `?user_id=${r.pick(users)}` : '';
    return request('GET', `/emulator/fraud_report${query}`, consumerHeaders(r, user));
  }],
  // Wrong methods, unknown routes, encoded bodies, HEAD.
  [9, (r) => {
    const user = r.pick(users);
    const route = r.pick(['/api/baskets/qualifying', '/api/baskets', '/api/account', '/rewards/grant', '/purchases', '/rewards', '/emulator/cards', '/emulator/fraud_report', '/api', '/api/baskets/42', '/', '/hub/claims']);
    const kind = r.int(0, 3);
    if (kind === 0) return request(r.pick(['PUT', 'DELETE', 'PATCH']), route, loyaltyHeaders(r, user));
    if (kind === 1) return request('GET', route, loyaltyHeaders(r, user));
    if (kind === 2) return request('HEAD', r.pick(['/api/account', '/rewards', '/nowhere']), route.startsWith('/api') ? loyaltyHeaders(r, user) : consumerHeaders(r, user));
    const headers = { ...loyaltyHeaders(r, user), 'Content-Encoding': r.pick(['gzip', 'identity', 'br']) };
    return request('POST', '/api/baskets/qualifying', headers, JSON.stringify(basketFields(r)));
  }],
];

const TOTAL_WEIGHT = GENERATORS.reduce((sum, [weight]) => sum + weight, 0);

/** `count` requests from `seed`, plus the fixed ones that reach the size limits. */
export function generateRequests(count, seed = 37) {
  const r = random(seed);
  const requests = [];
  while (requests.length < count) {
    let roll = r.int(1, TOTAL_WEIGHT);
    for (const [weight, generate] of GENERATORS) {
      roll -= weight;
      if (roll <= 0) {
        requests.push(generate(r));
        break;
      }
    }
  }
  // A basket over 64 KiB (413) and a body over 1 MiB (413), once each.
  const big = { items: Array.from({ length: 1200 }, (_, i) => ({ id: `item-${i}`, price: '1.00', categories: ['pastry'] })) };
  requests[count >> 1] = request('POST', '/api/baskets/qualifying', loyaltyHeaders(random(1), 'u_1001'), JSON.stringify(big));
  requests[(count >> 1) + 1] = request('POST', '/api/baskets', loyaltyHeaders(random(1), 'u_1001'), 'x'.repeat((1 << 20) + 1));
  return requests;
}
