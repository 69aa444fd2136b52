// Every status of the loyalty API over real HTTP, the error body shape, the hardening limits,
// isolation between merchants and users, the access log and a clean SIGTERM.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  account,
  basket,
  call,
  consumer,
  credentialsOf,
  qualifying,
  scratchDir,
  serviceBinary,
  startService,
} from '../harness.js';

const scratch = scratchDir();
let service;
let requests = 0;

// Every call of this file goes through here, so the access log can be counted.
async function counted(promise) {
  requests += 1;
  return promise;
}

function assertError(res, status, messagePattern) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ['code', 'message'], res.text);
  assert.equal(res.body.code, status);
  assert.equal(typeof res.body.message, 'string');
  if (messagePattern) assert.match(res.body.message, messagePattern);
}

const latteBasket = {
  redemption_venue: 'instore',
  order_timestamp: '2026-11-24T13:15:00Z',
  location_uid: 'harbor-downtown',
  subtotal: '5.25',
  items: [{ id: 'latte', name: 'Latte', price: '5.25', categories: ['coffee'] }],
};

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'status.db'), now: true });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

describe('the first stdout line', () => {
  test('is the base URL on 127.0.0.1 with the port picked by --port 0', () => {
    assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(Number(new URL(service.url).port), 0);
  });
});

describe('200 and 201', () => {
  test('POST /api/baskets/qualifying answers the API spec body', async () => {
    const res = await counted(qualifying(service, 'u_1001', latteBasket));
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type'), /^application\/vnd\.service-v1\+json/);
    assert.deepEqual(Object.keys(res.body), ['rewards', 'points_products']);
    assert.ok(res.body.rewards.some((r) => r.id === 'rw_free_latte'));
  });

  test('GET /api/account answers the contract snapshot', async () => {
    const res = await counted(account(service, 'u_1001'));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.schema_version, 1);
    assert.deepEqual(res.body.merchant, {
      id: 'm_harbor_coffee',
      time_zone: 'America/New_York',
      tz_rule: 'EST5EDT,M3.2.0,M11.1.0',
    });
    const airport = res.body.locations.find((l) => l.uid === 'harbor-airport');
    assert.equal(airport.tz_rule, 'CST6CDT,M3.2.0,M11.1.0');
    assert.equal(res.body.locations.length, 3);
    assert.deepEqual(res.body.user, { id: 'u_1001' });
    assert.deepEqual(res.body.points, [{ points_experience_id: 'beans', balance: 450 }]);
  });

  test('POST /api/baskets creates (201) then updates (200)', async () => {
    const body = { ...latteBasket, id: 'status-b1', state: 'checkout', rewards: ['rw_free_latte'] };
    const created = await counted(basket(service, 'u_1001', body));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body, { id: 'status-b1', state: 'checkout', discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
    const updated = await counted(basket(service, 'u_1001', { ...body, state: 'placed' }));
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.body, { id: 'status-b1', state: 'placed', discount: '5.25', offer: { kind: 'reward', id: 'rw_free_latte' } });
  });
});

describe('401', () => {
  const routes = [
    ['POST', '/api/baskets/qualifying', latteBasket],
    ['GET', '/api/account', undefined],
    ['POST', '/api/baskets', { ...latteBasket, id: 'status-401' }],
  ];
  const harbor = credentialsOf('u_1001');
  const bakery = credentialsOf('u_2001');
  const cases = [
    ['a missing bearer token', { token: null, key: harbor.key }, /bearer token is missing or invalid/],
    ['an invalid bearer token', { token: 'at_nobody', key: harbor.key }, /bearer token/],
    ['a token without the Bearer scheme', {
      token: null, key: harbor.key, headers: { Authorization: harbor.token } }, /bearer token/],
    ['a missing Merchant-Key', { token: harbor.token, key: null }, /Merchant-Key header is missing or invalid/],
    ['an invalid Merchant-Key', { token: harbor.token, key: 'mk_wrong' }, /Merchant-Key header/],
    ['the Merchant-Key of another merchant', { token: harbor.token, key: bakery.key }, /Merchant-Key header/],
    ['a token one character short', { token: harbor.token.slice(0, -1), key: harbor.key }, /bearer token/],
  ];
  for (const [method, route, body] of routes) {
    for (const [name, creds, message] of cases) {
      test(`${method} ${route}: ${name}`, async () => {
        const res = await counted(call(service, method, route, { ...creds, body }));
        assertError(res, 401, message);
      });
    }
  }
});

describe('406', () => {
  for (const [method, route] of [['POST', '/api/baskets/qualifying'], ['GET', '/api/account'], ['POST', '/api/baskets']]) {
    for (const accept of [null, 'application/json', '*/*', 'application/vnd.service-v2+json']) {
      test(`${method} ${route} with Accept ${accept ?? '(none)'}`, async () => {
        const body = method === 'POST' ? { ...latteBasket, id: 'status-406' } : undefined;
        const res = await counted(call(service, method, route, { as: 'u_1001', accept, body }));
        assertError(res, 406, /application\/vnd\.service-v1\+json/);
      });
    }
  }

  test('a list naming the v1 type, with parameters, is accepted', async () => {
    const res = await counted(qualifying(service, 'u_1001', latteBasket, {
      accept: 'application/json;q=0.5, Application/Vnd.Service-V1+JSON; charset=utf-8',
    }));
    assert.equal(res.status, 200, res.text);
  });
});

describe('400', () => {
  const cases = [
    ['an unknown redemption_venue', { redemption_venue: 'drive-thru' }, /redemption_venue must be one of: instore, online/],
    ['a non-string redemption_venue', { redemption_venue: 3 }, /redemption_venue must be one of: instore, online/],
    ['a malformed order_timestamp', { order_timestamp: '24/11/2026' }, /order_timestamp/],
    ['items that are not an array', { items: {} }, /items/],
    ['a negative price', { items: [{ id: 'a', price: 1 }, { id: 'b', price: 2 }, { id: 'c', price: -1 }] }, /items\[2\]\.price/],
    ['a zero quantity', { items: [{ id: 'a', price: 1, quantity: 0 }] }, /items\[0\]\.quantity/],
  ];
  for (const [name, fields, message] of cases) {
    test(`qualifying: ${name}`, async () => {
      assertError(await counted(qualifying(service, 'u_1001', fields)), 400, message);
    });
    test(`baskets: ${name}`, async () => {
      const res = await counted(basket(service, 'u_1001', { id: 'status-400', ...fields }));
      assertError(res, 400, message);
    });
  }

  for (const [name, raw] of [['an array body', '[]'], ['invalid JSON', '{"items": ['], ['a string body', '"x"']]) {
    test(`qualifying: ${name}`, async () => {
      assertError(await counted(qualifying(service, 'u_1001', undefined, { raw })), 400);
    });
    test(`baskets: ${name}`, async () => {
      assertError(await counted(basket(service, 'u_1001', undefined, { raw })), 400);
    });
  }

  const deep = (levels) => `{"id":"status-deep","x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
  for (const route of ['/api/baskets/qualifying', '/api/baskets']) {
    test(`${route}: JSON nested deeper than 64 levels`, async () => {
      const res = await counted(call(service, 'POST', route, { as: 'u_1001', raw: deep(65) }));
      assertError(res, 400, /deeper than 64/);
    });
    test(`${route}: JSON nested exactly 64 levels is fine`, async () => {
      const res = await counted(call(service, 'POST', route, { as: 'u_1001', raw: deep(64) }));
      assert.ok(res.status === 200 || res.status === 201, res.text);
    });
  }

  const basketCases = [
    ['a missing id', { state: 'checkout' }, /^id is required/],
    ['an empty id', { id: '' }, /^id is required/],
    ['an unknown state', { id: 'status-s', state: 'shipped' }, /state must be one of: checkout, placed, billed, completed, voided, refunded/],
    ['rewards that are not an array', { id: 'status-r', rewards: 'rw_free_latte' }, /^rewards must be an array/],
    ['a non-string reward id', { id: 'status-r', rewards: [7] }, /rewards\[0\]/],
    ['two offers in one order', { id: 'status-r', ...latteBasket, rewards: ['rw_free_latte'], points_products: ['pp_two_off'] }, /at most one/],
    ['two rewards in one order', { id: 'status-r', ...latteBasket, rewards: ['rw_free_latte', 'rw_welcome5'] }, /at most one/],
    ['a reward the qualifying call does not return', { id: 'status-r', ...latteBasket, rewards: ['rw_welcome5'] }, /reward rw_welcome5 does not qualify/],
    ['another user\'s reward', { id: 'status-r', ...latteBasket, rewards: ['rw_1002_any_coffee'] }, /reward rw_1002_any_coffee does not qualify/],
    ['an unknown points product', { id: 'status-r', ...latteBasket, points_products: ['pp_nope'] }, /points product pp_nope does not qualify/],
  ];
  for (const [name, body, message] of basketCases) {
    test(`baskets: ${name}`, async () => {
      assertError(await counted(basket(service, 'u_1001', body)), 400, message);
    });
  }

  test('baskets: a number beyond any decimal (1e400) is a 400, not a 500', async () => {
    const res = await counted(call(service, 'POST', '/api/baskets', { as: 'u_1001', raw: '{"id": "status-big-number", "subtotal": 1e400}' }));
    assertError(res, 400, /number out of range|subtotal/);
  });
});

describe('404, 405, 409 and 413', () => {
  test('an unknown route is 404 in the error shape', async () => {
    assertError(await counted(call(service, 'GET', '/api/nothing', { as: 'u_1001' })), 404, /GET \/api\/nothing/);
  });

  test('a known route with another method is 405 with Allow', async () => {
    const res = await counted(call(service, 'GET', '/api/baskets/qualifying', { as: 'u_1001' }));
    assertError(res, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    const put = await counted(call(service, 'PUT', '/api/account', { as: 'u_1001' }));
    assertError(put, 405);
    assert.equal(put.headers.get('allow'), 'GET');
  });

  test('a state transition out of a closed basket is 409', async () => {
    const body = { ...latteBasket, id: 'status-409', state: 'checkout' };
    assert.equal((await counted(basket(service, 'u_1003', body))).status, 201);
    assert.equal((await counted(basket(service, 'u_1003', { ...body, state: 'voided' }))).status, 200);
    const reopened = await counted(basket(service, 'u_1003', { ...body, state: 'checkout' }));
    assertError(reopened, 409, /status-409 is voided and cannot become checkout/);
    const fresh = await counted(basket(service, 'u_1003', { ...body, id: 'status-409b', state: 'completed' }));
    assertError(fresh, 409, /does not exist yet/);
  });

  for (const route of ['/api/baskets/qualifying', '/api/baskets']) {
    test(`${route}: a body over 1 MiB is 413`, async () => {
      const raw = JSON.stringify({ id: 'status-big', note: 'x'.repeat(1 << 20) });
      const res = await counted(call(service, 'POST', route, { as: 'u_1001', raw }));
      assertError(res, 413, /1 MiB/);
    });
  }

  test('a body of exactly 1 MiB is read (a basket body may take 64 KiB)', async () => {
    const prefix = '{"id":"status-mib","note":"';
    const raw = prefix + 'x'.repeat((1 << 20) - prefix.length - 2) + '"}';
    assert.equal(Buffer.byteLength(raw), 1 << 20);
    // Read whole, then judged: not a purchase.
    const res = await counted(consumer(service, 'POST', '/purchases', { as: 'u_1001', raw }));
    assertError(res, 400, /^request body must be \{"purchase"/);
    // The basket endpoints read it too, and refuse it by the basket's own bound.
    const basketBody = await counted(call(service, 'POST', '/api/baskets/qualifying', { as: 'u_1001', raw }));
    assertError(basketBody, 413, /^a basket body may take at most 64 KiB \(65536 bytes\); this one has 1048576 bytes$/);
  });
});

describe('isolation', () => {
  test('an account shows only its own merchant, locations, rewards and points products', async () => {
    const harbor = (await counted(account(service, 'u_1002'))).body;
    const text = JSON.stringify(harbor);
    for (const foreign of ['m_corner_bakery', 'bakery-main', 'loc_bakery', 'rw_2001', 'pp_bakery_cookie', 'u_1001', 'rw_welcome5', 'mk_', 'at_']) {
      assert.ok(!text.includes(foreign), `${foreign} leaked into u_1002's account`);
    }
    assert.deepEqual(harbor.rewards.map((r) => r.id).sort(), ['rw_1002_any_coffee', 'rw_1002_ten_off']);

    const bakery = (await counted(account(service, 'u_2001'))).body;
    assert.equal(bakery.merchant.id, 'm_corner_bakery');
    assert.equal(bakery.merchant.tz_rule, 'PST8PDT,M3.2.0,M11.1.0');
    assert.deepEqual(bakery.locations.map((l) => l.uid), ['bakery-main']);
    assert.deepEqual(bakery.points_products.map((p) => p.id), ['pp_bakery_cookie']);
    assert.ok(!JSON.stringify(bakery).includes('harbor'));
  });

  test('a location of another merchant is silently dropped', async () => {
    const body = {
      redemption_venue: 'instore',
      order_timestamp: '2026-11-24T13:15:00Z',
      items: [{ id: 'croissant', price: '3.25', categories: ['pastry'] }],
    };
    const omitted = await counted(qualifying(service, 'u_1001', body));
    const foreign = await counted(qualifying(service, 'u_1001', { ...body, location_uid: 'bakery-main' }));
    const downtown = await counted(qualifying(service, 'u_1001', { ...body, location_uid: 'harbor-downtown' }));
    assert.equal(foreign.status, 200);
    assert.deepEqual(foreign.body, omitted.body);
    assert.ok(downtown.body.rewards.some((r) => r.id === 'rw_downtown_pastry'));
    assert.ok(!foreign.body.rewards.some((r) => r.id === 'rw_downtown_pastry'));
  });

  test('baskets are per user: the same id of two users are two baskets', async () => {
    const body = { ...latteBasket, id: 'shared-id', state: 'checkout' };
    const mine = await counted(basket(service, 'u_1001', { ...body, state: 'voided' }));
    assertError(mine, 409);  // a new basket cannot start voided
    assert.equal((await counted(basket(service, 'u_1001', body))).status, 201);
    assert.equal((await counted(basket(service, 'u_1001', { ...body, state: 'voided' }))).status, 200);
    const theirs = await counted(basket(service, 'u_1002', body));
    assert.equal(theirs.status, 201, theirs.text);
    assert.equal(theirs.body.state, 'checkout');
  });
});

describe('the access log and SIGTERM', () => {
  test('one access-log line per request on stderr, without credentials', async () => {
    const lines = await waitForLines(requests);
    assert.equal(lines.length, requests);
    assert.ok(lines.some((l) => / "POST \/api\/baskets\/qualifying" 413 /.test(l)));
    const { token, key } = credentialsOf('u_1001');
    assert.ok(!service.stderr.includes(token) && !service.stderr.includes(key));
  });

  test('SIGTERM stops the service cleanly (exit 0)', async () => {
    const exit = await service.stop();
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.match(service.stderr, /loyalty_service: stopped/);
  });
});

async function waitForLines(count) {
  const deadline = Date.now() + 5_000;
  while (service.accessLogLines().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return service.accessLogLines();
}

