// Pending is spent (one device): what an undecided order redeemed is not offered or promised
// again. The engine through real wasm (a reward record's `hold`), then the repro through
// the public API against the real local service (demo fixture, a real SQLite file), service cut.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { account, basket, credentialsOf, waitFor } from '../../service/harness.js';
import { latte, lq, qualifierOptions, scratch, service, startServiceAgain, useOrderService } from './order_service.js';

const ALEX = 'u_1001';

const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const TWO_OFF = { kind: 'points_product', id: 'pp_two_off' };

const entryOf = (explain, id) => explain.entries.find((e) => e.id === id);
const codesOf = (explain, id) => entryOf(explain, id).reasons.map((r) => r.code);

useOrderService('pending');

test('the engine (wasm): a held reward never qualifies, with PENDING_ORDER or CLAIMED_ELSEWHERE; a bad hold is a 422 naming it', async () => {
  const snapshot = (await account(service, ALEX)).body;
  const held = {
    ...snapshot,
    rewards: snapshot.rewards.map((r) => (r.id === 'rw_free_latte' ? { ...r, hold: 'PENDING_ORDER' } : r.id === 'rw_welcome5' ? { ...r, hold: 'CLAIMED_ELSEWHERE' } : r)),
  };
  const plain = await lq.createQualifier(snapshot, qualifierOptions);
  const qualifier = await lq.createQualifier(held, qualifierOptions);
  try {
    assert.ok(plain.qualify(latte).rewards.some((r) => r.id === 'rw_free_latte'), 'it qualifies unheld');
    const answer = qualifier.qualify(latte);
    assert.ok(!answer.rewards.some((r) => r.id === 'rw_free_latte' || r.id === 'rw_welcome5'));
    const explain = qualifier.explain(latte);
    assert.deepEqual(entryOf(explain, 'rw_free_latte').reasons, [{ code: 'PENDING_ORDER', message: 'Already used by an order waiting to be confirmed.' }]);
    assert.deepEqual(entryOf(explain, 'rw_welcome5').reasons[0], { code: 'CLAIMED_ELSEWHERE', message: 'Already used at another kiosk.' });
    assert.notEqual(explain.best, 'rw_free_latte');
  } finally {
    plain.dispose();
    qualifier.dispose();
  }
  const bad = { ...snapshot, rewards: [{ ...snapshot.rewards[0], hold: 'LATER' }] };
  await assert.rejects(lq.createQualifier(bad, qualifierOptions), { code: 422, message: 'rewards[0].hold must be PENDING_ORDER, CLAIMED_ELSEWHERE or null' });
});

test("the issue's repro on one kiosk: a pending order's reward and points are spent; nothing is billed without its promised offer", async () => {
  const directory = path.join(scratch.dir, 'outbox');
  const settled = [];
  const { token, key } = credentialsOf(ALEX);
  const client = new lq.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, timeoutMs: 10_000 });
  const hybrid = new lq.HybridQualifier({
    client,
    outbox: lq.fileOrderOutbox({ directory }),
    qualifierOptions,
    offline: { redeem: 'provisional', maxDiscount: '5.00' },
    backoff: { initialMs: 600_000 },
    onOrderSettled: (order, outcome) => settled.push({ order, outcome }),
  });
  try {
    await hybrid.ready();
    assert.equal(Number(hybrid.currentSnapshot().points[0].balance), 450);
    await service.stop();
    const promised = {};
    const offers = {};
    try {
      const first = await hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'alex-latte-1' });
      assert.equal(first.status, 'queued');
      assert.equal(first.discount, '4.75');
      promised[first.basketId] = first.discount;
      offers[first.basketId] = { rewards: ['rw_free_latte'] };

      const next = await hybrid.qualify(latte);
      assert.ok(!next.rewards.some((r) => r.id === 'rw_free_latte'), 'the next qualify() no longer offers it');
      assert.deepEqual(codesOf(await hybrid.explain(latte), 'rw_free_latte'), ['PENDING_ORDER']);
      const service_truth = hybrid.currentSnapshot().rewards.find((r) => r.id === 'rw_free_latte');
      assert.equal(service_truth.hold, undefined, "currentSnapshot() is the service's");

      const second = await hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'alex-latte-2' });
      assert.equal(second.status, 'queued');
      assert.equal(second.discount, '0.00', 'a second checkout does not promise it');
      assert.deepEqual(second.withheld, { kind: 'reward', id: 'rw_free_latte', code: 'PENDING_ORDER', message: 'Already used by an order waiting to be confirmed.' });
      assert.match(second.message, /full price: reward rw_free_latte is not redeemed/);
      promised[second.basketId] = second.discount;

      // pp_two_off costs 200 beans; the balance is 450: promised twice, not three times.
      const discounts = [];
      for (const n of [1, 2, 3]) {
        const outcome = await hybrid.checkout(latte, { offer: TWO_OFF, basketId: `alex-two-off-${n}` });
        assert.equal(outcome.status, 'queued');
        discounts.push(outcome.discount);
        promised[outcome.basketId] = outcome.discount;
        if (outcome.discount !== '0.00') offers[outcome.basketId] = { points_products: ['pp_two_off'] };
        if (n === 3) assert.equal(outcome.withheld.code, 'INSUFFICIENT_POINTS');
      }
      assert.deepEqual(discounts, ['2.00', '2.00', '0.00']);
      const twoOff = entryOf(await hybrid.explain(latte), 'pp_two_off');
      assert.deepEqual(twoOff.reasons.map((r) => [r.code, r.points_needed]), [['INSUFFICIENT_POINTS', 150]]);
    } finally {
      await startServiceAgain();
    }
    // The service is back: the replay bills every order, each with exactly what it promised.
    const outcomes = await hybrid.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), Object.entries(promised).map(([id, d]) => [id, 'billed', d]));
    for (const [id, discount] of Object.entries(promised)) {
      // A re-send of a billed basket answers what it billed.
      const recorded = await basket(service, ALEX, { ...latte, ...offers[id], id, state: 'billed' });
      assert.equal(recorded.body.state, 'billed', `${id}: ${JSON.stringify(recorded.body)}`);
      assert.equal(recorded.body.discount, discount, `${id} billed with what it promised`);
    }
    const after = (await account(service, ALEX)).body;
    assert.equal(Number(after.points[0].balance), 50, 'two debits of 200');
    assert.ok(!after.rewards.some((r) => r.id === 'rw_free_latte' && r.state === 'redeemable'), 'the latte was redeemed once');
    assert.equal(settled.length, 5);
    // Settled: the refreshed snapshot is the truth again (the service's own state).
    assert.ok(await waitFor(() => Number(hybrid.currentSnapshot().points[0].balance) === 50, 10_000, 20), 'refreshed');
    const explain = await hybrid.explain(latte);
    assert.deepEqual(entryOf(explain, 'pp_two_off').reasons.map((r) => [r.code, r.points_needed]), [['INSUFFICIENT_POINTS', 150]]);
    assert.ok(!(entryOf(explain, 'rw_free_latte')?.reasons ?? []).some((r) => r.code === 'PENDING_ORDER'));
  } finally {
    hybrid.dispose();
  }
});
