// Issue 34, what a kiosk has promised away with a store hub, through the public API against the
// real local service (its own clock: the service's times move) and a real hub process:
// - a kiosk whose clock is an hour behind (a child process whose Date is skewed) spends its points
//   claim at the service's time, so another kiosk with an older snapshot is not granted the same
//   points again (finding 2);
// - a claim made for an order that a full disk keeps from being placed (a real ENOSPC from
//   /dev/full at the outbox's edge) is released before checkout() rejects, or kept and sent later
//   when the hub does not answer (finding 3);
// - three guests' hybrids sharing one snapshot store and kiosk id keep every settlement the hub
//   did not take (the hub stopped) and send each once it is back (finding 4);
// - with the hub stopped (SIGSTOP), qualify() answers at once from the claims last known, while
//   the hub is still being asked (finding 6).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { FIXED_NOW, account, basket, credentialsOf, ensureWasm, root, serviceBinary, startService } from '../service/harness.js';
import { STORE_KEY, hubCall, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-kiosk-holds-');
const NO_ACCRUAL = 3600;
const qualifierOptions = { now: () => new Date(FIXED_NOW) };
const db = path.join(scratch.dir, 'service.db');
const hubDb = path.join(scratch.dir, 'hub.db');
let lq;
let service;
let servicePort;
let hub;
let hubPort;

const latte = {
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  location_uid: 'harbor-downtown',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
};
const pastry = { ...latte, subtotal: '3.25', items: [{ id: 'croissant', price: '3.25', categories: ['pastry'] }] };
const PASTRY = { kind: 'points_product', id: 'pp_pastry' }; // 300 beans: Alex has 450, one pastry's worth

function kiosk(userId, kioskId, { outbox = lq.memoryOrderOutbox(), store, fetch, timeoutMs = 5_000, serviceFetch, now } = {}) {
  const { token, key } = credentialsOf(userId);
  return new lq.HybridQualifier({
    client: new lq.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, timeoutMs: 10_000, ...(serviceFetch ? { fetch: serviceFetch } : {}) }),
    ...(now ? { now } : {}),
    outbox,
    ...(store ? { store } : {}),
    qualifierOptions,
    offline: { redeem: 'provisional', maxDiscount: '5.00' },
    backoff: { initialMs: 600_000 },
    hub: { url: hub.url, storeKey: STORE_KEY, kioskId, timeoutMs, ...(fetch ? { fetch } : {}) },
  });
}

const claimsOf = async (userId) => (await hubCall(hub, 'GET', `/hub/claims?merchant_id=m_harbor_coffee&user_id=${userId}`)).body.claims;
const claimOf = async (userId, basketId) => (await claimsOf(userId)).find((c) => c.basket_id === basketId) ?? null;

async function stopHub() {
  await hub.stop();
}
async function startHubAgain() {
  hub = await startHub({ db: hubDb, port: hubPort });
}

before(async () => {
  ensureWasm();
  serviceBinary();
  lq = await import('../../web/index.js');
  service = await startService({ db, delay: NO_ACCRUAL }); // the service's own clock
  servicePort = new URL(service.url).port;
  hub = await startHub({ db: hubDb });
  hubPort = Number(new URL(hub.url).port);
}, { timeout: 900_000 });

after(async () => {
  await service?.crash();
  await hub?.stop();
  scratch.cleanup();
});

// A kiosk in a child process whose clock is `skewMs` off: it checks out `body` with `offer` as
// basket `basketId` (online), prints the outcome, and keeps running (its settlement goes on in
// the background) until a line on stdin ends it.
const skewedKiosk = (index, token, key) => `
  const skew = Number(process.argv[1]);
  const RealDate = Date;
  globalThis.Date = class SkewedDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(RealDate.now() + skew); else super(...args); }
    static now() { return RealDate.now() + skew; }
  };
  const lq = await import(${JSON.stringify(index)});
  const [, serviceUrl, hubUrl, storeKey, basketId, body, offer] = process.argv.slice(1);
  const client = new lq.LoyaltyClient({ baseUrl: serviceUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, timeoutMs: 10_000 });
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.memoryOrderOutbox(), backoff: { initialMs: 600_000 },
    qualifierOptions: { now: () => new RealDate(${JSON.stringify(FIXED_NOW)}) },
    hub: { url: hubUrl, storeKey, kioskId: 'kiosk-behind', timeoutMs: 5_000 } });
  const outcome = await hybrid.checkout(JSON.parse(body), { offer: JSON.parse(offer), basketId });
  console.log(JSON.stringify({ outcome, now: new Date().toISOString() }));
  await new Promise((resolve) => process.stdin.once('data', resolve));
  hybrid.dispose();
  process.exit(0);
`;

test('a kiosk whose clock is an hour behind spends its points claim at the service\'s time: a kiosk with an older snapshot is not granted the same points again', { timeout: 120_000 }, async () => {
  const other = kiosk('u_1001', 'kiosk-ahead');
  try {
    await other.ready(); // its snapshot: 450 beans, read before the pastry is billed elsewhere
    const olderSnapshot = other.currentSnapshot();
    assert.equal(Number(olderSnapshot.points[0].balance), 450);

    const { token, key } = credentialsOf('u_1001');
    const index = pathToFileURL(path.join(root, 'web/index.js')).href;
    const args = ['--', String(-3_600_000), service.url, hub.url, STORE_KEY, 'clock-behind-1', JSON.stringify(pastry), JSON.stringify(PASTRY)];
    const child = spawn(process.execPath, ['--input-type=module', '-e', skewedKiosk(index, token, key), ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    const closed = new Promise((resolve) => child.once('close', resolve));
    try {
      assert.ok(await waitFor(() => out.includes('\n') || child.exitCode !== null, 60_000, 20));
      assert.ok(out.includes('\n'), `the skewed kiosk answered: ${err}`);
      const { outcome, now } = JSON.parse(out.split('\n')[0]);
      assert.deepEqual([outcome.status, outcome.discount], ['billed', '3.25'], JSON.stringify(outcome));
      assert.ok(Date.parse(now) < Date.now() - 3_000_000, "the kiosk's clock is an hour behind");
      // Its claim is spent at the hub, with the time of the service's account read after the billing.
      assert.ok(await waitFor(async () => (await claimOf('u_1001', 'clock-behind-1'))?.state === 'spent', 30_000, 50), 'spent at the hub');
    } finally {
      child.stdin.end('end\n');
      await closed;
    }
    const spent = await claimOf('u_1001', 'clock-behind-1');
    assert.ok(Date.parse(spent.billed_at) > Date.parse(olderSnapshot.generated_at), `billed_at ${spent.billed_at} is after the older snapshot's ${olderSnapshot.generated_at}`);
    assert.equal(Number((await account(service, 'u_1001')).body.points[0].balance), 150, 'the service debited 300');

    // The service is cut; the other kiosk, on its older snapshot, asks for the same 300 beans.
    await service.stop();
    let refused;
    try {
      refused = await other.checkout(pastry, { offer: PASTRY, basketId: 'clock-ahead-1' });
    } finally {
      service = await startService({ db, delay: NO_ACCRUAL, port: servicePort });
    }
    assert.deepEqual([refused.status, refused.discount, refused.withheld?.code], ['queued', '0.00', 'INSUFFICIENT_POINTS'], JSON.stringify(refused));
    const [billed] = await other.flush();
    assert.deepEqual([billed.basketId, billed.status, billed.discount], ['clock-ahead-1', 'billed', '0.00']);
    assert.equal(billed.offerRefused, undefined, 'nothing billed without a promised offer');
  } finally {
    other.dispose();
  }
});

/** A file outbox whose writes fail while `state.full` is set, with the file system's own ENOSPC (/dev/full). */
function fillableOutbox(directory) {
  const inner = lq.fileOrderOutbox({ directory });
  const state = { full: false };
  return {
    ...inner,
    state,
    put: async (order) => {
      if (state.full) writeFileSync('/dev/full', JSON.stringify(order));
      return inner.put(order);
    },
  };
}

test('a claim made for an order a full disk keeps from being placed is released before checkout() rejects (507); kept and sent later when the hub does not answer', { timeout: 120_000 }, async () => {
  const ANY_COFFEE = { kind: 'reward', id: 'rw_1002_any_coffee' };
  const outbox = fillableOutbox(path.join(scratch.dir, 'full-outbox'));
  const store = lq.fileSnapshotStore({ directory: path.join(scratch.dir, 'full-store') });
  let releases = 'answered';
  const fetch = (url, init) => {
    if (releases === 'dropped' && String(url).endsWith('/hub/claims/release')) return Promise.reject(new TypeError('fetch failed (the network dropped it)'));
    return globalThis.fetch(url, init);
  };
  const one = kiosk('u_1002', 'kiosk-full', { outbox, store, fetch });
  try {
    await one.ready();
    outbox.state.full = true;
    await assert.rejects(one.checkout(latte, { offer: ANY_COFFEE, basketId: 'full-1' }), { code: 507, message: /not placed and nothing was sent.*ENOSPC/s });
    assert.equal(await claimOf('u_1002', 'full-1'), null, 'released before checkout() returned');
    const released = await hubCall(hub, 'POST', '/hub/claims/release', { body: { merchant_id: 'm_harbor_coffee', user_id: 'u_1002', basket_id: 'full-1' } });
    assert.equal(released.body.claim.state, 'released', 'it was claimed, then released');
    assert.ok((await one.qualify(latte)).rewards.some((r) => r.id === ANY_COFFEE.id), 'the reward is still offered');

    // The hub does not answer the release: it is kept, and sent later.
    releases = 'dropped';
    await assert.rejects(one.checkout(latte, { offer: ANY_COFFEE, basketId: 'full-2' }), { code: 507 });
    assert.equal((await claimOf('u_1002', 'full-2'))?.state, 'held', 'the hub never heard the release');
    assert.equal((await store.keys('hub-settlement:kiosk-full:')).length, 1, 'kept in the store');
  } finally {
    one.dispose();
    outbox.state.full = false;
  }
  releases = 'answered';
  // Any hybrid of this kiosk sends what was kept (at start-up, and after each settlement).
  const next = kiosk('u_1001', 'kiosk-full', { store, fetch });
  try {
    assert.ok(await waitFor(async () => (await claimOf('u_1002', 'full-2')) === null, 15_000, 50), 'released once the hub answers');
    assert.ok(await waitFor(async () => (await store.keys('hub-settlement:')).length === 0, 15_000, 50), 'and forgotten');
  } finally {
    next.dispose();
    // Whatever happened above, the reward is free for the next test.
    for (const basketId of ['full-1', 'full-2']) await hubCall(hub, 'POST', '/hub/claims/release', { body: { merchant_id: 'm_harbor_coffee', user_id: 'u_1002', basket_id: basketId } });
  }
});

test('three guests\' hybrids sharing one store and kiosk id keep every settlement the stopped hub did not take, and send each once it is back', { timeout: 180_000 }, async () => {
  const store = lq.fileSnapshotStore({ directory: path.join(scratch.dir, 'shared-store') });
  const guests = [['u_1001', 'rw_free_latte'], ['u_1002', 'rw_1002_any_coffee'], ['u_1003', 'rw_1003_welcome']];
  const hybrids = guests.map(([userId]) => kiosk(userId, 'kiosk-shared', { store }));
  try {
    await Promise.all(hybrids.map((h) => h.ready()));
    await service.stop();
    try {
      const placed = await Promise.all(hybrids.map((h, i) => h.checkout(latte, { offer: { kind: 'reward', id: guests[i][1] }, basketId: `shared-${i}` })));
      assert.deepEqual(placed.map((o) => o.status), ['queued', 'queued', 'queued']);
      assert.ok(placed.every((o) => o.discount !== '0.00'), 'each claimed and promised');
    } finally {
      service = await startService({ db, delay: NO_ACCRUAL, port: servicePort });
    }
    for (const [i, [userId]] of guests.entries()) {
      // Meanwhile another till voided each basket id at the service: the replays will be refused.
      assert.equal((await basket(service, userId, { ...latte, id: `shared-${i}`, state: 'checkout' })).status, 201);
      assert.equal((await basket(service, userId, { ...latte, id: `shared-${i}`, state: 'voided' })).status, 200);
    }
    await stopHub();
    const refused = (await Promise.all(hybrids.map((h) => h.flush()))).flat();
    assert.deepEqual(refused.map((o) => o.status), ['refused', 'refused', 'refused']);
    assert.ok(await waitFor(async () => (await store.keys('hub-settlement:kiosk-shared:')).length === 3, 15_000, 50), 'three releases kept, none lost');
  } finally {
    for (const h of hybrids) h.dispose();
    if (!hub.running()) await startHubAgain();
  }
  for (const [i, [userId]] of guests.entries()) assert.equal((await claimOf(userId, `shared-${i}`))?.state, 'held', 'the hub has not heard yet');
  const next = kiosk('u_1001', 'kiosk-shared', { store });
  try {
    for (const [i, [userId]] of guests.entries()) {
      assert.ok(await waitFor(async () => (await claimOf(userId, `shared-${i}`)) === null, 15_000, 50), `shared-${i} released at the hub`);
    }
  } finally {
    next.dispose();
  }
});

test('the hub stopped (SIGSTOP): qualify() answers at once from the claims last known, while the hub is still being asked', { timeout: 120_000 }, async () => {
  let asking = 0;
  let asked = 0;
  let answeredAt = null;
  const fetch = (url, init) => {
    if (!String(url).includes('/hub/claims?')) return globalThis.fetch(url, init);
    asking += 1;
    asked += 1;
    return globalThis.fetch(url, init).finally(() => {
      asking -= 1;
      answeredAt = Date.now();
    });
  };
  // A timeout far beyond the test's own: a qualify() that waited for the hub would never see its
  // request end, so every answer below must come while the one request sent is still in flight.
  const one = kiosk('u_1003', 'kiosk-sigstop', { fetch, timeoutMs: 600_000 });
  try {
    await one.qualify(latte);
    assert.ok(await waitFor(() => answeredAt !== null && asking === 0, 15_000, 20), 'the claims are known');
    // Old enough to be asked again at the next answer (2 s).
    assert.ok(await waitFor(() => Date.now() - answeredAt > 2_100, 15_000, 50));
    hub.kill('SIGSTOP');
    const before = asked;
    try {
      for (let i = 0; i < 4; i += 1) {
        const answer = await one.qualify(latte);
        assert.ok(Array.isArray(answer.rewards));
        // The answer came while the hub was still being asked: one request sent, none ended.
        assert.deepEqual({ asked: asked - before, asking }, { asked: 1, asking: 1 }, `qualify ${i + 1} answered without waiting for the hub`);
      }
      const { claims } = one.diagnostics().holds;
      assert.equal(claims.refreshing, true);
      assert.ok(claims.ageMs > 2_000, `the claims in use are ${claims.ageMs} ms old`);
    } finally {
      hub.kill('SIGCONT');
    }
    assert.ok(await waitFor(() => asking === 0 && one.diagnostics().holds.claims.ageMs < 2_000, 30_000, 20), 'asked again once the hub answers');
  } finally {
    one.dispose();
  }
});

test('the hub stopped (SIGSTOP): checkout waits for its own claim only (at most timeoutMs), never for the claims being asked, and promises nothing', { timeout: 120_000 }, async () => {
  const events = [];
  let answeredAt = null;
  const fetch = (url, init) => {
    const what = String(url).includes('/hub/claims?') ? 'list' : new URL(url).pathname === '/hub/claims' ? 'claim' : null;
    if (what === null) return globalThis.fetch(url, init);
    events.push(`${what} sent`);
    return globalThis.fetch(url, init).finally(() => {
      events.push(`${what} ended`);
      if (what === 'list') answeredAt = Date.now();
    });
  };
  const one = kiosk('u_1002', 'kiosk-sigstop-checkout', { fetch, timeoutMs: 5_000 });
  try {
    await one.qualify(latte);
    assert.ok(await waitFor(() => answeredAt !== null && events.at(-1) === 'list ended', 15_000, 20), 'the claims are known');
    // Old enough to be asked again at the next look (2 s).
    assert.ok(await waitFor(() => Date.now() - answeredAt > 2_100, 15_000, 50));
    await service.stop();
    hub.kill('SIGSTOP');
    let outcome;
    try {
      events.length = 0;
      outcome = await one.checkout(latte, { offer: { kind: 'reward', id: 'rw_1002_any_coffee' }, basketId: 'sigstop-checkout-1' });
    } finally {
      hub.kill('SIGCONT');
      service = await startService({ db, delay: NO_ACCRUAL, port: servicePort });
    }
    assert.deepEqual([outcome.status, outcome.discount, outcome.withheld?.code], ['queued', '0.00', 'HUB_UNREACHABLE'], JSON.stringify(outcome));
    // The claim was sent before any request for the claims list could end (the hub answers none
    // while stopped): the checkout did not wait for the list, only for its own claim's timeout.
    const claimSent = events.indexOf('claim sent');
    assert.ok(claimSent >= 0, JSON.stringify(events));
    assert.ok(!events.slice(0, claimSent).includes('list ended'), `the checkout waited for the claims list: ${JSON.stringify(events)}`);
    assert.equal(events.filter((e) => e === 'claim sent').length, 1, JSON.stringify(events));
    const [billed] = await one.flush();
    assert.deepEqual([billed.status, billed.discount], ['billed', '0.00']);
  } finally {
    one.dispose();
  }
});

test('an order of another guest, billed by this kiosk\'s replay, is spent at the hub\'s time of receipt, never at this guest\'s snapshot time', { timeout: 120_000 }, async () => {
  const outbox = lq.memoryOrderOutbox();
  const blair = kiosk('u_1002', 'kiosk-device', { outbox });
  const casey = kiosk('u_1003', 'kiosk-device', { outbox });
  try {
    await Promise.all([blair.ready(), casey.ready()]);
    await service.stop();
    try {
      const queued = await casey.checkout(latte, { offer: { kind: 'reward', id: 'rw_1003_welcome' }, basketId: 'device-casey-1' });
      assert.deepEqual([queued.status, queued.discount], ['queued', '3.00']);
    } finally {
      casey.dispose();
      service = await startService({ db, delay: NO_ACCRUAL, port: servicePort });
    }
    // Blair's account, read before Casey's order is billed (unchanged by it: later reads give the same snapshot).
    await blair.refresh();
    const blairsSnapshot = blair.currentSnapshot().generated_at;
    // Casey walked away; Blair's kiosk replays every order on the device.
    const [billed] = await blair.flush();
    assert.deepEqual([billed.basketId, billed.status, billed.discount], ['device-casey-1', 'billed', '3.00']);
    assert.ok(await waitFor(async () => (await claimOf('u_1003', 'device-casey-1'))?.state === 'spent', 15_000, 50), 'spent');
    const spent = await claimOf('u_1003', 'device-casey-1');
    assert.ok(Date.parse(spent.billed_at) > Date.parse(blairsSnapshot), `billed_at ${spent.billed_at} is after Blair's snapshot ${blairsSnapshot}`);
  } finally {
    blair.dispose();
  }
});

test('a spend whose guest\'s account is never read again (the read after the billing failed, the hybrid disposed) is sent after lq\'s wait, at the hub\'s time', { timeout: 120_000 }, async () => {
  const store = lq.fileSnapshotStore({ directory: path.join(scratch.dir, 'orphan-store') });
  let reads = 'answered';
  const serviceFetch = async (url, init) => {
    if (reads === 'dropped' && new URL(url).pathname === '/api/account') throw new TypeError('fetch failed (the network dropped it)');
    const response = await globalThis.fetch(url, init);
    // Once the basket is billed, the link drops every account read.
    if (String(init?.body).includes('"orphan-1"')) reads = 'dropped';
    return response;
  };
  const alex = kiosk('u_1001', 'kiosk-orphan', { store, serviceFetch });
  let readBefore;
  try {
    await alex.ready();
    readBefore = alex.currentSnapshot().generated_at;
    const billed = await alex.checkout(latte, { offer: { kind: 'reward', id: 'rw_free_latte' }, basketId: 'orphan-1' });
    assert.deepEqual([billed.status, billed.discount], ['billed', '4.75'], JSON.stringify(billed));
    assert.ok(await waitFor(async () => (await store.keys('hub-settlement:kiosk-orphan:')).length === 1, 15_000, 50), 'the spend is kept, waiting for the service\'s time');
  } finally {
    alex.dispose(); // the guest walked away: no read of Alex's account will come from this kiosk
  }
  assert.equal((await claimOf('u_1001', 'orphan-1'))?.state, 'held');
  // Another guest's hybrid of this kiosk, on a clock past the wait (SERVICE_TIME_WAIT_MS), sends it at start-up.
  const next = kiosk('u_1003', 'kiosk-orphan', { store, now: () => Date.now() + 120_000 });
  try {
    assert.ok(await waitFor(async () => (await claimOf('u_1001', 'orphan-1'))?.state === 'spent', 15_000, 50), 'spent at the hub');
    assert.ok(await waitFor(async () => (await store.keys('hub-settlement:kiosk-orphan:')).length === 0, 15_000, 50), 'and forgotten');
    const spent = await claimOf('u_1001', 'orphan-1');
    assert.ok(Date.parse(spent.billed_at) > Date.parse(readBefore), `billed_at ${spent.billed_at} (the hub's time of receipt) is after the snapshot read before the billing, ${readBefore}`);
  } finally {
    next.dispose();
  }
});
