// The kiosk page server (kiosk/server/page_server.mjs) against hostile request targets: it never throws
// (file-system errors are 400/404), it is not an open proxy (only /api/... paths go to the
// configured service origin, built from origin + path + query), and hop-by-hop headers are not
// forwarded in either direction. Real sockets on 127.0.0.1, the real service as upstream.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createKioskServer, parseTarget } from '../../kiosk/server/page_server.mjs';
import { MEDIA_TYPE, credentialsOf, scratchDir, serviceBinary, startService } from '../service/harness.js';
import { exchange, requestBytes } from '../service/raw_http.js';

const scratch = scratchDir();
let service;
let kiosk;
let kioskUrl;
let other;
let otherUrl;
let otherHits = 0;
let recorded = null;
let recorder;
let recorderUrl;

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'kiosk.db'), now: true });
  kiosk = createKioskServer({ upstream: () => service.url });
  kioskUrl = await listen(kiosk);
  // Any other server on the machine: the proxy must never reach it.
  other = http.createServer((req, res) => {
    otherHits += 1;
    res.end('other');
  });
  otherUrl = await listen(other);
  // An upstream that records what the kiosk forwards (for the hop-by-hop checks).
  recorder = http.createServer((req, res) => {
    recorded = { url: req.url, headers: req.headers };
    res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes', 'keep-alive': 'timeout=99', 'x-hop': 'drop me', connection: 'x-hop' });
    res.end('{}');
  });
  recorderUrl = await listen(recorder);
}, { timeout: 900_000 });

after(async () => {
  for (const server of [kiosk, other, recorder]) {
    server?.closeAllConnections?.();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  }
  if (service) await service.stop();
  scratch.cleanup();
});

async function raw(target, fields = [['Host', 'kiosk']], url = kioskUrl) {
  const answer = await exchange(url, [requestBytes('GET', target, [...fields, ['Connection', 'close']])]);
  assert.equal(answer.responses.length, 1, `${target}: no response (${answer.error?.message ?? 'closed'})`);
  return answer.responses[0];
}

test('request targets that crashed the server get 400 or 404, and it keeps serving', async () => {
  const cases = [
    ['/kiosk/page/%00', 400],
    ['/kiosk/page/a%00b.js', 400],
    ['/kiosk/page/index.html/x', 404],
    [`/kiosk/page/${'n'.repeat(300)}`, 404],
    [`/kiosk/page/${'d/'.repeat(3000)}x`, 404],
    ['/kiosk/page/%E0%A4%A', 400],
    ['/%2e%2e/%2e%2e/etc/passwd', 403],
    ['/kiosk/page/..%2f..%2fpackage.json', 403],
    ['https://x/api/a', 400],
    ['file:///api/x', 400],
    ['http://[::1:bad/api/x', 400],
    ['*', 400],
  ];
  for (const [target, status] of cases) {
    const response = await raw(target);
    assert.equal(response.status, status, `${target}: ${response.body}`);
  }
  const page = await raw('/kiosk/page/');
  assert.equal(page.status, 200);
  assert.match(page.headers['content-type'], /text\/html/);
});

test('it is not an open proxy: only /api/... of the configured origin is forwarded', async () => {
  const port = new URL(otherUrl).port;
  for (const target of [`//127.0.0.1:${port}/api/x`, `http://127.0.0.1:${port}/api/y`, `http://127.0.0.1:${port}/kiosk/page/`]) {
    const response = await raw(target);
    assert.equal(response.status, 400, target);
    assert.match(JSON.parse(response.body).message, /not a proxy/);
  }
  // A Host header naming the other server changes nothing either.
  const hosted = await raw('/api/account', [['Host', `127.0.0.1:${port}`]]);
  assert.equal(hosted.status, 401);
  assert.equal(otherHits, 0);
  // Paths that climb out of /api/ are not forwarded.
  assert.equal((await raw('/api/../kiosk/')).status, 400);
  assert.equal((await raw('/api/%2e%2e/x')).status, 400);

  // The real service answers what is forwarded, with the query.
  const { token, key } = credentialsOf('u_1001');
  const answer = await fetch(`${kioskUrl}/api/account?x=1`, {
    headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE },
  });
  assert.equal(answer.status, 200);
  assert.equal((await answer.json()).user.id, 'u_1001');
});

test('hop-by-hop headers are dropped both ways; the path and query pass unchanged', async () => {
  const proxyOf = createKioskServer({ upstream: () => recorderUrl });
  const url = await listen(proxyOf);
  try {
    const answer = await exchange(url, [requestBytes('GET', '/api/echo/a%20b?q=1&r=%2F', [
      ['Host', 'kiosk'],
      ['Authorization', 'Bearer t'],
      ['Connection', 'keep-alive, X-Secret-Hop'],
      ['X-Secret-Hop', '1'],
      ['Keep-Alive', 'timeout=5'],
      ['Proxy-Authorization', 'Basic eA=='],
      ['TE', 'trailers'],
      ['Upgrade-Insecure-Requests', '1'],
    ])]);
    assert.equal(answer.responses[0].status, 200);
    assert.equal(recorded.url, '/api/echo/a%20b?q=1&r=%2F');
    assert.equal(recorded.headers.authorization, 'Bearer t');
    assert.equal(recorded.headers['upgrade-insecure-requests'], '1');
    for (const name of ['x-secret-hop', 'keep-alive', 'proxy-authorization', 'te']) {
      assert.equal(recorded.headers[name], undefined, name);
    }
    assert.equal(recorded.headers.host, new URL(recorderUrl).host);
    const back = answer.responses[0].headers;
    assert.equal(back['x-upstream'], 'yes');
    assert.equal(back['x-hop'], undefined);
    assert.notEqual(back['keep-alive'], 'timeout=99');
  } finally {
    proxyOf.closeAllConnections?.();
    await new Promise((resolve) => proxyOf.close(resolve));
  }
});

test('parseTarget accepts paths only and never throws', () => {
  assert.deepEqual(parseTarget('/api/a?b=c'), { pathname: '/api/a', search: '?b=c' });
  for (const target of ['', '*', '//x/api', 'http://x/api', '/a b', '/a\\b', '/a#b', '/\u0000', undefined, 'x'.repeat(9000)]) {
    assert.equal(parseTarget(target), null, String(target).slice(0, 20));
  }
});
