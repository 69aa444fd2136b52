// LoyaltyClient against the real local service on 127.0.0.1: the API spec's headers, answers
// equal to the raw HTTP ones, and every failure as a QualifyError: the service's { code,
// message }, NETWORK_ERROR (0) when nothing answers, TIMEOUT (599) when the answer is too slow.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { HybridQualifier, QualifyError } from '../../../web/index.js';
import { LoyaltyClient, NETWORK_ERROR, TIMEOUT } from '../../../web/http/loyalty_client.js';
import {
  account,
  call,
  credentialsOf,
  qualifying,
  scratchDir,
  serviceBinary,
  startService,
} from '../../service/harness.js';

const scratch = scratchDir('lq-clients-');
let service;

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'client.db'), now: true });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

function clientFor(user, extra = {}) {
  const { token, key } = credentialsOf(user);
  return new LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, ...extra });
}

const latte = {
  redemption_venue: 'instore',
  order_timestamp: '2026-11-24T13:15:00Z',
  location_uid: 'harbor-downtown',
  subtotal: '5.25',
  items: [{ id: 'latte', name: 'Latte', price: '5.25', categories: ['coffee'] }],
};

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

/** A loopback port with nothing listening on it. */
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('answers', () => {
  test('account() is the snapshot GET /api/account serves', async () => {
    assert.deepEqual(await clientFor('u_1001').account(), (await account(service, 'u_1001')).body);
  });

  test('qualify() is the qualifying endpoint\'s answer, for an object or a JSON string', async () => {
    const client = clientFor('u_1001');
    const expected = (await qualifying(service, 'u_1001', latte)).body;
    assert.deepEqual(await client.qualify(latte), expected);
    assert.deepEqual(await client.qualify(JSON.stringify(latte)), expected);
    assert.ok(expected.rewards.some((r) => r.id === 'rw_free_latte'));
  });

  test('saveBasket() creates, then updates, a basket', async () => {
    const client = clientFor('u_1003');
    const body = { ...latte, id: 'client-b1', state: 'checkout', rewards: ['rw_1003_welcome'] };
    const offer = { kind: 'reward', id: 'rw_1003_welcome' };
    assert.deepEqual(await client.saveBasket(body), { id: 'client-b1', state: 'checkout', discount: '3.00', offer });
    assert.deepEqual(await client.saveBasket({ ...body, state: 'placed' }), { id: 'client-b1', state: 'placed', discount: '3.00', offer });
  });

  test('the API spec\'s headers are sent, and nothing else', async () => {
    const seen = [];
    const client = clientFor('u_1001', {
      baseUrl: `${service.url}/`,
      fetch: (url, init) => {
        seen.push({ url, init });
        return fetch(url, init);
      },
    });
    await client.qualify(latte);
    await client.account();
    const { token, key } = credentialsOf('u_1001');
    assert.equal(seen[0].url, `${service.url}/api/baskets/qualifying`);
    assert.equal(seen[0].init.method, 'POST');
    assert.deepEqual(seen[0].init.headers, {
      Authorization: `Bearer ${token}`,
      'Merchant-Key': key,
      Accept: 'application/vnd.service-v1+json',
      'Content-Type': 'application/json',
    });
    assert.equal(seen[1].url, `${service.url}/api/account`);
    assert.equal(seen[1].init.method, 'GET');
    assert.equal(seen[1].init.body, undefined);
    assert.ok(!('Content-Type' in seen[1].init.headers));
  });
});

describe('the account read options narrow account() and accountIfChanged()', () => {
  const ids = (list) => list.map((record) => record.id).sort();
  // Sees every URL the client asks for; the exchange itself is the real one.
  function watchedClient(user) {
    const urls = [];
    const client = clientFor(user, {
      fetch: (url, init) => {
        urls.push(url);
        return fetch(url, init);
      },
    });
    return { client, urls };
  }

  test('locationUid and redemptionVenue: the read usable at that location and venue', async () => {
    const { client, urls } = watchedClient('u_1001');
    const narrowed = await client.account({ locationUid: 'harbor-downtown', redemptionVenue: 'instore' });
    assert.deepEqual(urls, [`${service.url}/api/account?location_uid=harbor-downtown&redemption_venue=instore`]);
    const raw = await call(service, 'GET', '/api/account?redemption_venue=instore&location_uid=harbor-downtown', { as: 'u_1001' });
    assert.equal(raw.status, 200);
    assert.deepEqual(narrowed, raw.body);
    assert.deepEqual(ids(narrowed.rewards), [
      'rw_bogo_croissant',
      'rw_breakfast_20',
      'rw_downtown_pastry',
      'rw_free_latte',
      'rw_oat_milk',
      'rw_welcome5',
    ]);
    // Narrower than the whole account, which the existing signature still reads.
    const whole = await client.account();
    assert.deepEqual(whole, (await account(service, 'u_1001')).body);
    assert.ok(whole.rewards.length > narrowed.rewards.length);
    assert.equal(urls.at(-1), `${service.url}/api/account`);
  });

  test('rewardStates are sent as reward_states[], once per state', async () => {
    const { client, urls } = watchedClient('u_1001');
    const read = await client.account({ rewardStates: ['redeemed', 'redeemable'], redemptionVenue: 'online' });
    assert.deepEqual(urls, [
      `${service.url}/api/account?redemption_venue=online&reward_states[]=redeemed&reward_states[]=redeemable`,
    ]);
    const raw = await call(service, 'GET', '/api/account?reward_states[]=redeemed&reward_states[]=redeemable&redemption_venue=online', { as: 'u_1001' });
    assert.deepEqual(read, raw.body);
    assert.ok(read.rewards.some((r) => r.id === 'rw_birthday' && r.state === 'redeemed'));
    assert.ok(read.rewards.some((r) => r.state === 'redeemable'));
    assert.deepEqual(ids((await client.account({ rewardStates: ['redeemed'] })).rewards), ['rw_birthday']);
  });

  test('a location uid is sent encoded: an unknown one keeps only unrestricted records', async () => {
    const { client, urls } = watchedClient('u_1001');
    const read = await client.account({ locationUid: 'harbor downtown&x=1' });
    assert.equal(urls[0], `${service.url}/api/account?location_uid=harbor%20downtown%26x%3D1`);
    assert.ok(read.rewards.length > 0);
    assert.ok(read.rewards.every((r) => (r.restriction_location_ids ?? []).length === 0));
    assert.deepEqual(read, (await call(service, 'GET', '/api/account?location_uid=nowhere', { as: 'u_1001' })).body);
  });

  test('accountIfChanged(etag, options): the ETag of the narrowed read', async () => {
    const client = clientFor('u_1001');
    const options = { locationUid: 'harbor-downtown', redemptionVenue: 'instore' };
    const first = await client.accountIfChanged(null, options);
    assert.equal(first.notModified, false);
    assert.deepEqual(first.snapshot, await client.account(options));
    assert.match(first.etag, /^"/);
    assert.deepEqual(await client.accountIfChanged(first.etag, options), { notModified: true, etag: first.etag, servedAt: '2026-11-24T13:15:00Z' });
    // The whole account has another body, so another tag: the narrowed tag does not match it.
    const whole = await client.accountIfChanged(first.etag);
    assert.equal(whole.notModified, false);
    assert.notEqual(whole.etag, first.etag);
    assert.equal((await client.accountIfChanged(whole.etag, options)).notModified, false);
  });

  test("the service's time of the answer (its Date header, on the service's clock): accountIfChanged's servedAt, 200 and 304, and account()'s onAnswer; null when the page cannot read it", async () => {
    const client = clientFor('u_1001');
    const first = await client.accountIfChanged(null);
    assert.equal(first.servedAt, '2026-11-24T13:15:00Z', 'the service runs on --now 2026-11-24T13:15:00Z, whatever this clock says');
    assert.equal((await client.accountIfChanged(first.etag)).servedAt, '2026-11-24T13:15:00Z', 'a 304 says it too');
    const told = [];
    const snapshot = await client.account({ redemptionVenue: 'instore', onAnswer: (answer) => told.push(answer) });
    assert.ok(Array.isArray(snapshot.rewards), 'the read, as it came');
    assert.equal(told.length, 1);
    assert.equal(told[0].servedAt, '2026-11-24T13:15:00Z');
    assert.match(told[0].etag, /^"/);
    // A cross-origin answer that does not expose Date reads as none (fetch's headers.get gives null).
    const hidden = clientFor('u_1001', {
      fetch: async (url, init) => {
        const answer = await fetch(url, init);
        const headers = new Headers(answer.headers);
        headers.delete('date');
        return new Response(await answer.text(), { status: answer.status, headers });
      },
    });
    assert.equal((await hidden.accountIfChanged(null)).servedAt, null);
    await assert.rejects(client.account({ onAnswer: 'yes' }), { name: 'TypeError', message: 'onAnswer must be a function' });
  });

  test('a venue the service does not know is its 400; options of the wrong type fail before any request', async () => {
    const { client, urls } = watchedClient('u_1001');
    const e = await rejection(client.account({ redemptionVenue: 'drive-thru' }));
    assert.ok(e instanceof QualifyError);
    assert.equal(e.code, 400);
    assert.equal(e.message, 'redemption_venue must be one of: instore, online');
    urls.length = 0;
    for (const [options, message] of [
      [{ locationUid: '' }, /locationUid must be a non-empty string/],
      [{ locationUid: 12 }, /locationUid must be a non-empty string/],
      [{ redemptionVenue: null }, /redemptionVenue must be a non-empty string/],
      [{ rewardStates: 'redeemed' }, /rewardStates must be a non-empty array of strings/],
      [{ rewardStates: [] }, /rewardStates must be a non-empty array of strings/],
      [{ rewardStates: ['redeemed', 3] }, /rewardStates\[\] must be a non-empty string/],
      [{ location_uid: 'harbor-downtown' }, /unknown account read option "location_uid"/],
    ]) {
      await assert.rejects(client.account(options), { name: 'TypeError', message: message });
      await assert.rejects(client.accountIfChanged(null, options), { name: 'TypeError', message: message });
    }
    assert.deepEqual(urls, []);
  });

  test("HybridQualifier in 'loyalty-api' shape reads the account for its context's location and venue", async () => {
    const { client, urls } = watchedClient('u_1001');
    const hybrid = new HybridQualifier({
      client,
      accountShape: 'loyalty-api',
      context: { merchantId: 'm_harbor_coffee', locationUid: 'harbor-downtown', venue: 'instore', timeZone: 'America/New_York' },
    });
    try {
      const made = await hybrid.refresh();
      // Made from the narrowed read: no online-only or other-location reward.
      assert.deepEqual(ids(made.rewards), ids((await call(service, 'GET', '/api/account?location_uid=harbor-downtown&redemption_venue=instore', { as: 'u_1001' })).body.rewards));
      assert.ok(!made.rewards.some((r) => r.id === 'rw_delivery_3'));
      urls.length = 0;
      await hybrid.refresh();
      await hybrid.refresh();
      const reads = urls.filter((url) => url.includes('/api/account'));
      assert.deepEqual(reads, [
        `${service.url}/api/account?location_uid=harbor-downtown&redemption_venue=instore`,
        `${service.url}/api/account?location_uid=harbor-downtown&redemption_venue=instore`,
      ]);
      // The local answer comes from the narrowed read: the breakfast reward, in store downtown
      // only, is in it.
      const local = await hybrid.qualify(latte);
      assert.ok(local.rewards.some((r) => r.id === 'rw_breakfast_20'), JSON.stringify(local.rewards.map((r) => r.id)));
    } finally {
      hybrid.dispose();
    }
  });
});

describe("a 'loyalty-api' snapshot carries the service's time", () => {
  const context = { merchantId: 'm_harbor_coffee', locationUid: 'harbor-downtown', venue: 'instore', timeZone: 'America/New_York' };
  const hourBehind = () => Date.now() - 3_600_000;

  test("generated_at is the answer's Date (the service's clock, to the second), not the kiosk's clock an hour behind", async () => {
    const hybrid = new HybridQualifier({ client: clientFor('u_1001'), accountShape: 'loyalty-api', context, now: hourBehind });
    try {
      const snapshot = await hybrid.refresh();
      assert.equal(snapshot.generated_at, '2026-11-24T13:15:00Z');
    } finally {
      hybrid.dispose();
    }
  });

  test("without a Date the page may read (cross-origin, not exposed), generated_at is the kiosk's clock", async () => {
    const fetchWithoutDate = async (url, init) => {
      const answer = await fetch(url, init);
      const headers = new Headers(answer.headers);
      headers.delete('date');
      return new Response(answer.status === 304 ? null : await answer.text(), { status: answer.status, headers });
    };
    const hybrid = new HybridQualifier({ client: clientFor('u_1001', { fetch: fetchWithoutDate }), accountShape: 'loyalty-api', context, now: hourBehind });
    try {
      const before = hourBehind();
      const snapshot = await hybrid.refresh();
      const generated = Date.parse(snapshot.generated_at);
      assert.ok(generated >= before && generated <= hourBehind(), `${snapshot.generated_at}: the kiosk's clock`);
    } finally {
      hybrid.dispose();
    }
  });
});

describe('failures are QualifyErrors', () => {
  test('the service\'s error body: 400, 401, 409', async () => {
    const cases = [
      [() => clientFor('u_1001').qualify({ redemption_venue: 'drive-thru' }), 400, /redemption_venue must be one of: instore, online/],
      [() => clientFor('u_1001').qualify({ items: [{ price: '-1' }] }), 400, /items\[0\]\.price/],
      [() => clientFor('u_1001', { accessToken: 'at_nobody' }).account(), 401, /bearer token is missing or invalid/],
      [() => clientFor('u_1001', { merchantKey: credentialsOf('u_2001').key }).account(), 401, /Merchant-Key header is missing or invalid/],
      [() => clientFor('u_1003').saveBasket({ id: 'client-new', state: 'completed' }), 409, /does not exist yet/],
    ];
    for (const [call, code, message] of cases) {
      const e = await rejection(call());
      assert.ok(e instanceof QualifyError, String(e));
      assert.equal(e.name, 'QualifyError');
      assert.equal(e.code, code);
      assert.match(e.message, message);
      assert.deepEqual(Object.keys(e.toJSON()), ['code', 'message']);
    }
  });

  test('a basket that is not an object is a 400 before any request', async () => {
    const e = await rejection(clientFor('u_1001', { fetch: () => assert.fail('no request') }).qualify([1]));
    assert.equal(e.code, 400);
  });

  test('nothing listening: NETWORK_ERROR (0), naming the URL', async () => {
    const port = await closedPort();
    const client = new LoyaltyClient({ baseUrl: `http://127.0.0.1:${port}`, accessToken: 'a', merchantKey: 'b' });
    const e = await rejection(client.qualify(latte));
    assert.ok(e instanceof QualifyError);
    assert.equal(e.code, NETWORK_ERROR);
    assert.equal(NETWORK_ERROR, 0);
    assert.match(e.message, new RegExp(`POST http://127\\.0\\.0\\.1:${port}/api/baskets/qualifying: cannot reach the service \\(ECONNREFUSED\\)`));
    assert.ok(e.cause, 'the underlying error is kept as cause');
  });

  test('an answer slower than timeoutMs: TIMEOUT (599), for a silent server and a stalled body', async () => {
    const sockets = new Set();
    const server = http.createServer((req, res) => {
      if (req.url === '/api/account') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"schema_version"'); // and never the rest
      }
      // Anything else: no answer at all.
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new LoyaltyClient({ baseUrl: `http://127.0.0.1:${server.address().port}`, accessToken: 'a', merchantKey: 'b', timeoutMs: 150 });
      for (const call of [() => client.qualify(latte), () => client.account()]) {
        const started = Date.now();
        const e = await rejection(call());
        assert.ok(e instanceof QualifyError, String(e));
        assert.equal(e.code, TIMEOUT);
        assert.equal(TIMEOUT, 599);
        assert.match(e.message, /no answer within 150 ms/);
        assert.ok(Date.now() - started < 5_000);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('an error status without the JSON body keeps its status', async () => {
    const client = new LoyaltyClient({
      baseUrl: 'http://127.0.0.1:9',
      accessToken: 'a',
      merchantKey: 'b',
      fetch: async () => ({ ok: false, status: 502, statusText: 'Bad Gateway', text: async () => '<html>proxy down</html>' }),
    });
    const e = await rejection(client.account());
    assert.equal(e.code, 502);
    assert.match(e.message, /502 Bad Gateway: <html>proxy down<\/html>/);
    const garbled = new LoyaltyClient({
      baseUrl: 'http://127.0.0.1:9',
      accessToken: 'a',
      merchantKey: 'b',
      fetch: async () => ({ ok: true, status: 200, statusText: 'OK', text: async () => 'not json' }),
    });
    assert.equal((await rejection(garbled.account())).code, 502);
  });

  test('an abort signal rejects with its reason', async () => {
    const controller = new AbortController();
    const client = clientFor('u_1001', {
      fetch: (url, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const pending = client.account({ signal: controller.signal });
    controller.abort(new Error('user left the page'));
    const e = await rejection(pending);
    assert.equal(e.message, 'user left the page');
    assert.ok(!(e instanceof QualifyError));
  });
});

test('options are checked', () => {
  const good = { baseUrl: 'http://127.0.0.1:1', accessToken: 'a', merchantKey: 'b' };
  assert.throws(() => new LoyaltyClient(), TypeError);
  assert.throws(() => new LoyaltyClient({ ...good, baseUrl: 'not a url' }), /baseUrl must be an absolute URL/);
  // A path needs a page to be resolved against (Node has no location): the message says so.
  assert.throws(() => new LoyaltyClient({ ...good, baseUrl: '/' }),
    { name: 'TypeError', message: "baseUrl must be an absolute URL, e.g. http://127.0.0.1:8080, or in a page a path such as '/' (resolved against the page's address)" });
  assert.throws(() => new LoyaltyClient({ ...good, accessToken: '' }), /accessToken/);
  assert.throws(() => new LoyaltyClient({ ...good, merchantKey: undefined }), /merchantKey/);
  assert.throws(() => new LoyaltyClient({ ...good, fetch: 'fetch' }), /fetch must be a function/);
  assert.throws(() => new LoyaltyClient({ ...good, timeoutMs: 0 }), /timeoutMs/);
  const client = new LoyaltyClient({ ...good, baseUrl: 'http://127.0.0.1:1///' });
  assert.equal(client.baseUrl, 'http://127.0.0.1:1');
  assert.match(client.identity, /^[0-9a-f]{8}$/);
  assert.notEqual(client.identity, new LoyaltyClient({ ...good, accessToken: 'c' }).identity);
  assert.ok(!JSON.stringify(client).includes('a'), 'secrets are private fields');
});
