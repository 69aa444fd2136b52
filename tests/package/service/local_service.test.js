// `loyalty-qualifier serve` and startLocalService() from this checkout (the platform package is
// the npm/linux-x64 workspace): the command line and its exit codes, serve in the foreground (its
// URL, its log, a stop, no process left when it or its parent is killed), a database file that
// outlives the service, and the service's own error text. From the installed tarballs:
// tests/consumer/.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { constants, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';

import { ServiceBinaryError, serviceBinaryPath, startLocalService } from '../../../web/local/service/local_service.js';
import { firstLine, groupMembers } from '../../consumer/consumer_project.js';
import { fencedBlocks } from '../../consumer/readme/readme_blocks.js';
import { account, fixture, fixturePath, root, scratchDir, serviceBinary, waitFor } from '../../service/harness.js';
import { assertShippedBinaryBuilt, shippedBinary } from './shipped_binary.js';

const scratch = scratchDir('lq-local-service-');
after(() => scratch.cleanup());

const cli = (args) =>
  spawnSync(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'serve', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });

test('the binary comes from the platform package (the workspace, built and copied there)', () => {
  const override = process.env.LQ_SERVICE_BIN;
  delete process.env.LQ_SERVICE_BIN;
  try {
    assertShippedBinaryBuilt();
    assert.equal(serviceBinaryPath(), shippedBinary);
  } finally {
    if (override !== undefined) process.env.LQ_SERVICE_BIN = override;
  }
});

test('serve: a bad command line is a usage error (exit 2, plain text, serve\'s usage), --help prints the usage', () => {
  const bad = cli(['--port', '0', '--colour', 'blue']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^loyalty-qualifier serve: unknown option "--colour"\n\nusage: loyalty-qualifier serve/);
  const help = cli(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--db FILE\|:memory:/);
});

test('serve: a bad value is serve\'s usage error, never the service\'s usage', () => {
  for (const [args, problem] of [
    [['--mode', 'staging'], '--mode must be one of: sandbox, production'],
    [['--now', '2026-11-24'], '--now must be a Date or an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z'],
    [['--processing-delay', '1e3'], '--processing-delay must be a number of seconds, >= 0'],
    [['--cors-origin', 'http://localhost:5173', '--cors-origin', '*'], "--cors-origin * is refused: every request carries a secret (an access token, a merchant key or a store key), so name each page's origin, e.g. http://localhost:5173"],
    [['--cors-origin', 'localhost:5173'], '--cors-origin must be an origin such as http://localhost:5173: http or https, a host, an optional port, nothing after (got "localhost:5173")'],
  ]) {
    const bad = cli(args);
    assert.equal(bad.status, 2, bad.stderr);
    assert.ok(bad.stderr.startsWith(`loyalty-qualifier serve: ${problem}\n\nusage: loyalty-qualifier serve`), bad.stderr);
    assert.doesNotMatch(bad.stderr, /loyalty_service/);
  }
});

test('serve: a missing fixture file is exit 2 naming it; a LQ_SERVICE_BIN that is no executable is exit 1, 503 \'binary-missing\'', () => {
  const missing = cli(['--fixture', path.join(scratch.dir, 'none.json')]);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, `loyalty-qualifier serve: cannot read the fixture file "${path.join(scratch.dir, 'none.json')}": no such file\n`);
  const noBinary = spawnSync(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'serve'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, LQ_SERVICE_BIN: path.join(root, 'package.json') },
  });
  assert.equal(noBinary.status, 1);
  const body = JSON.parse(noBinary.stderr);
  assert.equal(body.code, 503);
  assert.match(body.message, /^LQ_SERVICE_BIN=.*package\.json is not an executable file/);
});

/** `command` in a process group of its own (so that every process it starts can be found), with LQ_SERVICE_BIN set. */
function inOwnGroup(command, args) {
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_BIN: serviceBinary() },
  });
  child.exitedWith = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    child.log += chunk;
  });
  return child;
}

/** Waits until no process of `child`'s group is left; then makes sure of it. */
async function assertNoProcessLeft(child) {
  const gone = await waitFor(() => groupMembers(child.pid).length === 0, 15_000, 20);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // gone, as it should be
  }
  assert.ok(gone, 'a process was left');
}

test('serve: the first stdout line is the URL, the service\'s log follows on stderr; SIGTERM stops it with exit 0', async () => {
  const serve = inOwnGroup(process.execPath, [path.join(root, 'web/local/cli/cli.js'), 'serve', '--fixture', fixturePath,
    '--cors-origin', 'http://localhost:5173', '--cors-origin', 'http://127.0.0.1:4173']);
  const url = await firstLine(serve, 'serve');
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal((await account({ url }, 'u_1001')).status, 200);
  // Each --cors-origin reached the service: a page of either origin may read it, no other.
  for (const origin of ['http://localhost:5173', 'http://127.0.0.1:4173']) {
    const fromPage = await account({ url }, 'u_1001', { headers: { Origin: origin } });
    assert.equal(fromPage.headers.get('access-control-allow-origin'), origin);
  }
  const stranger = await account({ url }, 'u_1001', { headers: { Origin: 'http://localhost:5174' } });
  assert.equal(stranger.headers.get('access-control-allow-origin'), null);
  assert.equal(groupMembers(serve.pid).length, 2, 'serve and its service');
  assert.ok(await waitFor(() => serve.log.includes('loyalty_service: listening on'), 5_000, 10), serve.log);
  serve.kill('SIGTERM');
  assert.deepEqual(await serve.exitedWith, { code: 0, signal: null });
  await assertNoProcessLeft(serve);
});

for (const ending of ['serve is killed with SIGKILL', 'the process that started serve is killed with SIGKILL']) {
  test(`no service is left when ${ending}`, async () => {
    const serveArgs = [path.join(root, 'web/local/cli/cli.js'), 'serve'];
    // Its parent a shell that waits for it (as npx's `sh -c`); the shell is killed, serve is orphaned.
    const parentKilled = ending.startsWith('the process');
    const started = parentKilled
      ? inOwnGroup('sh', ['-c', '"$0" "$@" & wait', process.execPath, ...serveArgs])
      : inOwnGroup(process.execPath, serveArgs);
    await firstLine(started, 'serve');
    assert.equal(groupMembers(started.pid).length, parentKilled ? 3 : 2);
    started.kill('SIGKILL');
    assert.equal((await started.exitedWith).signal, 'SIGKILL');
    await assertNoProcessLeft(started);
  });
}

test('ServiceBinaryError: its cause, and the TypeError of a bad typed option names the key', async () => {
  const override = process.env.LQ_SERVICE_BIN;
  process.env.LQ_SERVICE_BIN = path.join(root, 'package.json');
  try {
    assert.throws(serviceBinaryPath, (e) => {
      assert.ok(e instanceof ServiceBinaryError);
      assert.equal(e.code, 'LQ_NO_SERVICE_BINARY');
      assert.equal(e.cause, 'binary-missing');
      return true;
    });
  } finally {
    if (override === undefined) delete process.env.LQ_SERVICE_BIN;
    else process.env.LQ_SERVICE_BIN = override;
  }
  await assert.rejects(startLocalService({ now: 'tomorrow' }), {
    name: 'TypeError',
    message: 'startLocalService: now must be a Date or an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z',
  });
});

test('a db file outlives the service; a taken port is the service\'s own error', async () => {
  const db = path.join(scratch.dir, 'kept.db');
  const first = await startLocalService({ fixture, db });
  try {
    assert.equal((await account(first, 'u_1001')).status, 200);
    await assert.rejects(
      startLocalService({ db: path.join(scratch.dir, 'other.db'), port: Number(new URL(first.url).port) }),
      (e) => {
        assert.match(e.message, /^loyalty_service: cannot listen on 127\.0\.0\.1:\d+$/);
        assert.equal(e.exitCode, 1);
        return true;
      },
    );
  } finally {
    await first.stop();
  }
  const again = await startLocalService({ db }); // no fixture: the users are in the file
  try {
    assert.equal((await account(again, 'u_1001')).status, 200);
  } finally {
    await again.stop();
  }
});

test('bad options are a TypeError before anything starts', async () => {
  await assert.rejects(startLocalService({ port: -1 }), TypeError);
  await assert.rejects(startLocalService({ mode: 'staging' }), TypeError);
  await assert.rejects(startLocalService({ processingDelay: '1' }), TypeError);
  await assert.rejects(startLocalService({ fixture: 42 }), TypeError);
});

test('workers and accessLog reach the service (bench/ starts it so); a bad one is a TypeError naming it; serve has no flag for them', async () => {
  await assert.rejects(startLocalService({ workers: 0 }), { name: 'TypeError', message: /workers must be an integer from 1 to 1000/ });
  await assert.rejects(startLocalService({ accessLog: '' }), { name: 'TypeError', message: /accessLog must be a file path/ });
  let log = '';
  const service = await startLocalService({
    binary: serviceBinary(),
    fixture: fixturePath,
    workers: 3,
    accessLog: 'off',
    onStderr: (chunk) => {
      log += chunk;
    },
  });
  try {
    assert.ok(await waitFor(() => log.includes('loyalty_service: listening on'), 5_000, 10), log);
    assert.match(log, /, 3 workers,/);
    assert.equal((await account(service, 'u_1001')).status, 200);
  } finally {
    await service.stop();
  }
  assert.doesNotMatch(log, /"GET \/api\/account"/);
  for (const flag of ['--workers', '--access-log']) {
    const result = cli([flag, '2']);
    assert.equal(result.status, 2, `serve ${flag}: ${result.stderr}`);
  }
});

test('harness options: a given binary run through a wrapper with more arguments, its stderr as it comes; exited, running() and kill()', async () => {
  let log = '';
  const service = await startLocalService({
    binary: serviceBinary(),
    wrapper: ['env', 'LQ_WRAPPED=1'],
    args: ['--access-log', 'off'],
    onStderr: (chunk) => {
      log += chunk;
    },
  });
  assert.equal(service.running(), true);
  assert.ok(await waitFor(() => log.includes('loyalty_service: listening on'), 5_000, 10), log);
  assert.equal((await account(service, 'u_1001')).status, 401); // no fixture: no such user
  assert.equal(service.kill('SIGKILL'), true);
  assert.deepEqual(await service.exited, { code: null, signal: 'SIGKILL' });
  assert.equal(service.running(), false);
  assert.equal(service.kill(), false);
  assert.doesNotMatch(log, /"GET \/api\/account"/); // --access-log off reached the service
});

test('signal: aborted while the service hangs starting, the start rejects with its reason and the service is ended; after a start, it stops the service', async () => {
  await assert.rejects(startLocalService({ signal: 'stop' }), TypeError);
  // A fixture FIFO nobody writes: the service blocks seeding a new database, before it listens
  // (and until then it takes no SIGTERM: the SIGKILL after the grace period ends it).
  const fifo = path.join(scratch.dir, 'hanging.json');
  spawnSync('mkfifo', [fifo]);
  const controller = new AbortController();
  let log = '';
  const starting = startLocalService({
    binary: serviceBinary(),
    db: path.join(scratch.dir, 'hanging.db'),
    fixture: fifo,
    signal: controller.signal,
    onStderr: (chunk) => {
      log += chunk;
    },
  });
  assert.ok(await waitFor(() => log.includes('loyalty_service: created'), 10_000, 10), log);
  controller.abort(new Error('cancelled by the test'));
  await assert.rejects(starting, /^Error: cancelled by the test$/);
  // No reader left on the FIFO: the service is gone.
  assert.throws(() => openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK), { code: 'ENXIO' });

  const stopper = new AbortController();
  const service = await startLocalService({ binary: serviceBinary(), signal: stopper.signal });
  stopper.abort();
  assert.deepEqual(await service.exited, { code: 0, signal: null });
  await assert.rejects(startLocalService({ binary: serviceBinary(), signal: stopper.signal }), { name: 'AbortError' });
});

test("docs/service.md's Vitest set-up (globalSetup, inject) runs as written", { timeout: 120_000 }, () => {
  const markdown = readFileSync(path.join(root, 'docs/service.md'), 'utf8');
  const heading = markdown.slice(0, markdown.indexOf('Vitest, one service for the whole run')).split('\n').length;
  const block = fencedBlocks(markdown).find((b) => b.info === 'js' && b.line > heading);
  // One block, three files, each after a comment naming it.
  const parts = block.code.split(/^\/\/ (\S+\.js)\n/m);
  assert.deepEqual(parts.filter((_, i) => i % 2 === 1), ['vitest.config.js', 'test/local-service.js', 'test/checkout.test.js']);
  const project = path.join(scratch.dir, 'vitest-project');
  mkdirSync(path.join(project, 'test'), { recursive: true });
  mkdirSync(path.join(project, 'node_modules'));
  for (let i = 1; i < parts.length; i += 2) writeFileSync(path.join(project, parts[i]), parts[i + 1]);
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  symlinkSync(root, path.join(project, 'node_modules/loyalty-qualifier'));
  symlinkSync(path.join(root, 'node_modules/vitest'), path.join(project, 'node_modules/vitest'));
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 100_000,
    env: { ...process.env, LQ_SERVICE_BIN: serviceBinary(), CI: '1' },
  });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /1 passed/);
});
