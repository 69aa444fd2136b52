// The installed CLI (`npx loyalty-qualifier`, from the tarballs of `npm run pack`) against the
// exit-code table of the README, each code with its stderr: 0 done; 1 refused, the {"code",
// "message"} body; 2 a bad command line or an unreadable input file, plain text naming it (with
// the command's own usage for a command line); 3 sandbox wait: not landed; 4 sandbox: the service
// could not be reached; 5 sandbox doctor: some rewards would silently fail. `serve` follows the
// same table.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { consumerProject, firstLine, withTimeout } from './consumer_project.js';

let project;
let service; // a sandbox-mode local service of the consumer, for sandbox's 0 and 3

before(async () => {
  project = consumerProject('lq-consumer-cli-', {
    files: {
      'start-sandbox.mjs': `import { startLocalService } from 'loyalty-qualifier/service';
const service = await startLocalService({ fixture: 'node_modules/loyalty-qualifier/fixtures/demo.json', mode: 'sandbox' });
console.log(service.url);
// Runs until told to stop: the service does not keep this process alive by itself.
const alive = setInterval(() => {}, 60_000);
process.on('SIGTERM', () => service.stop().then(() => clearInterval(alive)));
`,
      'bad-fixture.json': JSON.stringify({ users: 'nobody' }),
      'not-json.json': '{"items":[}',
    },
  });
  service = spawn(process.execPath, ['start-sandbox.mjs'], { cwd: project.dir, env: project.env, stdio: ['ignore', 'pipe', 'pipe'] });
  service.url = await firstLine(service, 'the sandbox service');
});

after(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await withTimeout(exited, 15_000, 'the sandbox service did not stop');
  }
  project?.cleanup();
});

/** `npx loyalty-qualifier ...args` in the consumer project. */
function cli(args, { env = {}, input } = {}) {
  const result = spawnSync('npx', ['loyalty-qualifier', ...args], {
    cwd: project.dir,
    env: { ...project.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
    input,
  });
  assert.equal(result.error, undefined);
  return result;
}

const EXAMPLE = ['-s', 'node_modules/loyalty-qualifier/examples/snapshot.json', '-r', 'node_modules/loyalty-qualifier/examples/basket.json'];
const SANDBOX_USER = ['--token', 'at_u1001_7Qx2LmN9pR4s', '--client-id', 'cl_harbor_pos'];
const FAST_POLLS = ['--first-poll', '0.01', '--max-interval', '0.02', '--give-up-after', '0.1'];

/** Exit 2: plain text "loyalty-qualifier <command>: <problem>", then that command's usage (or none, for a file). */
function assertUsageError(result, command, problem, { usage = true } = {}) {
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.ok(result.stderr.startsWith(`loyalty-qualifier ${command}: `), result.stderr);
  assert.match(result.stderr, problem);
  assert.doesNotMatch(result.stderr, /^\{/m, 'plain text, not a JSON body');
  assert.doesNotMatch(result.stderr, /loyalty_service/, 'never the native binary\'s own usage');
  if (usage) assert.match(result.stderr, new RegExp(`\n\nusage: loyalty-qualifier ${command}`));
  else assert.doesNotMatch(result.stderr, /usage:/);
}

test('exit 0: an answer on stdout, nothing on stderr; --help and --version', () => {
  const answer = cli(['qualify', ...EXAMPLE]);
  assert.equal(answer.status, 0, answer.stderr);
  assert.equal(answer.stderr, '');
  assert.ok(JSON.parse(answer.stdout).rewards.length > 0);
  for (const args of [['--help'], ['qualify', '--help'], ['sandbox', '--help'], ['serve', '--help'], ['--version']]) {
    const result = cli(args);
    assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    assert.notEqual(result.stdout, '');
  }
  assert.match(cli(['serve', '--help']).stdout, /^usage: loyalty-qualifier serve /);
});

test('exit 1: the engine refused, its body on stderr', () => {
  const request = cli(['qualify', '-s', EXAMPLE[1], '-r', 'not-json.json']);
  assert.equal(request.status, 1, request.stderr);
  assert.equal(request.stdout, '');
  assert.equal(JSON.parse(request.stderr).code, 400);
  const snapshot = cli(['qualify', '-s', 'not-json.json', '-r', EXAMPLE[3]]);
  assert.equal(snapshot.status, 1, snapshot.stderr);
  assert.equal(JSON.parse(snapshot.stderr).code, 422);
});

test('exit 2: a bad command line, or an input file that is missing', () => {
  assertUsageError(cli(['qualify', '-s', EXAMPLE[1], '--colour', 'blue']), 'qualify', /unknown option "--colour"/);
  assertUsageError(cli(['qualify', '-s', 'no-such.json', '-r', EXAMPLE[3]]), 'qualify', /"no-such\.json": no such file/, { usage: false });
  const unknown = cli(['launch']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^loyalty-qualifier: unknown command "launch"/);
});

test('sandbox: exit 0 and 3 against a sandbox service, 4 when it cannot be reached', async () => {
  const connection = ['--url', service.url, ...SANDBOX_USER];
  const rewards = cli(['sandbox', 'rewards', ...connection]);
  assert.equal(rewards.status, 0, rewards.stderr);
  const notLanded = cli(['sandbox', 'wait', '--user', 'u_1001', '--amount', '999.99', ...connection, ...FAST_POLLS]);
  assert.equal(notLanded.status, 3, notLanded.stderr);
  assert.match(notLanded.stderr, /no matching purchase/);
  // A port that was just free: every connection is refused.
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closed = `http://127.0.0.1:${probe.address().port}`;
  await new Promise((resolve) => probe.close(resolve));
  const unreachable = cli(['sandbox', 'rewards', '--url', closed, ...SANDBOX_USER]);
  assert.equal(unreachable.status, 4, unreachable.stderr);
  assert.equal(JSON.parse(unreachable.stderr.trim().split('\n').at(-1)).code, 0);
});

test('sandbox doctor: exit 0 for a user without a high-risk card, 5 once a standard test card is registered', () => {
  const connection = ['--url', service.url, ...SANDBOX_USER];
  const clean = cli(['sandbox', 'doctor', ...connection]);
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /no reward would silently fail/);
  const registered = cli(['sandbox', 'register-card', '--number', '4111111111111111', ...connection]);
  assert.equal(registered.status, 0, registered.stderr);
  const flagged = cli(['sandbox', 'doctor', ...connection]);
  assert.equal(flagged.status, 5, flagged.stdout + flagged.stderr);
  assert.equal(flagged.stderr, '');
  assert.match(flagged.stdout, /WOULD SILENTLY FAIL/);
  assert.match(flagged.stdout, /register-card --user u_1001 --number 411111\d{6}1111 --replace/);
});

test('serve exit 2: plain text and serve\'s own usage for every bad command line, never the binary\'s', () => {
  const cases = [
    [['--port', '0', '--colour', 'blue'], /serve: unknown option "--colour"/],
    [['--mode', 'prod'], /serve: --mode must be one of: sandbox, production/],
    [['--port', 'eighty'], /serve: --port must be an integer from 0 to 65535/],
    [['--port', '70000'], /serve: --port must be an integer from 0 to 65535/],
    [['--processing-delay', '-1'], /--processing-delay needs a value|--processing-delay must be a number of seconds/],
    [['--processing-delay', 'soon'], /serve: --processing-delay must be a number of seconds/],
    [['--now', 'tomorrow'], /serve: --now must be a Date or an RFC 3339 instant/],
    [['--db', ''], /serve: --db must be a file path or ":memory:"/],
    [['--port'], /serve: option --port needs a value/],
    [['--port', '0', '--port', '1'], /serve: option --port is given twice/],
    [['extra'], /serve: unexpected argument "extra"/],
  ];
  for (const [args, problem] of cases) assertUsageError(cli(['serve', ...args]), 'serve', problem);
  // A fixture file that is missing is an unreadable input file: exit 2, naming it, no usage.
  assertUsageError(cli(['serve', '--port', '0', '--fixture', 'no-such-fixture.json']), 'serve', /cannot read the fixture file "no-such-fixture\.json": no such file/, { usage: false });
});

test('serve exit 1: a fixture the service refuses is the body with code 422, naming the fixture', () => {
  const refused = cli(['serve', '--port', '0', '--fixture', 'bad-fixture.json']);
  assert.equal(refused.status, 1, refused.stderr);
  assert.equal(refused.stdout, '');
  const body = JSON.parse(refused.stderr);
  assert.equal(body.code, 422);
  assert.match(body.message, /^fixture bad-fixture\.json: /);
});

test('serve exit 1: a port that is taken is the body with code 503', () => {
  const taken = cli(['serve', '--port', new URL(service.url).port]);
  assert.equal(taken.status, 1, taken.stderr);
  assert.deepEqual(JSON.parse(taken.stderr), { code: 503, message: `cannot listen on 127.0.0.1:${new URL(service.url).port}` });
});
