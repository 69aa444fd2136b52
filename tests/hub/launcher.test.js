// startStoreHub() and `loyalty-qualifier hub` from this checkout: the URL first, serve's exit
// codes (2 and hub's usage for a bad command line or a --host beyond loopback without
// --expose-on-network, 1 and a 503 body without a binary, the hub's own code after SIGTERM), the
// warning of --expose-on-network, and the option checks of the launcher.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startStoreHub } from '../../web/service/local_service.js';
import { root } from '../service/harness.js';
import { STORE_KEY, hubBinary, hubCall, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-hub-launcher-');
after(() => scratch.cleanup());
before(() => hubBinary(), { timeout: 900_000 });

const cli = (args, env = {}) =>
  spawnSync(process.execPath, [path.join(root, 'web/cli/cli.js'), 'hub', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, LQ_HUB_BIN: hubBinary(), ...env },
  });

test('startStoreHub resolves { url, stop() } of a hub on 127.0.0.1 that answers with the key', async () => {
  const hub = await startStoreHub({ storeKey: STORE_KEY, binary: hubBinary() });
  try {
    assert.match(hub.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await hubCall(hub, 'GET', '/hub/health')).status, 200);
  } finally {
    await hub.stop();
  }
  assert.equal(hub.running(), false);
});

test('startStoreHub checks its options before anything starts', async () => {
  await assert.rejects(startStoreHub({}), /startStoreHub: storeKey must be 1 to 512 visible ASCII characters/);
  await assert.rejects(startStoreHub({ storeKey: 'a b' }), /storeKey must be/);
  await assert.rejects(startStoreHub({ storeKey: STORE_KEY, port: -1 }), /startStoreHub: port must be an integer from 0 to 65535/);
  await assert.rejects(startStoreHub({ storeKey: STORE_KEY, exposeOnNetwork: 'yes' }), /exposeOnNetwork must be a boolean/);
});

test('a host beyond loopback needs exposeOnNetwork: refused without, served with a warning', async () => {
  await assert.rejects(
    startStoreHub({ storeKey: STORE_KEY, binary: hubBinary(), host: '0.0.0.0' }),
    /loyalty_hub: --host 0\.0\.0\.0 is not a loopback address: the hub would be reachable from the network; add --expose-on-network/,
  );
  const hub = await startHub({ host: '0.0.0.0', exposeOnNetwork: true });
  try {
    const warned = await waitFor(() => /loyalty_hub: WARNING: --expose-on-network/.test(hub.stderr), 5_000, 20);
    assert.ok(warned, hub.stderr);
    const local = { url: hub.url.replace('0.0.0.0', '127.0.0.1') };
    assert.equal((await hubCall(local, 'GET', '/hub/health')).status, 200);
  } finally {
    await hub.stop();
  }
});

test('hub: a bad command line is exit 2 with hub\'s usage, never the binary\'s', () => {
  for (const [args, problem] of [
    [['--port', '0'], '--store-key is required'],
    [['--store-key', STORE_KEY, '--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--store-key', 'a b'], '--store-key must be 1 to 512 visible ASCII characters'],
    [['--store-key', STORE_KEY, '--colour', 'blue'], 'unknown option "--colour"'],
    [['--store-key', STORE_KEY, '--host', '0.0.0.0'], '--host 0.0.0.0 is not a loopback address'],
  ]) {
    const run = cli(args);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.ok(run.stderr.startsWith(`loyalty-qualifier hub: ${problem}`), run.stderr);
    assert.match(run.stderr, /usage: loyalty-qualifier hub/);
    assert.doesNotMatch(run.stderr, /usage: loyalty_hub/);
  }
  const help = cli(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--store-key KEY/);
});

test('hub: no binary is exit 1 with a 503 body naming LQ_HUB_BIN', () => {
  const run = cli(['--store-key', STORE_KEY], { LQ_HUB_BIN: path.join(root, 'package.json') });
  assert.equal(run.status, 1);
  const body = JSON.parse(run.stderr);
  assert.equal(body.code, 503);
  assert.match(body.message, /^LQ_HUB_BIN=.*package\.json is not an executable file/);
});

test('hub: the first stdout line is the URL; SIGTERM stops it with the hub\'s own exit code 0', async () => {
  const child = spawn(process.execPath, [path.join(root, 'web/cli/cli.js'), 'hub', '--port', '0', '--store-key', STORE_KEY,
    '--db', path.join(scratch.dir, 'cli.db')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LQ_HUB_BIN: hubBinary() } });
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  try {
    let stdout = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    const line = await waitFor(() => stdout.includes('\n') && stdout.split('\n')[0], 20_000, 20);
    assert.match(line, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await hubCall({ url: line }, 'GET', '/hub/health')).status, 200);
    child.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
  } finally {
    child.kill('SIGKILL');
  }
});
