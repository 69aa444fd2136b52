// The local service from the INSTALLED package: every package of this repository is packed with
// `npm pack`, the tarballs are installed offline into a temporary consumer project (no build
// step there), and the consumer runs `npx loyalty-qualifier serve` and startLocalService() from
// `loyalty-qualifier/service` against the shipped binary. No process may be left behind.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createQualifier } from '../../web/index.js';
import {
  MEDIA_TYPE,
  credentialsOf,
  fixture,
  fixturePath,
  root,
  waitFor,
  withTimeout,
} from '../service/harness.js';
import { assertShippedBinaryBuilt } from './shipped_binary.js';

const PLATFORM_PACKAGE = '@loyalty-qualifier/linux-x64';
const USER = 'u_1001';
const basket = JSON.parse(readFileSync(path.join(root, 'examples/basket.json'), 'utf8'));

let scratch; // { consumer, tarballs, tmp }
// The consumer's environment: npm offline (the tarballs are all it may install), its own TMPDIR
// (checked for leftovers at the end), and not inside this test runner (NODE_TEST_CONTEXT would
// make a nested `node --test` report to it instead of printing TAP).
function npmEnv() {
  const env = {
    ...process.env,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    TMPDIR: scratch.tmp,
  };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function npm(args, cwd) {
  const result = spawnSync('npm', args, { cwd, env: npmEnv(), encoding: 'utf8', timeout: 180_000 });
  assert.equal(result.status, 0, `npm ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** True once `pid` is no process any more (gone, or a zombie nobody has reaped yet). */
function isGone(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'ESRCH') return true;
    throw e;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

const waitGone = (pid) => waitFor(() => isGone(pid), 15_000, 50);

/** The pids of the processes in process group `pgid`, from /proc. */
function groupMembers(pgid) {
  const members = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

/** Resolves the first stdout line of a child process (or rejects with its stderr on exit). */
function firstLine(child, what) {
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8');
  return withTimeout(
    new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const end = stdout.indexOf('\n');
        if (end >= 0) resolve(stdout.slice(0, end));
      });
      child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${stderr}`)));
    }),
    60_000,
    `${what} printed no line`,
  );
}

async function qualifyingAt(url) {
  const { token, key } = credentialsOf(USER);
  const headers = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE };
  const account = await fetch(`${url}/api/account`, { headers, signal: AbortSignal.timeout(15_000) });
  assert.equal(account.status, 200);
  const res = await fetch(`${url}/api/baskets/qualifying`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(basket),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await res.json(), snapshot: await account.json() };
}

before(() => {
  assertShippedBinaryBuilt();
  assert.ok(
    existsSync(path.join(root, 'web/dist/loyalty_qualifier.wasm')),
    'build first: node scripts/build.mjs (web/dist/loyalty_qualifier.wasm)',
  );
  const base = mkdtempSync(path.join(os.tmpdir(), 'lq-package-'));
  scratch = {
    base,
    consumer: path.join(base, 'consumer'),
    tarballs: path.join(base, 'tarballs'),
    tmp: path.join(base, 'tmp'),
  };
  for (const dir of [scratch.consumer, scratch.tarballs, scratch.tmp]) mkdirSync(dir);

  const packed = JSON.parse(
    npm(
      ['pack', '--json', '--workspaces', '--include-workspace-root', '--pack-destination', scratch.tarballs],
      root,
    ),
  );
  const tarballs = packed.map((p) => path.join(scratch.tarballs, p.filename));
  assert.deepEqual(packed.map((p) => p.name).sort(), [PLATFORM_PACKAGE, 'loyalty-qualifier']);
  writeFileSync(
    path.join(scratch.consumer, 'package.json'),
    JSON.stringify({ name: 'ordering-app', private: true, type: 'module' }),
  );
  npm(['install', '--save-dev', ...tarballs], scratch.consumer);
});

after(() => {
  if (scratch) rmSync(scratch.base, { recursive: true, force: true });
});

test('the platform package ships a binary without SQLite, libstdc++ or libgcc_s', () => {
  const binary = path.join(scratch.consumer, 'node_modules', PLATFORM_PACKAGE, 'bin/loyalty_service');
  assert.ok(existsSync(binary), 'the optional platform package was installed with its binary');
  const ldd = execFileSync('ldd', [binary], { encoding: 'utf8' });
  assert.match(ldd, /libc\.so\.6/); // a dynamic binary, so ldd's list means something
  for (const library of [/sqlite/i, /libstdc\+\+/, /libgcc_s/, /httplib/, /libssl|libcrypto/]) {
    assert.doesNotMatch(ldd, library);
  }
  const platformManifest = JSON.parse(
    readFileSync(path.join(scratch.consumer, 'node_modules', PLATFORM_PACKAGE, 'package.json'), 'utf8'),
  );
  assert.deepEqual([platformManifest.os, platformManifest.cpu], [['linux'], ['x64']]);
  // Only the package's own files travel: no checkout, so no local build to fall back on.
  assert.ok(!existsSync(path.join(scratch.consumer, 'node_modules/loyalty-qualifier/build')));
});

test('npx loyalty-qualifier serve --port 0 --fixture FILE answers POST /api/baskets/qualifying', async () => {
  const fixtureCopy = path.join(scratch.consumer, 'demo-fixture.json');
  writeFileSync(fixtureCopy, readFileSync(fixturePath));
  // Its own process group, so that every process it started can be found afterwards.
  const cli = spawn('npx', ['loyalty-qualifier', 'serve', '--port', '0', '--fixture', 'demo-fixture.json'], {
    cwd: scratch.consumer,
    env: npmEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => cli.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await firstLine(cli, 'npx loyalty-qualifier serve');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, body, snapshot } = await qualifyingAt(url);
    assert.equal(status, 200);
    // The service and the package's engine on the account snapshot it serves agree.
    const local = await createQualifier(snapshot, { now: () => Date.parse(basket.order_timestamp) });
    assert.deepEqual(body, local.qualify(basket));
    local.dispose();
    assert.ok(body.rewards.length + body.points_products.length > 0, 'the basket qualifies for something');
    assert.ok(groupMembers(cli.pid).length >= 2, 'npx and the service run');
    cli.kill('SIGTERM'); // to npx alone: it must pass the stop on
    // npm re-raises the signal its child ended on; the service itself exits 0.
    const ended = await withTimeout(exited, 30_000, 'serve did not stop');
    assert.ok(ended.code === 0 || ended.signal === 'SIGTERM', JSON.stringify(ended));
    assert.ok(await waitFor(() => groupMembers(cli.pid).length === 0, 15_000, 50), 'a process was left');
  } finally {
    try {
      process.kill(-cli.pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
});

const CONSUMER_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HybridQualifier, LoyaltyClient } from 'loyalty-qualifier';
import { startLocalService } from 'loyalty-qualifier/service';

const fixture = ${JSON.stringify(fixture)};
const user = fixture.users.find((u) => u.id === ${JSON.stringify(USER)});
const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
const basket = ${JSON.stringify(basket)};

test('a basket runs through HybridQualifier against startLocalService()', async () => {
  const service = await startLocalService({ fixture, mode: 'production' });
  console.log(JSON.stringify({ pid: service.pid }));
  try {
    assert.match(service.url, /^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
    const client = new LoyaltyClient({ baseUrl: service.url, accessToken: user.access_token, merchantKey: merchant.merchant_key });
    const divergences = [];
    const hybrid = new HybridQualifier({ client, onDivergence: (d) => divergences.push(d) });
    const confirmed = await hybrid.confirm(basket);
    assert.equal(confirmed.source, 'remote');
    assert.equal(confirmed.provisional, false);
    assert.deepEqual(divergences, []);
    assert.deepEqual(confirmed.result, await client.qualify(basket));
    assert.ok(confirmed.result.rewards.length + confirmed.result.points_products.length > 0);
    hybrid.dispose();
  } finally {
    await service.stop();
  }
  assert.throws(() => process.kill(service.pid, 0), { code: 'ESRCH' });
  await service.stop(); // idempotent
});

test('a service that cannot start rejects with its own error text', async () => {
  await assert.rejects(startLocalService({ fixture: { users: 'nobody' } }), (e) => {
    assert.match(e.message, /^loyalty_service: /);
    assert.equal(e.exitCode, 1);
    return true;
  });
  await assert.rejects(startLocalService({ fixture: 'no/such/fixture.json' }), /^Error: loyalty_service: .*no\\/such\\/fixture\\.json/);
});
`;

test('a node:test file in the consumer uses startLocalService and leaves no process', async () => {
  writeFileSync(path.join(scratch.consumer, 'service.test.js'), CONSUMER_TEST);
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'service.test.js'], {
    cwd: scratch.consumer,
    env: npmEnv(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /# pass 2/);
  const pid = Number(/"pid":(\d+)/.exec(result.stdout)?.[1]);
  assert.ok(pid > 0, result.stdout);
  assert.ok(await waitGone(pid), `the service ${pid} is still running`);
});

// A harness that forgets stop() (its process ends) or is killed outright must not leave the
// service running: the 'exit' hook, and the service's own watch on the process that started it.
for (const ending of ['forgets stop() and exits', 'is killed with SIGKILL']) {
  test(`a harness that ${ending} leaves no service behind`, async () => {
    const killed = ending.includes('SIGKILL');
    // It talks to its service (401: no credentials), then either ends or waits to be killed.
    const script = `import { startLocalService } from 'loyalty-qualifier/service';
const service = await startLocalService({ fixture: ${JSON.stringify(fixturePath)} });
const { status } = await fetch(service.url + '/api/account');
console.log(JSON.stringify({ pid: service.pid, url: service.url, status }));
${killed ? 'setInterval(() => {}, 1000);' : ''}
`;
    writeFileSync(path.join(scratch.consumer, 'harness.js'), script);
    const harness = spawn(process.execPath, ['harness.js'], {
      cwd: scratch.consumer,
      env: npmEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => harness.once('exit', (code, signal) => resolve({ code, signal })));
    const { pid, url, status } = JSON.parse(await firstLine(harness, 'the harness'));
    assert.equal(status, 401);
    if (killed) {
      assert.equal((await qualifyingAt(url)).status, 200);
      harness.kill('SIGKILL');
      assert.equal((await exited).signal, 'SIGKILL');
    } else {
      assert.deepEqual(await withTimeout(exited, 30_000, 'the harness did not exit'), { code: 0, signal: null });
    }
    assert.ok(await waitGone(pid), `the service ${pid} is still running`);
  });
}

test('without the platform package, serve and startLocalService say what to build and how', async () => {
  const bare = path.join(scratch.base, 'bare-consumer');
  mkdirSync(bare);
  writeFileSync(path.join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
  const rootTarball = readdirSync(scratch.tarballs).find((n) => n.startsWith('loyalty-qualifier-0'));
  npm(['install', '--omit=optional', path.join(scratch.tarballs, rootTarball)], bare);
  assert.ok(!existsSync(path.join(bare, 'node_modules', PLATFORM_PACKAGE)));

  const serve = spawnSync('npx', ['loyalty-qualifier', 'serve', '--port', '0'], {
    cwd: bare,
    env: npmEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(serve.status, 1, serve.stderr);
  const { code, message } = JSON.parse(serve.stderr.split('\n').find((l) => l.startsWith('{')));
  assert.equal(code, 500);
  assert.match(message, /@loyalty-qualifier\/linux-x64 is not installed/);
  assert.match(message, /node scripts\/build\.mjs --only native/);
  assert.match(message, /LQ_SERVICE_BIN=/);

  writeFileSync(
    path.join(bare, 'start.js'),
    `import { startLocalService } from 'loyalty-qualifier/service';
await startLocalService().then(() => console.log('started'), (e) => console.log(JSON.stringify({ name: e.name, code: e.code })));
`,
  );
  const start = spawnSync(process.execPath, ['start.js'], { cwd: bare, env: npmEnv(), encoding: 'utf8', timeout: 60_000 });
  assert.deepEqual(JSON.parse(start.stdout), { name: 'ServiceBinaryError', code: 'LQ_NO_SERVICE_BINARY' });
});

test('every throwaway database and fixture file was removed', async () => {
  // :memory: databases live in TMPDIR (loyalty_service-*), object fixtures too; the services
  // above all stopped, each cleaning up after itself.
  const left = () => readdirSync(scratch.tmp).filter((n) => /^loyalty(_service|-qualifier-fixture)-/.test(n));
  assert.ok(await waitFor(() => left().length === 0, 15_000, 50), `left behind: ${left().join(', ')}`);
});
