// loyalty-qualifier/emulator in Node: the local service's and the store hub's own C++ in the
// emulator's wasm module, answering fetch() with no process and no socket. What a test harness
// relies on: the routes and their errors, the clock that lands a purchase, reset() and close(),
// the hub's store key and claims.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createEmulator, createStoreHubEmulator } from '../../web/local/emulator/emulator.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
const MEDIA_TYPE = 'application/vnd.service-v1+json';
const BASE = 'https://loyalty.example.test';
const T0 = Date.parse('2026-11-24T13:15:00Z');

function credentials(userId) {
  const user = fixture.users.find((u) => u.id === userId);
  const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
  const client = fixture.clients.find((c) => c.merchant_id === user.merchant_id);
  return { token: user.access_token, key: merchant.merchant_key, client: client.client_id };
}

const loyaltyHeaders = (userId) => ({
  Authorization: `Bearer ${credentials(userId).token}`,
  'Merchant-Key': credentials(userId).key,
  Accept: MEDIA_TYPE,
  'Content-Type': 'application/json',
});
const consumerHeaders = (userId) => ({
  Authorization: `Bearer ${credentials(userId).token}`,
  'X-ClientId': credentials(userId).client,
  'Accept-Version': 'v4.0',
  Accept: 'application/json',
  'Content-Type': 'application/json',
});

const BASKET = {
  redemption_venue: 'instore',
  location_uid: 'harbor-downtown',
  subtotal: '19.00',
  items: [
    { id: 'latte', price: '5.25', categories: ['coffee'] },
    { id: 'croissant', price: '3.25', categories: ['pastry'], quantity: 2 },
  ],
};

describe('createEmulator', () => {
  let now = T0;
  let emulator;
  before(async () => {
    emulator = await createEmulator({ now: () => now, processingDelay: 60 });
  });
  after(() => emulator?.close());

  test('answers the qualifying endpoint from the demo fixture, at any base URL', async () => {
    const res = await emulator.fetch(`${BASE}/api/baskets/qualifying`, {
      method: 'POST',
      headers: loyaltyHeaders('u_1001'),
      body: JSON.stringify(BASKET),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), MEDIA_TYPE);
    const answer = await res.json();
    assert.ok(Array.isArray(answer.rewards) && answer.rewards.length > 0, JSON.stringify(answer));
    const other = await emulator.fetch('http://localhost:1/api/baskets/qualifying', {
      method: 'POST',
      headers: loyaltyHeaders('u_1001'),
      body: JSON.stringify(BASKET),
    });
    assert.deepEqual(await other.json(), answer);
  });

  test('errors as the service gives them: 401 with WWW-Authenticate, 406, 404, 405 with Allow', async () => {
    const unauthorized = await emulator.fetch(`${BASE}/api/account`, { headers: { Accept: MEDIA_TYPE } });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await unauthorized.json()).code, 401);
    const unacceptable = await emulator.fetch(`${BASE}/api/account`, { headers: { ...loyaltyHeaders('u_1001'), Accept: 'text/html' } });
    assert.equal(unacceptable.status, 406);
    const missing = await emulator.fetch(`${BASE}/nowhere`);
    assert.deepEqual(await missing.json(), { code: 404, message: 'no route for GET /nowhere' });
    const wrongMethod = await emulator.fetch(`${BASE}/api/baskets/qualifying`, { method: 'PUT', headers: loyaltyHeaders('u_1001') });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
  });

  test('a malformed body is named as the engine names it', async () => {
    const res = await emulator.fetch(`${BASE}/api/baskets/qualifying`, {
      method: 'POST',
      headers: loyaltyHeaders('u_1001'),
      body: '{"items":[}',
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).message, "request body is not valid JSON: unexpected '}' at offset 10");
  });

  test('the account read carries an ETag and answers If-None-Match with 304', async () => {
    const first = await emulator.fetch(`${BASE}/api/account`, { headers: loyaltyHeaders('u_1001') });
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.match(etag, /^"/);
    const account = await first.json();
    assert.equal(account.merchant.tz_rule, 'EST5EDT,M3.2.0,M11.1.0');
    const again = await emulator.fetch(`${BASE}/api/account`, { headers: { ...loyaltyHeaders('u_1001'), 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  test('a purchase lands once the clock passes its processing delay, without waiting', async () => {
    const purchase = {
      merchant_id: 'm_harbor_coffee',
      location_id: 'loc_downtown',
      user_id: 'u_1002',
      amount: '12.50',
      purchased_at: '2026-11-24T08:00:00-05:00',
    };
    const queued = await emulator.fetch(`${BASE}/purchases`, { method: 'POST', headers: consumerHeaders('u_1002'), body: JSON.stringify({ purchase }) });
    assert.equal(queued.status, 202);
    const list = async () => (await (await emulator.fetch(`${BASE}/purchases`, { headers: consumerHeaders('u_1002') })).json()).purchases;
    assert.equal((await list()).length, 0);
    now += 59_000;
    assert.equal((await list()).length, 0);
    now += 1_000;
    const landed = await list();
    assert.equal(landed.length, 1);
    assert.equal(landed[0].amount, '12.50');
  });

  test('reset() returns to the fixture; close() frees it and later calls reject', async () => {
    const granted = await emulator.fetch(`${BASE}/rewards/grant`, {
      method: 'POST',
      headers: consumerHeaders('u_1003'),
      body: JSON.stringify({ campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1003' }),
    });
    assert.equal(granted.status, 201);
    const rewards = async () => (await (await emulator.fetch(`${BASE}/rewards`, { headers: consumerHeaders('u_1003') })).json()).rewards;
    const before = (await rewards()).length;
    await emulator.reset();
    assert.equal((await rewards()).length, before - 1);
    const closing = await createEmulator();
    await closing.close();
    await closing.close();
    await assert.rejects(closing.fetch(`${BASE}/api/account`), /closed/);
  });

  test('options are checked: a fixture the service refuses names its path', async () => {
    await assert.rejects(createEmulator({ fixture: { merchants: [{ id: 'm' }] } }), (e) => {
      assert.match(e.message, /^fixture \(the fixture object\): .*merchants\[0\]/);
      return true;
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lq-fixture-')), 'bad fixture.json');
    writeFileSync(file, JSON.stringify({ users: 'nobody' }));
    await assert.rejects(createEmulator({ fixture: file }), (e) => {
      assert.equal(e.message, `fixture ${file}: users must be an array`);
      return true;
    });
    await assert.rejects(createEmulator({ mode: 'staging' }), TypeError);
    await assert.rejects(createEmulator({ now: 'soon' }), TypeError);
  });
});

describe('createStoreHubEmulator', () => {
  let now = T0;
  let hub;
  before(async () => {
    hub = await createStoreHubEmulator({ storeKey: '5f0c2a9e71d84b36a0e9c1f27b4d8e63', now: () => now });
  });
  after(() => hub?.close());

  const claim = (body, key = '5f0c2a9e71d84b36a0e9c1f27b4d8e63') =>
    hub.fetch('http://hub.test/hub/claims', { method: 'POST', headers: { 'Store-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  test('the store key is required before anything else', async () => {
    const res = await hub.fetch('http://hub.test/hub/health');
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Store-Key');
  });

  test("health tells the hub's clock, which is the emulator's", async () => {
    const res = await hub.fetch('http://hub.test/hub/health', { headers: { 'Store-Key': '5f0c2a9e71d84b36a0e9c1f27b4d8e63' } });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).now, '2026-11-24T13:15:00Z');
  });

  test('one kiosk is granted a reward, another is refused while the claim holds', async () => {
    const basket = (id, kiosk) => ({
      merchant_id: 'm_harbor_coffee',
      user_id: 'u_1001',
      basket_id: id,
      kiosk_id: kiosk,
      reward_id: 'rw_free_latte',
    });
    const first = await claim(basket('b-1', 'kiosk-1'));
    assert.equal(first.status, 201, await first.clone().text());
    const second = await claim(basket('b-2', 'kiosk-2'));
    assert.equal(second.status, 409, await second.clone().text());
  });
});
