// Issue 19's lines the service holds at billing (POST /api/baskets), over real HTTP on a real
// SQLite file: the order-time window against the service's clock (--max-order-age), a basket id
// reused with another body (409), the offer each answer names, unredeemable points products, and
// the caps on a user's open baskets.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FIXED_NOW, account, basket, runServiceSync, scratchDir, serviceBinary, startService } from '../harness.js';

const scratch = scratchDir('lq-billing-rules-');
const started = [];

before(() => {
  serviceBinary();
}, { timeout: 900_000 });

after(async () => {
  for (const service of started) await service.crash();
  scratch.cleanup();
});

async function start(name, options = {}) {
  const service = await startService({ db: path.join(scratch.dir, `${name}.db`), now: true, delay: 3600, ...options });
  started.push(service);
  return service;
}

/** FIXED_NOW shifted by `ms`, as RFC 3339 text. */
const shifted = (ms, from = FIXED_NOW) => new Date(Date.parse(from) + ms).toISOString().replace('.000Z', 'Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// rw_summer (u_1001): 15 % off, expired 2026-09-22T23:59:59-04:00.
const summer = {
  redemption_venue: 'instore',
  subtotal: '40.00',
  items: [{ id: 'drip_coffee', price: '40.00', categories: ['coffee'] }],
  rewards: ['rw_summer'],
};
const coffee = {
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  subtotal: '12.00',
  items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }, { id: 'drip_coffee', price: '6.75', categories: ['coffee'] }],
};

async function rewardState(service, user, id) {
  return (await account(service, user)).body.rewards.find((r) => r.id === id).state;
}

async function beans(service, user) {
  return (await account(service, user)).body.points.find((p) => p.points_experience_id === 'beans')?.balance ?? 0;
}

describe('order_timestamp window at billing (item 10)', () => {
  test('an order time before the window is 400 naming order_timestamp; nothing is redeemed', async () => {
    const service = await start('window-past');
    // The reported exploit: the client's clock says September, when rw_summer was still valid.
    const september = await basket(service, 'u_1001', { ...summer, id: 'w-september', state: 'billed', order_timestamp: '2026-09-01T12:00:00Z' });
    assert.equal(september.status, 400, september.text);
    assert.equal(september.body.code, 400);
    assert.match(september.body.message, /^order_timestamp 2026-09-01T12:00:00Z is more than 7 days before the service's clock \(2026-11-24T13:15:00Z\)/);
    assert.equal(await rewardState(service, 'u_1001', 'rw_summer'), 'redeemable');

    const epoch = await basket(service, 'u_1001', { ...coffee, id: 'w-1970', state: 'billed', order_timestamp: '1970-01-01T00:00:00Z' });
    assert.equal(epoch.status, 400, epoch.text);
    assert.match(epoch.body.message, /^order_timestamp 1970-01-01T00:00:00Z is more than 7 days before/);

    const justOutside = await basket(service, 'u_1001', { ...coffee, id: 'w-7d1m', state: 'billed', order_timestamp: shifted(-7 * DAY - MINUTE) });
    assert.equal(justOutside.status, 400, justOutside.text);
    // Nothing of the refused billings was stored: the same ids bill fine at a current time.
    const fine = await basket(service, 'u_1001', { ...coffee, id: 'w-1970', state: 'billed' });
    assert.equal(fine.status, 201, fine.text);
  });

  test('a queued order replayed within 7 days bills; one minutes ahead of the clock is refused beyond 5 minutes', async () => {
    const service = await start('window-edges');
    const replay = await basket(service, 'u_1002', { ...coffee, id: 'w-replay', state: 'billed', order_timestamp: shifted(-7 * DAY + MINUTE) });
    assert.equal(replay.status, 201, replay.text);
    const fast = await basket(service, 'u_1002', { ...coffee, id: 'w-fast', state: 'billed', order_timestamp: shifted(4 * MINUTE) });
    assert.equal(fast.status, 201, fast.text);
    const ahead = await basket(service, 'u_1002', { ...coffee, id: 'w-ahead', state: 'billed', order_timestamp: shifted(6 * MINUTE) });
    assert.equal(ahead.status, 400, ahead.text);
    assert.equal(ahead.body.message,
      `order_timestamp ${shifted(6 * MINUTE)} is more than 5 minutes after the service's clock (${FIXED_NOW})`);
    // Without order_timestamp the service clock is the order time: always inside.
    const { order_timestamp: _, ...noTime } = coffee;
    assert.equal((await basket(service, 'u_1002', { ...noTime, id: 'w-now', state: 'billed' })).status, 201);
    // Open baskets are not billed: no window.
    assert.equal((await basket(service, 'u_1002', { ...coffee, id: 'w-open', state: 'checkout', order_timestamp: '2026-01-01T00:00:00Z' })).status, 201);
  });

  test('a billed basket re-sent after its order time left the window is answered as before', async () => {
    const db = path.join(scratch.dir, 'window-replay.db');
    const first = await start('window-replay', { db });
    const body = { ...coffee, id: 'w-late-resend', state: 'billed', rewards: ['rw_free_latte'] };
    const billed = await basket(first, 'u_1001', body);
    assert.equal(billed.status, 201, billed.text);
    await first.stop();
    // Eight days later on the service's clock.
    const later = await start('window-replay', { db, now: shifted(8 * DAY) });
    const resent = await basket(later, 'u_1001', body);
    assert.equal(resent.status, 200, resent.text);
    assert.deepEqual(resent.body, billed.body);
    // A new basket with that order time is refused.
    const fresh = await basket(later, 'u_1001', { ...body, id: 'w-late-new', rewards: [] });
    assert.equal(fresh.status, 400, fresh.text);
    assert.match(fresh.body.message, /^order_timestamp /);
  });

  test('--max-order-age sets the window', async () => {
    const service = await start('window-option', { args: ['--max-order-age', '90m'] });
    const old = await basket(service, 'u_1002', { ...coffee, id: 'w-2h', state: 'billed', order_timestamp: shifted(-2 * HOUR) });
    assert.equal(old.status, 400, old.text);
    assert.match(old.body.message, /is more than 90 minutes before the service's clock/);
    const recent = await basket(service, 'u_1002', { ...coffee, id: 'w-80m', state: 'billed', order_timestamp: shifted(-80 * MINUTE) });
    assert.equal(recent.status, 201, recent.text);
  });

  test('a bad --max-order-age is a usage error (exit 2) naming the option', () => {
    for (const value of ['', '0', '7x', '-5', '7 d', '1.5h', 'd', '3651d', '99999999999999']) {
      const run = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, 'never.db'), '--max-order-age', value]);
      assert.equal(run.status, 2, `${JSON.stringify(value)}: ${run.stderr}`);
      assert.match(run.stderr, /--max-order-age must be a duration/);
      assert.match(run.stderr, /^usage: loyalty_service/m);
    }
    for (const value of ['604800', '7d', '36h', '90m', '600s']) {
      const run = runServiceSync(['--max-order-age', value, '--help']);
      assert.equal(run.status, 0, `${value}: ${run.stderr}`);
    }
  });
});

describe('a basket id is one order (item 11)', () => {
  test('re-sending a billed basket id with another body is 409 naming the id; nothing more is billed', async () => {
    const service = await start('reuse');
    const body = { ...coffee, id: 'reuse-1', state: 'billed', points_products: ['pp_two_off'] };
    const billed = await basket(service, 'u_1002', body);
    assert.equal(billed.status, 201, billed.text);
    const balance = await beans(service, 'u_1002');

    for (const other of [
      { ...body, subtotal: '99.00' },
      { ...body, points_products: ['pp_drip'] },
      { ...body, points_products: [] },
      { ...body, items: [...body.items, { id: 'croissant', price: '3.25' }] },
      { ...body, location_uid: 'harbor-downtown' },
    ]) {
      const reused = await basket(service, 'u_1002', other);
      assert.equal(reused.status, 409, reused.text);
      assert.equal(reused.body.code, 409);
      assert.match(reused.body.message, /^basket reuse-1 was billed with another body/);
    }
    assert.equal(await beans(service, 'u_1002'), balance);

    // The same body (key order and number spelling do not matter) is the idempotent replay,
    // and moving on to completed keeps working: state is not part of the comparison.
    const same = await basket(service, 'u_1002', { state: 'billed', ...body, subtotal: '12.0' });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.body, billed.body);
    const completed = await basket(service, 'u_1002', { ...body, state: 'completed' });
    assert.equal(completed.status, 200, completed.text);
    assert.equal(completed.body.state, 'completed');
    const reusedLater = await basket(service, 'u_1002', { ...body, state: 'refunded', subtotal: '1.00' });
    assert.equal(reusedLater.status, 409, reusedLater.text);
    assert.match(reusedLater.body.message, /^basket reuse-1 /);
  });

  test('an open basket still updates with another body (200)', async () => {
    const service = await start('reuse-open');
    const body = { ...coffee, id: 'reuse-open-1', state: 'checkout' };
    assert.equal((await basket(service, 'u_1001', body)).status, 201);
    const changed = await basket(service, 'u_1001', { ...body, state: 'placed', subtotal: '10.00', rewards: ['rw_free_latte'] });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.discount, '5.25');
    const billed = await basket(service, 'u_1001', { ...body, state: 'billed', subtotal: '11.00' });
    assert.equal(billed.status, 200, billed.text);
  });

  test('every answer names the offer it holds: {kind, id} or null, re-sends included', async () => {
    const service = await start('offer');
    const withReward = { ...coffee, id: 'offer-1', rewards: ['rw_free_latte'] };
    const checkout = await basket(service, 'u_1001', withReward);
    assert.deepEqual(checkout.body, { id: 'offer-1', state: 'checkout', discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
    const billed = await basket(service, 'u_1001', { ...withReward, state: 'billed' });
    assert.deepEqual(billed.body, { id: 'offer-1', state: 'billed', discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
    const resent = await basket(service, 'u_1001', { ...withReward, state: 'billed' });
    assert.equal(resent.status, 200);
    assert.deepEqual(resent.body, billed.body);

    const points = await basket(service, 'u_1002', { ...coffee, id: 'offer-2', state: 'billed', points_products: ['pp_drip'] });
    assert.equal(points.status, 201, points.text);
    assert.deepEqual(points.body.offer, { kind: 'points_product', id: 'pp_drip' });

    const plain = await basket(service, 'u_1003', { ...coffee, id: 'offer-3', state: 'billed' });
    assert.deepEqual(plain.body, { id: 'offer-3', state: 'billed', discount: '0.00', offer: null });

    const open = { ...coffee, id: 'offer-4', rewards: ['rw_1003_welcome'] };
    assert.deepEqual((await basket(service, 'u_1003', open)).body.offer, { kind: 'reward', id: 'rw_1003_welcome' });
    const voided = await basket(service, 'u_1003', { ...open, state: 'voided' });
    assert.deepEqual(voided.body, { id: 'offer-4', state: 'voided', discount: '0.00', offer: null });
  });
});

describe('unredeemable points products (item 12)', () => {
  test('pp_tote (unredeemable) is refused at billing and at selection, naming it; no points move', async () => {
    const service = await start('unredeemable');
    const tote = { redemption_venue: 'instore', order_timestamp: FIXED_NOW, subtotal: '20.00', items: [{ id: 'tote_bag', price: '20.00' }], points_products: ['pp_tote'] };
    const balance = await beans(service, 'u_1002');
    for (const state of ['billed', 'checkout', 'placed']) {
      const res = await basket(service, 'u_1002', { ...tote, id: `tote-${state}`, state });
      assert.equal(res.status, 400, `${state}: ${res.text}`);
      assert.deepEqual(res.body, { code: 400, message: 'points product pp_tote is unredeemable' });
    }
    assert.equal(await beans(service, 'u_1002'), balance);
    // The same basket without the product bills.
    const plain = await basket(service, 'u_1002', { ...tote, id: 'tote-plain', state: 'billed', points_products: [] });
    assert.equal(plain.status, 201, plain.text);
  });
});

describe('open baskets per user are capped (item 13)', () => {
  const open = (i, extra = {}) => ({ ...coffee, id: `open-${i}`, state: 'checkout', ...extra });

  test('at most 50 open baskets per user: the 51st is 429 naming the limit; others and billing go on', async () => {
    const db = path.join(scratch.dir, 'open-cap.db');
    const service = await start('open-cap', { db });
    for (let i = 1; i <= 50; i++) {
      const res = await basket(service, 'u_1003', open(i));
      assert.equal(res.status, 201, `${i}: ${res.text}`);
    }
    const over = await basket(service, 'u_1003', open(51));
    assert.equal(over.status, 429, over.text);
    assert.equal(over.body.code, 429);
    assert.match(over.body.message, /50 open baskets/);
    assert.equal((await basket(service, 'u_1003', open(51, { state: 'placed' }))).status, 429);

    // Updating an open basket, billing a new one and another user's baskets are not affected.
    assert.equal((await basket(service, 'u_1003', open(7, { state: 'placed', subtotal: '11.00' }))).status, 200);
    assert.equal((await basket(service, 'u_1003', open(52, { state: 'billed' }))).status, 201);
    assert.equal((await basket(service, 'u_1001', open(1))).status, 201);
    // Billing or voiding one frees a place.
    assert.equal((await basket(service, 'u_1003', open(3, { state: 'voided' }))).status, 200);
    assert.equal((await basket(service, 'u_1003', open(51))).status, 201);
    assert.equal((await basket(service, 'u_1003', open(53))).status, 429);
    await service.stop();

    // 25 hours later (service clock), the open baskets untouched for more than 24 hours are pruned.
    const later = await start('open-cap', { db, now: shifted(25 * HOUR) });
    const after24h = await basket(later, 'u_1003', open(53, { order_timestamp: shifted(25 * HOUR) }));
    assert.equal(after24h.status, 201, after24h.text);
    const count = spawnSync('sqlite3', [db, "SELECT state, count(*) FROM baskets WHERE user_id = 'u_1003' GROUP BY state ORDER BY state"], { encoding: 'utf8' });
    assert.equal(count.status, 0, count.stderr);
    assert.deepEqual(count.stdout.trim().split('\n'), ['billed|1', 'checkout|1', 'voided|1']);
  });

  test('--max-open-baskets sets the count; the stored bytes of a user\'s open baskets are capped at 4 MiB', async () => {
    const service = await start('open-option', { args: ['--max-open-baskets', '2'] });
    assert.equal((await basket(service, 'u_1001', open(1))).status, 201);
    assert.equal((await basket(service, 'u_1001', open(2))).status, 201);
    const third = await basket(service, 'u_1001', open(3));
    assert.equal(third.status, 429, third.text);
    assert.match(third.body.message, /2 open baskets/);

    // ~64,200 bytes each as stored (under the 64 KiB a basket may take): 65 fit in 4 MiB, the
    // 66th does not.
    const items = [{ id: 'x'.repeat(64_000), price: '0.01' }];
    const big = await start('open-bytes', { args: ['--max-open-baskets', '100'] });
    for (let i = 1; i <= 65; i++) {
      const res = await basket(big, 'u_1002', { id: `big-${i}`, items });
      assert.equal(res.status, 201, `${i}: ${res.status} ${res.body?.message}`);
    }
    const over = await basket(big, 'u_1002', { id: 'big-66', items });
    assert.equal(over.status, 429, over.text.slice(0, 300));
    assert.match(over.body.message, /4 MiB/);
    const small = await basket(big, 'u_1002', { id: 'small-1', items: [{ id: 'latte', price: '5.25' }] });
    assert.equal(small.status, 201, small.text);
  });

  test('a bad --max-open-baskets is a usage error (exit 2)', () => {
    for (const value of ['0', 'many', '-1', '100001']) {
      const run = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, 'never.db'), '--max-open-baskets', value]);
      assert.equal(run.status, 2, `${value}: ${run.stderr}`);
      assert.match(run.stderr, /--max-open-baskets must be an integer from 1 to 100000/);
    }
  });
});
