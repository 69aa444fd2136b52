// CORS, chosen by the operator (--cors-origin ORIGIN, startLocalService's corsOrigin): a listed
// origin's preflight is granted with the API's methods and headers, its answers (errors included)
// carry Access-Control-Allow-Origin and expose ETag and Retry-After; an unlisted origin gets no
// CORS header at all; every answer says Vary: Origin once an origin is listed; `*` is refused.
// The real service over real HTTP on 127.0.0.1 (what a browser does with these headers:
// tests/service/http/cross_origin_page.chromium.test.js).
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { startLocalService } from '../../../web/local/service/local_service.js';
import { account, call, consumer, runServiceSync, serviceBinary, useServices } from '../harness.js';

const DEV_SERVER = 'http://localhost:5173';
const OTHER_LISTED = 'http://127.0.0.1:4000';
const STRANGER = 'http://evil.example';
const API_HEADERS = ['Authorization', 'Merchant-Key', 'Accept', 'Content-Type', 'If-None-Match', 'Store-Key', 'Accept-Version', 'X-ClientId'];

const { start } = useServices({
  prefix: 'lq-cors-',
  defaults: (scratch, started) => ({ db: path.join(scratch.dir, `${started}.db`), now: true }),
});

/** A browser's preflight for `method` with `headers` from `origin`. */
function preflight(service, route, origin, { method = 'POST', headers = 'authorization,merchant-key,content-type,accept', extra = {} } = {}) {
  return fetch(service.url + route, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers, ...extra },
    signal: AbortSignal.timeout(15_000),
  });
}

const listOf = (value) => (value ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);

describe('a service started with corsOrigin', () => {
  let service;
  before(async () => {
    // The launcher takes an origin or a list; here a list, written as a person might (a trailing slash, capitals).
    service = await start({ corsOrigin: [`${DEV_SERVER}/`, OTHER_LISTED.toUpperCase()] });
  });

  test('grants a listed origin\'s preflight with the API\'s methods and headers, on any path, without credentials', async () => {
    for (const route of ['/api/baskets/qualifying', '/api/account', '/api/baskets', '/rewards/grant', '/no/such/route']) {
      const res = await preflight(service, route, DEV_SERVER);
      assert.equal(res.status, 204, route);
      assert.equal(await res.text(), '');
      assert.equal(res.headers.get('access-control-allow-origin'), DEV_SERVER);
      assert.deepEqual(listOf(res.headers.get('access-control-allow-methods')), ['get', 'post']);
      const allowed = listOf(res.headers.get('access-control-allow-headers'));
      for (const name of API_HEADERS) assert.ok(allowed.includes(name.toLowerCase()), `${name} in ${allowed}`);
      assert.equal(res.headers.get('access-control-max-age'), '600');
      assert.ok(listOf(res.headers.get('vary')).includes('origin'));
      assert.equal(res.headers.get('access-control-allow-credentials'), null, 'no cookies: credentials are headers');
      assert.equal(res.headers.get('content-length'), null, 'a 204 has no Content-Length');
    }
    const second = await preflight(service, '/api/account', OTHER_LISTED, { method: 'GET', headers: 'authorization,merchant-key,accept,if-none-match' });
    assert.equal(second.status, 204);
    assert.equal(second.headers.get('access-control-allow-origin'), OTHER_LISTED);
    // Chromium's private network access asks on the preflight; a listed origin gets it.
    const privateNetwork = await preflight(service, '/api/account', DEV_SERVER, { extra: { 'Access-Control-Request-Private-Network': 'true' } });
    assert.equal(privateNetwork.headers.get('access-control-allow-private-network'), 'true');
  });

  test('answers an unlisted origin\'s preflight 403 without any CORS header', async () => {
    for (const origin of [STRANGER, 'http://localhost:5174', 'null', `${DEV_SERVER}/`]) {
      const res = await preflight(service, '/api/baskets/qualifying', origin);
      assert.equal(res.status, 403, origin);
      const body = await res.json();
      assert.equal(body.code, 403);
      assert.match(body.message, /may not call this server: the operator lists the origins that may with --cors-origin ORIGIN/);
      assert.equal(res.headers.get('access-control-allow-origin'), null, origin);
      assert.equal(res.headers.get('access-control-allow-headers'), null, origin);
      assert.ok(listOf(res.headers.get('vary')).includes('origin'));
    }
  });

  test('gives a listed origin every answer, errors included, with the headers a page may read', async () => {
    const headers = { Origin: DEV_SERVER };
    const read = await account(service, 'u_1001', { headers });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('access-control-allow-origin'), DEV_SERVER);
    assert.deepEqual(listOf(read.headers.get('access-control-expose-headers')), ['date', 'etag', 'retry-after']);
    assert.ok(listOf(read.headers.get('vary')).includes('origin'));
    assert.ok(read.headers.get('etag'));
    // The 304 of a conditional refresh, a 401, a 404 and the sandbox operations: the page reads each.
    const unchanged = await account(service, 'u_1001', { headers: { ...headers, 'If-None-Match': read.headers.get('etag') } });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.get('access-control-allow-origin'), DEV_SERVER);
    for (const res of [
      await call(service, 'POST', '/api/baskets/qualifying', { token: 'at_wrong', key: 'mk_wrong', body: { items: [] }, headers }),
      await call(service, 'GET', '/api/nowhere', { as: 'u_1001', headers }),
      await consumer(service, 'GET', '/rewards', { as: 'u_1001', headers }),
    ]) {
      assert.equal(res.headers.get('access-control-allow-origin'), DEV_SERVER, res.text);
      assert.ok(listOf(res.headers.get('vary')).includes('origin'));
    }
  });

  test('gives an unlisted origin, and a request without Origin, no CORS header (the browser keeps the page from reading)', async () => {
    for (const headers of [{ Origin: STRANGER }, {}]) {
      const res = await account(service, 'u_1001', { headers });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(res.headers.get('access-control-expose-headers'), null);
      assert.ok(listOf(res.headers.get('vary')).includes('origin'), 'a cache must not give this answer to a listed origin');
    }
  });
});

test('a service started without corsOrigin sends no CORS header and grants no preflight', async () => {
  const service = await start({});
  const res = await preflight(service, '/api/baskets/qualifying', DEV_SERVER);
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('access-control-allow-origin'), null);
  const read = await account(service, 'u_1001', { headers: { Origin: DEV_SERVER } });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('access-control-allow-origin'), null);
  assert.equal(read.headers.get('vary'), null, 'answers that do not depend on Origin say nothing of it');
});

test('--cors-origin refuses * and anything but an exact origin, with the usage', async () => {
  for (const [value, message] of [
    ['*', /--cors-origin \* is refused: every request of this server carries a secret .* e\.g\. --cors-origin http:\/\/localhost:5173/],
    ['localhost:5173', /--cors-origin must be an origin such as http:\/\/localhost:5173/],
    ['http://localhost:5173/app', /--cors-origin must be an origin/],
    ['null', /--cors-origin must be an origin/],
  ]) {
    const result = runServiceSync(['--port', '0', '--db', ':memory:', '--cors-origin', value]);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /usage: loyalty_service/);
  }
  // The launcher says the same before anything starts.
  await assert.rejects(startLocalService({ binary: serviceBinary(), corsOrigin: '*' }), {
    name: 'TypeError',
    message: /^startLocalService: corsOrigin \* is refused: every request carries a secret/,
  });
  await assert.rejects(startLocalService({ binary: serviceBinary(), corsOrigin: ['http://localhost:5173', 'http://a/b'] }), {
    name: 'TypeError',
    message: /^startLocalService: corsOrigin must be an origin such as http:\/\/localhost:5173.*"http:\/\/a\/b"/,
  });
  await assert.rejects(startLocalService({ binary: serviceBinary(), corsOrigin: 5173 }), /corsOrigin must be an origin or an array of origins/);
});
