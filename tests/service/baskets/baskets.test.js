// The basket pipeline over real HTTP: a returned offer is accepted, a not-returned one rejected,
// a redeemed reward never returns, points are debited once and accrue once after the delay.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  FIXED_NOW,
  account,
  basket,
  ensureWasm,
  qualifying,
  scratchDir,
  serviceBinary,
  sleep,
  startService,
  waitFor,
} from '../harness.js';

const DELAY_SECONDS = 2;
const scratch = scratchDir();
let service;
let createQualifier;

before(async () => {
  serviceBinary();
  ensureWasm();
  ({ createQualifier } = await import('../../../web/index.js'));
  service = await startService({ db: path.join(scratch.dir, 'baskets.db'), now: true, delay: DELAY_SECONDS });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

const breakfast = {
  redemption_venue: 'instore',
  order_timestamp: '2026-11-24T13:15:00Z',
  location_uid: 'harbor-downtown',
  handoff: 'pickup',
  subtotal: '19.00',
  items: [
    { id: 'latte', price: '5.25', categories: ['coffee'], modifiers: [{ id: 'oat_milk', price: '0.75' }] },
    { id: 'croissant', price: '3.25', categories: ['pastry', 'bakery'], quantity: 2 },
    { id: 'egg_sandwich', price: '6.50', categories: ['breakfast', 'food'] },
  ],
};

async function balanceOf(user, experience) {
  const res = await account(service, user);
  assert.equal(res.status, 200, res.text);
  return res.body.points.find((p) => p.points_experience_id === experience)?.balance ?? 0;
}

async function rewardState(user, id) {
  const res = await account(service, user);
  return res.body.rewards.find((r) => r.id === id).state;
}

describe('selecting an offer', () => {
  test('every reward and points product the qualifying call returns is accepted, with the engine\'s discount', async () => {
    const snapshot = (await account(service, 'u_1001')).body;
    const q = await createQualifier(snapshot, { now: () => new Date(FIXED_NOW) });
    try {
      const explained = Object.fromEntries(q.explain(breakfast).entries.map((e) => [e.id, e]));
      const returned = (await qualifying(service, 'u_1001', breakfast)).body;
      const offers = [
        ...returned.rewards.map((r) => ['rewards', r.id]),
        ...returned.points_products.map((p) => ['points_products', p.id]),
      ];
      assert.ok(offers.length >= 6, JSON.stringify(offers));
      for (const [list, id] of offers) {
        const res = await basket(service, 'u_1001', { ...breakfast, id: `select-${id}`, state: 'checkout', [list]: [id] });
        assert.equal(res.status, 201, res.text);
        assert.deepEqual(res.body, {
          id: `select-${id}`,
          state: 'checkout',
          discount: explained[id].discount,
          offer: { kind: list === 'rewards' ? 'reward' : 'points_product', id },
        });
        assert.notEqual(res.body.discount, '0.00');
      }
    } finally {
      q.dispose();
    }
  });

  test('every offer the qualifying call does not return is rejected, naming it', async () => {
    const snapshot = (await account(service, 'u_1001')).body;
    const returned = (await qualifying(service, 'u_1001', breakfast)).body;
    const returnedIds = new Set([...returned.rewards, ...returned.points_products].map((o) => o.id));
    const rejected = [
      ...snapshot.rewards.filter((r) => !returnedIds.has(r.id)).map((r) => ['rewards', 'reward', r.id]),
      ...snapshot.points_products.filter((p) => !returnedIds.has(p.id)).map((p) => ['points_products', 'points product', p.id]),
    ];
    assert.ok(rejected.length >= 5, JSON.stringify(rejected));
    for (const [list, kind, id] of rejected) {
      const res = await basket(service, 'u_1001', { ...breakfast, id: `reject-${id}`, [list]: [id] });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body, { code: 400, message: `${kind} ${id} does not qualify for this basket` });
    }
  });

  test('a basket without an offer has no discount', async () => {
    const res = await basket(service, 'u_1003', { ...breakfast, id: 'plain' });
    assert.deepEqual(res.body, { id: 'plain', state: 'checkout', discount: '0.00', offer: null });
  });
});

describe('billing', () => {
  test('a billed reward is redeemed once and never returned again', async () => {
    const body = { ...breakfast, id: 'bill-latte', state: 'placed', rewards: ['rw_free_latte'] };
    assert.equal((await basket(service, 'u_1001', body)).status, 201);
    assert.equal(await rewardState('u_1001', 'rw_free_latte'), 'redeemable');  // placing redeems nothing

    const billed = await basket(service, 'u_1001', { ...body, state: 'billed' });
    assert.equal(billed.status, 200, billed.text);
    assert.deepEqual(billed.body, { id: 'bill-latte', state: 'billed', discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
    assert.equal(await rewardState('u_1001', 'rw_free_latte'), 'redeemed');

    const again = await qualifying(service, 'u_1001', breakfast);
    assert.ok(!again.body.rewards.some((r) => r.id === 'rw_free_latte'));
    const other = await basket(service, 'u_1001', { ...breakfast, id: 'bill-latte-2', rewards: ['rw_free_latte'] });
    assert.equal(other.status, 400);
    assert.match(other.body.message, /reward rw_free_latte does not qualify/);

    // Re-sending the billed basket answers as before and redeems nothing more.
    for (let i = 0; i < 3; i++) {
      const resent = await basket(service, 'u_1001', { ...body, state: 'billed' });
      assert.equal(resent.status, 200, resent.text);
      assert.deepEqual(resent.body, billed.body);
    }
    for (const state of ['completed', 'refunded']) {
      const moved = await basket(service, 'u_1001', { ...body, state });
      assert.deepEqual(moved.body, { id: 'bill-latte', state, discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
    }
    const back = await basket(service, 'u_1001', { ...body, state: 'billed' });
    assert.equal(back.status, 409, back.text);
  });

  test('points are debited once at billing and accrue once after the processing delay', async () => {
    const start = await balanceOf('u_1002', 'beans');
    assert.equal(start, 2600);
    const body = {
      ...breakfast,
      id: 'bill-points',
      state: 'billed',
      subtotal: '20.05',
      items: [...breakfast.items, { id: 'biscotti', price: '1.05' }],
      points_products: ['pp_two_off'],
    };
    const billedAt = Date.now();
    const billed = await basket(service, 'u_1002', body);
    assert.equal(billed.status, 201, billed.text);
    assert.equal(billed.body.discount, '2.00');
    // Debited, not yet accrued: provable only while the delay has not passed since billing.
    const inDelay = () => Date.now() - billedAt < DELAY_SECONDS * 1000;
    let balance = await balanceOf('u_1002', 'beans');
    if (inDelay()) assert.equal(balance, start - 200);

    // Re-sends inside the delay neither debit nor queue a second accrual.
    for (let i = 0; i < 3; i++) assert.equal((await basket(service, 'u_1002', body)).status, 200);
    balance = await balanceOf('u_1002', 'beans');
    if (inDelay()) assert.equal(balance, start - 200);

    // floor((20.05 - 2.00) x 10) = 180
    const expected = start - 200 + 180;
    const landed = await waitFor(async () => (await balanceOf('u_1002', 'beans')) !== start - 200, 15_000);
    assert.ok(landed, 'the accrual never landed');
    assert.ok(Date.now() - billedAt >= DELAY_SECONDS * 1000 - 50, 'the accrual landed before the delay');
    assert.equal(await balanceOf('u_1002', 'beans'), expected);

    assert.equal((await basket(service, 'u_1002', body)).status, 200);
    await sleep(DELAY_SECONDS * 1000 + 700);
    assert.equal(await balanceOf('u_1002', 'beans'), expected);
  });

  test('accrual floors (subtotal - discount) x points_per_dollar of the merchant', async () => {
    const start = await balanceOf('u_2001', 'crumbs');
    const bread = { order_timestamp: '2026-11-24T13:15:00Z', items: [{ id: 'sourdough', price: '8.00' }, { id: 'cookie', price: '1.99' }] };
    // No subtotal: the items' total, 9.99 x 1.5 = 14.985 -> 14.
    assert.equal((await basket(service, 'u_2001', { ...bread, id: 'crumbs-1', state: 'billed' })).status, 201);
    // The free loaf takes 8.00 off 9.99: 1.99 x 1.5 = 2.985 -> 2.
    const loaf = await basket(service, 'u_2001', { ...bread, id: 'crumbs-2', state: 'billed', rewards: ['rw_2001_free_loaf'] });
    assert.deepEqual(loaf.body, { id: 'crumbs-2', state: 'billed', discount: '8.00', offer: { kind: 'reward', id: 'rw_2001_free_loaf' } });
    const landed = await waitFor(async () => (await balanceOf('u_2001', 'crumbs')) === start + 16, 15_000);
    assert.ok(landed, `balance ${await balanceOf('u_2001', 'crumbs')}, expected ${start + 16}`);
  });

  test('a user without the merchant\'s points experience gets it on the first accrual', async () => {
    assert.deepEqual((await account(service, 'u_1003')).body.points, []);
    const res = await basket(service, 'u_1003', { ...breakfast, id: 'first-beans', state: 'billed', rewards: ['rw_1003_welcome'] });
    assert.deepEqual(res.body, { id: 'first-beans', state: 'billed', discount: '3.00', offer: { kind: 'reward', id: 'rw_1003_welcome' } });
    const landed = await waitFor(async () => (await balanceOf('u_1003', 'beans')) === 160, 15_000);
    assert.ok(landed, 'floor((19.00 - 3.00) x 10) = 160 beans');
  });

  test('two baskets racing to bill one reward: exactly one wins', async () => {
    const body = { ...breakfast, state: 'billed', rewards: ['rw_bogo_croissant'] };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => basket(service, 'u_1001', { ...body, id: `race-${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 400).length, 11, JSON.stringify(statuses));
    assert.equal(await rewardState('u_1001', 'rw_bogo_croissant'), 'redeemed');
  });

  test('points racing: concurrent billings never overdraw the balance', async () => {
    // u_1002 can afford pp_ten_off (1500) once with what is left after the earlier test.
    const start = await balanceOf('u_1002', 'beans');
    assert.ok(start >= 1500 && start < 3000, String(start));
    const body = { ...breakfast, subtotal: '30.00', items: [...breakfast.items, { id: 'beans_bag', price: '11.00' }], state: 'billed', points_products: ['pp_ten_off'] };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => basket(service, 'u_1002', { ...body, id: `points-race-${i}` })),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 1, results.map((r) => r.text).join('\n'));
    const balance = await balanceOf('u_1002', 'beans');
    // One debit; the winner's accrual, floor((30.00 - 10.00) x 10) = 200, may land meanwhile.
    assert.ok(balance === start - 1500 || balance === start - 1500 + 200, String(balance));
    assert.ok(await waitFor(async () => (await balanceOf('u_1002', 'beans')) === start - 1300, 15_000));
  });
});
