// An order placed before the guest's account could be read (its owner not known yet: queued with
// the merchant key and token it was placed with) holds its offer for the guest whose credentials
// placed it, at once, before any replay adopts it: qualify and explain do not offer it, checkout
// does not promise it again, in the hybrid that placed it and in another on the same outbox (a
// second tab). Through the public API against the real local service; the link drops every
// account read, then every basket's answer (an attempt that may have reached the service: the
// order keeps its offer), then heals.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { clientOf, latte, lq, qualifierOptions, useOrderService } from '../orders/order_service.js';

const ALEX = 'u_1001';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const UNRESOLVED = JSON.stringify([null, null]);
const offers = (answer) => answer.rewards.some((r) => r.id === FREE_LATTE.id);
const codesOf = (explain) => explain.entries.find((e) => e.id === FREE_LATTE.id).reasons.map((r) => r.code);

useOrderService('unresolved-holds');

test('an order queued before the account was read holds its offer for the guest whose credentials placed it, in every hybrid on the outbox', { timeout: 60_000 }, async () => {
  // The link: 'accounts' drops account reads, 'baskets' drops baskets' answers (the request may
  // have reached the service, no answer came back), 'up' lets everything through.
  let link = 'accounts';
  const fetch = (url, init) => {
    const account = new URL(url).pathname === '/api/account';
    if ((link === 'accounts' && (account || new URL(url).pathname === '/api/baskets')) || (link === 'baskets' && !account)) {
      return Promise.reject(new TypeError('fetch failed: the link dropped it'));
    }
    return globalThis.fetch(url, init);
  };
  const outbox = lq.memoryOrderOutbox();
  const make = () => new lq.HybridQualifier({ client: clientOf(ALEX, { fetch }), outbox, qualifierOptions, offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 } });
  const first = make();
  let second = null;
  try {
    const placed = await first.checkout(latte, { offer: FREE_LATTE, basketId: 'before-read-1' });
    assert.equal(placed.status, 'queued');
    assert.equal(placed.discount, null, 'it may have been billed with the latte: unknown');
    const [queued] = await outbox.listOwner(UNRESOLVED);
    assert.deepEqual([queued.basketId, queued.offer], ['before-read-1', FREE_LATTE], 'queued before its owner was known, with its offer');

    link = 'baskets'; // the account can be read now; baskets still get no answer
    second = make();
    for (const [name, hybrid] of [['the hybrid that placed it', first], ['another on the outbox', second]]) {
      assert.ok(!offers(await hybrid.qualify(latte)), `${name} does not offer the latte`);
      assert.deepEqual(codesOf(await hybrid.explain(latte)), ['PENDING_ORDER'], name);
      assert.equal(hybrid.diagnostics().holds.pendingOrders, 1, name);
    }
    assert.deepEqual((await outbox.listOwner(UNRESOLVED)).map((o) => o.basketId), ['before-read-1'], 'not adopted yet: counted as it is');
    const again = await second.checkout(latte, { offer: FREE_LATTE, basketId: 'after-read-1' });
    assert.deepEqual([again.status, again.discount, again.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');

    link = 'up';
    const outcomes = await first.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]).sort(), [['after-read-1', 'billed', '0.00'], ['before-read-1', 'billed', '4.75']]);
  } finally {
    first.dispose();
    second?.dispose();
  }
});
