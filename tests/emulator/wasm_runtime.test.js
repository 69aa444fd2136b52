// The launchers' runtimes: startLocalService({ runtime: 'wasm' }) and startStoreHub({ runtime:
// 'wasm' }) serve the emulator over node:http on 127.0.0.1, answering as the native programs do
// (the same bytes as the native service for the same request), refusing a database file, and
// `loyalty-qualifier serve --runtime wasm` runs in the foreground with serve's exit codes. Where
// the docs promise the native behaviour (the front's limits, the CLI's exit codes and bodies), the
// same request or command line goes to both runtimes and gets the same bytes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startLocalService, startStoreHub } from '../../web/local/service/local_service.js';
import { hubBinary } from '../hub/harness.js';
import { FIXED_NOW, fixture, fixturePath, root, scratchDir, serviceBinary, startService, waitFor } from '../service/harness.js';

const cli = path.join(root, 'web/local/cli/cli.js');
const scratch = scratchDir('lq-wasm-runtime-');
let wasm;
let native;
let log = '';

before(async () => {
  serviceBinary();
  wasm = await startLocalService({ runtime: 'wasm', fixture: fixturePath, now: FIXED_NOW, onStderr: (chunk) => { log += chunk; } });
  native = await startService({ db: path.join(scratch.dir, 'native.db'), now: true, runtime: 'native' });
}, { timeout: 900_000 });

after(async () => {
  await wasm?.stop();
  await native?.crash();
  scratch.cleanup();
});

const account = (url) =>
  fetch(`${url}/api/account?redemption_venue=instore`, {
    headers: { Authorization: 'Bearer at_u1001_7Qx2LmN9pR4s', 'Merchant-Key': 'mk_harbor_5f1c9a7e2b', Accept: 'application/vnd.service-v1+json' },
  });

test('the wasm runtime listens on 127.0.0.1, says so, and answers as the native service does', async () => {
  assert.match(wasm.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(log, /loyalty_service: listening on http:\/\/127\.0\.0\.1:\d+ \(wasm runtime/);
  const [fromWasm, fromNative] = await Promise.all([account(wasm.url), account(native.url)]);
  assert.equal(fromWasm.status, 200);
  assert.equal(fromWasm.headers.get('etag'), fromNative.headers.get('etag'));
  assert.equal(await fromWasm.text(), await fromNative.text());
});

test('the wasm runtime keeps the body limit (413, the error body) and the framing checks (415)', async () => {
  const big = await fetch(`${wasm.url}/api/baskets`, { method: 'POST', body: 'x'.repeat((1 << 20) + 10) });
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, 413);
  const encoded = await fetch(`${wasm.url}/api/baskets`, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body: '{}' });
  assert.equal(encoded.status, 415);
});

test('a database file is refused on the wasm runtime; an unknown runtime is a TypeError', async () => {
  await assert.rejects(startLocalService({ runtime: 'wasm', db: path.join(scratch.dir, 'x.db') }), { code: 'LQ_WASM_NO_DATABASE' });
  await assert.rejects(startLocalService({ runtime: 'jvm' }), /startLocalService: runtime must be one of: native, wasm, auto/);
});

test('the store hub on the wasm runtime: its store key, loopback unless exposed', async () => {
  const hub = await startStoreHub({ runtime: 'wasm', storeKey: 'e41b8c7d2a9f03561c8e4b7a2d9f0e35', onStderr: () => {} });
  try {
    assert.equal((await fetch(`${hub.url}/hub/health`, { headers: { 'Store-Key': 'e41b8c7d2a9f03561c8e4b7a2d9f0e35' } })).status, 200);
    assert.equal((await fetch(`${hub.url}/hub/health`)).status, 401);
  } finally {
    await hub.stop();
  }
  await assert.rejects(startStoreHub({ runtime: 'wasm', storeKey: 'e41b8c7d2a9f03561c8e4b7a2d9f0e35', host: '0.0.0.0', onStderr: () => {} }), /expose-on-network/);
});

test('serve --runtime wasm: --db FILE is a usage error (exit 2); without one it serves in the foreground', async () => {
  const refused = spawnSync(process.execPath, [cli, 'serve', '--runtime', 'wasm', '--db', 'state.db'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /the wasm runtime keeps its state in memory/);
  const bad = spawnSync(process.execPath, [cli, 'serve', '--runtime', 'jvm'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--runtime must be one of: native, wasm, auto/);

  const child = spawn(process.execPath, [cli, 'serve', '--runtime', 'wasm', '--fixture', fixturePath], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    exited.then((code) => reject(new Error(`serve exited with ${code} before listening`)));
  });
  assert.equal((await account(url)).status, 200);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

// --- Where the docs promise the native behaviour ---------------------------------------------

const STORE_KEY = 'e41b8c7d2a9f03561c8e4b7a2d9f0e35';
const AUTH = 'Authorization: Bearer at_u1001_7Qx2LmN9pR4s\r\nMerchant-Key: mk_harbor_5f1c9a7e2b\r\nAccept: application/vnd.service-v1+json\r\n';

/** `loyalty-qualifier <args>` on `runtime`: resolves { status, stdout, stderr } once it exits. */
function runCli(runtime, args, env = {}) {
  const child = spawn(process.execPath, [cli, ...args, '--runtime', runtime], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_BIN: serviceBinary(), LQ_HUB_BIN: hubBinary(), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  // A command that listens instead of failing would never exit: stopped, and the test fails.
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('close', (status) => {
    clearTimeout(guard);
    resolve({ status, stdout, stderr });
  }));
}

test('serve and hub fail on the wasm runtime with the native exit codes and error bodies', async () => {
  const bad = path.join(scratch.dir, 'bad.json');
  writeFileSync(bad, '{"merchants": [');
  const badRef = path.join(scratch.dir, 'bad-ref.json');
  writeFileSync(badRef, JSON.stringify({ ...fixture, users: fixture.users.map((u, i) => (i === 1 ? { ...u, merchant_id: 'm_nobody' } : u)) }));
  const holder = net.createServer();
  await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = String(holder.address().port);
  const cases = [
    [['serve', '--fixture', bad]],
    [['serve', '--fixture', badRef]],
    [['serve', '--port', taken]],
    [['hub', '--host', '0.0.0.0'], { LQ_HUB_STORE_KEY: STORE_KEY }],
  ];
  try {
    for (const [args, env] of cases) {
      const [native, wasm] = await Promise.all([runCli('native', args, env), runCli('wasm', args, env)]);
      assert.deepEqual(wasm, native, args.join(' '));
    }
  } finally {
    holder.close();
  }
  // What the native runtime answers, for the record: the user's path, 422; a usage error, 2.
  const fixtureRun = await runCli('wasm', ['serve', '--fixture', bad]);
  assert.equal(fixtureRun.status, 1);
  assert.equal(JSON.parse(fixtureRun.stderr).code, 422);
  assert.match(JSON.parse(fixtureRun.stderr).message, new RegExp(`^fixture ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the fixture is not valid JSON`));
});

test('startLocalService on the wasm runtime rejects a fixture as the native launcher does, naming it as given', async () => {
  const quiet = { runtime: 'wasm', onStderr: () => {} };
  await assert.rejects(startLocalService({ ...quiet, fixture: { users: 'nobody' } }), (e) => {
    assert.equal(e.message, 'loyalty_service: fixture (the fixture object): users must be an array');
    assert.equal(e.exitCode, 1);
    return true;
  });
  const missing = 'no/such/fixture.json';
  const [native, wasm] = await Promise.allSettled([
    startLocalService({ binary: serviceBinary(), runtime: 'native', fixture: missing }),
    startLocalService({ ...quiet, fixture: missing }),
  ]);
  assert.equal(wasm.status, 'rejected');
  assert.equal(wasm.reason.message, native.reason.message);
  assert.equal(wasm.reason.exitCode, native.reason.exitCode);
});

/**
 * One exchange over a socket of its own: `chunks` written on connect; resolves { text, closed }
 * once the server closes the connection, or (`complete`) once complete(text) says the answer is
 * whole. A server that does neither within `limitMs` fails the test.
 */
function exchange(url, chunks, { complete = null, limitMs = 20_000, localAddress = '127.0.0.1' } = {}) {
  const socket = net.connect({ port: Number(new URL(url).port), host: '127.0.0.1', localAddress });
  return new Promise((resolve, reject) => {
    let text = '';
    let settled = false;
    const finish = (closed) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`neither closed nor complete within ${limitMs} ms: ${JSON.stringify(text.slice(0, 300))}`));
    }, limitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (complete?.(text)) finish(false);
    });
    // A reset after the answer (the server closed with our body unread): the answer is what counts.
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

/** complete() for one answer with a Content-Length body. */
const oneAnswer = (text) => {
  const end = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return end >= 0 && length !== null && text.length >= end + 4 + Number(length[1]);
};

// The one header node:http adds to a kept-alive answer (hop-by-hop; docs/emulator.md).
const withoutKeepAlive = (text) => text.replace(/\r\nConnection: keep-alive(?=\r\n)/, '');

test('the wasm front refuses what the native front refuses, with the same bytes, and closes', async () => {
  const big = 'x'.repeat((1 << 20) + 1000);
  const cases = {
    'declared body over 1 MiB': [`POST /api/baskets/qualifying HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: ${big.length}\r\n\r\n`],
    'chunked body over 1 MiB': [`POST /api/baskets/qualifying HTTP/1.1\r\nHost: x\r\n${AUTH}Transfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n`, big, '\r\n0\r\n\r\n'],
    'request line over 8192 bytes': [`GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    '101 header fields': [`GET /api/account HTTP/1.1\r\nHost: x\r\n${AUTH}${Array.from({ length: 98 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`],
    'an HTTP/2.0 request line': [`GET /api/account HTTP/2.0\r\nHost: x\r\n${AUTH}\r\n`],
    'a header line without colon': [`GET /api/account HTTP/1.1\r\nHost: x\r\nBadHeader\r\n${AUTH}\r\n`],
  };
  for (const [name, chunks] of Object.entries(cases)) {
    const [fromNative, fromWasm] = await Promise.all([exchange(native.url, chunks), exchange(wasm.url, chunks)]);
    assert.match(fromNative.text, /^HTTP\/1\.1 4\d\d .*\r\nConnection: close\r\n/s, name);
    assert.deepEqual(fromWasm, fromNative, name);
  }
});

test('the wasm front answers what the native front answers with the same headers: no Host, no Date of its own', async () => {
  const requests = {
    'HTTP/1.1 without Host': `GET /api/account HTTP/1.1\r\n${AUTH}\r\n`,
    'the account read (Date: the service clock)': `GET /api/account HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n`,
    'a qualifying call (no Date)': `POST /api/baskets/qualifying HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    'an unknown route': 'GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  };
  for (const [name, request] of Object.entries(requests)) {
    const [fromNative, fromWasm] = await Promise.all([
      exchange(native.url, [request], { complete: oneAnswer }),
      exchange(wasm.url, [request], { complete: oneAnswer }),
    ]);
    assert.equal(fromWasm.closed, false, `${name}: kept alive`);
    assert.equal(withoutKeepAlive(fromWasm.text), fromNative.text, name);
  }
});

test('a stalled request head gets 408 at the request deadline (10 s) on both runtimes', async () => {
  const stalled = ['GET /api/account HTTP/1.1\r\nHost: x\r\n'];
  const [fromNative, fromWasm] = await Promise.all([exchange(native.url, stalled), exchange(wasm.url, stalled)]);
  assert.match(fromNative.text, /^HTTP\/1\.1 408 /);
  assert.deepEqual(fromWasm, fromNative);
});

test('a connection that sends nothing is closed unanswered after the idle time (5 s) on both runtimes', async () => {
  const timed = async (url) => {
    const t0 = Date.now();
    const outcome = await exchange(url, []);
    return { ...outcome, closedBefore10s: Date.now() - t0 < 9_500 };
  };
  const [fromNative, fromWasm] = await Promise.all([timed(native.url), timed(wasm.url)]);
  assert.deepEqual(fromNative, { text: '', closed: true, closedBefore10s: true });
  assert.deepEqual(fromWasm, fromNative);
});

// `count` connections from `localAddress`, each holding a partial request head (stalled); the
// server accepts them in the order they connected.
async function holdConnections(url, count, localAddress = '127.0.0.1') {
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port: Number(new URL(url).port), host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /api/account HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    sockets.push(socket);
  }
  return sockets;
}

test('the wasm front refuses a client past its share with the native bytes, while another client is served', async () => {
  const capped = await startService({ db: path.join(scratch.dir, 'capped.db'), now: true, runtime: 'native', args: ['--max-connections-per-peer', '4', '--request-timeout', '300'] });
  const service = await startLocalService({ runtime: 'wasm', maxConnectionsPerPeer: 4, onStderr: () => {} });
  const held = [];
  try {
    const refusals = [];
    for (const url of [capped.url, service.url]) {
      held.push(...(await holdConnections(url, 4)));
      refusals.push(await exchange(url, ['GET /api/account HTTP/1.1\r\nHost: x\r\n\r\n']));
      const other = await exchange(url, ['GET /api/account HTTP/1.1\r\nHost: x\r\n\r\n'], { complete: oneAnswer, localAddress: '127.0.0.2' });
      assert.match(other.text, /^HTTP\/1\.1 401 /, `another client is served (${url})`);
    }
    const [fromNative, fromWasm] = refusals;
    assert.match(fromNative.text, /^HTTP\/1\.1 503 .*this client \(127\.0\.0\.1\) already holds 4 open connections/s);
    assert.deepEqual(fromWasm, fromNative);
  } finally {
    for (const socket of held) socket.destroy();
    await service.stop();
    await capped.crash();
  }
});

test('the wasm front answers the connection beyond 256 with 503 and Retry-After: 1, then serves again', async () => {
  const service = await startLocalService({ runtime: 'wasm', onStderr: () => {} });
  const held = [];
  try {
    // Two clients at their share (128 each, the default) fill the 256.
    held.push(...(await holdConnections(service.url, 128, '127.0.0.1')), ...(await holdConnections(service.url, 128, '127.0.0.2')));
    const refused = await exchange(service.url, ['GET /api/account HTTP/1.1\r\nHost: x\r\n\r\n'], { localAddress: '127.0.0.3' });
    assert.equal(refused.closed, true);
    assert.match(refused.text, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(refused.text, /\r\nRetry-After: 1\r\n/);
    assert.match(refused.text, /"code":503,"message":"the service is at its connection limit \(256\); retry shortly"/);
    for (const socket of held) socket.destroy();
    const served = await waitFor(async () => (await exchange(service.url, ['GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n'], { complete: oneAnswer })).text.startsWith('HTTP/1.1 404'), 10_000);
    assert.ok(served, 'a slot frees once a connection closes');
  } finally {
    for (const socket of held) socket.destroy();
    await service.stop();
  }
});

test('the wasm runtime has no process of its own: pid null; kill() ends it as the signal would end the native one', async () => {
  const quiet = { runtime: 'wasm', onStderr: () => {} };
  const killed = await startLocalService(quiet);
  assert.equal(killed.pid, null);
  assert.throws(() => killed.kill('SIGNOPE'), TypeError);
  assert.equal(killed.kill('SIGKILL'), true);
  assert.deepEqual(await killed.exited, { code: null, signal: 'SIGKILL' });
  assert.equal(killed.running(), false);
  assert.equal(killed.kill('SIGKILL'), false);
  await assert.rejects(fetch(`${killed.url}/nowhere`));

  // SIGTERM and SIGINT stop it, as the native program stops on them (exit 0); so does stop().
  const terminated = await startLocalService(quiet);
  assert.equal(terminated.kill('SIGTERM'), true);
  assert.deepEqual(await terminated.exited, { code: 0, signal: null });
  const stopped = await startLocalService(quiet);
  await stopped.stop();
  assert.deepEqual(await stopped.exited, { code: 0, signal: null });
});

test('without onStderr the wasm runtime writes nothing to the process\'s stderr, as the native launcher', async () => {
  const code = `
    const { startLocalService } = await import(${JSON.stringify(path.join(root, 'web/local/service/local_service.js'))});
    const service = await startLocalService({ runtime: 'wasm', accessLog: '-' });
    await (await fetch(service.url + '/api/account')).arrayBuffer();
    await service.stop();
    console.log('done');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'done');
  assert.equal(run.stderr, '');
});
