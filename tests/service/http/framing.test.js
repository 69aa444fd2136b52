// Strict HTTP/1.1 framing and slow or many clients, over raw sockets against the real service:
// Content-Length conflicts and garbage, Content-Length with chunked, chunked and encoded bodies
// limited on the bytes received (before authentication), the header count, pipelining, a
// half-closed client, the connection cap (503) and the request deadline (408).
import assert from 'node:assert/strict';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';

import { MEDIA_TYPE, credentialsOf, scratchDir, serviceBinary, startService, waitFor } from '../harness.js';
import { exchange, requestBytes, stalledClient } from './raw_http.js';

const scratch = scratchDir();
let service;
let host;

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'framing.db'), now: true });
  host = new URL(service.url).host;
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.stop();
  scratch.cleanup();
});

const { token, key } = credentialsOf('u_1001');
const auth = () => [
  ['Host', host],
  ['Authorization', `Bearer ${token}`],
  ['Merchant-Key', key],
  ['Accept', MEDIA_TYPE],
];
const BASKET = JSON.stringify({ subtotal: '5.25', items: [{ id: 'latte', price: '5.25' }] });

function assertErrorBody(response, status, pattern) {
  assert.equal(response.status, status, response.body);
  const body = JSON.parse(response.body);
  assert.deepEqual(Object.keys(body), ['code', 'message']);
  assert.equal(body.code, status);
  if (pattern) assert.match(body.message, pattern);
}

async function one(bytes, options) {
  const answer = await exchange(service.url, [bytes], options);
  assert.equal(answer.responses.length, 1, `no response (closed ${answer.closed})`);
  return answer.responses[0];
}

test('Content-Length: conflicting, invalid, or with chunked is 400', async () => {
  const cases = [
    [[['Content-Length', '2'], ['Content-Length', '3']], /conflicting Content-Length/],
    [[['Content-Length', 'abc']], /Content-Length "abc" is not a decimal number/],
    [[['Content-Length', '-1']], /not a decimal number/],
    [[['Content-Length', '2, 3']], /conflicting Content-Length/],
    [[['Content-Length', '5'], ['Transfer-Encoding', 'chunked']], /both Content-Length and Transfer-Encoding/],
  ];
  for (const [fields, pattern] of cases) {
    const response = await one(requestBytes('POST', '/api/baskets/qualifying', [...auth(), ...fields], '{}'));
    assertErrorBody(response, 400, pattern);
    assert.equal(response.headers.connection, 'close');
  }
  // Equal duplicates are one value.
  const equal = await one(requestBytes('POST', '/api/baskets/qualifying',
    [...auth(), ['Content-Length', String(BASKET.length)], ['Content-Length', String(BASKET.length)]], BASKET));
  assert.equal(equal.status, 200, equal.body);
});

test('malformed heads are 400 naming the problem; so is an unknown transfer coding', async () => {
  assertErrorBody(await one('GET /api/account HTTP/1.1\r\nHost: x\r\n folded: yes\r\n\r\n'), 400, /folded/);
  assertErrorBody(await one('GET /api/account HTTP/1.1\r\nHost : x\r\n\r\n'), 400, /invalid field name/);
  assertErrorBody(await one('GET /api/account HTTP/1.1\r\nno colon here\r\n\r\n'), 400, /no colon/);
  assertErrorBody(await one('GET /api/account HTTP/9.9\r\nHost: x\r\n\r\n'), 400, /HTTP\/1\.1/);
  assertErrorBody(await one('GET /api/account HTTP/1.1\r\nHost: x\rEvil: 1\r\n\r\n'), 400, /carriage return/);
  assertErrorBody(await one(requestBytes('POST', '/api/baskets', [['Host', host], ['Transfer-Encoding', 'gzip']])), 400, /Transfer-Encoding "gzip" is not supported/);
});

test('more than 100 header fields is 431; 100 is served', async () => {
  const many = (n) => Array.from({ length: n }, (_, i) => [`X-Filler-${i}`, 'x']);
  const fine = await one(requestBytes('GET', '/api/account', [...auth(), ...many(100 - auth().length)]));
  assert.equal(fine.status, 200, fine.body);
  const tooMany = await one(requestBytes('GET', '/api/account', [...auth(), ...many(101 - auth().length)]));
  assertErrorBody(tooMany, 431, /more than 100 header fields/);
  const huge = await one(requestBytes('GET', '/api/account', [['Host', host], ['X-Big', 'y'.repeat(70_000)]]));
  assertErrorBody(huge, 431, /request head is larger/);
  const longTarget = await one(requestBytes('GET', `/api/${'a'.repeat(9000)}`, [['Host', host]]));
  assertErrorBody(longTarget, 414, /request line is longer/);
});

test('a chunked body is limited on the bytes received, before authentication (413)', async () => {
  // 2 MiB in 64 KiB chunks, without credentials: refused once past 1 MiB, never read whole.
  const chunk = `${(65536).toString(16)}\r\n${'a'.repeat(65536)}\r\n`;
  const chunks = [requestBytes('POST', '/api/baskets', [['Host', host], ['Transfer-Encoding', 'chunked']])];
  for (let i = 0; i < 32; ++i) chunks.push(chunk);
  chunks.push('0\r\n\r\n');
  const answer = await exchange(service.url, chunks);
  assert.equal(answer.responses.length, 1, `closed without an answer: ${answer.error?.message}`);
  assertErrorBody(answer.responses[0], 413, /larger than 1 MiB/);

  // A small chunked body is decoded and served like any other.
  const half = Math.floor(BASKET.length / 2);
  const body = `${half.toString(16)}\r\n${BASKET.slice(0, half)}\r\n${(BASKET.length - half).toString(16)}\r\n${BASKET.slice(half)}\r\n0\r\nX-Trailer: 1\r\n\r\n`;
  const served = await one(requestBytes('POST', '/api/baskets/qualifying', [...auth(), ['Transfer-Encoding', 'chunked']], body));
  assert.equal(served.status, 200, served.body);
  assert.ok(Array.isArray(JSON.parse(served.body).rewards));

  // A declared Content-Length over the limit is refused before a byte of the body is read.
  const declared = await one(requestBytes('POST', '/api/baskets', [['Host', host], ['Content-Length', String(100 << 20)]]));
  assertErrorBody(declared, 413);
  // Bad chunk syntax.
  const bad = await one(requestBytes('POST', '/api/baskets', [['Host', host], ['Transfer-Encoding', 'chunked']], 'zz\r\n'));
  assertErrorBody(bad, 400, /chunk size/);
});

test('Content-Encoding other than identity is 415, before authentication and before reading it', async () => {
  const bomb = gzipSync(Buffer.alloc(4 << 20));  // 4 MiB of zeros in a few KiB
  const response = await one(Buffer.concat([
    Buffer.from(requestBytes('POST', '/api/baskets', [['Host', host], ['Content-Encoding', 'gzip'], ['Content-Length', String(bomb.length)]])),
    bomb,
  ]));
  assertErrorBody(response, 415, /Content-Encoding "gzip" is not supported/);
  const identity = await one(requestBytes('POST', '/api/baskets/qualifying',
    [...auth(), ['Content-Encoding', 'identity'], ['Content-Length', String(BASKET.length)]], BASKET));
  assert.equal(identity.status, 200, identity.body);
});

test('pipelined requests are all answered, in order', async () => {
  const first = requestBytes('GET', '/api/account', auth());
  const second = requestBytes('POST', '/api/baskets/qualifying', [...auth(), ['Content-Length', String(BASKET.length)]], BASKET);
  const third = requestBytes('GET', '/no/such/route', [['Host', host]]);
  const answer = await exchange(service.url, [first + second + third], { responses: 3 });
  assert.deepEqual(answer.responses.map((r) => r.status), [200, 200, 404]);
  assert.equal(JSON.parse(answer.responses[0].body).user.id, 'u_1001');
  assert.ok(Array.isArray(JSON.parse(answer.responses[1].body).rewards));
});

test('a client that half-closes after its request still gets the answer', async () => {
  const answer = await exchange(service.url, [requestBytes('GET', '/api/account', auth())], { halfClose: true });
  assert.equal(answer.responses.length, 1);
  assert.equal(answer.responses[0].status, 200);
  assert.equal(JSON.parse(answer.responses[0].body).user.id, 'u_1001');
  // Two pipelined requests then the half-close: both answered.
  const two = await exchange(service.url, [requestBytes('GET', '/api/account', auth()).repeat(2)], { halfClose: true, responses: 2 });
  assert.deepEqual(two.responses.map((r) => r.status), [200, 200]);
});

test('a body that ends early is 400 naming the bytes or the missing last chunk; truncated JSON names the problem', async () => {
  const short = await one(requestBytes('POST', '/api/baskets', [['Host', host], ['Content-Length', '50']], '{"id":'), { halfClose: true });
  assertErrorBody(short, 400, /ends after 6 of its 50 bytes/);
  const chunks = await one(requestBytes('POST', '/api/baskets', [['Host', host], ['Transfer-Encoding', 'chunked']], '6\r\n{"id":\r\n'), { halfClose: true });
  assertErrorBody(chunks, 400, /the chunked body ends before its last chunk/);
  const truncated = '{"subtotal":"5.25","items":[';
  const parse = await one(requestBytes('POST', '/api/baskets/qualifying', [...auth(), ['Content-Length', String(truncated.length)]], truncated));
  assertErrorBody(parse, 400, /^request body is not valid JSON: unexpected end of input at offset 28$/);
  const trailing = `${BASKET}garbage`;
  const garbage = await one(requestBytes('POST', '/api/baskets/qualifying', [...auth(), ['Content-Length', String(trailing.length)]], trailing));
  assertErrorBody(garbage, 400, new RegExp(`^request body is not valid JSON: unexpected text after the JSON value at offset ${Buffer.byteLength(BASKET)}$`));
});

test('70 stalled clients do not keep a normal request from its answer', { timeout: 120_000 }, async () => {
  const stalled = [];
  try {
    for (let i = 0; i < 70; ++i) stalled.push(await stalledClient(service.url, 'POST /api/baskets HTTP/1.1\r\nHost: x\r\nContent-Le'));
    const answer = await one(requestBytes('GET', '/api/account', auth()), { timeout: 30_000 });
    assert.equal(answer.status, 200);
  } finally {
    for (const socket of stalled) socket.destroy();
  }
});

test('beyond --max-connections a connection gets 503 with the error body', { timeout: 120_000 }, async () => {
  const capped = await startService({
    db: path.join(scratch.dir, 'capped.db'), now: true, args: ['--max-connections', '3', '--request-timeout', '300'],
  });
  const stalled = [];
  try {
    assert.match(capped.stderr, /at most 3 connections/);
    // Three clients that started a request and stalled hold every place (for the 300 s deadline).
    for (let i = 0; i < 3; ++i) stalled.push(await stalledClient(capped.url, 'GET /api/account HTTP/1.1\r\n'));
    const refused = await exchange(capped.url, [requestBytes('GET', '/api/account', [['Host', 'x']])]);
    assert.equal(refused.responses.length, 1, `no answer: ${refused.error?.message}`);
    assertErrorBody(refused.responses[0], 503, /connection limit \(3\)/);
    for (const socket of stalled.splice(0)) socket.destroy();

    // Once they are gone, a request is served again.
    const served = await waitFor(async () => {
      const answer = await exchange(capped.url, [requestBytes('GET', '/api/account', [['Host', 'x']])]);
      return answer.responses[0]?.status === 401 ? answer : null;
    }, 20_000, 100);
    assert.ok(served, 'the capped service never served again');
  } finally {
    for (const socket of stalled) socket.destroy();
    await capped.stop();
  }
});

test('a request that does not arrive within --request-timeout gets 408 and the connection closes', { timeout: 120_000 }, async () => {
  const hurried = await startService({ db: path.join(scratch.dir, 'hurried.db'), now: true, args: ['--request-timeout', '0.5'] });
  try {
    const slow = await exchange(hurried.url, ['GET /api/account HTTP/1.1\r\nHost: x\r\n'], { timeout: 30_000 });
    assert.equal(slow.responses.length, 1, 'no 408');
    assertErrorBody(slow.responses[0], 408, /did not arrive in time/);
    const body = await exchange(hurried.url, [requestBytes('POST', '/api/baskets', [['Host', 'x'], ['Content-Length', '10']], '{')], { timeout: 30_000 });
    assertErrorBody(body.responses[0], 408, /body did not arrive in time/);
  } finally {
    await hurried.stop();
  }
});
