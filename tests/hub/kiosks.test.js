// One store, many kiosks: HybridQualifiers with a store hub, through the public API against the
// real local service and a real hub process (startStoreHub), each kiosk with its own outbox. The
// service is cut: what one kiosk redeemed another does not promise; a race of many kiosks for one
// reward gets one promise; a SIGKILL of the hub loses no claim; a hub that is down promises nothing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { FIXED_NOW, basket, credentialsOf, ensureWasm, serviceBinary, startService } from '../service/harness.js';
import { STORE_KEY, hubCall, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-kiosks-');
const NO_ACCRUAL = 3600;
const qualifierOptions = { now: () => new Date(FIXED_NOW) };
const db = path.join(scratch.dir, 'service.db');
const hubDb = path.join(scratch.dir, 'hub.db');
let lq;
let service;
let servicePort;
let hub;

const latte = {
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  location_uid: 'harbor-downtown',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
};

function kiosk(userId, kioskId, hubUrl = hub.url, fetch = undefined) {
  const { token, key } = credentialsOf(userId);
  return new lq.HybridQualifier({
    client: new lq.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, timeoutMs: 10_000 }),
    outbox: lq.memoryOrderOutbox(),
    qualifierOptions,
    offline: { redeem: 'provisional', maxDiscount: '5.00' },
    backoff: { initialMs: 600_000 },
    hub: { url: hubUrl, storeKey: STORE_KEY, kioskId, timeoutMs: 5_000, ...(fetch ? { fetch } : {}) },
  });
}

const codesOf = (explain, id) => explain.entries.find((e) => e.id === id).reasons.map((r) => r.code);
// Whether `hybrid`'s explain comes to show reward `id` as claimed elsewhere (bounded).
const claimedElsewhere = (hybrid, id) => waitFor(async () => codesOf(await hybrid.explain(latte), id).join() === 'CLAIMED_ELSEWHERE', 10_000, 50);

async function withServiceCut(fn) {
  await service.stop();
  try {
    return await fn();
  } finally {
    service = await startService({ db, now: true, delay: NO_ACCRUAL, port: servicePort });
  }
}

before(async () => {
  ensureWasm();
  serviceBinary();
  lq = await import('../../web/index.js');
  service = await startService({ db, now: true, delay: NO_ACCRUAL });
  servicePort = new URL(service.url).port;
  hub = await startHub({ db: hubDb });
}, { timeout: 900_000 });

after(async () => {
  await service?.crash();
  await hub?.stop();
  scratch.cleanup();
});

test('the hub option is checked: a TypeError names the field', () => {
  const { token, key } = credentialsOf('u_1001');
  const client = new lq.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key });
  const make = (hubOption) => new lq.HybridQualifier({ client, outbox: lq.memoryOrderOutbox(), hub: hubOption });
  assert.throws(() => make('x'), { name: 'TypeError', message: /^hub must be an object/ });
  assert.throws(() => make({ storeKey: STORE_KEY, kioskId: 'k' }), { name: 'TypeError', message: /^hub\.url/ });
  assert.throws(() => make({ url: hub.url, storeKey: 'has space', kioskId: 'k' }), { name: 'TypeError', message: /^hub\.storeKey/ });
  assert.throws(() => make({ url: hub.url, storeKey: STORE_KEY, kioskId: '' }), { name: 'TypeError', message: /^hub\.kioskId/ });
});

test('two kiosks, one guest, the service cut: kiosk 2 shows the latte claimed elsewhere and does not promise it; a SIGKILL of the hub keeps the claim', async () => {
  const one = kiosk('u_1001', 'kiosk-1');
  const two = kiosk('u_1001', 'kiosk-2');
  try {
    await Promise.all([one.ready(), two.ready()]);
    const [first, second] = await withServiceCut(async () => {
      const first = await one.checkout(latte, { offer: { kind: 'reward', id: 'rw_free_latte' }, basketId: 'k1-latte' });
      assert.equal(first.status, 'queued');
      assert.equal(first.discount, '4.75', 'kiosk 1 holds the claim: promised');
      // Kiosk 2 answers at once from the claims it knows, asked again in the background: it shows the claim soon.
      assert.ok(await claimedElsewhere(two, 'rw_free_latte'), 'kiosk 2 sees the claim');
      assert.ok(!(await two.qualify(latte)).rewards.some((r) => r.id === 'rw_free_latte'));
      // The hub dies (kill -9) and comes back on its database: the claim holds.
      await hub.kill('SIGKILL');
      await hub.exited;
      hub = await startHub({ db: hubDb, port: Number(new URL(hub.url).port) });
      const refused = await hubCall(hub, 'POST', '/hub/claims', {
        body: { merchant_id: 'm_harbor_coffee', user_id: 'u_1001', basket_id: 'after-kill', kiosk_id: 'kiosk-3', reward_id: 'rw_free_latte' },
      });
      assert.equal(refused.status, 409, 'the acknowledged claim survived the kill');
      assert.equal(refused.body.claim.basket_id, 'k1-latte');
      const second = await two.checkout(latte, { offer: { kind: 'reward', id: 'rw_free_latte' }, basketId: 'k2-latte' });
      assert.equal(second.status, 'queued');
      assert.equal(second.discount, '0.00');
      assert.deepEqual(second.withheld, { kind: 'reward', id: 'rw_free_latte', code: 'CLAIMED_ELSEWHERE', message: 'Already used at another kiosk.' });
      return [first, second];
    });
    const outcomes = [...(await one.flush()), ...(await two.flush())];
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['k1-latte', 'billed', '4.75'], ['k2-latte', 'billed', '0.00']]);
    for (const { basketId, discount } of [first, second]) {
      // A re-send of the billed body answers what it billed.
      const offer = discount === '0.00' ? {} : { rewards: ['rw_free_latte'] };
      const recorded = await basket(service, 'u_1001', { ...latte, ...offer, id: basketId, state: 'billed' });
      assert.equal(recorded.body.discount, discount, `${basketId} billed with what it promised`);
    }
    // Settled: kiosk 1's claim is spent at the hub.
    assert.ok(await waitFor(async () => {
      const { body } = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor_coffee&user_id=u_1001');
      return body.claims.some((c) => c.basket_id === 'k1-latte' && c.state === 'spent' && c.billed_at !== null);
    }, 10_000, 50), 'spent');
  } finally {
    one.dispose();
    two.dispose();
  }
});

test('a refused order gives its reward back, on the device at once and in the store once the hub hears of it; a release the hub missed is sent later', async () => {
  // Kiosk 1's link to the hub, cut while `cut` is set (the hub itself keeps running: what it holds
  // is asked while kiosk 1 cannot reach it, so no retry of kiosk 1's can race the question).
  let cut = false;
  const link = (url, init) => (cut ? Promise.reject(new TypeError('fetch failed: the link to the hub is cut')) : globalThis.fetch(url, init));
  const one = kiosk('u_1003', 'kiosk-r1', hub.url, link);
  const two = kiosk('u_1003', 'kiosk-r2');
  const welcome = { kind: 'reward', id: 'rw_1003_welcome' };
  const liveClaim = async () => {
    const { body } = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor_coffee&user_id=u_1003');
    return body.claims.find((c) => c.basket_id === 'refused-welcome-1') ?? null;
  };
  try {
    await Promise.all([one.ready(), two.ready()]);
    await withServiceCut(async () => {
      const queued = await one.checkout(latte, { offer: welcome, basketId: 'refused-welcome-1' });
      assert.deepEqual([queued.status, queued.discount], ['queued', '3.00']);
      assert.deepEqual(codesOf(await one.explain(latte), 'rw_1003_welcome'), ['PENDING_ORDER']);
      assert.ok(await claimedElsewhere(two, 'rw_1003_welcome'), 'kiosk 2 sees the claim');
    });
    // Meanwhile another till voided that basket id at the service: the replay will be refused.
    assert.equal((await basket(service, 'u_1003', { ...latte, id: 'refused-welcome-1', state: 'checkout' })).status, 201);
    assert.equal((await basket(service, 'u_1003', { ...latte, id: 'refused-welcome-1', state: 'voided' })).status, 200);
    // Kiosk 1 cannot reach the hub when it replays: the order is refused and its release cannot be sent.
    cut = true;
    const [refused] = await one.flush();
    assert.deepEqual([refused.basketId, refused.status, refused.discount], ['refused-welcome-1', 'refused', '0.00']);
    assert.deepEqual(await one.pendingOrders(), []);
    // On the device the reward is back at once: no pending order holds it.
    assert.ok(await waitFor(async () => (await one.qualify(latte)).rewards.some((r) => r.id === 'rw_1003_welcome'), 10_000, 50), 'back on kiosk 1');
    // In the store the claim still holds (the release never arrived), so kiosk 2 still may not promise it.
    assert.equal((await liveClaim())?.state, 'held');
    cut = false;
    // Kiosk 1's next settled order sends the release it kept: the reward is free in the store again.
    const plain = await one.checkout(latte, { offer: null, basketId: 'refused-welcome-2' });
    assert.equal(plain.status, 'billed');
    assert.ok(await waitFor(async () => (await liveClaim()) === null, 10_000, 50), 'released at the hub');
    const { body } = await hubCall(hub, 'POST', '/hub/claims/release', { body: { merchant_id: 'm_harbor_coffee', user_id: 'u_1003', basket_id: 'refused-welcome-1' } });
    assert.equal(body.claim.state, 'released', 'the kept release reached the hub (a repeat answers the same)');
    assert.ok(await waitFor(async () => codesOf(await two.explain(latte), 'rw_1003_welcome').length === 0, 10_000, 100), 'kiosk 2 sees it free');
    const redeemed = await two.checkout(latte, { offer: welcome, basketId: 'refused-welcome-3' });
    assert.deepEqual([redeemed.status, redeemed.discount], ['billed', '3.00']);
  } finally {
    one.dispose();
    two.dispose();
  }
});

test('a race of 16 kiosks checking out the same reward offline gets exactly one promise', async () => {
  const kiosks = Array.from({ length: 16 }, (_, i) => kiosk('u_1002', `race-${i + 1}`));
  try {
    await Promise.all(kiosks.map((k) => k.ready()));
    const outcomes = await withServiceCut(() =>
      Promise.all(kiosks.map((k, i) => k.checkout(latte, { offer: { kind: 'reward', id: 'rw_1002_any_coffee' }, basketId: `race-${i + 1}` }))),
    );
    const promised = outcomes.filter((o) => o.discount !== '0.00');
    assert.equal(promised.length, 1, JSON.stringify(outcomes.map((o) => [o.basketId, o.discount, o.withheld?.code])));
    assert.equal(promised[0].discount, '4.75');
    assert.ok(outcomes.filter((o) => o !== promised[0]).every((o) => o.withheld?.code === 'CLAIMED_ELSEWHERE'));
    const billed = (await Promise.all(kiosks.map((k) => k.flush()))).flat();
    assert.equal(billed.filter((o) => o.status === 'billed').length, 16);
    assert.deepEqual(billed.filter((o) => o.discount !== '0.00').map((o) => o.basketId), [promised[0].basketId]);
  } finally {
    for (const k of kiosks) k.dispose();
  }
});

test('the hub down: nothing is promised, and the outcome says the store hub cannot be reached', async () => {
  const down = await startHub({ db: ':memory:' });
  const url = down.url;
  await down.stop();
  const alone = kiosk('u_1001', 'kiosk-9', url);
  try {
    await alone.ready();
    const oat = { ...latte, subtotal: '5.35', items: [{ id: 'latte', price: '4.75', modifiers: [{ id: 'oat_milk', price: '0.60' }] }] };
    const outcome = await withServiceCut(() => alone.checkout(oat, { offer: { kind: 'reward', id: 'rw_oat_milk' }, basketId: 'hub-down-1' }));
    assert.equal(outcome.status, 'queued');
    assert.equal(outcome.discount, '0.00');
    assert.equal(outcome.withheld.code, 'HUB_UNREACHABLE');
    assert.match(outcome.withheld.message, /store hub cannot be reached/);
    const [billed] = await alone.flush();
    assert.deepEqual([billed.status, billed.discount], ['billed', '0.00']);
  } finally {
    alone.dispose();
  }
});
