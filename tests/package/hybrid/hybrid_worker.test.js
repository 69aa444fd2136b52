// HybridQualifier with its engine in a worker (`worker`: a createQualifierWorker function; in Node
// the one of loyalty-qualifier/worker, a worker thread): against the real service, the same local
// answers, the same confirmation, the offline policy's local discount (an answer that now comes
// back as a promise), and dispose() ends the worker so the process can exit.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, mock, test } from 'node:test';

import { FIXED_NOW, HARBOR_BASKET, credentialsOf, ensureWasm, scratchDir, serviceBinary, startService } from '../../service/harness.js';

const scratch = scratchDir('lq-hybrid-worker-');
let service;
let clients;
let createQualifierWorker;

before(async () => {
  ensureWasm();
  serviceBinary();
  clients = {
    ...(await import('../../../web/http/loyalty_client.js')),
    ...(await import('../../../web/offline/hybrid/hybrid_qualifier.js')),
    ...(await import('../../../web/offline/orders/outbox/memory_outbox.js')),
  };
  ({ createQualifierWorker } = await import('../../../web/worker/worker.node.js'));
  service = await startService({ db: path.join(scratch.dir, 'hybrid-worker.db'), now: true });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

const basket = HARBOR_BASKET;

function hybridOf(options) {
  const { token, key } = credentialsOf('u_1001');
  const client = new clients.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key });
  return new clients.HybridQualifier({
    client,
    outbox: clients.memoryOrderOutbox(),
    qualifierOptions: { now: () => new Date(FIXED_NOW) },
    ...options,
  });
}

test('the engine in a worker thread answers as the one in this thread, and the service agrees', async () => {
  const inThread = hybridOf({});
  const inWorker = hybridOf({ worker: createQualifierWorker });
  try {
    assert.equal(inWorker.engineLocation, null, 'no engine before the first snapshot');
    const local = await inWorker.qualify(basket);
    assert.ok(local.rewards.length > 0);
    assert.equal(inWorker.engineLocation, 'worker');
    assert.deepEqual(local, JSON.parse(JSON.stringify(await inThread.qualify(basket))));
    assert.deepEqual(await inWorker.explain(basket), await inThread.explain(basket));
    const confirmed = await inWorker.confirm(basket);
    assert.equal(confirmed.source, 'remote');
    assert.deepEqual(confirmed.result, local);
    await assert.rejects(inWorker.qualify({ redemption_venue: 'kiosk' }), (e) => {
      // The class of the package's Node entry (what `loyalty-qualifier` gives a Node app).
      assert.equal(e.name, 'QualifyError');
      assert.equal(e.code, 400);
      assert.match(e.message, /redemption_venue/);
      return true;
    });
  } finally {
    inThread.dispose();
    inWorker.dispose();
  }
});

test('offline, the provisional policy promises the discount the worker computes', async () => {
  const { token, key } = credentialsOf('u_1001');
  const online = hybridOf({ worker: createQualifierWorker });
  const snapshot = await (async () => {
    await online.qualify(basket);
    return online.currentSnapshot();
  })();
  online.dispose();
  // The same guest, the service unreachable: the order waits with the discount the local engine gives.
  const client = new clients.LoyaltyClient({ baseUrl: 'http://127.0.0.1:9', accessToken: token, merchantKey: key, timeoutMs: 2000 });
  const offline = new clients.HybridQualifier({
    client,
    snapshot,
    outbox: clients.memoryOrderOutbox(),
    qualifierOptions: { now: () => new Date(FIXED_NOW) },
    offline: { redeem: 'provisional', maxDiscount: '10.00' },
    worker: createQualifierWorker,
  });
  try {
    const best = (await offline.explain(basket)).best;
    assert.ok(best !== null, 'the basket has a best offer');
    const entry = (await offline.explain(basket)).entries.find((e) => e.id === best);
    const outcome = await offline.checkout(basket, { offer: { kind: entry.kind, id: entry.id } });
    assert.equal(outcome.status, 'queued');
    assert.equal(outcome.discount, entry.discount);
  } finally {
    offline.dispose();
  }
});

test('worker: true where there is no Web Worker (Node): the engine stays in this thread, same answers', async () => {
  assert.equal(typeof globalThis.Worker, 'undefined', 'this Node has no Web Worker');
  const inThread = hybridOf({});
  const fallback = hybridOf({ worker: true });
  const warn = mock.method(console, 'warn', () => {});
  try {
    assert.deepEqual(await fallback.qualify(basket), await inThread.qualify(basket));
    assert.equal(inThread.engineLocation, 'thread');
    assert.equal(fallback.engineLocation, 'thread', 'the worker could not start: the engine runs in this thread');
    // The fallback is not silent: one warning says why.
    assert.equal(warn.mock.callCount(), 1);
    assert.match(warn.mock.calls[0].arguments[0], /qualifier worker could not start .*Web Worker.*runs the engine in this thread/);
  } finally {
    warn.mock.restore();
    inThread.dispose();
    fallback.dispose();
  }
});
