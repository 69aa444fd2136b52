// Per-client fairness (issue 23): one client (remote address) holding partial-header connections
// gets 503 for more than its share (--max-connections-per-peer), while another client — a second
// loopback address, 127.0.0.2 — is still served. Raw sockets; every wait is for a condition.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { scratchDir, serviceBinary, startService, waitFor } from '../harness.js';
import { exchange, requestBytes, stalledClient } from './raw_http.js';

const PARTIAL_HEAD = 'GET /api/account HTTP/1.1\r\nHost: x\r\nX-Slow: ';
const OTHER_PEER = '127.0.0.2';
const scratch = scratchDir();
before(() => serviceBinary(), { timeout: 900_000 });
after(() => scratch.cleanup());

const account = () => [requestBytes('GET', '/api/account', [['Host', 'x']])];

async function openStalled(url, count) {
  const sockets = [];
  for (let i = 0; i < count; ++i) sockets.push(await stalledClient(url, PARTIAL_HEAD));
  return sockets;
}

test('a client past --max-connections-per-peer gets 503 while another client is served', { timeout: 120_000 }, async () => {
  const service = await startService({
    db: path.join(scratch.dir, 'capped.db'), now: true, args: ['--max-connections-per-peer', '4', '--request-timeout', '300'],
  });
  const stalled = [];
  try {
    assert.match(service.stderr, /at most 256 connections, 4 per client/);
    stalled.push(...await openStalled(service.url, 4));
    const refused = await exchange(service.url, account());
    assert.equal(refused.responses.length, 1, `no answer: ${refused.error?.message}`);
    assert.equal(refused.responses[0].status, 503);
    assert.equal(refused.responses[0].headers['retry-after'], '1');
    assert.match(JSON.parse(refused.responses[0].body).message,
      /this client \(127\.0\.0\.1\) already holds 4 open connections, the most one client may hold \(--max-connections-per-peer\)/);

    const other = await exchange(service.url, account(), { localAddress: OTHER_PEER });
    assert.equal(other.responses[0]?.status, 401, `the other client was not served: ${JSON.stringify(other)}`);

    // Once the first client lets go, it is served again.
    for (const socket of stalled.splice(0)) socket.destroy();
    const served = await waitFor(async () => (await exchange(service.url, account())).responses[0]?.status === 401, 20_000, 50);
    assert.ok(served, 'the first client was never served again');
  } finally {
    for (const socket of stalled) socket.destroy();
    await service.stop();
  }
});

test('260 partial-header connections from one client leave the service to the others (defaults)', { timeout: 180_000 }, async () => {
  const service = await startService({ db: path.join(scratch.dir, 'defaults.db'), now: true });
  const stalled = [];
  try {
    assert.match(service.stderr, /at most 256 connections, 128 per client/);
    stalled.push(...await openStalled(service.url, 128));
    // Its 129th is refused at once (the first beyond its share) ...
    const refused = await exchange(service.url, [PARTIAL_HEAD], { statusOnly: true });
    assert.equal(refused.responses[0]?.status, 503, `not refused: ${JSON.stringify(refused)}`);
    // ... and the rest of the 260 changes nothing for another client.
    stalled.push(...await openStalled(service.url, 260 - 129));
    for (let i = 0; i < 3; ++i) {
      const other = await exchange(service.url, account(), { localAddress: OTHER_PEER });
      assert.equal(other.responses[0]?.status, 401, `the other client was not served: ${JSON.stringify(other)}`);
    }
  } finally {
    for (const socket of stalled) socket.destroy();
    await service.stop();
  }
});
