// `npm start` (kiosk/server/main.mjs) as a person runs it: its command line (a --host beyond this
// machine needs --expose-on-network, and then a warning), and the service commands typed on its
// stdin (one service at a time; `quit` ends even a start that hangs). Real processes, the real
// service binary, traffic on loopback only.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { constants, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { serviceBinary } from '../../service/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const NOW = '2026-11-24T13:15:00Z';
let scratch;
let serviceBin;
const running = new Set();

before(() => {
  serviceBin = serviceBinary();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-kiosk-main-'));
}, { timeout: 900_000 });

after(async () => {
  for (const kiosk of running) {
    kiosk.proc.kill('SIGKILL');
    await kiosk.exited;
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs main.mjs with `args` (and `env` added); its stdout and stderr lines are collected as they come. */
function runKiosk(args, env = {}) {
  const proc = spawn(process.execPath, ['kiosk/server/main.mjs', ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_BIN: serviceBin, ...env },
  });
  const kiosk = { proc, stdout: '', stderr: '' };
  running.add(kiosk);
  kiosk.exited = new Promise((resolve) =>
    proc.once('close', (code, signal) => {
      running.delete(kiosk);
      resolve({ code, signal });
    }),
  );
  readline.createInterface({ input: proc.stdout }).on('line', (line) => (kiosk.stdout += `${line}\n`));
  readline.createInterface({ input: proc.stderr }).on('line', (line) => (kiosk.stderr += `${line}\n`));
  return kiosk;
}

/** Waits until the kiosk's stderr (from `from` on) matches `pattern`; fails when it exits first. */
async function stderrMatch(kiosk, pattern, from = 0) {
  let exited = null;
  kiosk.exited.then((result) => (exited = result));
  for (let i = 0; i < 2400; ++i) {
    const match = pattern.exec(kiosk.stderr.slice(from));
    if (match) return match;
    if (exited) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`no ${pattern} on stderr${exited ? ` (exited ${exited.code ?? exited.signal})` : ''}:\n${kiosk.stderr}`);
}

async function pageUrlOf(kiosk) {
  await stderrMatch(kiosk, /kiosk: open /);
  return new URL(kiosk.stdout.split('\n')[0]);
}

async function health(origin) {
  const response = await fetch(`${origin}/_kiosk/health`, { signal: AbortSignal.timeout(15_000) });
  return (await response.json()).service;
}

/** True when something accepts connections at `url`. */
function answers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('a --host beyond this machine without --expose-on-network: exit 2, a plain usage error, nothing started', { timeout: 120_000 }, async () => {
  for (const host of ['0.0.0.0', '::', '192.0.2.10', 'kiosk.example']) {
    const kiosk = runKiosk(['--port', '0', '--host', host, '--db', path.join(scratch, 'never.db')]);
    const { code } = await kiosk.exited;
    assert.equal(code, 2, `--host ${host}:\n${kiosk.stderr}`);
    assert.equal(kiosk.stdout, '');
    const [problem, usage] = kiosk.stderr.split('\n');
    assert.equal(problem, `kiosk: --host ${host} is not a loopback address: the page would be served to the network, and with it the demo guests' tokens and merchant keys (config.json) and billing through /api; add --expose-on-network to do that anyway`);
    assert.match(usage, /^usage: node kiosk\/server\/main\.mjs /);
    assert.doesNotMatch(kiosk.stderr, /starting the service/);
  }
  // Bad --allow-host values are usage errors too.
  const bad = runKiosk(['--allow-host', 'kiosk.lan:8080']);
  assert.equal((await bad.exited).code, 2);
  assert.match(bad.stderr, /^kiosk: --allow-host needs a host name or an IP address without a port/);
  // So are --allow-origin values that are not an origin.
  for (const value of ['kiosk.example', 'https://kiosk.example/page', 'null', '*', 'ftp://kiosk.example']) {
    const origin = runKiosk(['--allow-origin', value]);
    assert.equal((await origin.exited).code, 2, value);
    assert.ok(origin.stderr.startsWith(`kiosk: --allow-origin needs an origin such as https://kiosk.example or http://192.0.2.2:8080, without a path (got ${JSON.stringify(value)})\n`), origin.stderr);
  }
});

test('an LQ_STORE_KEY weaker than 128 bits: exit 2 saying how to make one, nothing started', { timeout: 120_000 }, async () => {
  for (const key of ['short', 'q2xA7Zk1b9Pd0Ws-Lm3N_', '0123456789abcdef0123456789abcde', 'a b']) {
    const kiosk = runKiosk(['--port', '0', '--db', path.join(scratch, 'never.db')], { LQ_STORE_KEY: key });
    assert.equal((await kiosk.exited).code, 2, kiosk.stderr);
    assert.equal(kiosk.stdout, '');
    assert.equal(kiosk.stderr, 'kiosk: LQ_STORE_KEY must be a store key of at least 128 bits: 32 hex digits, 22 base64 characters or 20 other visible ASCII characters (at most 512, no spaces); make one with: openssl rand -hex 16\n');
  }
});

test('a bad option or value is a usage error in the words of serve\'s (one parser, one option table): exit 2, nothing started', { timeout: 120_000 }, async () => {
  for (const [args, problem] of [
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--processing-delay', 'soon'], '--processing-delay must be a number of seconds, >= 0'],
    [['--now', 'tomorrow'], '--now must be a Date or an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z'],
    [['--db', ''], '--db must be a file path or ":memory:"'],
    [['--colour', 'blue'], 'unknown option "--colour"'],
    [['--port'], 'option --port needs a value'],
    [['--smoke', 'now'], 'unexpected argument "now"'],
  ]) {
    const kiosk = runKiosk(args);
    assert.equal((await kiosk.exited).code, 2, `${args.join(' ')}:\n${kiosk.stderr}`);
    assert.equal(kiosk.stdout, '');
    const [line, usage] = kiosk.stderr.split('\n');
    assert.equal(line, `kiosk: ${problem}`);
    assert.match(usage, /^usage: node kiosk\/server\/main\.mjs /);
    assert.doesNotMatch(kiosk.stderr, /starting the service/);
  }
});

test('--host 0.0.0.0 --expose-on-network: served, with a warning that the demo credentials go to the network', { timeout: 300_000 }, async () => {
  const kiosk = runKiosk(['--port', '0', '--host', '0.0.0.0', '--expose-on-network', '--db', path.join(scratch, 'lan.db'), '--now', NOW]);
  const pageUrl = await pageUrlOf(kiosk);
  // The printed URL is this machine's own; the traffic stays on loopback.
  assert.equal(pageUrl.hostname, '127.0.0.1');
  // Logged right after the "open" line, perhaps in the pipe's next chunk: waited for.
  await stderrMatch(kiosk, /kiosk: WARNING: --expose-on-network: the page is served to the network \(.*\), and with it the demo guests' tokens and merchant keys \(config\.json\); anyone who can reach it can bill through \/api\n/);
  const config = await fetch(new URL('/kiosk/page/config.json', pageUrl), { signal: AbortSignal.timeout(15_000) });
  assert.equal(config.status, 200);
  // Under a foreign name: still refused.
  const { port } = pageUrl;
  const refused = await new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) }, () => {
      socket.end(`GET /kiosk/page/config.json HTTP/1.1\r\nHost: evil.example:${port}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
  });
  assert.match(refused, /^HTTP\/1\.1 421 /);
  kiosk.proc.kill('SIGTERM');
  assert.equal((await kiosk.exited).code, 0);
});

test('start twice: one service; stop stops it; another loopback address needs no flag and gets no warning', { timeout: 300_000 }, async () => {
  const kiosk = runKiosk(['--port', '0', '--host', '127.0.0.2', '--db', path.join(scratch, 'twice.db'), '--now', NOW]);
  const pageUrl = await pageUrlOf(kiosk);
  assert.equal(pageUrl.hostname, '127.0.0.2');
  assert.doesNotMatch(kiosk.stderr, /WARNING/);
  const { origin } = pageUrl;
  assert.equal(await health(origin), 'up');

  // `start` while it runs: said, nothing started.
  let from = kiosk.stderr.length;
  kiosk.proc.stdin.write('start\n');
  await stderrMatch(kiosk, /kiosk: the service is running already: http:\/\/127\.0\.0\.1:\d+\n/, from);

  kiosk.proc.stdin.write('stop\n');
  await stderrMatch(kiosk, /kiosk: service stopped/, from);
  assert.equal(await health(origin), 'down');

  // Two starts typed at once: the second finds the first starting.
  from = kiosk.stderr.length;
  kiosk.proc.stdin.write('start\nstart\n');
  await stderrMatch(kiosk, /kiosk: the service is starting already/, from);
  const [, serviceUrl] = await stderrMatch(kiosk, /kiosk: service: (http:\/\/\S+) \(pid \d+\)\n/, from);
  assert.equal(await health(origin), 'up');
  // Whatever came of the second start, one service was started (each start prints its URL).
  kiosk.proc.stdin.write('start\n');
  await stderrMatch(kiosk, /kiosk: the service is running already: /, from);
  assert.equal(kiosk.stderr.slice(from).match(/kiosk: service: http/g).length, 1, kiosk.stderr.slice(from));

  // `stop` stops it: nothing answers at its URL, and the health check says so.
  from = kiosk.stderr.length;
  kiosk.proc.stdin.write('stop\n');
  await stderrMatch(kiosk, /kiosk: service stopped/, from);
  assert.equal(await health(origin), 'down');
  assert.equal(await answers(serviceUrl), false, `${serviceUrl} still answers after stop`);
  kiosk.proc.stdin.write('stop\n');
  await stderrMatch(kiosk, /kiosk: the service is not running/, from);

  kiosk.proc.stdin.write('quit\n');
  assert.equal((await kiosk.exited).code, 0);
});

test('quit while the service hangs starting: the kiosk server exits, and the service is gone', { timeout: 300_000 }, async () => {
  // A fixture that is a FIFO nobody writes: the real service blocks reading it while it seeds a new
  // database, before it listens (and until then it takes no SIGTERM).
  const fifo = path.join(scratch, 'hanging-fixture.json');
  execFileSync('mkfifo', [fifo]);
  const kiosk = runKiosk(['--port', '0', '--db', path.join(scratch, 'hang.db'), '--fixture', fifo, '--now', NOW]);
  await stderrMatch(kiosk, /kiosk: starting the service/);
  await stderrMatch(kiosk, /service: loyalty_service: created /);

  kiosk.proc.stdin.write('start\n');
  await stderrMatch(kiosk, /kiosk: the service is starting already/);
  kiosk.proc.stdin.write('quit\n');
  const { code } = await kiosk.exited;
  assert.equal(code, 0, kiosk.stderr);
  assert.match(kiosk.stderr, /kiosk: quit: stopping\n/);
  assert.match(kiosk.stderr, /kiosk: the start was cancelled: no service runs\n/);
  assert.equal(kiosk.stdout, '', 'no page URL: the page was never served');
  // No reader left on the FIFO: the hung service is gone, not orphaned.
  assert.throws(() => openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK), { code: 'ENXIO' });
});

test('--db :memory: keeps the demo data in memory: no file of that name in the checkout, and the logs agree', { timeout: 300_000 }, async () => {
  const strays = () => readdirSync(root).filter((name) => name.startsWith(':memory:'));
  assert.deepEqual(strays(), [], 'none before');
  const kiosk = runKiosk(['--port', '0', '--db', ':memory:', '--now', NOW, '--smoke']);
  const { code } = await kiosk.exited;
  assert.equal(code, 0, kiosk.stderr);
  assert.match(kiosk.stderr, /kiosk: smoke check passed: u_1001: /);
  assert.deepEqual(strays(), [], `files named :memory: in ${root}`);
  // The service, the hub and the kiosk name the database alike; the throwaway file says where it is.
  assert.match(kiosk.stderr, /service: loyalty_service: created :memory: \(schema \d+\), a throwaway file removed when the service stops: \/\S+\/loyalty\.db\n/);
  assert.match(kiosk.stderr, /service: loyalty_service: new database :memory: seeded from fixture \S+demo\.json: \d+ records added\n/);
  assert.match(kiosk.stderr, /hub: loyalty_hub: created :memory: \(schema \d+\), a throwaway file removed when the hub stops: /);
  assert.match(kiosk.stderr, /kiosk: demo data: in memory \(:memory:, gone when it stops\), store hub: in memory \(:memory:, gone when it stops\)\n/);
  assert.doesNotMatch(kiosk.stderr, /created \/\S+\/loyalty\.db/);
});
