// The local service from the INSTALLED packages: the tarballs of `npm run pack` installed into a
// temporary consumer project (no build step there, no checkout to fall back on). The consumer
// runs `npx loyalty-qualifier serve` and startLocalService() from `loyalty-qualifier/service`
// against the shipped binary and the shipped demo fixture; the examples agree with that service;
// without a usable binary, ServiceBinaryError names the cause and the fix. No process may be left
// behind.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  PLATFORM_PACKAGE,
  consumerProject,
  firstLine,
  groupMembers,
  isGone,
  waitFor,
  withTimeout,
} from './consumer_project.js';

const MEDIA_TYPE = 'application/vnd.service-v1+json';

let project;
let fixtureFile; // the shipped demo fixture, as installed
let fixture;
let basket; // the shipped example request

before(() => {
  project = consumerProject('lq-consumer-service-');
  fixtureFile = path.join(project.installed(), 'fixtures/demo.json');
  fixture = JSON.parse(readFileSync(fixtureFile, 'utf8'));
  basket = JSON.parse(readFileSync(path.join(project.installed(), 'examples/basket.json'), 'utf8'));
});

after(() => project?.cleanup());

function credentialsOf(userId) {
  const user = fixture.users.find((u) => u.id === userId);
  const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
  return { token: user.access_token, key: merchant.merchant_key };
}

async function qualifyingAt(url, userId = 'u_1001') {
  const { token, key } = credentialsOf(userId);
  const headers = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE };
  const res = await fetch(`${url}/api/baskets/qualifying`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(basket),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await res.json() };
}

/** Runs `node file` (written first, when `text` is given) in the consumer project. */
function runNode(file, text, { args = [], nodeArgs = [], timeout = 120_000 } = {}) {
  if (text !== undefined) project.write(file, text);
  return spawnSync(process.execPath, [...nodeArgs, file, ...args], {
    cwd: project.dir,
    env: project.env,
    encoding: 'utf8',
    timeout,
  });
}

test('the platform package ships a binary without SQLite, libstdc++ or libgcc_s', () => {
  const binary = path.join(project.installed(PLATFORM_PACKAGE), 'bin/loyalty_service');
  assert.ok(existsSync(binary), 'the optional platform package was installed with its binary');
  const ldd = execFileSync('ldd', [binary], { encoding: 'utf8' });
  assert.match(ldd, /libc\.so\.6/); // a dynamic binary, so ldd's list means something
  for (const library of [/sqlite/i, /libstdc\+\+/, /libgcc_s/, /httplib/, /libssl|libcrypto/]) {
    assert.doesNotMatch(ldd, library);
  }
  const platformManifest = JSON.parse(readFileSync(path.join(project.installed(PLATFORM_PACKAGE), 'package.json'), 'utf8'));
  assert.deepEqual([platformManifest.os, platformManifest.cpu], [['linux'], ['x64']]);
  const own = JSON.parse(readFileSync(path.join(project.installed(), 'package.json'), 'utf8'));
  assert.equal(platformManifest.version, own.version, 'the two packages are versioned together');
});

test('npx loyalty-qualifier serve --fixture <the shipped demo fixture> answers, and stops on SIGTERM with exit 0', async () => {
  // Its own process group, so that every process it started can be found afterwards.
  const cli = spawn(
    'npx',
    ['loyalty-qualifier', 'serve', '--port', '0', '--fixture', 'node_modules/loyalty-qualifier/fixtures/demo.json'],
    { cwd: project.dir, env: project.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => cli.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await firstLine(cli, 'npx loyalty-qualifier serve');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, body } = await qualifyingAt(url);
    assert.equal(status, 200);
    assert.ok(body.rewards.length + body.points_products.length > 0, 'the basket qualifies for something');
    assert.ok(groupMembers(cli.pid).length >= 2, 'npx and the service run');
    cli.kill('SIGTERM'); // to npx alone: it must pass the stop on
    // npm re-raises the signal its child ended on; the service itself exits 0.
    const ended = await withTimeout(exited, 30_000, 'serve did not stop');
    assert.ok(ended.code === 0 || ended.signal === 'SIGTERM', JSON.stringify(ended));
    assert.ok(await waitFor(() => groupMembers(cli.pid).length === 0, 15_000), 'a process was left');
  } finally {
    try {
      process.kill(-cli.pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
});

// The examples are a pair with the fixture: the demo guest's account, as the local service started
// with the shipped fixture serves it, is examples/snapshot.json (in the snapshot format: without
// the account read's own fields), and the service answers the example request exactly as the
// package does on that snapshot.
const EXAMPLES_PAIR = `import { createQualifier } from 'loyalty-qualifier';
import { startLocalService } from 'loyalty-qualifier/service';
import fixture from 'loyalty-qualifier/fixtures/demo.json' with { type: 'json' };
import snapshot from 'loyalty-qualifier/examples/snapshot.json' with { type: 'json' };
import basket from 'loyalty-qualifier/examples/basket.json' with { type: 'json' };

const user = fixture.users.find((u) => u.id === snapshot.user.id);
const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
const headers = { Authorization: 'Bearer ' + user.access_token, 'Merchant-Key': merchant.merchant_key, Accept: '${MEDIA_TYPE}' };
const service = await startLocalService({ fixture, mode: 'production', now: snapshot.generated_at });
try {
  const account = await (await fetch(service.url + '/api/account', { headers })).json();
  const res = await fetch(service.url + '/api/baskets/qualifying', {
    method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(basket),
  });
  const q = await createQualifier(snapshot);
  console.log(JSON.stringify({ account, status: res.status, remote: await res.json(), local: q.qualify(basket) }));
  q.dispose();
} finally {
  await service.stop();
}
`;

/** The account read in the snapshot format: without the loyalty API's own account fields. */
function snapshotPart(account) {
  const { id: _id, email: _email, points_balances: _balances, ...snapshot } = account;
  const record = ({ user_id: _u, merchant_id: _m, cost: _c, ...rest }) => rest;
  const byId = (list) => [...list].map(record).sort((a, b) => (a.id < b.id ? -1 : 1));
  return { ...snapshot, rewards: byId(snapshot.rewards), points_products: byId(snapshot.points_products) };
}

test('examples/ is a pair with the shipped fixture: the service answers the example request as the package does on the example snapshot', () => {
  const result = runNode('examples-pair.mjs', EXAMPLES_PAIR);
  assert.equal(result.status, 0, result.stderr);
  const { account, status, remote, local } = JSON.parse(result.stdout);
  assert.equal(status, 200);
  const snapshot = JSON.parse(readFileSync(path.join(project.installed(), 'examples/snapshot.json'), 'utf8'));
  assert.deepEqual(
    snapshotPart(account),
    snapshotPart(snapshot),
    'examples/snapshot.json is the demo guest\'s account (GET /api/account of u_1001 at its generated_at)',
  );
  assert.deepEqual(remote, local);
  assert.ok(local.rewards.length > 0 && local.points_products.length > 0, 'the example request qualifies');
});

const CONSUMER_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HybridQualifier, LoyaltyClient, memoryOrderOutbox } from 'loyalty-qualifier';
import { startLocalService } from 'loyalty-qualifier/service';
import fixture from 'loyalty-qualifier/fixtures/demo.json' with { type: 'json' };
import basket from 'loyalty-qualifier/examples/basket.json' with { type: 'json' };

const user = fixture.users.find((u) => u.id === 'u_1001');
const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);

test('a basket runs through HybridQualifier against startLocalService()', async () => {
  const service = await startLocalService({ fixture, mode: 'production' });
  console.log(JSON.stringify({ pid: service.pid }));
  try {
    assert.match(service.url, /^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
    const client = new LoyaltyClient({ baseUrl: service.url, accessToken: user.access_token, merchantKey: merchant.merchant_key });
    const divergences = [];
    const hybrid = new HybridQualifier({ client, outbox: memoryOrderOutbox(), onDivergence: (d) => divergences.push(d) });
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
  const result = runNode('service.test.js', CONSUMER_TEST, { nodeArgs: ['--test', '--test-reporter=tap'] });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /# pass 2/);
  const pid = Number(/"pid":(\d+)/.exec(result.stdout)?.[1]);
  assert.ok(pid > 0, result.stdout);
  assert.ok(await waitFor(() => isGone(pid), 15_000), `the service ${pid} is still running`);
});

// A harness that forgets stop() (its process ends) or is killed outright must not leave the
// service running: the 'exit' hook, and the service's own watch on the process that started it.
for (const ending of ['forgets stop() and exits', 'is killed with SIGKILL']) {
  test(`a harness that ${ending} leaves no service behind`, async () => {
    const killed = ending.includes('SIGKILL');
    // It talks to its service (401: no credentials), then either ends or waits to be killed.
    project.write(
      'harness.js',
      `import { startLocalService } from 'loyalty-qualifier/service';
const service = await startLocalService({ fixture: ${JSON.stringify(fixtureFile)} });
const { status } = await fetch(service.url + '/api/account');
console.log(JSON.stringify({ pid: service.pid, url: service.url, status }));
${killed ? 'setInterval(() => {}, 1000);' : ''}
`,
    );
    const harness = spawn(process.execPath, ['harness.js'], {
      cwd: project.dir,
      env: project.env,
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
    assert.ok(await waitFor(() => isGone(pid), 15_000), `the service ${pid} is still running`);
  });
}

// The native runtime asked for: without one, 'auto' (the default) runs the wasm runtime instead.
const START = `import { startLocalService } from 'loyalty-qualifier/service';
await startLocalService({ runtime: 'native' }).then(
  (service) => { console.log(JSON.stringify({ started: true })); return service.stop(); },
  (e) => console.log(JSON.stringify({ name: e.name, code: e.code, cause: e.cause, message: e.message })),
);
`;

/** serve and startLocalService in `dir` (a consumer project), with `nodeArgs` for node. */
function withoutService(consumer, nodeArgs = []) {
  consumer.write('start.js', START);
  const start = spawnSync(process.execPath, [...nodeArgs, 'start.js'], {
    cwd: consumer.dir,
    env: consumer.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(start.status, 0, start.stderr);
  const error = JSON.parse(start.stdout);
  const serve = spawnSync(
    process.execPath,
    [...nodeArgs, 'node_modules/loyalty-qualifier/web/local/cli/cli.js', 'serve', '--port', '0', '--runtime', 'native'],
    { cwd: consumer.dir, env: consumer.env, encoding: 'utf8', timeout: 60_000 },
  );
  return { error, serve };
}

/** serve without a binary: exit 1, the body with code 503 and the same message as startLocalService's. */
function assertServeRefuses(serve, error) {
  assert.equal(serve.status, 1, serve.stderr);
  assert.equal(serve.stdout, '');
  assert.deepEqual(JSON.parse(serve.stderr), { code: 503, message: error.message });
}

for (const install of ['package-alone', 'omit-optional']) {
  test(`without the platform package (${install}): ServiceBinaryError 'not-installed' gives the npm install line of both tarballs`, () => {
    const bare = consumerProject(`lq-consumer-${install}-`, { install });
    try {
      assert.ok(!existsSync(bare.installed(PLATFORM_PACKAGE)), 'the platform package was left out');
      const { error, serve } = withoutService(bare);
      assert.equal(error.name, 'ServiceBinaryError');
      assert.equal(error.code, 'LQ_NO_SERVICE_BINARY');
      assert.equal(error.cause, 'not-installed');
      assert.match(error.message, /@loyalty-qualifier\/linux-x64, which is not installed/);
      assert.match(error.message, /--omit=optional/);
      // The fix it names installs exactly the tarballs `npm run pack` writes.
      const names = bare.packed.tarballs.map((file) => path.basename(file));
      assert.ok(error.message.includes(`npm install ./${names[0]} ./${names[1]}`), error.message);
      assert.match(error.message, /npm run pack/);
      assertServeRefuses(serve, error);
    } finally {
      bare.cleanup();
    }
  });
}

test('on a platform without a platform package: ServiceBinaryError \'unsupported-platform\' says which exist and how to build', () => {
  // process.arch as on an arm64 machine, before the package is loaded.
  const arm64 = ['--import', 'data:text/javascript,Object.defineProperty(process,"arch",{value:"arm64"})'];
  const { error, serve } = withoutService(project, arm64);
  assert.equal(error.cause, 'unsupported-platform');
  assert.match(error.message, /no prebuilt local service for linux-arm64: platform packages exist for linux-x64 only/);
  assert.match(error.message, /node scripts\/build\.mjs --only native/);
  assert.match(error.message, /LQ_SERVICE_BIN=/);
  assertServeRefuses(serve, error);
});

test('a platform package without an executable binary: ServiceBinaryError \'binary-missing\'', () => {
  const binary = path.join(project.installed(PLATFORM_PACKAGE), 'bin/loyalty_service');
  chmodSync(binary, 0o644);
  try {
    const { error, serve } = withoutService(project);
    assert.equal(error.cause, 'binary-missing');
    assert.ok(error.message.includes(`${binary} is missing or not executable`), error.message);
    assert.match(error.message, /npm install \.\/loyalty-qualifier-\S+\.tgz \.\/loyalty-qualifier-linux-x64-\S+\.tgz/);
    assertServeRefuses(serve, error);
  } finally {
    chmodSync(binary, 0o755);
  }
});

test('every throwaway database and fixture file was removed', async () => {
  // :memory: databases live in TMPDIR (loyalty_service-*), object fixtures too; the services
  // above all stopped, each cleaning up after itself.
  const left = () => readdirSync(project.tmp).filter((n) => /^loyalty(_service|-qualifier-fixture)-/.test(n));
  assert.ok(await waitFor(() => left().length === 0, 15_000), `left behind: ${left().join(', ')}`);
});
