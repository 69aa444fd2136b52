// Issue 38, item 3: { signal } and disposal, through the public API against the real local
// service and the real wasm engine. An aborted call rejects at once with the platform's
// AbortError; a checkout aborted before its order is written places nothing, one aborted later
// stays placed and is billed once (checking out again gives its outcome); dispose() rejects the
// calls in flight with DisposedError (a QualifyError 410) and aborts the account read nobody will
// use; Symbol.asyncDispose waits for what it cut short. Requests are held back where a test
// needs a call in flight by a fetch that waits for the test to let them through (the real fetch,
// to the real service, then).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { basket as saveBasket, withTimeout } from '../../service/harness.js';
import { readJson } from '../../support/support.js';
import { clientOf, latte, lq, qualifierOptions, service, useOrderService } from '../orders/order_service.js';

const ALEX = 'u_1001';
const BLAIR = 'u_1002';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const ANY_COFFEE = { kind: 'reward', id: 'rw_1002_any_coffee' };
const offersLatte = (answer) => answer.rewards.some((r) => r.id === FREE_LATTE.id);
const offersCoffee = (answer) => answer.rewards.some((r) => r.id === ANY_COFFEE.id);
const isAccountRead = (url, init) => (init?.method ?? 'GET') === 'GET' && new URL(url).pathname === '/api/account';
const isBasketWrite = (url, init) => init?.method === 'POST' && new URL(url).pathname === '/api/baskets';

useOrderService('hybrid-cancellation');

/**
 * A fetch (the real one) that holds back the requests `holds(url, init)` selects until release():
 * `requests` lists every request made ({ url, method, held, aborted }); arrived(n) resolves once
 * n held requests wait.
 */
function heldFetch(holds) {
  const requests = [];
  const waiters = [];
  let open;
  const opened = new Promise((resolve) => {
    open = resolve;
  });
  const notify = () => {
    const held = requests.filter((r) => r.held).length;
    for (const w of waiters.filter((w) => w.n <= held)) waiters.splice(waiters.indexOf(w), 1) && w.resolve();
  };
  return {
    requests,
    arrived: (n = 1) => withTimeout(new Promise((resolve) => {
      waiters.push({ n, resolve });
      notify();
    }), 20_000, `${n} held request(s) never came`),
    release: () => open(),
    async fetch(url, init = {}) {
      const request = { url: String(url), method: init.method ?? 'GET', held: holds(String(url), init), aborted: false };
      init.signal?.addEventListener('abort', () => {
        request.aborted = true;
      });
      requests.push(request);
      if (request.held) {
        notify();
        await opened;
      }
      return fetch(url, init); // an aborted signal rejects here, as a request aborted in flight
    },
  };
}

function hybridOf(fetchImpl, options = {}, userId = ALEX) {
  return new lq.HybridQualifier({
    client: clientOf(userId, fetchImpl ? { fetch: fetchImpl } : {}),
    outbox: lq.memoryOrderOutbox(),
    qualifierOptions,
    backoff: { initialMs: 600_000 },
    ...options,
  });
}

function isAbortError(e) {
  assert.ok(e instanceof DOMException, `not a DOMException: ${e}`);
  assert.equal(e.name, 'AbortError');
  return true;
}

function isDisposedError(e) {
  assert.ok(e instanceof lq.DisposedError, `not a DisposedError: ${e?.stack ?? e}`);
  assert.ok(e instanceof lq.QualifyError, 'still a QualifyError');
  assert.deepEqual([e.name, e.code], ['DisposedError', 410]);
  assert.match(e.message, /disposed/);
  return true;
}

test('a signal aborted already rejects qualify, explain, confirm and checkout with AbortError before anything is asked', { timeout: 60_000 }, async () => {
  const network = heldFetch(() => false);
  const hybrid = hybridOf(network.fetch);
  try {
    const signal = AbortSignal.abort();
    await assert.rejects(hybrid.qualify(latte, { signal }), isAbortError);
    await assert.rejects(hybrid.explain(latte, { signal }), isAbortError);
    await assert.rejects(hybrid.confirm(latte, { signal }), isAbortError);
    await assert.rejects(hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'abort-early', signal }), isAbortError);
    assert.deepEqual(network.requests, [], 'no request was made');
    assert.deepEqual(await hybrid.pendingOrders({ all: true }), []);
    // abort(reason): the call rejects with that reason, as fetch does.
    const reason = new Error('the guest walked away');
    await assert.rejects(hybrid.qualify(latte, { signal: AbortSignal.abort(reason) }), (e) => e === reason);
    await assert.rejects(hybrid.qualify(latte, { signal: 'no' }), TypeError);
  } finally {
    hybrid.dispose();
  }
});

test('qualify aborted while the first account read is in flight rejects at once; the read goes on and the next answer uses it', { timeout: 60_000 }, async () => {
  const network = heldFetch(isAccountRead);
  const hybrid = hybridOf(network.fetch);
  try {
    const controller = new AbortController();
    const asked = hybrid.qualify(latte, { signal: controller.signal });
    await network.arrived(1);
    controller.abort();
    await assert.rejects(asked, isAbortError);
    network.release();
    assert.ok(offersLatte(await hybrid.qualify(latte)));
    assert.equal(network.requests.filter((r) => isAccountRead(r.url, r)).length, 1, 'one account read, shared');
    assert.equal(network.requests[0].aborted, false, "the caller's abort does not stop the shared read");
  } finally {
    hybrid.dispose();
  }
});

test('dispose() rejects the calls in flight with DisposedError and aborts the account read; no call after it runs', { timeout: 60_000 }, async () => {
  const network = heldFetch(isAccountRead);
  const hybrid = hybridOf(network.fetch);
  const changes = [];
  hybrid.addEventListener('snapshotchange', (e) => changes.push(e.reason));
  const calls = [hybrid.qualify(latte), hybrid.explain(latte), hybrid.ready(), hybrid.checkout(latte, { basketId: 'disposed-1' })];
  await network.arrived(1);
  hybrid.dispose();
  for (const call of calls) await assert.rejects(call, isDisposedError);
  assert.equal(network.requests[0].aborted, true, 'the account read nobody will use was aborted');
  network.release();
  await assert.rejects(hybrid.qualify(latte), isDisposedError);
  await assert.rejects(hybrid.checkout(latte), isDisposedError);
  await hybrid[Symbol.asyncDispose](); // idempotent; waits for what the disposal cut short
  assert.deepEqual(changes, [], 'nothing was loaded, nothing told');
  assert.equal(network.requests.length, 1, 'no request after the disposal');
});

test('a checkout aborted before its order is written places nothing: checking out again places it once', { timeout: 60_000 }, async () => {
  const outbox = lq.memoryOrderOutbox();
  const network = heldFetch(isAccountRead);
  const hybrid = hybridOf(network.fetch, { outbox });
  const controller = new AbortController();
  const order = hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'abort-before-write', signal: controller.signal });
  await network.arrived(1); // checkout is reading the account to learn whose order it is
  controller.abort();
  await assert.rejects(order, isAbortError);
  network.release();
  await hybrid[Symbol.asyncDispose](); // the aborted checkout's work has ended
  assert.deepEqual(await outbox.list(), [], 'nothing placed');
  assert.equal(network.requests.filter((r) => isBasketWrite(r.url, r)).length, 0, 'nothing sent');

  const again = hybridOf(null, { outbox });
  try {
    const outcome = await again.checkout(latte, { offer: FREE_LATTE, basketId: 'abort-before-write' });
    assert.deepEqual([outcome.status, outcome.basketId, outcome.discount], ['billed', 'abort-before-write', '4.75']);
  } finally {
    again.dispose();
  }
});

test('a checkout aborted while its order is sent stays placed: billed once, told by ordersettled, and checking out again gives its outcome', { timeout: 60_000 }, async () => {
  const outbox = lq.memoryOrderOutbox();
  const network = heldFetch(isBasketWrite);
  const hybrid = hybridOf(network.fetch, { outbox }, BLAIR);
  try {
    assert.ok(offersCoffee(await hybrid.qualify(latte)));
    const settled = new Promise((resolve) => hybrid.addEventListener('ordersettled', (e) => resolve(e), { once: true }));
    const controller = new AbortController();
    const order = hybrid.checkout(latte, { offer: ANY_COFFEE, basketId: 'abort-after-write', signal: controller.signal });
    await network.arrived(1); // written, and being sent
    controller.abort();
    await assert.rejects(order, isAbortError);
    assert.deepEqual((await hybrid.pendingOrders()).map((o) => o.basketId), ['abort-after-write'], 'still placed');
    // The till asks again (same basket id and request) while the first send is still under way.
    const again = hybrid.checkout(latte, { offer: ANY_COFFEE, basketId: 'abort-after-write' });
    network.release();
    const event = await withTimeout(settled, 20_000, 'no ordersettled');
    assert.deepEqual([event.order.basketId, event.outcome.status, event.outcome.discount], ['abort-after-write', 'billed', '4.75']);
    const outcome = await again;
    assert.deepEqual([outcome.status, outcome.basketId, outcome.discount], ['billed', 'abort-after-write', '4.75'], JSON.stringify(outcome));
    const later = await hybrid.checkout(latte, { offer: ANY_COFFEE, basketId: 'abort-after-write' });
    assert.deepEqual([later.status, later.discount], ['billed', '4.75'], 'and once it is decided');
    // The service has one basket of that id, billed with the reward (a re-send answers it as billed).
    const recorded = await saveBasket(service, BLAIR, { ...latte, rewards: [ANY_COFFEE.id], id: 'abort-after-write', state: 'billed' });
    assert.deepEqual([recorded.body.state, recorded.body.discount], ['billed', '4.75']);
    assert.ok(!offersCoffee(await hybrid.refresh().then(() => hybrid.qualify(latte))), 'redeemed once');
  } finally {
    hybrid.dispose();
  }
});

test('Symbol.asyncDispose frees the engine: no live handle is left', { timeout: 60_000 }, async () => {
  const before = (await lq.diagnostics()).liveHandles;
  const hybrid = hybridOf(null);
  await hybrid.qualify(latte);
  assert.equal((await lq.diagnostics()).liveHandles, before + 1);
  await hybrid[Symbol.asyncDispose]();
  assert.equal((await lq.diagnostics()).liveHandles, before);
  assert.equal(typeof hybrid[Symbol.dispose], 'function');
});

test('a worker qualifier: an abort rejects with AbortError, dispose() rejects the calls in flight with DisposedError', { timeout: 60_000 }, async () => {
  const workerApi = await import('../../../web/worker/worker.node.js');
  const snapshot = readJson('examples/snapshot.json');
  const request = readJson('examples/basket.json');
  const worker = await workerApi.createQualifierWorker(snapshot, qualifierOptions);
  const controller = new AbortController();
  const asked = worker.qualify(request, { signal: controller.signal });
  controller.abort();
  await assert.rejects(asked, isAbortError);
  assert.ok((await worker.qualify(request)).rewards.length > 0, 'the worker still answers');
  const inFlight = [worker.qualify(request), worker.explain(request)];
  const disposed = worker[Symbol.asyncDispose]();
  for (const call of inFlight) {
    await assert.rejects(call, (e) => {
      assert.ok(e instanceof workerApi.DisposedError && e instanceof workerApi.QualifyError, `${e}`);
      assert.deepEqual([e.name, e.code], ['DisposedError', 410]);
      return true;
    });
  }
  await disposed;
  await assert.rejects(worker.qualify(request), { name: 'DisposedError', code: 410 });
});
