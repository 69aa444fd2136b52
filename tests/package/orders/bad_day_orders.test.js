// Issue 28's order path, in Node against the real service over 127.0.0.1 and a real SQLite file:
// one order the service cannot bill holds back no one else's; every order is billed with its own
// guest's credentials (a token function that changes guests, credentialsFor giving another's);
// every wait is bounded (a token function and a credentialsFor that never settle); billed means
// the service said so (a fake of the external loyalty service, of our own, answers an empty 200,
// a 204, [], another basket); two checkouts with one basket id; an order queued before its
// account was read follows the service to a new base URL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { test } from 'node:test';

import { credentialsOf } from '../../service/harness.js';
import { clientOf, db, latte, lq, qualifierOptions, service, startServiceAgain, stopService, useOrderService } from './order_service.js';

const ALEX = 'u_1001';
const BLAIR = 'u_1002';
const CASEY = 'u_1003';
const owner = (userId) => JSON.stringify(['m_harbor_coffee', userId]);
const quiet = { initialMs: 600_000 }; // no background replay: each test flushes when it wants

const forty = { ...latte, subtotal: '40.00', items: [{ id: 'beans', price: '40.00', categories: ['retail'] }] };

const credentialsOfUser = (userId) => ({ baseUrl: service.url, merchantKey: credentialsOf(userId).key, accessToken: credentialsOf(userId).token });
const sql = (statement) => execFileSync('sqlite3', [db, statement], { encoding: 'utf8' }).trim();
// Whose account a basket id was billed to in the service's own database ('' when nobody's).
const billedTo = (basketId) => sql(`SELECT group_concat(user_id) FROM baskets WHERE id = '${basketId}' AND state = 'billed'`);
const restartService = async () => {
  await stopService();
  await startServiceAgain();
};

useOrderService('bad-day-orders');

test('one order the service answers 500 holds back no one else: other guests are billed, and a waiting order says why', async () => {
  const outbox = lq.memoryOrderOutbox();
  const alex = new lq.HybridQualifier({ client: clientOf(ALEX), outbox, qualifierOptions, backoff: quiet });
  const blair = new lq.HybridQualifier({ client: clientOf(BLAIR), outbox, qualifierOptions, backoff: quiet });
  try {
    await alex.ready();
    await blair.ready();
    // An outage: Alex's order, then Blair's, queue.
    await service.stop();
    assert.equal((await alex.checkout(latte, { basketId: 'stuck-alex-1' })).status, 'queued');
    assert.equal((await blair.checkout(latte, { basketId: 'stuck-blair-1' })).status, 'queued');
    // Alex's stored account can no longer be loaded: the service answers 500 to everything of Alex's.
    sql(`UPDATE points_balances SET balance = 9000000000000000000 WHERE user_id = '${ALEX}'`);
    await startServiceAgain();
    assert.match(service.stderr, /u_1001 .*500/);

    const outcomes = await blair.flush();
    const byId = Object.fromEntries(outcomes.map((o) => [o.basketId, o]));
    assert.equal(byId['stuck-alex-1'].status, 'queued');
    assert.match(byId['stuck-alex-1'].lastError, /500|cannot be loaded/, 'the waiting order says why');
    assert.equal(byId['stuck-blair-1'].status, 'billed', "Alex's 500 does not hold back Blair's order");
    assert.equal(billedTo('stuck-blair-1'), BLAIR);
    // A new checkout by Blair, with an offer: billed by the service, not queued at full price.
    const fresh = await blair.checkout(latte, { basketId: 'stuck-blair-2', offer: { kind: 'points_product', id: 'pp_two_off' } });
    assert.equal(fresh.status, 'billed', fresh.message);
    assert.notEqual(fresh.discount, '0.00');
    // Every order still waiting says why.
    for (const order of await blair.pendingOrders({ all: true })) assert.ok(order.lastError, `${order.basketId} says why it waits`);
  } finally {
    alex.dispose();
    blair.dispose();
    sql(`UPDATE points_balances SET balance = 1000 WHERE user_id = '${ALEX}'`);
    await restartService();
  }
});

test("a token function that starts giving another guest's token: each order is billed to its own guest, and the hybrid follows the new guest", async () => {
  let token = credentialsOf(ALEX).token;
  const client = clientOf(ALEX, { accessToken: () => token });
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet, onOrderSettled: (order, outcome) => settled.push([order.userId, outcome.basketId, outcome.status]) });
  const blairsOwn = new lq.HybridQualifier({ client: clientOf(BLAIR), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet });
  try {
    await hybrid.ready();
    await service.stop();
    assert.equal((await hybrid.checkout(forty, { basketId: 'switch-alex-40' })).status, 'queued');
    await startServiceAgain();
    token = credentialsOf(BLAIR).token; // the kiosk's token function now gives Blair's
    await hybrid.flush();
    assert.equal(billedTo('switch-alex-40'), ALEX, "Alex's $40 order is billed to Alex, never to Blair");
    assert.deepEqual(settled, [[ALEX, 'switch-alex-40', 'billed']]);
    // The hybrid follows Blair before it answers: Blair's snapshot and offers, never Alex's.
    assert.deepEqual(await hybrid.qualify(latte), await blairsOwn.qualify(latte));
    assert.equal(hybrid.currentSnapshot().user.id, BLAIR);
    const blairs = await hybrid.checkout(latte, { basketId: 'switch-blair-1' });
    assert.equal(blairs.status, 'billed');
    assert.equal(billedTo('switch-blair-1'), BLAIR);
    assert.deepEqual(settled.at(-1), [BLAIR, 'switch-blair-1', 'billed']);
  } finally {
    hybrid.dispose();
    blairsOwn.dispose();
  }
});

test("credentialsFor giving another guest's credentials: the order stays queued, lastError names whose they are, nothing is billed", async () => {
  const outbox = lq.memoryOrderOutbox();
  const alex = new lq.HybridQualifier({ client: clientOf(ALEX), outbox, qualifierOptions, backoff: quiet, storeCredentials: false });
  try {
    await alex.ready();
    await service.stop();
    assert.equal((await alex.checkout(latte, { basketId: 'wrong-credentials-1' })).status, 'queued');
  } finally {
    alex.dispose();
    await startServiceAgain();
  }
  const asked = [];
  const kiosk = new lq.HybridQualifier({
    client: clientOf(CASEY),
    outbox,
    qualifierOptions,
    backoff: quiet,
    credentialsFor: (order) => {
      asked.push(order.userId);
      return credentialsOfUser(BLAIR);
    },
  });
  try {
    const [outcome] = await kiosk.flush();
    assert.deepEqual(asked, [ALEX]);
    assert.equal(outcome.status, 'queued');
    assert.ok(outcome.lastError.includes(owner(BLAIR)) && outcome.lastError.includes(owner(ALEX)), outcome.lastError);
    assert.equal(billedTo('wrong-credentials-1'), '', 'nobody was billed');
    const [stored] = await kiosk.pendingOrders({ all: true });
    assert.equal(stored.lastError, outcome.lastError);
  } finally {
    kiosk.dispose();
  }
});

test('a token function and a credentialsFor that never settle: checkout resolves queued with lastError, and the lock is free again', async () => {
  let hang = false;
  const { token } = credentialsOf(CASEY);
  const client = clientOf(CASEY, { timeoutMs: 300, accessToken: () => (hang ? new Promise(() => {}) : token) });
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet });
  try {
    await hybrid.ready();
    hang = true;
    const outcome = await hybrid.checkout(latte, { basketId: 'hanging-token-1' });
    assert.equal(outcome.status, 'queued');
    assert.match(outcome.lastError, /credentials/);
    const second = await hybrid.checkout(latte, { basketId: 'hanging-token-2' });
    assert.equal(second.status, 'queued', 'the replay lock was released');
    hang = false;
    assert.deepEqual((await hybrid.flush()).map((o) => o.status), ['billed', 'billed']);
  } finally {
    hybrid.dispose();
  }
  const asking = new lq.HybridQualifier({ client: clientOf(BLAIR, { timeoutMs: 300 }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet, credentialsFor: () => new Promise(() => {}) });
  try {
    await asking.ready();
    const outcome = await asking.checkout(latte, { basketId: 'hanging-credentials-1' });
    assert.equal(outcome.status, 'queued');
    assert.match(outcome.lastError, /credentialsFor\(\) failed: .*within 300 ms/);
  } finally {
    asking.dispose();
  }
});

test('billed means the service said billed: an empty 200, a 204, [], another basket or another state leave the order queued, re-sent with the same id', async () => {
  // A fake of the external loyalty service on 127.0.0.1: the account read goes to the real
  // service; POST /api/baskets gets the next canned answer, then (none left) the real service's.
  const canned = [
    [200, ''],
    [204, ''],
    [200, '[]'],
    [201, JSON.stringify({ id: 'someone-elses', state: 'billed', discount: '0.00' })],
    [201, JSON.stringify({ id: 'answer-check-1', state: 'placed', discount: '0.00' })],
  ];
  const sent = [];
  const fake = http.createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    if (request.method === 'POST' && request.url === '/api/baskets') {
      sent.push(JSON.parse(body).id);
      if (canned.length > 0) {
        const [status, text] = canned.shift();
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(text);
        return;
      }
    }
    const headers = { ...request.headers };
    delete headers.host;
    delete headers['content-length'];
    const real = await fetch(service.url + request.url, { method: request.method, headers, body: body || undefined });
    response.writeHead(real.status, { 'Content-Type': real.headers.get('content-type') ?? 'application/json' });
    response.end(await real.text());
  });
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const hybrid = new lq.HybridQualifier({ client: clientOf(CASEY, { baseUrl: `http://127.0.0.1:${fake.address().port}` }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet });
  try {
    await hybrid.ready();
    const first = await hybrid.checkout(latte, { basketId: 'answer-check-1' });
    assert.equal(first.status, 'queued');
    assert.match(first.lastError, /empty answer/);
    const expected = [/empty answer/, /an array/, /basket "someone-elses"/, /state "placed"/];
    for (const pattern of expected) {
      const [outcome] = await hybrid.flush();
      assert.equal(outcome.status, 'queued');
      assert.match(outcome.lastError, pattern);
    }
    const [billed] = await hybrid.flush();
    assert.equal(billed.status, 'billed');
    assert.deepEqual(sent, Array(6).fill('answer-check-1'), 'the same basket id every time');
    assert.equal(billedTo('answer-check-1'), CASEY);
  } finally {
    hybrid.dispose();
    await new Promise((resolve) => fake.close(resolve));
  }
});

test("two checkouts with one basket id at once both resolve to the service's decision", async () => {
  const hybrid = new lq.HybridQualifier({ client: clientOf(BLAIR), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: quiet });
  try {
    await hybrid.ready();
    const both = await Promise.all([hybrid.checkout(latte, { basketId: 'twice-1' }), hybrid.checkout(latte, { basketId: 'twice-1' })]);
    assert.deepEqual(both.map((o) => o.status), ['billed', 'billed']);
    assert.deepEqual(both[0], both[1]);
  } finally {
    hybrid.dispose();
  }
});

test('an order queued before its account was read follows the service to a new base URL (same merchant key and token)', { timeout: 60_000 }, async () => {
  const outbox = lq.memoryOrderOutbox();
  // The old address: nothing answers there any more.
  const gone = http.createServer();
  await new Promise((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const oldUrl = `http://127.0.0.1:${gone.address().port}`;
  await new Promise((resolve) => gone.close(resolve));
  const first = new lq.HybridQualifier({ client: clientOf(CASEY, { baseUrl: oldUrl }), outbox, qualifierOptions, backoff: quiet });
  try {
    const queued = await first.checkout(latte, { basketId: 'moved-1' });
    assert.equal(queued.status, 'queued');
    const [stored] = await first.pendingOrders({ all: true });
    assert.equal(stored.userId, null, 'queued before its account was read');
  } finally {
    first.dispose();
  }
  const second = new lq.HybridQualifier({ client: clientOf(CASEY), outbox, qualifierOptions, backoff: quiet });
  // Its own replay may settle the order before flush() is called (flush() then has nothing to do):
  // the settlement is awaited, whichever sends it.
  const settled = new Promise((resolve) => second.addEventListener('ordersettled', resolve, { once: true }));
  try {
    await second.ready();
    await second.flush();
    const { order, outcome } = await settled;
    assert.deepEqual([order.basketId, outcome.status], ['moved-1', 'billed']);
    assert.equal(billedTo('moved-1'), CASEY);
  } finally {
    second.dispose();
  }
});
