// The launchers' runtimes: startLocalService({ runtime: 'wasm' }) and startStoreHub({ runtime:
// 'wasm' }) serve the emulator over node:http on 127.0.0.1, answering as the native programs do
// (the same bytes as the native service for the same request), refusing a database file, and
// `loyalty-qualifier serve --runtime wasm` runs in the foreground with serve's exit codes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startLocalService, startStoreHub } from '../../web/local/service/local_service.js';
import { FIXED_NOW, fixturePath, root, scratchDir, serviceBinary, startService } from '../service/harness.js';

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
