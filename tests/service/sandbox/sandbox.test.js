// The consumer API's sandbox operations on the service's port (API spec 2.6, 2.7, 4.2-4.5, 5, 8,
// 9) over real HTTP: headers, grants, simulated purchases that land after the delay, campaign
// triggers, the bracket convention of array filters, and 404 in production mode.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  FIXED_NOW,
  account,
  basket,
  consumer,
  credentialsOf,
  qualifying,
  scratchDir,
  serviceBinary,
  startService,
  waitFor,
} from '../harness.js';

const DELAY_SECONDS = 1;
const scratch = scratchDir();
let service;
let production;

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'sandbox.db'), now: true, delay: DELAY_SECONDS });
  production = await startService({ db: path.join(scratch.dir, 'production.db'), now: true, mode: 'production' });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  if (production) await production.crash();
  scratch.cleanup();
});

function assertError(res, status, messagePattern) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ['code', 'message'], res.text);
  assert.equal(res.body.code, status);
  assert.match(res.headers.get('content-type'), /^application\/json/);
  if (messagePattern) assert.match(res.body.message, messagePattern);
}

const grant = (as, body, extra = {}) => consumer(service, 'POST', '/rewards/grant', { as, body, ...extra });
const purchase = (as, fields, extra = {}) => consumer(service, 'POST', '/purchases', { as, body: { purchase: fields }, ...extra });
const purchases = (as, query = '') => consumer(service, 'GET', `/purchases${query}`, { as });
const rewards = (as, query = '') => consumer(service, 'GET', `/rewards${query}`, { as });

const harborPurchase = (fields = {}) => ({
  merchant_id: 'm_harbor_coffee',
  location_id: 'loc_downtown',
  user_id: 'u_1001',
  amount: '12.50',
  purchased_at: '2026-11-24T08:00:00-05:00',
  ...fields,
});

/** Waits until GET /purchases shows a purchase matching `probe`; returns it. */
async function landed(as, probe, ms = (DELAY_SECONDS + 5) * 1000) {
  return waitFor(async () => (await purchases(as)).body.purchases.find(probe), ms, 50);
}

describe('headers (API spec 5 and 9)', () => {
  const routes = [
    ['POST', '/rewards/grant', { campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1003' }],
    ['POST', '/purchases', { purchase: harborPurchase({ user_id: 'u_1003' }) }],
    ['GET', '/purchases', undefined],
    ['GET', '/rewards', undefined],
  ];
  const harbor = credentialsOf('u_1003');
  const cases = [
    ['a missing bearer token', { token: null }, 401, /bearer token is missing or invalid/],
    ['an invalid bearer token', { token: 'at_nobody' }, 401, /bearer token/],
    ['a missing X-ClientId', { clientId: null }, 401, /X-ClientId header is missing or invalid/],
    ['an unknown X-ClientId', { clientId: 'cl_nobody' }, 401, /X-ClientId/],
    ['the X-ClientId of another merchant', { clientId: 'cl_bakery_app' }, 401, /X-ClientId/],
    ['the loyalty API headers instead', { clientId: null, headers: { 'Merchant-Key': harbor.key } }, 401, /X-ClientId/],
    ['a missing Accept-Version', { version: null }, 406, /Accept-Version header must be v4\.0/],
    ['another Accept-Version', { version: 'v3.0' }, 406, /Accept-Version header must be v4\.0/],
    ['a missing Accept', { accept: null }, 406, /Accept header must be application\/json/],
    ['the loyalty API media type', { accept: 'application/vnd.service-v1+json' }, 406, /application\/json/],
  ];
  for (const [method, route, body] of routes) {
    for (const [name, extra, status, message] of cases) {
      test(`${method} ${route}: ${name} is ${status}`, async () => {
        const res = await consumer(service, method, route, { as: 'u_1003', body, ...extra });
        assertError(res, status, message);
        if (status === 401) assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      });
    }
  }

  test('an Accept list naming application/json, with parameters, is accepted', async () => {
    const res = await consumer(service, 'GET', '/rewards', { as: 'u_1003', accept: 'text/html, application/json; q=0.9' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type'), /^application\/json/);
  });

  test('other methods are 405 with Allow', async () => {
    for (const [method, route, allow] of [
      ['GET', '/rewards/grant', 'POST'],
      ['DELETE', '/purchases', 'GET, POST'],
      ['POST', '/rewards', 'GET'],
    ]) {
      const res = await consumer(service, method, route, { as: 'u_1003' });
      assertError(res, 405);
      assert.equal(res.headers.get('allow'), allow);
    }
  });
});

describe('POST /rewards/grant (API spec 2.6, 4.2)', () => {
  test('issues the campaign\'s reward and responds 201 with the reward record', async () => {
    const res = await grant('u_1003', { campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1003' });
    assert.equal(res.status, 201, res.text);
    assert.match(res.headers.get('content-type'), /^application\/json/);
    assert.deepEqual(Object.keys(res.body), ['reward']);
    const reward = res.body.reward;
    assert.match(reward.id, /^rw_[0-9A-Za-z]{12}$/);
    assert.deepEqual(reward, {
      id: reward.id,
      value: 5,
      minimum: null,
      maximum: null,
      label: '$5 welcome back',
      type: 'amount',
      products: [],
      fine_print: '',
      retire_at: null,
      restriction_location_ids: [],
      state: 'redeemable',
      user_id: 'u_1003',
      merchant_id: 'm_harbor_coffee',
      campaign_id: 'cmp_Hb7dQ2',
      created_at: FIXED_NOW,
      redeemed_at: null,
    });

    // In the account snapshot and on the qualifying endpoint at once.
    const snapshot = (await account(service, 'u_1003')).body;
    assert.ok(snapshot.rewards.some((r) => r.id === reward.id && r.state === 'redeemable'));
    const answer = await qualifying(service, 'u_1003', { subtotal: '10.00', items: [{ id: 'latte', price: '10.00' }] });
    assert.ok(answer.body.rewards.some((r) => r.id === reward.id), answer.text);
  });

  test('each grant is a new reward', async () => {
    const first = await grant('u_1003', { campaign_id: 'cmp_Hb9xK4', user_id: 'u_1003' });
    const second = await grant('u_1003', { campaign_id: 'cmp_Hb9xK4', user_id: 'u_1003' });
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.notEqual(first.body.reward.id, second.body.reward.id);
    assert.equal(first.body.reward.item_kind, 'free_item');
  });

  test('the numeric program id does not resolve, and the error says so', async () => {
    const text = await grant('u_1003', { campaign_id: '41001', user_id: 'u_1003' });
    assertError(text, 404, /41001 does not resolve: it looks like a numeric program id.*hashid form of the program's external_uid.*cmp_Hb7dQ2/);
    const number = await grant('u_1003', { campaign_id: 41001, user_id: 'u_1003' });
    assertError(number, 400, /campaign_id must be a string: the hashid form of the program's external_uid; a numeric program id \(41001\) does not resolve/);
    // Another merchant's program: the same answer as an unknown one, naming nothing of it.
    const foreign = await grant('u_1003', { campaign_id: '52001', user_id: 'u_1003' });
    assertError(foreign, 404, /numeric program id/);
    assert.doesNotMatch(foreign.body.message, /cmp_Cb3mP8/);
  });

  test('an unknown hashid, or another merchant\'s, is 404', async () => {
    for (const id of ['cmp_nothing', 'cmp_Cb3mP8']) {
      assertError(await grant('u_1003', { campaign_id: id, user_id: 'u_1003' }), 404, /does not resolve to a campaign of this merchant/);
    }
  });

  test('a malformed request is 400; another user is 403', async () => {
    const cases = [
      [{ user_id: 'u_1003' }, /campaign_id is required/],
      [{ campaign_id: '', user_id: 'u_1003' }, /campaign_id must be a non-empty string/],
      [{ campaign_id: ['cmp_Hb7dQ2'], user_id: 'u_1003' }, /campaign_id must be a non-empty string/],
      [{ campaign_id: 'cmp_Hb7dQ2' }, /user_id is required/],
      [{ campaign_id: 'cmp_Hb7dQ2', user_id: 7 }, /user_id is required/],
    ];
    for (const [body, message] of cases) assertError(await grant('u_1003', body), 400, message);
    assertError(await grant('u_1003', undefined, { raw: '{"campaign_id":' }), 400, /not valid JSON/);
    assertError(await grant('u_1003', undefined, { raw: '[]' }), 400, /must be a JSON object/);
    assertError(await grant('u_1003', { campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1001' }), 403,
      /user_id u_1001 is not the user of this access token/);
  });
});

describe('POST /purchases (API spec 2.7, 4.3, 8)', () => {
  test('202 without a body; it lands after the processing delay, then shows and accrues', async () => {
    const before = (await account(service, 'u_2001')).body.points[0].balance;
    const sent = Date.now();
    const res = await purchase('u_2001', {
      merchant_id: 'm_corner_bakery', location_id: 'loc_bakery', user_id: 'u_2001', amount: 9, purchased_at: '2026-11-24T09:30:00-08:00',
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('content-length'), '0');
    const early = (await purchases('u_2001')).body;
    // Provably before it lands only while the delay has not passed since the request went out.
    if (Date.now() - sent < DELAY_SECONDS * 1000) assert.deepEqual(early, { purchases: [] }, 'listed before it landed');

    const found = await landed('u_2001', (p) => p.source === 'sandbox');
    assert.ok(found, 'the purchase never landed');
    assert.ok(Date.now() - sent >= DELAY_SECONDS * 1000 - 50, 'landed before the delay');
    assert.match(found.id, /^pur_\d+$/);
    assert.deepEqual({ ...found, id: undefined, received_at: undefined, landed_at: undefined }, {
      id: undefined,
      source: 'sandbox',
      merchant_id: 'm_corner_bakery',
      location_id: 'loc_bakery',
      user_id: 'u_2001',
      basket_id: null,
      amount: '9.00',
      points: 13, // floor(9.00 x 1.5)
      points_experience_id: 'crumbs',
      purchased_at: '2026-11-24T09:30:00-08:00',
      received_at: undefined,
      landed_at: undefined,
      triggered_rewards: [],
    });
    assert.ok(Date.parse(found.landed_at) - Date.parse(found.received_at) >= DELAY_SECONDS * 1000);
    const after = (await account(service, 'u_2001')).body.points[0].balance;
    assert.equal(after, before + 13);
  });

  test('a location uid is stored as the location hashid; defaults: no location, the service clock', async () => {
    assert.equal((await purchase('u_1002', harborPurchase({ user_id: 'u_1002', location_id: 'harbor-downtown', amount: '3.10' }))).status, 202);
    assert.equal((await purchase('u_1002', { merchant_id: 'm_harbor_coffee', user_id: 'u_1002', amount: 4.2 })).status, 202);
    const byUid = await landed('u_1002', (p) => p.amount === '3.10');
    assert.equal(byUid.location_id, 'loc_downtown');
    const bare = await landed('u_1002', (p) => p.amount === '4.20');
    assert.equal(bare.location_id, null);
    assert.equal(bare.purchased_at, FIXED_NOW);
    assert.equal(bare.points, 42);
  });

  test('a malformed purchase is 400 naming the field; another merchant or user is 403', async () => {
    const cases = [
      [{ raw: JSON.stringify(harborPurchase()) }, /request body must be \{"purchase"/],
      [{ raw: '{"purchase": []}' }, /request body must be \{"purchase"/],
      [{ body: { purchase: harborPurchase({ merchant_id: undefined }) } }, /purchase\.merchant_id is required/],
      [{ body: { purchase: harborPurchase({ user_id: '' }) } }, /purchase\.user_id is required/],
      [{ body: { purchase: harborPurchase({ amount: undefined }) } }, /purchase\.amount is required/],
      [{ body: { purchase: harborPurchase({ amount: '-1' }) } }, /purchase\.amount must be a non-negative decimal/],
      [{ body: { purchase: harborPurchase({ amount: 'ten' }) } }, /purchase\.amount must be/],
      [{ body: { purchase: harborPurchase({ amount: '1e20' }) } }, /purchase\.amount must be/],
      [{ raw: '{"purchase": {"merchant_id": "m_harbor_coffee", "user_id": "u_1001", "amount": 1e400}}' }, /request body holds a number out of range/],
      [{ body: { purchase: harborPurchase({ location_id: 5 }) } }, /purchase\.location_id must be a string/],
      [{ body: { purchase: harborPurchase({ location_id: 'loc_bakery' }) } }, /purchase\.location_id loc_bakery names no location of m_harbor_coffee/],
      [{ body: { purchase: harborPurchase({ purchased_at: '2026-11-24T08:00:00' }) } }, /purchase\.purchased_at must be an ISO 8601 timestamp with offset/],
      [{ body: { purchase: harborPurchase({ purchased_at: 20261124 }) } }, /purchase\.purchased_at/],
    ];
    for (const [extra, message] of cases) {
      assertError(await consumer(service, 'POST', '/purchases', { as: 'u_1001', ...extra }), 400, message);
    }
    assertError(await purchase('u_1001', harborPurchase({ merchant_id: 'm_corner_bakery' })), 403,
      /purchase\.merchant_id m_corner_bakery is not the merchant of this access token/);
    assertError(await purchase('u_1001', harborPurchase({ user_id: 'u_1002' })), 403,
      /purchase\.user_id u_1002 is not the user of this access token/);
  });
});

describe('campaign triggers (fixture campaigns[].trigger)', () => {
  test('a $20 purchase in Brooklyn issues the campaign\'s reward once per user', async () => {
    const cases = [
      ['19.99', 'loc_brooklyn', 0],
      ['40.00', 'loc_downtown', 0],
      ['20.00', 'loc_brooklyn', 1],
      ['35.00', 'loc_brooklyn', 0], // once_per_user
    ];
    for (const [amount, location, issued] of cases) {
      assert.equal((await purchase('u_1001', harborPurchase({ amount, location_id: location }))).status, 202);
      const found = await landed('u_1001', (p) => p.amount === amount);
      assert.ok(found, `${amount} at ${location} never landed`);
      assert.equal(found.triggered_rewards.length, issued, `${amount} at ${location}`);
    }
    const earned = (await rewards('u_1001', '?campaign_ids[]=cmp_Hb4tR6')).body.rewards;
    assert.equal(earned.length, 1);
    assert.equal(earned[0].label, 'Brooklyn opening: a free pastry');
    assert.deepEqual((await landed('u_1001', (p) => p.amount === '20.00')).triggered_rewards, [earned[0].id]);
    // It qualifies at once for a pastry.
    const answer = await qualifying(service, 'u_1001', { items: [{ id: 'muffin', price: '3.50', categories: ['pastry'] }] });
    assert.ok(answer.body.rewards.some((r) => r.id === earned[0].id), answer.text);
  });

  test('a billed basket is a purchase too: it lands with source "basket" and triggers', async () => {
    const billed = await basket(service, 'u_1002', {
      id: 'sandbox-brooklyn', state: 'billed', location_uid: 'harbor-brooklyn', subtotal: '24.00', items: [{ id: 'beans_bag', price: '24.00' }],
    });
    assert.equal(billed.status, 201, billed.text);
    const found = await landed('u_1002', (p) => p.source === 'basket');
    assert.ok(found, 'the basket never landed');
    assert.equal(found.basket_id, 'sandbox-brooklyn');
    assert.equal(found.location_id, 'loc_brooklyn');
    assert.equal(found.amount, '24.00');
    assert.equal(found.triggered_rewards.length, 1);
  });
});

describe('GET /purchases filters (bracket convention)', () => {
  let mine;
  before(async () => {
    for (const [amount, location, at] of [
      ['1.01', 'loc_downtown', '2026-11-20T10:00:00Z'],
      ['1.02', 'loc_airport', '2026-11-21T10:00:00Z'],
      ['1.03', 'loc_airport', '2026-11-22T10:00:00Z'],
    ]) {
      assert.equal((await purchase('u_1003', harborPurchase({ user_id: 'u_1003', amount, location_id: location, purchased_at: at }))).status, 202);
    }
    await landed('u_1003', (p) => p.amount === '1.03');
    await landed('u_1003', (p) => p.amount === '1.01');
    mine = (await purchases('u_1003')).body.purchases;
  });

  const amounts = async (query) => {
    const res = await purchases('u_1003', query);
    assert.equal(res.status, 200, res.text);
    return res.body.purchases.map((p) => p.amount).sort();
  };

  test('newest first; only the caller\'s', async () => {
    assert.deepEqual(mine.map((p) => p.amount).sort(), ['1.01', '1.02', '1.03']);
    const landedAt = mine.map((p) => Date.parse(p.landed_at));
    assert.deepEqual([...landedAt].sort((a, b) => b - a), landedAt);
    const others = (await purchases('u_1001')).body.purchases;
    assert.ok(!others.some((p) => p.user_id !== 'u_1001'));
  });

  test('array filters: name[] repeated once per value', async () => {
    const [a, b] = mine;
    assert.deepEqual(await amounts(`?ids[]=${a.id}&ids[]=${b.id}`), [a.amount, b.amount].sort());
    assert.deepEqual(await amounts('?location_ids[]=loc_airport'), ['1.02', '1.03']);
    assert.deepEqual(await amounts('?location_ids%5B%5D=loc_airport&location_ids%5B%5D=loc_downtown'), ['1.01', '1.02', '1.03']);
    assert.deepEqual(await amounts('?sources[]=basket'), []);
    assert.deepEqual(await amounts('?sources[]=sandbox&sources[]=basket'), ['1.01', '1.02', '1.03']);
  });

  test('a name without brackets is ONE string: sources=sandbox,basket matches nothing', async () => {
    assert.deepEqual(await amounts('?sources=sandbox,basket'), []);
    assert.deepEqual(await amounts('?location_ids=loc_airport,loc_downtown'), []);
    assert.deepEqual(await amounts('?sources=sandbox'), ['1.01', '1.02', '1.03']);
  });

  test('purchased_since (inclusive), purchased_before (exclusive), limit', async () => {
    assert.deepEqual(await amounts('?purchased_since=2026-11-21T10:00:00Z'), ['1.02', '1.03']);
    assert.deepEqual(await amounts('?purchased_before=2026-11-21T05:00:00-05:00'), ['1.01']);
    assert.equal((await amounts('?limit=2')).length, 2);
    assertError(await purchases('u_1003', '?limit=0'), 400, /limit must be an integer from 1 to 1000/);
    assertError(await purchases('u_1003', '?limit=ten'), 400, /limit/);
    assertError(await purchases('u_1003', '?purchased_since=yesterday'), 400, /purchased_since must be an ISO 8601 timestamp/);
  });
});

describe('GET /rewards filters (API spec 4.5)', () => {
  const ids = async (query) => {
    const res = await rewards('u_1001', query);
    assert.equal(res.status, 200, res.text);
    return res.body.rewards.map((r) => r.id);
  };

  test('states[] repeated once per value', async () => {
    assert.deepEqual(await ids('?states[]=redeemed'), ['rw_birthday']);
    const both = await ids('?states[]=redeemable&states[]=redeemed');
    assert.deepEqual(both.sort(), (await ids('')).sort());
    assert.ok(both.includes('rw_birthday') && both.includes('rw_welcome5'));
    assert.deepEqual(await ids('?states%5B%5D=redeemed'), ['rw_birthday']);
  });

  test('states=a,b without brackets is read as one string, not as an array', async () => {
    assert.deepEqual(await ids('?states=redeemable,redeemed'), []);
    assert.deepEqual(await ids('?states=redeemed'), ['rw_birthday']);
  });

  test('ids[] and campaign_ids[]; the record shape', async () => {
    assert.deepEqual(await ids('?ids[]=rw_welcome5&ids[]=rw_summer&ids[]=rw_2001_free_loaf'), ['rw_summer', 'rw_welcome5']);
    const [welcome] = (await rewards('u_1001', '?ids[]=rw_welcome5')).body.rewards;
    const fixtureRecord = (await account(service, 'u_1001')).body.rewards.find((r) => r.id === 'rw_welcome5');
    assert.deepEqual(welcome, { ...fixtureRecord, campaign_id: null, created_at: welcome.created_at, redeemed_at: null });
    assert.deepEqual(await ids('?campaign_ids[]=cmp_nothing'), []);
  });

  test('only the caller\'s rewards', async () => {
    const bakery = (await consumer(service, 'GET', '/rewards', { as: 'u_2001' })).body.rewards;
    assert.deepEqual(bakery.map((r) => r.id).sort(), ['rw_2001_free_loaf', 'rw_2001_weekend_15']);
  });
});

describe('production mode (API spec 9: sandbox-only operations are disabled)', () => {
  for (const [method, route] of [
    ['POST', '/rewards/grant'],
    ['POST', '/purchases'],
    ['GET', '/purchases'],
    ['GET', '/rewards'],
    ['DELETE', '/rewards'],
  ]) {
    test(`${method} ${route} is 404`, async () => {
      const res = await consumer(production, method, route, { as: 'u_1001', body: method === 'POST' ? {} : undefined });
      assertError(res, 404, new RegExp(`${method} ${route} is a sandbox operation, disabled in production mode`));
    });
  }

  test('the loyalty API is served as usual', async () => {
    assert.equal((await account(production, 'u_1001')).status, 200);
  });
});
