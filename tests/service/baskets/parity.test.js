// GET /api/account fed to the JS package answers exactly what POST /api/baskets/qualifying
// answers, for hundreds of generated baskets per user, before and after the accounts change.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  FIXED_NOW,
  account,
  basket,
  ensureWasm,
  prng,
  qualifying,
  scratchDir,
  serviceBinary,
  startService,
} from '../harness.js';

const BASKETS_PER_USER = 300;
const users = ['u_1001', 'u_1002', 'u_1003', 'u_2001'];

const scratch = scratchDir();
let service;
let createQualifier;
let QualifyError;

before(async () => {
  serviceBinary();
  ensureWasm();
  ({ createQualifier, QualifyError } = await import('../../../web/index.js'));
  service = await startService({ db: path.join(scratch.dir, 'parity.db'), now: true, delay: 3600 });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

const catalog = [
  { id: 'latte', categories: ['coffee', 'espresso'], prices: ['5.25', 4.75, '6.10'], drink: true },
  { id: 'cappuccino', categories: ['coffee', 'espresso'], prices: ['4.95', 5] , drink: true },
  { id: 'drip_coffee', categories: ['coffee'], prices: ['2.50', 3], drink: true },
  { id: 'peppermint_mocha', categories: ['coffee', 'seasonal'], prices: ['6.45'], drink: true },
  { id: 'croissant', categories: ['pastry', 'bakery'], prices: ['3.25', 3.5] },
  { id: 'muffin', categories: ['pastry', 'breakfast'], prices: ['3.75'] },
  { id: 'egg_sandwich', categories: ['breakfast', 'food', 'sandwich'], prices: ['6.50', 7] },
  { id: 'tote_bag', categories: ['merch'], prices: ['18.00'] },
  { id: 'sourdough', categories: ['bread'], prices: ['8.00', '7.25'] },
  { id: 'cookie', categories: ['cookie'], prices: ['2.25', 2] },
];
const modifiers = [
  { id: 'oat_milk', name: 'Oat milk', price: '0.75' },
  { id: 'extra_shot', name: 'Extra shot', price: 1 },
  { id: 'vanilla', name: 'Vanilla syrup', price: '0.50' },
];
const locations = ['harbor-downtown', 'harbor-brooklyn', 'harbor-airport', 'bakery-main', 'nowhere'];
const offsets = ['Z', '-05:00', '-06:00', '+05:30', '-08:00'];

function pad(n, width = 2) {
  return String(n).padStart(width, '0');
}

// An RFC 3339 instant between September 2026 and August 2027, in a random offset.
function timestamp(rng) {
  const ms = Date.UTC(2026, 8, 1) + Math.floor(rng.next() * 334 * 86_400_000);
  const offset = rng.pick(offsets);
  const minutes = offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(ms + minutes * 60_000);
  const fraction = rng.chance(0.2) ? `.${pad(rng.int(0, 999), 3)}` : '';
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${offset}`;
}

function money(rng, max) {
  const cents = rng.int(0, max * 100);
  return rng.chance(0.5) ? (cents / 100).toFixed(2) : cents / 100;
}

function generateBasket(rng) {
  const body = {};
  if (rng.chance(0.7)) body.redemption_venue = rng.pick(['instore', 'online']);
  else if (rng.chance(0.03)) body.redemption_venue = 'drive-thru';  // 400
  if (rng.chance(0.8)) body.order_timestamp = timestamp(rng);
  else if (rng.chance(0.05)) body.order_timestamp = '2026-13-01T00:00:00Z';  // 400
  if (rng.chance(0.7)) body.location_uid = rng.pick(locations);
  if (rng.chance(0.6)) body.handoff = rng.pick(['pickup', 'delivery', 'DELIVERY', 'curbside']);
  if (!rng.chance(0.08)) {
    body.items = [];
    const lines = rng.int(1, 5);
    for (let i = 0; i < lines; i++) {
      const product = rng.pick(catalog);
      const item = { id: product.id, name: product.id.replace('_', ' '), categories: product.categories };
      if (!rng.chance(0.1)) item.price = rng.pick(product.prices);
      if (rng.chance(0.3)) item.quantity = rng.int(1, 3);
      if (product.drink && rng.chance(0.5)) {
        item.modifiers = [];
        for (let m = rng.int(1, 2); m > 0; m--) {
          item.modifiers.push({ ...rng.pick(modifiers), item_base_price: item.price ?? null });
        }
      }
      body.items.push(item);
    }
  }
  if (rng.chance(0.6)) body.subtotal = money(rng, 60);
  if (rng.chance(0.02)) body.items = [{ id: 'bad', price: '-1.00' }];  // 400
  return body;
}

async function qualifierFor(user) {
  const res = await account(service, user);
  assert.equal(res.status, 200, res.text);
  return createQualifier(res.body, { now: () => new Date(FIXED_NOW) });
}

// Compares every generated basket; returns how many qualified something and how many errored.
async function compareAll(user, seed, count) {
  const q = await qualifierFor(user);
  const rng = prng(seed);
  const tally = { offers: 0, errors: 0 };
  try {
    for (let i = 0; i < count; i++) {
      const body = generateBasket(rng);
      const served = await qualifying(service, user, body);
      let local;
      try {
        local = { status: 200, body: q.qualify(body) };
      } catch (e) {
        assert.ok(e instanceof QualifyError, String(e));
        local = { status: e.code, body: { code: e.code, message: e.message } };
      }
      const where = `${user} basket #${i}: ${JSON.stringify(body)}`;
      assert.equal(served.status, local.status, where);
      assert.deepEqual(served.body, local.body, where);
      if (served.status === 200) {
        if (served.body.rewards.length + served.body.points_products.length > 0) tally.offers += 1;
      } else {
        tally.errors += 1;
      }
    }
  } finally {
    q.dispose();
  }
  return tally;
}

test(`${BASKETS_PER_USER} generated baskets per user agree with the JS package`, { timeout: 300_000 }, async () => {
  for (const [index, user] of users.entries()) {
    const tally = await compareAll(user, 1000 + index, BASKETS_PER_USER);
    // The generator must exercise both outcomes, or the comparison proves little.
    assert.ok(tally.offers > BASKETS_PER_USER / 10, `${user}: only ${tally.offers} baskets qualified anything`);
    assert.ok(tally.errors > 0, `${user}: no request errors generated`);
  }
});

test('after billing changes the accounts, they still agree', { timeout: 300_000 }, async () => {
  const billed = async (user, body) => {
    const res = await basket(service, user, { state: 'billed', ...body });
    assert.equal(res.status, 201, res.text);
  };
  const drinks = {
    order_timestamp: '2026-11-24T13:15:00Z',
    redemption_venue: 'instore',
    subtotal: '7.00',  // below the items' $7.75: a discount the till gave
    items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }, { id: 'drip_coffee', price: '2.50', categories: ['coffee'] }],
  };
  await billed('u_1001', { ...drinks, id: 'parity-1', rewards: ['rw_free_latte'] });
  await billed('u_1002', { ...drinks, id: 'parity-2', points_products: ['pp_drip'] });
  await billed('u_1002', { ...drinks, id: 'parity-3', rewards: ['rw_1002_any_coffee'] });
  for (const [index, user] of ['u_1001', 'u_1002'].entries()) {
    await compareAll(user, 2000 + index, 150);
  }
});
