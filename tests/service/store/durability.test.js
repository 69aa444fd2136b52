// kill -9 and a restart on the same SQLite file keep every acknowledged write, and pending
// accruals queued before the crash land exactly once after it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { account, basket, qualifying, sleep, useServices, waitFor } from '../harness.js';

// The service clock is fixed at FIXED_NOW, the baskets' order_timestamp (a billed order's
// time must lie within a week before the service's clock).
const { scratch, running, start } = useServices({ defaults: () => ({ now: true }) });

async function crash(service) {
  const exit = await service.crash();
  running.delete(service);
  assert.equal(exit.signal, 'SIGKILL');
}

// $14.25 of coffee and pastries, and a bag of beans making up the rest of `subtotal` (the service
// refuses a subtotal above the items).
const basketAt = (subtotal, extra = {}) => ({
  redemption_venue: 'instore',
  order_timestamp: '2026-11-24T13:15:00Z',
  location_uid: 'harbor-downtown',
  subtotal,
  items: [
    { id: 'latte', price: '5.25', categories: ['coffee'] },
    { id: 'drip_coffee', price: '2.50', categories: ['coffee'] },
    { id: 'croissant', price: '3.25', categories: ['pastry'], quantity: 2 },
    { id: 'beans_bag', price: ((Math.round(Number(subtotal) * 100) - 1425) / 100).toFixed(2) },
  ],
  ...extra,
});

async function balance(service, user, experience) {
  const res = await account(service, user);
  assert.equal(res.status, 200, res.text);
  return res.body.points.find((p) => p.points_experience_id === experience)?.balance ?? 0;
}

async function rewardState(service, user, id) {
  return (await account(service, user)).body.rewards.find((r) => r.id === id).state;
}

test('acknowledged writes and queued accruals survive kill -9', { timeout: 120_000 }, async () => {
  const db = path.join(scratch.dir, 'crash-1.db');
  const first = await start({ db, delay: 2 });
  assert.match(first.stderr, /created .*crash-1\.db/);

  const writes = [
    ['u_1001', basketAt('19.00', { id: 'k-1', state: 'billed', rewards: ['rw_welcome5'] })],
    ['u_1002', basketAt('19.00', { id: 'k-2', state: 'billed', points_products: ['pp_two_off'] })],
    ['u_1003', basketAt('19.00', { id: 'k-3', state: 'placed', rewards: ['rw_1003_welcome'] })],
    ['u_2001', { id: 'k-4', state: 'billed', items: [{ id: 'sourdough', price: '8.00' }, { id: 'cookie', price: '4.00' }], rewards: ['rw_2001_free_loaf'] }],
  ];
  const acknowledged = [];
  for (const [user, body] of writes) {
    const res = await basket(first, user, body);
    assert.equal(res.status, 201, res.text);
    acknowledged.push([user, body, res.body]);
  }
  await crash(first);

  const second = await start({ db, delay: 2 });
  assert.doesNotMatch(second.stderr, /created/);
  assert.match(second.stderr, /not applied/);  // the fixture never overwrites the database

  // Every basket is there in its acknowledged state: re-sending it updates (200), never creates.
  for (const [user, body, answer] of acknowledged) {
    const res = await basket(second, user, body);
    assert.equal(res.status, 200, `${body.id}: ${res.text}`);
    assert.deepEqual(res.body, answer);
  }
  assert.equal(await rewardState(second, 'u_1001', 'rw_welcome5'), 'redeemed');
  assert.equal(await rewardState(second, 'u_2001', 'rw_2001_free_loaf'), 'redeemed');
  assert.equal(await rewardState(second, 'u_1003', 'rw_1003_welcome'), 'redeemable');  // placed only
  const returned = await qualifying(second, 'u_1001', basketAt('19.00'));
  assert.ok(!returned.body.rewards.some((r) => r.id === 'rw_welcome5'));

  // The accruals queued before the crash land once: 2600 - 200 + floor(17.00 x 10) beans,
  // 300 + floor(4.00 x 1.5) crumbs, floor(14.00 x 10) beans for u_1001.
  const landed = await waitFor(async () =>
    (await balance(second, 'u_1002', 'beans')) === 2570 &&
    (await balance(second, 'u_2001', 'crumbs')) === 306 &&
    (await balance(second, 'u_1001', 'beans')) === 590, 15_000);
  assert.ok(landed, second.stderr);

  // A second crash and restart after landing credits nothing again.
  await crash(second);
  const third = await start({ db, delay: 2 });
  await sleep(2_500);
  assert.equal(await balance(third, 'u_1002', 'beans'), 2570);
  assert.equal(await balance(third, 'u_2001', 'crumbs'), 306);
  assert.equal(await balance(third, 'u_1001', 'beans'), 590);
  await crash(third);
});

test('a kill -9 in the middle of concurrent writes loses no acknowledged one', { timeout: 120_000 }, async () => {
  const db = path.join(scratch.dir, 'crash-2.db');
  const first = await start({ db, delay: 3600 });

  const COUNT = 40;
  const bodies = Array.from({ length: COUNT }, (_, i) =>
    basketAt(`${20 + i}.00`, { id: `burst-${i}`, state: 'billed', ...(i % 2 === 0 ? { points_products: ['pp_drip'] } : {}) }));
  const outcomes = new Array(COUNT).fill(null);
  let acks = 0;
  let crashed;
  const crashAfter = 10;
  const requests = bodies.map((body, i) =>
    basket(first, 'u_1002', body)
      .then((res) => {
        outcomes[i] = res;
        if (res.status === 201) acks += 1;
        if (acks === crashAfter && !crashed) crashed = crash(first);
      })
      .catch(() => {}));  // connections cut by the crash: not acknowledged
  await Promise.all(requests);
  if (!crashed) crashed = crash(first);
  await crashed;

  const acknowledged = outcomes.map((res, i) => [i, res]).filter(([, res]) => res?.status === 201);
  assert.ok(acknowledged.length >= crashAfter, `only ${acknowledged.length} acknowledged`);
  for (const [, res] of acknowledged) assert.match(res.text, /"state":"billed"/);

  const second = await start({ db, delay: 3600 });
  let debited = 0;
  for (let i = 0; i < COUNT; i++) {
    if (outcomes[i]?.status === 201) {
      const res = await basket(second, 'u_1002', bodies[i]);
      assert.equal(res.status, 200, `acknowledged burst-${i} was lost: ${res.text}`);
      assert.deepEqual(res.body, outcomes[i].body);
      if (i % 2 === 0) debited += 1;
    } else {
      // Unacknowledged: either committed in full (billed) or not at all.
      const probe = await basket(second, 'u_1002', { ...bodies[i], state: 'checkout', points_products: [] });
      assert.ok(probe.status === 409 || probe.status === 201, probe.text);
      if (probe.status === 409 && i % 2 === 0) debited += 1;
    }
  }
  // Every committed billing debited 150 beans, and nothing else did.
  assert.equal(await balance(second, 'u_1002', 'beans'), 2600 - 150 * debited);
  await crash(second);
});
