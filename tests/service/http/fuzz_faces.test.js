// A bounded fuzz loop over both server faces: 10,000 generated request targets and header sets
// (seeded, so a failure replays), each sent over a raw socket on 127.0.0.1 to the real service
// and to the kiosk server in front of it. Neither may crash or answer 5xx; both still serve a
// normal request afterwards.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createKioskServer } from '../../../kiosk/server/page_server.mjs';
import { MEDIA_TYPE, credentialsOf, prng, scratchDir, serviceBinary, startService } from '../harness.js';
import { exchange } from './raw_http.js';

const CASES = 10_000;
const CONCURRENCY = 16;
const SEED = Number(process.env.LQ_FUZZ_SEED ?? 20261124);

const scratch = scratchDir();
let service;
let kiosk;
let kioskUrl;

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'fuzz.db'), now: true, args: ['--access-log', 'off'] });
  kiosk = createKioskServer({ upstream: () => service.url });
  kioskUrl = await new Promise((resolve) => kiosk.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${kiosk.address().port}`)));
}, { timeout: 900_000 });

after(async () => {
  kiosk?.closeAllConnections?.();
  await new Promise((resolve) => (kiosk ? kiosk.close(resolve) : resolve()));
  if (service) await service.stop();
  scratch.cleanup();
});

const { token, key } = credentialsOf('u_1001');

function generate(random) {
  const segments = ['api', 'baskets', 'qualifying', 'account', 'kiosk', 'index.html', 'dist', '..', '.', '',
    '%00', '%2e%2e', '%2F', '%ZZ', '%E0%A4%A', 'purchases', 'rewards', 'grant', '_kiosk', 'health',
    'x'.repeat(random.int(1, 400)), 'ü', '\\', 'a b', '%20', 'index.html', 'kiosk.js', '~', '//', '*'];
  const prefixes = ['/', '/', '/', '/api/', '/kiosk/', '//127.0.0.1:1/', 'http://127.0.0.1:1/', 'https://x/',
    'file:///', 'http://[::1:bad/', '', '*', '?', '/?', '\t/'];
  let target = random.pick(prefixes);
  const depth = random.int(0, 6);
  for (let i = 0; i < depth; ++i) target += (i ? '/' : '') + random.pick(segments);
  if (random.chance(0.3)) target += `?${random.pick(['a=1', 'limit=-1', 'ids[]=x', '%%', 'x'.repeat(random.int(1, 200)), '&&=', 'q=%00'])}`;
  if (random.chance(0.02)) target += String.fromCharCode(random.int(0, 31));
  if (target === '') target = '/';

  const method = random.pick(['GET', 'GET', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'BREW', 'G ET', '']);
  const version = random.chance(0.95) ? 'HTTP/1.1' : random.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', 'http/1.1']);
  const fields = [];
  if (random.chance(0.9)) fields.push(['Host', random.pick(['127.0.0.1', '127.0.0.1', '127.0.0.1', 'localhost', 'kiosk', '', 'evil.example:80'])]);
  if (random.chance(0.5)) fields.push(['Authorization', random.pick([`Bearer ${token}`, 'Bearer nope', 'Basic eA==', '', `Bearer ${token}x`])]);
  if (random.chance(0.5)) fields.push(['Merchant-Key', random.pick([key, 'mk_x', ''])]);
  if (random.chance(0.5)) fields.push(['Accept', random.pick([MEDIA_TYPE, 'application/json', '*/*', ''])]);
  if (random.chance(0.3)) fields.push(['X-ClientId', random.pick(['cl_harbor_pos', 'x', ''])]);
  if (random.chance(0.3)) fields.push(['Accept-Version', random.pick(['v4.0', 'v9', ''])]);
  let body = '';
  if (random.chance(0.4)) {
    body = random.pick(['{}', '{"subtotal":"5.25"}', '{"subtotal":"1e400"}', '[', '{"id":"f","state":"billed","subtotal":"100000000000000.00"}',
      '{"purchase":{"amount":"999999999999999.99"}}', 'null', '"x"', '{"a":'.repeat(100), 'x'.repeat(random.int(0, 3000))]);
  }
  const framing = random.int(0, 9);
  if (framing <= 5) fields.push(['Content-Length', String(Buffer.byteLength(body))]);
  else if (framing === 6) fields.push(['Content-Length', random.pick(['abc', '-1', '99999999999999999999', '1, 2', ''])]);
  else if (framing === 7) {
    fields.push(['Transfer-Encoding', random.pick(['chunked', 'gzip', 'chunked, chunked', 'identity'])]);
    body = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  }
  if (random.chance(0.1)) fields.push(['Content-Encoding', random.pick(['gzip', 'br', 'identity', 'deflate'])]);
  if (random.chance(0.05)) fields.push(['Expect', '100-continue']);
  const extra = random.chance(0.05) ? random.int(90, 130) : random.int(0, 3);
  for (let i = 0; i < extra; ++i) {
    fields.push([random.pick([`X-F${i}`, 'Cookie', 'Connection', 'Upgrade', 'Te', 'Keep-Alive', 'X Bad', 'x\u00ff']), random.pick(['1', 'close', 'websocket', '', 'v'.repeat(random.int(1, 100))])]);
  }
  fields.push(['Connection', 'close']);
  const head = [`${method} ${target} ${version}`, ...fields.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
  return Buffer.from(`${head}\r\n\r\n${body}`, 'latin1');
}

async function sendAll(url, requests) {
  const statuses = new Map();
  let next = 0;
  const failures = [];
  async function worker() {
    while (next < requests.length) {
      const i = next++;
      const answer = await exchange(url, [requests[i]], { timeout: 30_000, statusOnly: true });
      const status = answer.responses[0]?.status ?? 'closed';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (typeof status === 'number' && status >= 500) failures.push([i, status, requests[i].toString('latin1').slice(0, 300)]);
      if (answer.timedOut) failures.push([i, 'timed out', requests[i].toString('latin1').slice(0, 300)]);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { statuses, failures };
}

test(`${CASES} generated requests: no crash and no 5xx from the service or the kiosk server`, { timeout: 600_000 }, async () => {
  const random = prng(SEED);
  const requests = Array.from({ length: CASES }, () => generate(random));
  for (const [name, url] of [['service', service.url], ['kiosk', kioskUrl]]) {
    const { statuses, failures } = await sendAll(url, requests);
    assert.deepEqual(failures.slice(0, 5), [], `${name} (seed ${SEED}): ${failures.length} failures`);
    assert.ok(statuses.size > 3, `${name}: too few distinct outcomes ${[...statuses.keys()]}`);
    assert.ok(service.running(), 'the service exited');
  }
  // Both still serve a normal request.
  const headers = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE };
  for (const url of [service.url, kioskUrl]) {
    const answer = await fetch(`${url}/api/account`, { headers });
    assert.equal(answer.status, 200, url);
  }
});
