// startStoreHub() and `loyalty-qualifier hub` from this checkout: the URL first, serve's exit
// codes (2 and hub's usage for a bad command line or a --host beyond loopback without
// --expose-on-network, 1 and a 503 body without a binary, the hub's own code after SIGTERM), the
// warning of --expose-on-network, and the option checks of the launcher. The store key: at least
// 128 bits (a weaker one is exit 2, or a TypeError, saying how to make one) from the environment or
// a file, never on a command line another user can read (--store-key still works, with a warning).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startStoreHub } from '../../web/local/service/local_service.js';
import { storeKeyProblem } from '../../web/local/service/store_key.js';
import { root } from '../service/harness.js';
import { STORE_KEY, hubBinary, hubCall, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-hub-launcher-');
after(() => scratch.cleanup());
before(() => hubBinary(), { timeout: 900_000 });

/** This process's environment without a store key of its own, with `env` added. */
function environment(env = {}) {
  const all = { ...process.env, LQ_HUB_BIN: hubBinary(), ...env };
  if (env.LQ_HUB_STORE_KEY === undefined) delete all.LQ_HUB_STORE_KEY;
  return all;
}

const cli = (args, env = {}) =>
  spawnSync(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'hub', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: environment(env),
  });

const WEAK = /must be a store key of at least 128 bits: 32 hex digits, 22 base64 characters or 20 other visible ASCII characters \(at most 512, no spaces\); make one with: openssl rand -hex 16/;

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
  for (const storeKey of [undefined, 'a b', 'abc', STORE_KEY.slice(1), `${STORE_KEY.slice(1)} `]) {
    await assert.rejects(startStoreHub({ storeKey, binary: hubBinary() }), (e) => {
      assert.equal(e.name, 'TypeError');
      assert.match(e.message, /^startStoreHub: storeKey must be a store key of at least 128 bits/);
      assert.match(e.message, WEAK);
      return true;
    });
  }
  await assert.rejects(startStoreHub({ storeKey: STORE_KEY, port: -1 }), /startStoreHub: port must be an integer from 0 to 65535/);
  await assert.rejects(startStoreHub({ storeKey: STORE_KEY, exposeOnNetwork: 'yes' }), /exposeOnNetwork must be a boolean/);
});

test('startStoreHub({ claimTtl }) is --claim-ttl: taken, refused out of range, checked first', async () => {
  // The suite's runtime: npm test runs this file on both (LQ_HUB_RUNTIME=wasm once the emulator is built).
  const runtime = process.env.LQ_HUB_RUNTIME ?? 'native';
  const quiet = { storeKey: STORE_KEY, binary: hubBinary(), runtime, onStderr: () => {} };
  const hub = await startStoreHub({ ...quiet, claimTtl: '36h' });
  try {
    assert.equal((await hubCall(hub, 'GET', '/hub/health')).body.claim_ttl_ms, 36 * 3_600_000, runtime);
  } finally {
    await hub.stop();
  }
  await assert.rejects(startStoreHub({ ...quiet, claimTtl: '400d' }), (e) => {
    assert.equal(e.exitCode, 2, runtime);
    assert.equal(e.message, 'loyalty_hub: --claim-ttl must be a duration such as 7d, 36h, 90m or 600s (1 s to 366 d)');
    return true;
  });
  await assert.rejects(startStoreHub({ ...quiet, claimTtl: 7 }), (e) => {
    assert.equal(e.name, 'TypeError');
    assert.equal(e.message, "startStoreHub: claimTtl must be a duration such as '7d', '36h', '90m' or '600s'");
    return true;
  });
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
  const keyed = { LQ_HUB_STORE_KEY: STORE_KEY };
  for (const [args, problem, env = keyed] of [
    [['--port', '0'], 'the store key is required: LQ_HUB_STORE_KEY in the environment or --store-key-file FILE (make one with: openssl rand -hex 16)', {}],
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--store-key', 'a b'], '--store-key must be a store key of at least 128 bits'],
    [['--colour', 'blue'], 'unknown option "--colour"'],
    [['--host', '0.0.0.0'], '--host 0.0.0.0 is not a loopback address'],
    [['--claim-ttl', '400d'], '--claim-ttl must be a duration such as 7d, 36h, 90m or 600s (1 s to 366 d)'],
    [[], 'LQ_HUB_STORE_KEY must be a store key of at least 128 bits', { LQ_HUB_STORE_KEY: 'ab' }],
    [['--store-key-file', path.join(scratch.dir, 'none')], `--store-key-file ${path.join(scratch.dir, 'none')}: cannot read it (ENOENT)`],
    [['--store-key', STORE_KEY, '--store-key-file', 'x'], 'give the store key once'],
  ]) {
    const run = cli(args, env);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.ok(run.stderr.startsWith(`loyalty-qualifier hub: ${problem}`), run.stderr);
    assert.match(run.stderr, /usage: loyalty-qualifier hub/);
    assert.doesNotMatch(run.stderr, /usage: loyalty_hub/);
  }
  const help = cli(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /LQ_HUB_STORE_KEY/);
  assert.match(help.stdout, /--store-key-file FILE/);
  assert.match(help.stdout, /openssl rand -hex 16/);
});

test('hub: no binary is exit 1 with a 503 body naming LQ_HUB_BIN', () => {
  const run = cli([], { LQ_HUB_STORE_KEY: STORE_KEY, LQ_HUB_BIN: path.join(root, 'package.json') });
  assert.equal(run.status, 1);
  const body = JSON.parse(run.stderr);
  assert.equal(body.code, 503);
  assert.match(body.message, /^LQ_HUB_BIN=.*package\.json is not an executable file/);
});

test('hub: the first stdout line is the URL; SIGTERM stops it with the hub\'s own exit code 0', async () => {
  const child = spawn(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'hub', '--port', '0',
    '--db', path.join(scratch.dir, 'cli.db')], { stdio: ['ignore', 'pipe', 'pipe'], env: environment({ LQ_HUB_STORE_KEY: STORE_KEY }) });
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

/** The command lines of `pid` and of every process below it, as /proc shows them to any user. */
function commandLines(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const lines = [];
  const visit = (id) => {
    try {
      lines.push(readFileSync(`/proc/${id}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      return;
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return lines;
}

/** Runs `hub` with `args` and `env` until it serves; resolves { url, stderr, lines, stop() }. */
async function runCli(args, env) {
  const child = spawn(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'hub', '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: environment(env) });
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const run = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => { run.stdout += chunk; });
  child.stderr.on('data', (chunk) => { run.stderr += chunk; });
  const url = await waitFor(() => run.stdout.includes('\n') && run.stdout.split('\n')[0], 20_000, 20);
  assert.ok(url, run.stderr);
  // The hub runs once the URL is out: its command line, and the command's own.
  const lines = commandLines(child.pid);
  assert.ok(lines.some((line) => line.includes('loyalty_hub')), lines.join('\n'));
  return Object.assign(run, {
    url,
    lines,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  });
}

test('hub takes the key from LQ_HUB_STORE_KEY or --store-key-file: no command line shows it', async () => {
  const file = path.join(scratch.dir, 'store.key');
  writeFileSync(file, `${STORE_KEY}\n`);
  chmodSync(file, 0o600);
  for (const [args, env] of [[[], { LQ_HUB_STORE_KEY: STORE_KEY }], [['--store-key-file', file], {}]]) {
    const run = await runCli(args, env);
    try {
      for (const line of run.lines) assert.ok(!line.includes(STORE_KEY), `the key shows in ${line}`);
      assert.equal((await hubCall(run, 'GET', '/hub/health')).status, 200);
      assert.equal((await hubCall(run, 'GET', '/hub/health', { key: 'wrong' })).status, 401);
      assert.doesNotMatch(run.stderr, /WARNING/);
    } finally {
      assert.deepEqual(await run.stop(), { code: 0, signal: null });
    }
  }
  // A key file every user may read works, with a warning.
  chmodSync(file, 0o644);
  const loose = await runCli(['--store-key-file', file], {});
  try {
    const warning = /^loyalty-qualifier hub: WARNING: .*store\.key \(--store-key-file\) is readable by every user of this machine: chmod 600 it$/m;
    assert.ok(await waitFor(() => warning.test(loose.stderr), 5_000, 20), loose.stderr);
  } finally {
    await loose.stop();
  }
});

test('hub --store-key KEY still works, with a warning that other users can read it', async () => {
  const run = await runCli(['--store-key', STORE_KEY], {});
  try {
    assert.equal((await hubCall(run, 'GET', '/hub/health')).status, 200);
    const warning = /^loyalty-qualifier hub: WARNING: --store-key puts the store key on the command line, where every user of this machine can read it \(ps, \/proc\/PID\/cmdline\); give it in LQ_HUB_STORE_KEY or with --store-key-file FILE instead$/m;
    assert.ok(await waitFor(() => warning.test(run.stderr), 5_000, 20), run.stderr);
    // The hub itself got it in its environment: only the command's own line shows it.
    assert.ok(run.lines.filter((line) => line.includes('loyalty_hub')).every((line) => !line.includes(STORE_KEY)), run.lines.join('\n'));
  } finally {
    await run.stop();
  }
});

test('the hub binary refuses a weak key with exit 2 saying how to make one; takes --store-key-file; warns on --store-key', async () => {
  // The binary's own command line: the native runtime's, whichever runtime the suite runs on.
  const binary = hubBinary();
  const weakFile = path.join(scratch.dir, 'weak.key');
  writeFileSync(weakFile, 'short\n');
  for (const [args, env, named] of [
    [[], { LQ_HUB_STORE_KEY: 'ab' }, 'LQ_HUB_STORE_KEY'],
    [[], { LQ_HUB_STORE_KEY: STORE_KEY.slice(1) }, 'LQ_HUB_STORE_KEY'],
    [['--store-key', 'q2xA7Zk1b9Pd0Ws+Lm3N/=='], {}, '--store-key'],
    [['--store-key-file', weakFile], {}, `the key in --store-key-file ${weakFile}`],
  ]) {
    const run = spawnSync(binary, ['--port', '0', '--db', ':memory:', ...args], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, ...env } });
    assert.equal(run.status, 2, run.stderr);
    assert.ok(run.stderr.startsWith(`loyalty_hub: ${named} must be a store key of at least 128 bits`), run.stderr);
    assert.match(run.stderr, WEAK);
  }
  const missing = spawnSync(binary, ['--port', '0', '--db', ':memory:'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH } });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^loyalty_hub: the store key is required: LQ_HUB_STORE_KEY in the environment or --store-key-file FILE/);

  // A file's key wins over the launcher's environment; a key on the command line is warned about.
  const keyFile = path.join(scratch.dir, 'binary.key');
  const fileKey = 'q2xA7Zk1b9Pd0Ws+Lm3N/v==';  // `openssl rand -base64 16`: 22 characters and padding
  writeFileSync(keyFile, `${fileKey}\r\n`);
  chmodSync(keyFile, 0o600);
  const fromFile = await startHub({ runtime: 'native', args: ['--store-key-file', keyFile] });
  try {
    assert.equal((await hubCall(fromFile, 'GET', '/hub/health', { key: fileKey })).status, 200);
    assert.equal((await hubCall(fromFile, 'GET', '/hub/health')).status, 401);
    assert.doesNotMatch(fromFile.stderr, /WARNING/);
  } finally {
    await fromFile.stop();
  }
  const onCommandLine = await startHub({ runtime: 'native', args: ['--store-key', STORE_KEY] });
  try {
    // Written before the URL, but on stderr, a pipe of its own: it may come after startHub resolved.
    const warning = /^loyalty_hub: WARNING: --store-key puts the store key on the command line, where every user of this machine can read it/m;
    assert.ok(await waitFor(() => warning.test(onCommandLine.stderr), 5_000, 20), onCommandLine.stderr);
  } finally {
    await onCommandLine.stop();
  }
});

test('the launcher and the hub judge a key alike, at every boundary of the rule', () => {
  const keys = [
    'a'.repeat(32), 'a'.repeat(31), '0123456789ABCDEFabcdef0123456789', // hex: 32 digits
    'q2xA7Zk1b9Pd0Ws-Lm3N_v', 'q2xA7Zk1b9Pd0Ws-Lm3N_', 'q2xA7Zk1b9Pd0Ws+Lm3N/v==', 'q2xA7Zk1b9Pd0Ws+Lm3N/==', // base64: 22
    'store.key!for#tests~', 'store.key!for#tests', '=q2xA7Zk1b9Pd0Ws+Lm3N', // others: 20
    `${'a'.repeat(40)} b`, 'a'.repeat(512), 'a'.repeat(513), '\u00e9'.repeat(40),
  ];
  for (const key of keys) {
    // A key that passes reaches the next check, the loopback one, which refuses this --host.
    const run = spawnSync(hubBinary(), ['--port', '0', '--db', ':memory:', '--host', '0.0.0.0'],
      { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, LQ_HUB_STORE_KEY: key } });
    assert.equal(run.status, 2, run.stderr);
    const problem = storeKeyProblem(key, 'LQ_HUB_STORE_KEY');
    if (problem === null) assert.match(run.stderr, /^loyalty_hub: --host 0\.0\.0\.0 is not a loopback address/, key);
    else assert.ok(run.stderr.startsWith(`loyalty_hub: ${problem}\n`), `${key}: ${run.stderr}`);
  }
});
