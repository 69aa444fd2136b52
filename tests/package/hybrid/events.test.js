// Issue 38, item 2: the events a page listens to instead of polling diagnostics(), through the
// public API against the real local service (demo fixture, a real SQLite file), the real wasm
// engine and a real store hub process: 'snapshotchange' when the snapshot is loaded, when the
// guest's pending order holds an offer and when a refresh brings the service's state;
// 'ordersettled' with the outcome onOrderSettled gets; 'hubreachabilitychange' when the hub stops
// and starts answering; 'snapshotchange' (reason 'set') of a Qualifier and a worker qualifier.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { withTimeout } from '../../service/harness.js';
import { STORE_KEY, startHub } from '../../hub/harness.js';
import { readJson } from '../../support/support.js';
import { clientOf, latte, lq, qualifierOptions, scratch, startServiceAgain, stopService, useOrderService } from '../orders/order_service.js';

const ALEX = 'u_1001';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const offersLatte = (answer) => answer.rewards.some((r) => r.id === FREE_LATTE.id);

useOrderService('hybrid-events');

/** The next event `type` of `target` that `accepts`, within 20 s (listen before causing it). */
function nextEvent(target, type, accepts = () => true) {
  return withTimeout(
    new Promise((resolve) => {
      const listener = (event) => {
        if (!accepts(event)) return;
        target.removeEventListener(type, listener);
        resolve(event);
      };
      target.addEventListener(type, listener);
    }),
    20_000,
    `no ${type} event`,
  );
}

function hybridOf(userId, options = {}) {
  return new lq.HybridQualifier({
    client: clientOf(userId),
    outbox: lq.memoryOrderOutbox(),
    qualifierOptions,
    offline: { redeem: 'provisional', maxDiscount: '5.00' },
    backoff: { initialMs: 600_000 },
    ...options,
  });
}

test("'snapshotchange' tells the load, the offline order's hold and the refresh after it settles; 'ordersettled' its outcome", { timeout: 120_000 }, async () => {
  const told = [];
  const hybrid = hybridOf(ALEX, { onOrderSettled: (order, outcome) => told.push({ order, outcome }) });
  const reasons = [];
  const settled = [];
  hybrid.addEventListener('snapshotchange', (event) => {
    assert.ok(event instanceof Event && event instanceof lq.SnapshotChangeEvent);
    reasons.push(event.reason);
  });
  hybrid.addEventListener('ordersettled', (event) => settled.push(event));
  try {
    assert.ok(offersLatte(await hybrid.qualify(latte)));
    assert.deepEqual(reasons, ['load'], 'the first account read');
    await stopService();
    try {
      // Offline, the latte is promised: the pending order holds it, and the hybrid says so unasked.
      const held = nextEvent(hybrid, 'snapshotchange', (e) => e.reason === 'holds');
      const queued = await hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'events-latte-1' });
      assert.deepEqual([queued.status, queued.discount], ['queued', '4.75']);
      await held;
      assert.ok(!offersLatte(await hybrid.qualify(latte)), 'the answer after the event no longer offers it');
      assert.deepEqual(settled, [], 'nothing settled while the service is down');
    } finally {
      await startServiceAgain();
    }
    const refreshed = nextEvent(hybrid, 'snapshotchange', (e) => e.reason === 'refresh');
    const [outcome] = await hybrid.flush();
    assert.deepEqual([outcome.basketId, outcome.status, outcome.discount], ['events-latte-1', 'billed', '4.75']);
    assert.equal(settled.length, 1);
    assert.ok(settled[0] instanceof lq.OrderSettledEvent);
    assert.equal(settled[0].type, 'ordersettled');
    assert.equal(settled[0].order.basketId, 'events-latte-1');
    assert.equal(settled[0].outcome.status, 'billed');
    assert.equal(settled[0].order, told[0].order, 'the event carries what onOrderSettled got');
    assert.equal(settled[0].outcome, told[0].outcome);
    // Billed: the service's snapshot after it is read, and it has the reward redeemed.
    await refreshed;
    assert.ok(!offersLatte(await hybrid.qualify(latte)));
  } finally {
    hybrid.dispose();
  }
});

test("'hubreachabilitychange' tells when the store hub stops answering and when it answers again", { timeout: 120_000 }, async () => {
  const hubDb = path.join(scratch.dir, 'events-hub.db');
  let hub = await startHub({ db: hubDb });
  const port = Number(new URL(hub.url).port);
  const hybrid = hybridOf(ALEX, { hub: { url: hub.url, storeKey: STORE_KEY, kioskId: 'kiosk-events', timeoutMs: 2_000 } });
  const seen = [];
  hybrid.addEventListener('hubreachabilitychange', (event) => {
    assert.ok(event instanceof lq.HubReachabilityEvent);
    seen.push({ reachable: event.reachable, message: event.message });
  });
  try {
    assert.deepEqual(hybrid.diagnostics().hub, { reachable: null, message: null }, 'no call yet');
    const up = nextEvent(hybrid, 'hubreachabilitychange');
    await hybrid.qualify(latte); // asks the hub for the guest's claims, in the background
    assert.equal((await up).reachable, true);
    assert.deepEqual(hybrid.diagnostics().hub, { reachable: true, message: null });

    // Listened for before the hub stops: a claims request in flight may fail while it stops.
    const down = nextEvent(hybrid, 'hubreachabilitychange');
    await hub.stop();
    const withheld = await hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'events-hub-1' });
    assert.equal(withheld.withheld?.code, 'HUB_UNREACHABLE');
    const gone = await down;
    assert.equal(gone.reachable, false);
    assert.match(gone.message, /the store hub cannot be reached/);
    assert.equal(hybrid.diagnostics().hub.reachable, false);

    const back = nextEvent(hybrid, 'hubreachabilitychange');
    hub = await startHub({ db: hubDb, port });
    const granted = await hybrid.checkout(latte, { offer: FREE_LATTE, basketId: 'events-hub-2' });
    assert.equal(granted.withheld, undefined, JSON.stringify(granted));
    assert.equal((await back).reachable, true);
    assert.deepEqual(seen.slice(0, 2).map((s) => s.reachable), [true, false]);
    assert.equal(seen.at(-1).reachable, true);
    seen.forEach((s, i) => assert.ok(i === 0 || s.reachable !== seen[i - 1].reachable, 'each event is a change'));
  } finally {
    hybrid.dispose();
    await hub.stop();
  }
});

test("a Qualifier and a worker qualifier tell 'snapshotchange' (reason 'set') after setSnapshot, not after a refused one", { timeout: 60_000 }, async () => {
  const snapshot = readJson('examples/snapshot.json');
  const q = await lq.createQualifier(snapshot, qualifierOptions);
  const worker = await (await import('../../../web/worker/worker.node.js')).createQualifierWorker(snapshot, qualifierOptions);
  try {
    for (const source of [q, worker]) {
      const reasons = [];
      source.addEventListener('snapshotchange', (event) => reasons.push(event.reason));
      await source.setSnapshot(snapshot);
      assert.deepEqual(reasons, ['set']);
      await assert.rejects(async () => source.setSnapshot({ schema_version: 99 }), { code: 422 });
      assert.deepEqual(reasons, ['set'], 'a snapshot refused changes nothing');
    }
  } finally {
    q.dispose();
    await worker.dispose();
  }
});
