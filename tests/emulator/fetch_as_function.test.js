// The emulator's fetch as a fetch function, through the package's public entries as a consumer
// imports them: `emulator.fetch` given alone (LoyaltyClient's and SandboxClient's `fetch` option,
// a bare `const f = emulator.fetch`), and what it shares with the platform's fetch: an aborted
// signal rejects with its reason, a response's url is the request's (compared with the real
// fetch of a loopback server).
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { createEmulator, createStoreHubEmulator } from 'loyalty-qualifier/emulator';
import { LoyaltyClient, SandboxClient } from 'loyalty-qualifier';
import { credentialsOf } from '../service/harness.js';

const NOW = Date.parse('2026-11-24T13:15:00Z');
const BASE = 'https://loyalty.example.test';
const STORE_KEY = 'store-key-0123456789abcdef';
const BASKET = { redemption_venue: 'instore', location_uid: 'harbor-downtown', subtotal: '5.25', items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }] };

function loyaltyHeaders(userId) {
  const { token, key } = credentialsOf(userId);
  return { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json', 'Content-Type': 'application/json' };
}

describe('emulator.fetch given alone', () => {
  let emulator;
  before(async () => {
    emulator = await createEmulator({ now: NOW });
  });
  after(() => emulator?.close());

  test("is LoyaltyClient's and SandboxClient's fetch option", async () => {
    const { token, key } = credentialsOf('u_1001');
    const client = new LoyaltyClient({ baseUrl: BASE, merchantKey: key, accessToken: token, fetch: emulator.fetch });
    const fromClient = await client.qualify(BASKET);
    const direct = await emulator.fetch(`${BASE}/api/baskets/qualifying`, { method: 'POST', headers: loyaltyHeaders('u_1001'), body: JSON.stringify(BASKET) });
    assert.equal(direct.status, 200);
    const expected = await direct.json();
    assert.ok(expected.rewards.length > 0, 'the demo basket qualifies for a reward');
    assert.deepEqual(fromClient.rewards.map((r) => r.id), expected.rewards.map((r) => r.id));

    const { token: consumerToken } = credentialsOf('u_1003');
    const sandbox = new SandboxClient({ sandboxApiUrl: BASE, accessToken: consumerToken, clientId: 'cl_harbor_pos', fetch: emulator.fetch });
    const before = (await sandbox.listRewards()).length;
    const granted = await sandbox.grantReward({ campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1003' });
    assert.equal(typeof granted.id, 'string');
    assert.equal((await sandbox.listRewards()).length, before + 1);
  });

  test('a bare function, with any this: fetch, reset and close', async () => {
    const other = await createEmulator({ now: NOW });
    const { fetch: f, reset, close } = other;
    const account = () => f(`${BASE}/api/account`, { headers: loyaltyHeaders('u_1001') });
    assert.equal((await account()).status, 200);
    assert.equal((await f.call(undefined, `${BASE}/api/account`, { headers: loyaltyHeaders('u_1001') })).status, 200);
    assert.equal((await f.call(globalThis, new Request(`${BASE}/api/account`, { headers: loyaltyHeaders('u_1001') }))).status, 200);
    await reset.call(undefined);
    assert.equal((await account()).status, 200);
    await close();
    await assert.rejects(account(), /closed/);
    await assert.rejects(reset(), /closed/);
    await close(); // idempotent
  });

  test("the hub's too", async () => {
    const hub = await createStoreHubEmulator({ storeKey: STORE_KEY, now: NOW });
    const { fetch: f, reset, close } = hub;
    const health = await f('http://hub.test/hub/health', { headers: { 'Store-Key': STORE_KEY } });
    assert.equal(health.status, 200, await health.clone().text());
    assert.equal(health.url, 'http://hub.test/hub/health');
    await reset();
    assert.equal((await f('http://hub.test/hub/health', { headers: { 'Store-Key': STORE_KEY } })).status, 200);
    await close();
    await assert.rejects(f('http://hub.test/hub/health', { headers: { 'Store-Key': STORE_KEY } }), /closed/);
  });
});

describe('emulator.fetch as fetch', () => {
  let emulator;
  let server;
  let origin;
  before(async () => {
    emulator = await createEmulator({ now: NOW });
    server = http.createServer((req, res) => res.end('ok'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
  });
  after(async () => {
    await emulator?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  // How a promise settles: the rejection's name, message and reason identity, or the status.
  async function outcome(promise) {
    try {
      return { status: (await promise).status };
    } catch (e) {
      return { rejected: e?.name, message: e?.message, error: e };
    }
  }

  test('an aborted signal rejects with its reason, as fetch rejects', async () => {
    const headers = loyaltyHeaders('u_1001');
    for (const make of [() => AbortSignal.abort(), () => AbortSignal.abort(new Error('gave up'))]) {
      const signal = make();
      const real = await outcome(fetch(`${origin}/api/account`, { headers, signal }));
      const emulated = await outcome(emulator.fetch(`${BASE}/api/account`, { headers, signal }));
      assert.ok(real.rejected, 'the real fetch rejects');
      assert.equal(emulated.rejected, real.rejected);
      assert.equal(emulated.message, real.message);
      assert.equal(emulated.error, signal.reason);
      // A Request carrying the aborted signal, and a body that would otherwise be read.
      const request = new Request(`${BASE}/api/baskets/qualifying`, { method: 'POST', headers, body: JSON.stringify(BASKET), signal });
      assert.equal((await outcome(emulator.fetch(request))).error, signal.reason);
    }
    // A live signal changes nothing.
    const live = new AbortController().signal;
    assert.equal((await emulator.fetch(`${BASE}/api/account`, { headers, signal: live })).status, 200);
  });

  test("a response's url is the request's, without its fragment, as fetch's", async () => {
    const headers = loyaltyHeaders('u_1001');
    for (const tail of ['/api/account', '/api/account?x=1#frag', '/api/%61ccount']) {
      const real = await fetch(`${origin}${tail}`);
      await real.text();
      const expected = real.url.replace(origin, BASE);
      for (const input of [`${BASE}${tail}`, new URL(`${BASE}${tail}`), new Request(`${BASE}${tail}`, { headers })]) {
        const res = await emulator.fetch(input, { headers, signal: new AbortController().signal });
        assert.equal(res.status, 200, tail);
        assert.equal(res.url, expected, `${tail} given as ${input.constructor.name}`);
      }
      const plain = await emulator.fetch(`${BASE}${tail}`, { headers });
      assert.equal(plain.url, expected, `${tail} plain`);
      assert.equal(plain.clone().url, expected, `${tail} cloned`);
    }
    // A relative URL: Node's fetch has no base to resolve it against, and neither has the emulator.
    const real = await outcome(fetch('/api/account'));
    const emulated = await outcome(emulator.fetch('/api/account', { headers }));
    assert.equal(real.rejected, 'TypeError');
    assert.equal(emulated.rejected, real.rejected);
  });
});
