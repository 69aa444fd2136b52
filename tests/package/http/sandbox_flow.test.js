// The clients end to end against the real local service on 127.0.0.1 (issue 4's "done when"):
// a grant shows in GET /rewards?states[]=... and in the account snapshot, then qualifies locally
// and remotely; a purchase lands after a short configured delay and waitForPurchase resolves;
// with the service stopped the hybrid qualifier answers locally, provisionally; restarted,
// confirm agrees.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  FIXED_NOW,
  clientIdOf,
  credentialsOf,
  ensureWasm,
  scratchDir,
  serviceBinary,
  startService,
} from '../../service/harness.js';
import { SEED_WAITS, scaledTimers } from './scaled_timers.js';

const DELAY_SECONDS = 1;
const USER = 'u_1003';
const scratch = scratchDir('lq-flow-');
const db = path.join(scratch.dir, 'flow.db');
let service;
let api;
let clients;
let sandbox;
let loyalty;
let hybrid;
const divergences = [];

before(async () => {
  serviceBinary();
  ensureWasm();
  api = await import('../../../web/index.js');
  clients = {
    ...(await import('../../../web/http/loyalty_client.js')),
    ...(await import('../../../web/offline/hybrid/hybrid_qualifier.js')),
    ...(await import('../../../web/http/sandbox_client.js')),
  };
  service = await startService({ db, now: true, delay: DELAY_SECONDS });
  const { token, key } = credentialsOf(USER);
  sandbox = new clients.SandboxClient({ sandboxApiUrl: service.url, accessToken: token, clientId: clientIdOf(USER) });
  loyalty = new clients.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, timeoutMs: 2_000 });
  hybrid = new clients.HybridQualifier({
    client: loyalty,
    qualifierOptions: { now: () => new Date(FIXED_NOW) },
    onDivergence: (event) => divergences.push(event),
  });
}, { timeout: 900_000 });

after(async () => {
  hybrid?.dispose();
  if (service) await service.crash();
  scratch.cleanup();
});

const dripBasket = {
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  location_uid: 'harbor-downtown',
  subtotal: '4.00',
  items: [{ id: 'drip_coffee', name: 'Drip coffee', price: '2.50', categories: ['coffee'] }, { id: 'cookie', price: '1.50' }],
};

const ids = (result) => result.rewards.map((r) => r.id);


describe('issue 4, done when', () => {
  let granted;

  test('a grant shows in GET /rewards?states[]=... and in the account snapshot, then qualifies locally and remotely', async () => {
    await hybrid.ready(); // a snapshot from before the grant
    const before = await hybrid.confirm(dripBasket);
    assert.equal(before.source, 'remote');

    granted = await sandbox.grantReward({ campaign_id: 'cmp_Hb9xK4', user_id: USER });
    assert.match(granted.id, /^rw_/);
    assert.equal(granted.campaign_id, 'cmp_Hb9xK4');
    assert.equal(granted.state, 'redeemable');

    const redeemable = await sandbox.listRewards({ states: ['redeemable'] });
    assert.ok(redeemable.some((r) => r.id === granted.id));
    assert.ok(redeemable.every((r) => r.state === 'redeemable'));
    assert.deepEqual((await sandbox.listRewards({ states: ['redeemed'] })).map((r) => r.id), []);
    const either = await sandbox.listRewards({ states: ['redeemable', 'redeemed'] });
    assert.deepEqual(either, redeemable);
    // The seed's trap: a name without brackets is one string, so this matches no state.
    assert.deepEqual(await sandbox.listRewards({ states: 'redeemable,redeemed' }), []);

    const snapshot = await loyalty.account();
    const record = snapshot.rewards.find((r) => r.id === granted.id);
    assert.ok(record, 'the grant is in the account snapshot');
    assert.equal(record.label, 'Free drip coffee');

    const remote = await loyalty.qualify(dripBasket);
    assert.ok(ids(remote).includes(granted.id), JSON.stringify(remote));
    const fresh = await api.createQualifier(snapshot, { now: () => new Date(FIXED_NOW) });
    try {
      assert.deepEqual(fresh.qualify(dripBasket), remote);
    } finally {
      fresh.dispose();
    }

    // The hybrid's snapshot predates the grant: confirm disagrees, refreshes, and says so.
    assert.ok(!ids(await hybrid.qualify(dripBasket)).includes(granted.id));
    const confirmed = await hybrid.confirm(dripBasket);
    assert.deepEqual(confirmed, { result: remote, source: 'remote', provisional: false, diverged: true });
    assert.equal(divergences.length, 1);
    assert.ok(!ids(divergences[0].local).includes(granted.id));
    assert.deepEqual(divergences[0].remote, remote);
    assert.equal(divergences[0].refreshError, null);
    assert.deepEqual(await hybrid.qualify(dripBasket), remote, 'the local answer after the refresh');
    assert.deepEqual((await hybrid.confirm(dripBasket)).result, remote);
    assert.equal(divergences.length, 1, 'agreeing answers are no divergence');
  });

  test('a purchase lands after the configured delay and waitForPurchase resolves', { timeout: 30_000 }, async () => {
    const fake = scaledTimers(150, Date.parse(FIXED_NOW));
    const events = [];
    const sent = Date.now();
    await sandbox.simulatePurchase({
      merchant_id: 'm_harbor_coffee',
      location_id: 'loc_downtown',
      user_id: USER,
      amount: '7.25',
      purchased_at: '2026-11-24T09:00:00-05:00',
    });
    const landed = await sandbox.waitForPurchase(
      { user_id: USER, amount: 7.25, purchased_at: '2026-11-24T14:00:00Z' },
      { timers: fake, onProgress: (event) => events.push({ ...event, at: Date.now() }) },
    );
    assert.ok(landed, 'waitForPurchase gave up');
    assert.ok(Date.now() - sent >= DELAY_SECONDS * 1000 - 50, 'landed before the configured delay');
    assert.equal(landed.amount, '7.25');
    assert.equal(landed.location_id, 'loc_downtown');
    assert.equal(landed.points, 72);
    // The first poll's answer, back before the delay had passed since the purchase was sent, was
    // provably asked before it landed (a slow machine may let the delay pass first).
    const first = events.find((e) => e.type === 'not-found' || e.type === 'found');
    if (first.at - sent < DELAY_SECONDS * 1000) assert.equal(first.type, 'not-found', 'found before it landed');
    // The seed's schedule, on the fake clock.
    assert.deepEqual(fake.state.waits, SEED_WAITS.slice(0, fake.state.waits.length));
    assert.deepEqual(events.filter((e) => e.type !== 'waiting' && e.type !== 'polling').map((e) => e.type),
      [...Array(fake.state.waits.length - 1).fill('not-found'), 'found']);
    // It shows in GET /purchases and the points accrued.
    assert.deepEqual((await sandbox.listPurchases({ ids: [landed.id] })).map((p) => p.id), [landed.id]);
    const beans = (await loyalty.account()).points.find((p) => p.points_experience_id === 'beans');
    assert.equal(beans.balance, 72);
  });

  test('with the service stopped the hybrid answers locally, provisionally; restarted, confirm agrees', { timeout: 60_000 }, async () => {
    const online = await hybrid.confirm(dripBasket);
    assert.equal(online.source, 'remote');
    const port = new URL(service.url).port;
    assert.equal((await service.stop()).code, 0);

    assert.deepEqual(await hybrid.qualify(dripBasket), online.result, 'qualify needs no network');
    const offline = await hybrid.confirm(dripBasket);
    assert.equal(offline.source, 'local');
    assert.equal(offline.provisional, true);
    assert.equal(offline.error.code, clients.NETWORK_ERROR);
    assert.deepEqual(offline.result, online.result);
    assert.ok(ids(offline.result).includes(granted.id));

    service = await startService({ db, now: true, delay: DELAY_SECONDS, port });
    const back = await hybrid.confirm(dripBasket);
    assert.deepEqual(back, { result: offline.result, source: 'remote', provisional: false, diverged: false });
    assert.equal(divergences.length, 1, 'no divergence after the restart');
  });
});
