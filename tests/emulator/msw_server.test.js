// loyalty-qualifier/msw with MSW's setupServer in Node: the package's own clients call the
// loyalty API and the sandbox by their URLs, with the global fetch, and MSW hands every request
// under those URLs to the emulator. No process, no socket: the test of an ordering page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { setupServer } from 'msw/node';

import { LoyaltyClient, SandboxClient } from '../../web/index.js';
import { createEmulator, createStoreHubEmulator } from '../../web/local/emulator/emulator.js';
import { loyaltyHandlers, storeHubHandlers } from '../../web/local/msw/msw.js';

const API = 'https://loyalty.example.test/v1';
const SANDBOX = 'https://sandbox.example.test';
const HUB = 'http://hub.store.test:8443';
let now = Date.parse('2026-11-24T13:15:00Z');
let emulator;
let hub;
let server;

before(async () => {
  emulator = await createEmulator({ now: () => now, processingDelay: 30 });
  hub = await createStoreHubEmulator({ storeKey: '9d3e7b1a5c0f42e8b6a1d9c3f7e05b24', now: () => now });
  server = setupServer(
    ...loyaltyHandlers(emulator, { baseUrl: API, sandboxUrl: SANDBOX }),
    ...storeHubHandlers(hub, { baseUrl: HUB }),
  );
  server.listen({ onUnhandledRequest: 'error' });
});

after(async () => {
  server?.close();
  await emulator?.close();
  await hub?.close();
});

const guest = new LoyaltyClient({ baseUrl: API, merchantKey: 'mk_harbor_5f1c9a7e2b', accessToken: 'at_u1001_7Qx2LmN9pR4s' });
const sandbox = new SandboxClient({ sandboxApiUrl: SANDBOX, accessToken: 'at_u1003_Vb5Hn2Ty8Ue6', clientId: 'cl_harbor_pos' });

test('the loyalty client qualifies a basket under a base URL with a path', async () => {
  const answer = await guest.qualify({
    redemption_venue: 'instore',
    location_uid: 'harbor-downtown',
    items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }],
  });
  assert.ok(answer.rewards.some((reward) => reward.id === 'rw_free_latte'), JSON.stringify(answer));
});

test('a sandbox grant shows in the account read; a purchase lands when the clock moves', async () => {
  const rewardsBefore = (await sandbox.listRewards()).length;
  await sandbox.grantReward({ campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1003' });
  assert.equal((await sandbox.listRewards()).length, rewardsBefore + 1);
  await sandbox.simulatePurchase({
    merchant_id: 'm_harbor_coffee',
    location_id: 'loc_downtown',
    user_id: 'u_1003',
    amount: '20.00',
    purchased_at: '2026-11-24T08:00:00-05:00',
  });
  assert.equal((await sandbox.listPurchases()).length, 0);
  now += 30_000;
  assert.equal((await sandbox.listPurchases()).length, 1);
});

test('the store hub answers under its own base URL, with its store key', async () => {
  const health = await fetch(`${HUB}/hub/health`, { headers: { 'Store-Key': '9d3e7b1a5c0f42e8b6a1d9c3f7e05b24' } });
  assert.equal(health.status, 200);
  assert.equal((await health.json()).claim_ttl_ms, 604800000);
  assert.equal((await fetch(`${HUB}/hub/health`)).status, 401);
});

test('handlers refuse what is no emulator or no base URL', () => {
  assert.throws(() => loyaltyHandlers({}, { baseUrl: API }), TypeError);
  assert.throws(() => loyaltyHandlers(emulator, { baseUrl: '/relative' }), TypeError);
  assert.throws(() => storeHubHandlers(hub, {}), TypeError);
});
