// The kiosk page server (kiosk/server/page_server.mjs) against hostile request targets: it never throws
// (file-system errors are 400/404), it is not an open proxy (only /api/... paths go to the
// configured service origin, built from origin + path + query), and hop-by-hop headers are not
// forwarded in either direction. Against hostile clients: a page of another site reaching it under
// its own name (DNS rebinding) gets nothing, and one client's slow uploads do not starve the
// others; a page of another origin cannot write through /api or /hub (403), nor send a body not
// declared JSON (415). The /hub route reaches the real store hub with the store key the server adds. Real
// sockets on 127.0.0.1 (and 127.0.0.2 as a second client), the real service and hub as upstreams.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { MAX_BODY_BYTES } from '../../../kiosk/server/api_proxy.mjs';
import { createKioskServer, parseTarget } from '../../../kiosk/server/page_server.mjs';
import { PEER_LIMITS } from '../../../kiosk/server/network/peer_limits.mjs';
import { MEDIA_TYPE, credentialsOf, scratchDir, serviceBinary, startService } from '../../service/harness.js';
import { exchange, requestBytes, stalledClient } from '../../service/http/raw_http.js';
import { STORE_KEY, hubCall, rewardClaim, startHub } from '../../hub/harness.js';

const scratch = scratchDir();
let service;
let kiosk;
let kioskUrl;
let other;
let otherUrl;
let otherHits = 0;
let recorded = null;
let recordedCount = 0;
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
    recordedCount += 1;
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

async function raw(target, fields = [['Host', '127.0.0.1']], url = kioskUrl) {
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
      ['Host', 'localhost'],
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

/** One request to the kiosk at `url` with `fields` (Host added) and `body`: { status, body, headers }. */
async function send(url, method, target, fields, body = '', host = new URL(url).host) {
  const length = body === '' ? [] : [['Content-Length', String(Buffer.byteLength(body))]];
  const answer = await exchange(url, [requestBytes(method, target, [['Host', host], ...fields, ...length, ['Connection', 'close']], body)]);
  assert.equal(answer.responses.length, 1, `${method} ${target}: no response (${answer.error?.message ?? 'closed'})`);
  return answer.responses[0];
}

test('writes to /api/ and /hub/ from another origin are 403 and a body not declared JSON 415: nothing is forwarded', async () => {
  const guarded = createKioskServer({
    upstream: () => recorderUrl,
    hub: { upstream: () => recorderUrl, storeKey: STORE_KEY },
    allowedOrigins: ['https://kiosk.example'],
  });
  const url = await listenOn(guarded, '127.0.0.1');
  const own = url;
  const json = ['Content-Type', 'application/json'];
  const body = JSON.stringify(rewardClaim('csrf-basket'));
  try {
    const before = recordedCount;
    for (const target of ['/hub/claims', '/hub/claims/release', '/api/baskets']) {
      // Another port of the same host is another origin; so are a sandboxed page (null) and a lookalike.
      for (const origin of [`http://127.0.0.1:${Number(new URL(url).port) + 1}`, 'null', `${own}.evil.example`, 'http://localhost', `https://127.0.0.1:${new URL(url).port}`]) {
        for (const fields of [[['Origin', origin], json], [['Origin', origin], ['Content-Type', 'text/plain']]]) {
          const answer = await send(url, 'POST', target, fields, body);
          assert.equal(answer.status, 403, `${target} from ${origin}: ${answer.body}`);
          const refusal = JSON.parse(answer.body);
          assert.equal(refusal.code, 403);
          assert.match(refusal.message, /forwards writes to \/api\/ and \/hub\/ only from its own page/);
          assert.ok(refusal.message.includes(own), refusal.message);
        }
      }
      // A browser that sends no Origin but says the request comes from another site.
      for (const site of ['cross-site', 'same-site']) {
        assert.equal((await send(url, 'POST', target, [['Sec-Fetch-Site', site], json], body)).status, 403, `${target} ${site}`);
      }
      // What a page of another site can send without a preflight: text/plain, a form, a multipart body.
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']) {
        const answer = await send(url, 'POST', target, [['Content-Type', type]], body);
        assert.equal(answer.status, 415, `${target} as ${type}: ${answer.body}`);
        assert.match(JSON.parse(answer.body).message, /must be application\/json/);
      }
      assert.equal((await send(url, 'POST', target, [], body)).status, 415, `${target} without a Content-Type`);
      assert.equal((await send(url, 'PUT', target, [['Origin', 'http://127.0.0.1:1'], json], body)).status, 403);
      assert.equal((await send(url, 'DELETE', target, [['Origin', 'http://127.0.0.1:1']])).status, 403);
    }
    assert.equal(recordedCount, before, 'a refused write reached the upstream');

    // Forwarded: the page's own origin (as its Host names it), an --allow-origin one, a client
    // that is not a browser (no Origin), a same-origin Sec-Fetch-Site, and every read.
    let forwarded = 0;
    const { port } = new URL(url);
    for (const [fields, host] of [
      [[['Origin', own], json]],
      [[['Origin', `http://localhost:${port}`], json], `localhost:${port}`],
      [[['Origin', 'https://kiosk.example'], ['Content-Type', 'application/json; charset=utf-8']]],
      [[json]],
      [[['Sec-Fetch-Site', 'same-origin'], ['Origin', own], json]],
    ]) {
      const answer = await send(url, 'POST', '/hub/claims', fields, body, host);
      assert.equal(answer.status, 200, `${JSON.stringify(fields)}: ${answer.body}`);
      forwarded += 1;
      assert.equal(recorded.headers['store-key'], STORE_KEY);
    }
    for (const target of ['/hub/claims?merchant_id=m&user_id=u', '/api/account']) {
      assert.equal((await send(url, 'GET', target, [['Origin', 'http://127.0.0.1:1'], ['Sec-Fetch-Site', 'cross-site']])).status, 200, target);
      forwarded += 1;
    }
    assert.equal(recordedCount, before + forwarded);
  } finally {
    await closeServer(guarded);
  }
});

test('parseTarget accepts paths only and never throws', () => {
  assert.deepEqual(parseTarget('/api/a?b=c'), { pathname: '/api/a', search: '?b=c' });
  for (const target of ['', '*', '//x/api', 'http://x/api', '/a b', '/a\\b', '/a#b', '/\u0000', undefined, 'x'.repeat(9000)]) {
    assert.equal(parseTarget(target), null, String(target).slice(0, 20));
  }
});

async function listenOn(server, host) {
  await new Promise((resolve) => server.listen(0, host, resolve));
  return `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}`;
}

async function closeServer(server) {
  server.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
}

test('a request naming another host is refused before anything is served (DNS rebinding)', async () => {
  const hostile = createKioskServer({ upstream: () => recorderUrl });
  const url = await listenOn(hostile, '127.0.0.1');
  const { port } = new URL(url);
  try {
    const before = recordedCount;
    // A page of evil.example, its name resolved to 127.0.0.1, asks for the credentials and the API.
    for (const [target, host] of [
      ['/kiosk/page/config.json', 'evil.example'],
      ['/kiosk/page/config.json', `evil.example:${port}`],
      ['/kiosk/page/config.json', 'kiosk'],
      ['/api/account', `evil.example:${port}`],
      ['/_kiosk/health', 'evil.example'],
      ['/kiosk/page/', '127.0.0.1.evil.example'],
      ['/kiosk/page/config.json', `[::1]:${port}`], // not the address it is bound to
    ]) {
      const answer = await raw(target, [['Host', host]], url);
      assert.equal(answer.status, 421, `${host} ${target}: ${answer.body}`);
      assert.equal(answer.headers['content-type'], 'application/json');
      const body = JSON.parse(answer.body);
      assert.equal(body.code, 421);
      assert.ok(body.message.includes(JSON.stringify(host)), body.message);
      assert.match(body.message, /--allow-host/);
      assert.doesNotMatch(answer.body, /access_token|merchant_key|at_u1001/);
    }
    assert.equal(recordedCount, before, 'a refused /api request reached the service');
    // Without a Host header (HTTP/1.0): refused too.
    const bare = await exchange(url, ['GET /kiosk/page/config.json HTTP/1.0\r\n\r\n']);
    assert.equal(bare.responses[0]?.status, 421, bare.responses[0]?.body);
    assert.match(JSON.parse(bare.responses[0].body).message, /no Host header/);

    // Its own address, with or without the port, and localhost in any case are answered.
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `localhost:${port}`, 'LocalHost', 'localhost.']) {
      const answer = await raw('/kiosk/page/config.json', [['Host', host]], url);
      assert.equal(answer.status, 200, `${host}: ${answer.body}`);
      assert.ok(JSON.parse(answer.body).guests.length > 0);
    }
    assert.equal((await raw('/api/account', [['Host', `localhost:${port}`]], url)).status, 200);
    assert.equal(recordedCount, before + 1);
  } finally {
    await closeServer(hostile);
  }
});

test('--allow-host names are answered as well; an IPv6 literal Host matches its bound address', async () => {
  const named = createKioskServer({ upstream: () => null, allowedHosts: ['kiosk.lan', '[fd00::2]'] });
  const url = await listenOn(named, '127.0.0.1');
  try {
    for (const host of ['kiosk.lan', 'KIOSK.lan:8080', '[fd00::2]:80', '[fd00:0::2]']) {
      assert.equal((await raw('/kiosk/page/', [['Host', host]], url)).status, 200, host);
    }
    for (const host of ['other.lan', 'kiosk.lan.evil.example', '[fd00::3]']) {
      assert.equal((await raw('/kiosk/page/', [['Host', host]], url)).status, 421, host);
    }
  } finally {
    await closeServer(named);
  }
  const v6 = createKioskServer({ upstream: () => null });
  await new Promise((resolve) => v6.listen(0, '::1', resolve));
  const { port } = v6.address();
  // The status of GET /kiosk/page/ sent to [::1] with the given Host header.
  const status = (host) => new Promise((resolve, reject) => {
    http.get({ host: '::1', port, path: '/kiosk/page/', agent: false, headers: { Host: host } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
  try {
    for (const host of [`[::1]:${port}`, '[::1]', `[0:0:0:0:0:0:0:1]:${port}`, `localhost:${port}`]) {
      assert.equal(await status(host), 200, host);
    }
    for (const host of [`127.0.0.1:${port}`, '::1', '[::2]']) {
      assert.equal(await status(host), 421, host);
    }
  } finally {
    await closeServer(v6);
  }
});

/** GET /api/account through the kiosk as Alex, from `localAddress`: its status, or 0 when the connection failed. */
function accountStatus(url, localAddress) {
  const { token, key } = credentialsOf('u_1001');
  return new Promise((resolve) => {
    const request = http.get(
      `${url}/api/account`,
      {
        localAddress,
        agent: false,
        timeout: 20_000,
        headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE, Connection: 'close' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
        response.on('error', () => resolve(0));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

/** Polls `probe` until `done(result)`; at most `tries` times, 50 ms apart. */
async function waitFor(probe, done, what, tries = 400) {
  let result;
  for (let i = 0; i < tries; ++i) {
    result = await probe();
    if (done(result)) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${what}: still ${result}`);
}

test('300 slow /api uploads from one client: the others are still served', { timeout: 120_000 }, async () => {
  const fair = createKioskServer({ upstream: () => service.url });
  const url = await listenOn(fair, '127.0.0.1');
  const uploads = [];
  try {
    assert.equal(await accountStatus(url, '127.0.0.2'), 200);
    // One client (127.0.0.1) starts 300 uploads and sends a byte of each body, then nothing.
    const head = requestBytes('POST', '/api/baskets', [
      ['Host', '127.0.0.1'],
      ['Content-Type', 'application/json'],
      ['Content-Length', '1000'],
    ]);
    for (let i = 0; i < 300; ++i) uploads.push(await stalledClient(url, `${head}{`));
    // Once its own calls are refused, it has taken all it may ...
    await waitFor(() => accountStatus(url, '127.0.0.1'), (status) => status !== 200, 'the uploading client is still served');
    // ... and another client (127.0.0.2) is still served, again and again.
    for (let i = 0; i < 5; ++i) assert.equal(await accountStatus(url, '127.0.0.2'), 200, `call ${i} of the other client`);
    // The uploader is told why: too many requests of its own in progress.
    const refusal = await waitFor(
      () => exchange(url, [requestBytes('GET', '/api/account', [['Host', '127.0.0.1'], ['Connection', 'close']])]),
      (answer) => answer.responses[0]?.status === 429,
      'no 429 for the uploading client',
    );
    assert.equal(refusal.responses[0].headers['retry-after'], '1');
    assert.match(JSON.parse(refusal.responses[0].body).message, new RegExp(`${PEER_LIMITS.apiRequests} /api and /hub requests from 127\\.0\\.0\\.1`));
    // Its uploads gone, it is served again.
    for (const socket of uploads) socket.destroy();
    await waitFor(() => accountStatus(url, '127.0.0.1'), (status) => status === 200, 'the client is not served after its uploads ended');
  } finally {
    for (const socket of uploads) socket.destroy();
    await closeServer(fair);
  }
});

test('a request body larger than the service takes is refused with 413, and not forwarded', async () => {
  const before = recordedCount;
  const bodyProxy = createKioskServer({ upstream: () => recorderUrl });
  const url = await listenOn(bodyProxy, '127.0.0.1');
  try {
    const declared = await exchange(url, [requestBytes('POST', '/api/baskets', [
      ['Host', '127.0.0.1'], ['Content-Type', 'application/json'], ['Content-Length', String(MAX_BODY_BYTES + 1)],
    ])]);
    assert.equal(declared.responses[0]?.status, 413);
    assert.equal(JSON.parse(declared.responses[0].body).code, 413);
    // Chunked, with no length announced: refused once it passes the limit.
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 17 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const streamed = await exchange(url, [
      requestBytes('POST', '/api/baskets', [['Host', '127.0.0.1'], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']]),
      ...chunks,
      '0\r\n\r\n',
    ]);
    assert.equal(streamed.responses[0]?.status, 413);
    assert.equal(recordedCount, before);
    // A body within the limit arrives whole, with its exact length.
    const answer = await exchange(url, [requestBytes('POST', '/api/baskets', [
      ['Host', '127.0.0.1'], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Connection', 'close'],
    ]), '5\r\nhello\r\n0\r\n\r\n']);
    assert.equal(answer.responses[0]?.status, 200);
    assert.equal(recordedCount, before + 1);
    assert.equal(recorded.headers['content-length'], '5');
    assert.equal(recorded.headers['transfer-encoding'], undefined);
  } finally {
    await closeServer(bodyProxy);
  }
});

test('/hub/ goes to the store hub with the store key added by the server (the client\'s replaced); health names the hub', { timeout: 120_000 }, async () => {
  const hub = await startHub({ storeKey: STORE_KEY });
  let hubUp = true;
  const withHub = createKioskServer({ upstream: () => service.url, hub: { upstream: () => (hubUp ? hub.url : null), storeKey: STORE_KEY } });
  const url = await listen(withHub);
  try {
    // No key from the page, or a wrong one: the server's own key reaches the hub either way.
    for (const headers of [{}, { 'Store-Key': 'not-the-store-key' }]) {
      const health = await fetch(`${url}/hub/health`, { headers });
      assert.equal(health.status, 200);
      assert.equal((await health.json()).status, 'ok');
    }
    // Another origin's write, or a text/plain one, never reaches the hub.
    for (const [headers, status] of [[{ Origin: 'http://127.0.0.1:9', 'Content-Type': 'application/json' }, 403], [{ 'Content-Type': 'text/plain' }, 415]]) {
      const refused = await fetch(`${url}/hub/claims`, { method: 'POST', headers, body: JSON.stringify(rewardClaim('csrf-basket', { kiosk: 'evil', ttl_ms: 366 * 86_400_000 })) });
      assert.equal(refused.status, status);
    }
    const claim = await fetch(`${url}/hub/claims`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: url },
      body: JSON.stringify(rewardClaim('kiosk-server-basket', { kiosk: 'kiosk-7' })),
    });
    assert.equal(claim.status, 201);
    const direct = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_1001');
    assert.deepEqual(direct.body.claims.map((c) => [c.basket_id, c.kiosk_id]), [['kiosk-server-basket', 'kiosk-7']]);
    // The hub itself still wants the key: the server is the only way in without it.
    assert.equal((await hubCall(hub, 'GET', '/hub/health', { key: null })).status, 401);
    // Only /hub/... is forwarded there; the kiosk server's health says the hub is up.
    assert.equal((await raw('/hub/../api/x', [['Host', '127.0.0.1']], url)).status, 400);
    assert.deepEqual(await (await fetch(`${url}/_kiosk/health`)).json(), { service: 'up', hub: 'up' });
    // A bigger body than the hub takes is refused here, not forwarded.
    const big = await fetch(`${url}/hub/claims`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(MAX_BODY_BYTES + 1) });
    assert.equal(big.status, 413);
    // Stopped: 503 naming the hub, and health says so.
    hubUp = false;
    const stopped = await fetch(`${url}/hub/health`);
    assert.equal(stopped.status, 503);
    assert.match((await stopped.json()).message, /the store hub is not running/);
    assert.deepEqual(await (await fetch(`${url}/_kiosk/health`)).json(), { service: 'up', hub: 'down' });
  } finally {
    withHub.closeAllConnections?.();
    await new Promise((resolve) => withHub.close(resolve));
    await hub.stop();
  }
  // A server without a hub forwards nothing under /hub/ (a static path, not found) and its health names none.
  assert.equal((await raw('/hub/health')).status, 403);
  assert.deepEqual(await (await fetch(`${kioskUrl}/_kiosk/health`)).json(), { service: 'up' });
});
