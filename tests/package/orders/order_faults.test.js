// Issue 19's checkout faults, in Node against the real service over 127.0.0.1 and a real SQLite
// file: orders owned by (merchant, user) so a rotated token or a new base URL still replays them;
// a guest who walked away replayed device-wide; a full disk before and after the order was
// queued (a real ENOSPC from /dev/full at the outbox's edge); a lost answer under the offline
// policy "never" (the body is never changed once an attempt may have reached the service); the
// same basket id with another body; onOrderSettled once per order with two replayers.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { account, basket, credentialsOf } from '../../service/harness.js';
import { clientOf, db, latte, lq, qualifierOptions, scratch, service, startServiceAgain, stopService, useOrderService } from './order_service.js';
import { startLossyProxy } from '../../service/http/lossy_proxy.js';

const twoOff = { kind: 'points_product', id: 'pp_two_off' };

const balanceOf = async (userId, token) => Number((await account(service, userId, token ? { token } : {})).body.points[0].balance);
// A billed basket answers a re-send of its body with what it billed (200); an unknown id is created (201).
const billedStatus = (userId, body, token) => basket(service, userId, { ...body, state: 'billed' }, token ? { token } : {}).then((r) => r.status);

/**
 * A file outbox whose writes fail while `full` is set, with the file system's own error: the
 * write goes to /dev/full (ENOSPC), as a full disk answers. A fault at the outbox's edge (outboxes
 * are a pluggable interface); list and remove are the real file outbox's.
 */
function fillableOutbox(directory) {
  const inner = lq.fileOrderOutbox({ directory });
  const state = { full: false, puts: 0 };
  return {
    state,
    kind: 'file',
    list: () => inner.list(),
    remove: (order) => inner.remove(order),
    put: async (order) => {
      state.puts += 1;
      if (state.full) writeFileSync('/dev/full', JSON.stringify(order));
      return inner.put(order);
    },
  };
}

useOrderService('order-faults');

test('a rotated token and a new base URL: the same guest lists and replays their queued order', async () => {
  const directory = path.join(scratch.dir, 'rotated');
  const proxy = await startLossyProxy(() => service.url);
  const settled = [];
  // Placed through one base URL (a proxy) with the old token, with the answer lost.
  const first = new lq.HybridQualifier({ client: clientOf('u_1003', { baseUrl: proxy.url }), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 }, storeCredentials: false });
  let queued;
  try {
    await first.ready();
    proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
    queued = await first.checkout(latte, { offer: null, basketId: 'casey-rotated-1' });
    assert.equal(queued.status, 'queued');
    assert.equal(proxy.state.dropped, 1);
  } finally {
    first.dispose();
    await proxy.close();
  }
  // The token is rotated: the old one is refused from now on.
  await stopService();
  execFileSync('sqlite3', [db, "UPDATE users SET access_token = 'at_u1003_rotated_2' WHERE id = 'u_1003'"]);
  await startServiceAgain();
  try {
    // Another base URL (the service itself), the new token from a function (refreshable).
    let calls = 0;
    const client = clientOf('u_1003', { accessToken: async () => { calls += 1; return 'at_u1003_rotated_2'; } });
    const second = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push(outcome) });
    try {
      const pending = await second.pendingOrders();
      assert.deepEqual(pending.map((o) => o.basketId), ['casey-rotated-1'], 'the guest\'s order, whatever token or URL placed it');
      assert.equal(pending[0].owner, JSON.stringify(['m_harbor_coffee', 'u_1003']));
      assert.equal(pending[0].userId, 'u_1003');
      await second.flush(); // (or the start-up replay, when it ran after the account read)
      assert.deepEqual(settled.map((o) => [o.basketId, o.status]), [['casey-rotated-1', 'billed']]);
      assert.ok(calls > 0, 'the token function is asked for each request');
      assert.equal(await billedStatus('u_1003', { ...latte, id: 'casey-rotated-1' }, 'at_u1003_rotated_2'), 200, 'billed, once');
      assert.deepEqual(await second.pendingOrders({ all: true }), []);
    } finally {
      second.dispose();
    }
  } finally {
    await stopService();
    execFileSync('sqlite3', [db, `UPDATE users SET access_token = '${credentialsOf('u_1003').token}' WHERE id = 'u_1003'`]);
    await startServiceAgain();
  }
});

test('a guest who walked away: the next guest\'s kiosk replays their order with its stored credentials', async () => {
  const directory = path.join(scratch.dir, 'walked-away');
  const outbox = lq.fileOrderOutbox({ directory });
  const alexBefore = await balanceOf('u_1001');
  const alex = new lq.HybridQualifier({ client: clientOf('u_1001'), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
  await alex.ready();
  await stopService();
  try {
    const queued = await alex.checkout(latte, { offer: null, basketId: 'alex-walked-away-1' });
    assert.equal(queued.status, 'queued');
  } finally {
    alex.dispose(); // Alex leaves; nobody selects Alex again.
    await startServiceAgain();
  }
  const settled = [];
  const blair = new lq.HybridQualifier({ client: clientOf('u_1002'), outbox, qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push([order.userId, outcome.basketId, outcome.status]) });
  try {
    const outcomes = await blair.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status]), [['alex-walked-away-1', 'billed']]);
    assert.deepEqual(settled, [['u_1001', 'alex-walked-away-1', 'billed']]);
    assert.equal(await billedStatus('u_1001', { ...latte, id: 'alex-walked-away-1' }), 200, 'billed to Alex');
    assert.equal(await balanceOf('u_1001'), alexBefore);
    assert.deepEqual(await blair.pendingOrders({ all: true }), []);
  } finally {
    blair.dispose();
  }

  // Without stored credentials, credentialsFor(order) gives them.
  const quiet = path.join(scratch.dir, 'walked-away-quiet');
  const casey = new lq.HybridQualifier({ client: clientOf('u_1003'), outbox: lq.fileOrderOutbox({ directory: quiet }), qualifierOptions, storeCredentials: false, backoff: { initialMs: 600_000 } });
  await casey.ready();
  await stopService();
  try {
    assert.equal((await casey.checkout(latte, { offer: null, basketId: 'casey-walked-away-1' })).status, 'queued');
    const [stored] = await casey.pendingOrders();
    assert.equal(stored.replay, undefined, 'storeCredentials: false keeps no token at rest');
  } finally {
    casey.dispose();
    await startServiceAgain();
  }
  // A kiosk that has no credentials for it lists it among the device's orders, not as its guest's.
  const blind = new lq.HybridQualifier({ client: clientOf('u_1002'), outbox: lq.fileOrderOutbox({ directory: quiet }), qualifierOptions, backoff: { initialMs: 600_000 }, credentialsFor: () => null });
  try {
    const outcomes = await blind.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status]), [['casey-walked-away-1', 'queued']]);
    assert.match(outcomes[0].lastError, /no credentials to replay it/);
    assert.deepEqual((await blind.pendingOrders({ all: true })).map((o) => o.userId), ['u_1003']);
    assert.deepEqual(await blind.pendingOrders(), [], 'not Blair\'s');
  } finally {
    blind.dispose();
  }
  const asked = [];
  const replayed = [];
  const kiosk = new lq.HybridQualifier({
    client: clientOf('u_1002'),
    outbox: lq.fileOrderOutbox({ directory: quiet }),
    qualifierOptions,
    backoff: { initialMs: 600_000 },
    onOrderSettled: (order, outcome) => replayed.push([outcome.basketId, outcome.status]),
    credentialsFor: (order) => {
      asked.push(order.userId);
      const { token, key } = credentialsOf(order.userId);
      return { baseUrl: service.url, merchantKey: key, accessToken: token };
    },
  });
  try {
    await kiosk.flush();
    assert.deepEqual(replayed, [['casey-walked-away-1', 'billed']]);
    assert.ok(asked.includes('u_1003'));
    assert.equal(await billedStatus('u_1003', { ...latte, id: 'casey-walked-away-1' }), 200, 'billed to Casey');
  } finally {
    kiosk.dispose();
  }
});

test('a full disk after the order was queued: billed (it was written once, with its attempt); with the service down, queued with lastError, never a rejection, billed once when both are back', async () => {
  const outbox = fillableOutbox(path.join(scratch.dir, 'full-after'));
  const before = await balanceOf('u_1002');
  const hybrid = new lq.HybridQualifier({ client: clientOf('u_1002'), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
  const realPut = outbox.put;
  const fillAfterNextPut = () => {
    outbox.put = async (order) => {
      const done = await realPut(order);
      outbox.state.full = true; // the disk fills up right after the order was durably queued
      outbox.put = realPut;
      return done;
    };
  };
  try {
    await hybrid.ready();
    fillAfterNextPut();
    const puts = outbox.state.puts;
    const billed = await hybrid.checkout(latte, { offer: twoOff, basketId: 'blair-full-after-1' });
    assert.deepEqual([billed.status, billed.discount], ['billed', '2.00'], 'its attempt was written with it: nothing else to write before sending');
    assert.equal(outbox.state.puts - puts, 1, 'the order was written once');
    assert.equal(await balanceOf('u_1002'), before - 200);
    outbox.state.full = false;
    // The page kept the basket id: a retry is the same order, never a second one.
    const again = await hybrid.checkout(latte, { offer: twoOff, basketId: 'blair-full-after-1' });
    assert.equal(again.status, 'billed');

    // The disk fills after the order was queued and the service does not answer: the order stays as written.
    await stopService();
    let queued;
    try {
      fillAfterNextPut();
      queued = await hybrid.checkout(latte, { offer: twoOff, basketId: 'blair-full-after-2' });
    } finally {
      await startServiceAgain();
    }
    assert.equal(queued.status, 'queued');
    assert.equal(queued.basketId, 'blair-full-after-2');
    assert.match(queued.lastError, /ENOSPC/);
    assert.equal(queued.discount, null, 'what the outbox holds is sent: with its offer, whose fate is unknown');
    outbox.state.full = false;
    const [replayed] = await hybrid.flush();
    assert.deepEqual([replayed.basketId, replayed.status, replayed.discount], ['blair-full-after-2', 'billed', '2.00']);
    assert.equal(await balanceOf('u_1002'), before - 400, 'each billed once');
  } finally {
    outbox.put = realPut;
    hybrid.dispose();
  }
});

test('a full disk before the order was queued: a clear refusal (507), nothing sent', async () => {
  const outbox = fillableOutbox(path.join(scratch.dir, 'full-before'));
  const before = await balanceOf('u_1002');
  const hybrid = new lq.HybridQualifier({ client: clientOf('u_1002'), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    await hybrid.ready();
    outbox.state.full = true;
    await assert.rejects(hybrid.checkout(latte, { offer: twoOff, basketId: 'blair-full-before-1' }), (e) => {
      assert.ok(e instanceof lq.QualifyError);
      assert.equal(e.code, 507);
      assert.match(e.message, /not placed and nothing was sent/);
      assert.match(e.message, /ENOSPC/);
      return true;
    });
    assert.equal(await balanceOf('u_1002'), before);
    assert.deepEqual(await hybrid.pendingOrders({ all: true }), []);
    outbox.state.full = false;
    const created = await basket(service, 'u_1002', { ...latte, id: 'blair-full-before-1', state: 'checkout' });
    assert.equal(created.status, 201, 'the service never heard of that basket');
  } finally {
    hybrid.dispose();
  }
});

test('a lost answer under offline "never": the order is re-sent unchanged; the outcome does not claim what is unknown', async () => {
  const proxy = await startLossyProxy(() => service.url);
  const before = await balanceOf('u_1002');
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client: clientOf('u_1002', { baseUrl: proxy.url }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push({ order, outcome }) });
  try {
    proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
    const outcome = await hybrid.checkout(latte, { offer: twoOff, basketId: 'blair-lost-never-1' });
    assert.equal(proxy.state.dropped, 1);
    assert.equal(outcome.status, 'queued');
    assert.equal(outcome.discount, null, 'unknown: the lost attempt may have redeemed the offer');
    assert.match(outcome.message, /may or may not be redeemed/);
    assert.doesNotMatch(outcome.message, /full price|no offer is redeemed/);
    const [pending] = await hybrid.pendingOrders();
    assert.deepEqual(pending.body.points_products, ['pp_two_off'], 'the body as first sent');
    assert.deepEqual(pending.offer, twoOff);
    const [replayed] = await hybrid.flush();
    assert.equal(replayed.status, 'billed');
    assert.equal(replayed.discount, '2.00');
    assert.equal(settled.length, 1);
    assert.deepEqual(settled[0].order.body.points_products, ['pp_two_off'], 'the record shows what was billed');
    assert.equal(await balanceOf('u_1002'), before - 200);
  } finally {
    hybrid.dispose();
    await proxy.close();
  }
});

test('the same basket id with another basket is refused (409); the same basket again returns its outcome', async () => {
  const hybrid = new lq.HybridQualifier({ client: clientOf('u_1003'), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    await hybrid.ready();
    await stopService();
    try {
      const first = await hybrid.checkout(latte, { offer: null, basketId: 'casey-same-id-1' });
      assert.equal(first.status, 'queued');
      const bigger = { ...latte, subtotal: '9.50', items: [{ id: 'latte', price: '4.75', categories: ['coffee'], quantity: 2 }] };
      await assert.rejects(hybrid.checkout(bigger, { offer: null, basketId: 'casey-same-id-1' }), (e) => {
        assert.equal(e.code, 409);
        assert.match(e.message, /casey-same-id-1/);
        assert.match(e.message, /nothing was sent/);
        return true;
      });
      const again = await hybrid.checkout(latte, { offer: null, basketId: 'casey-same-id-1' });
      assert.equal(again.status, 'queued');
      assert.equal(again.basketId, 'casey-same-id-1');
      assert.equal((await hybrid.pendingOrders()).length, 1);
    } finally {
      await startServiceAgain();
    }
    const [billed] = await hybrid.flush();
    assert.equal(billed.status, 'billed');
    assert.equal(await billedStatus('u_1003', { ...latte, id: 'casey-same-id-1' }), 200, 'the first basket, billed');
  } finally {
    hybrid.dispose();
  }
});

test('two replayers of one outbox in one process: each order is sent and settled once', async () => {
  const directory = path.join(scratch.dir, 'two-replayers');
  const outbox = lq.fileOrderOutbox({ directory });
  const before = await balanceOf('u_1001');
  const placer = new lq.HybridQualifier({ client: clientOf('u_1001'), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
  await placer.ready();
  await stopService();
  try {
    for (const id of ['alex-two-1', 'alex-two-2', 'alex-two-3']) {
      assert.equal((await placer.checkout(latte, { offer: twoOff, basketId: id })).status, 'queued');
    }
  } finally {
    placer.dispose();
    await startServiceAgain();
  }
  const settled = [];
  const onOrderSettled = (order, outcome) => settled.push(outcome.basketId);
  const one = new lq.HybridQualifier({ client: clientOf('u_1001'), outbox, qualifierOptions, onOrderSettled, backoff: { initialMs: 600_000 } });
  // A second replayer in the same process (another kiosk instance), for the same guest.
  const two = new lq.HybridQualifier({ client: clientOf('u_1001'), outbox, qualifierOptions, onOrderSettled, backoff: { initialMs: 600_000 } });
  try {
    await Promise.all([one.flush(), two.flush(), one.flush(), two.flush()]);
    assert.deepEqual(settled.sort(), ['alex-two-1', 'alex-two-2', 'alex-two-3'], 'each order settled once');
    assert.equal(await balanceOf('u_1001'), before, 'queued at full price while the service was down (connection refused: nothing had been sent)');
  } finally {
    one.dispose();
    two.dispose();
  }
});
