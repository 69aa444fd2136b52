// `loyalty-qualifier sandbox ...` (web/local/cli/sandbox_cli.js) against the real local service: JSON on
// stdout, {code, message} on stderr, the exit codes, and the progress line while waiting.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { runSandboxCli, progressRenderer } from '../../../web/local/cli/sandbox_cli.js';
import { SEED_WAITS, scaledTimers } from './scaled_timers.js';
import {
  FIXED_NOW,
  clientIdOf,
  credentialsOf,
  scratchDir,
  serviceBinary,
  startService,
} from '../../service/harness.js';

const scratch = scratchDir('lq-cli-');
let service;
let env;

before(async () => {
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'cli.db'), now: true, delay: 1 });
  env = {
    LOYALTY_SANDBOX_API_URL: service.url,
    LOYALTY_ACCESS_TOKEN: credentialsOf('u_1002').token,
    LOYALTY_CLIENT_ID: clientIdOf('u_1002'),
  };
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

function sink(isTTY = false) {
  const stream = { text: '', isTTY, write: (chunk) => { stream.text += chunk; return true; } };
  return stream;
}

// The fake clock's start.
const START = Date.parse(FIXED_NOW);

async function cli(args, extra = {}) {
  const stdout = sink();
  const stderr = sink(extra.tty ?? false);
  const code = await runSandboxCli(args, { stdout, stderr, env, ...extra });
  let json;
  try {
    json = JSON.parse(stdout.text);
  } catch {
    json = undefined;
  }
  return { code, stdout: stdout.text, stderr: stderr.text, json };
}

describe('commands', () => {
  test('grant prints the reward; rewards --state repeats states[]', async () => {
    const granted = await cli(['grant', '--campaign', 'cmp_Hb7dQ2', '--user', 'u_1002']);
    assert.equal(granted.code, 0, granted.stderr);
    assert.equal(granted.json.campaign_id, 'cmp_Hb7dQ2');
    assert.equal(granted.json.user_id, 'u_1002');

    const listed = await cli(['rewards', '--state', 'redeemable', '--state', 'redeemed']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(listed.json.some((r) => r.id === granted.json.id));
    const byCampaign = await cli(['rewards', '--campaign=cmp_Hb7dQ2']);
    assert.deepEqual(byCampaign.json.map((r) => r.id), [granted.json.id]);
  });

  test('purchase --wait: accepted, then waits with a progress line until it lands', { timeout: 30_000 }, async () => {
    const timers = scaledTimers(150, START);
    const res = await cli(['purchase', '--merchant', 'm_harbor_coffee', '--user', 'u_1002', '--amount', '6.40',
      '--location', 'harbor-airport', '--purchased-at', '2026-11-24T07:00:00-06:00', '--wait'], { timers });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json.amount, '6.40');
    assert.equal(res.json.location_id, 'loc_airport');
    assert.equal(res.json.points, 64);
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines[0], 'waiting 1:00 before poll 1 (0:00 of 45:00 elapsed)');
    assert.match(lines[1], /^poll 1: asking GET \/purchases/);
    assert.match(lines.at(-1), /^poll \d+: landed after \d+:\d\d$/);
    // The seed's schedule on the fake clock, as far as it went: poll 1 may find it already when
    // this machine is slow enough to let the second of delay pass first.
    assert.ok(timers.state.waits.length >= 1);
    assert.deepEqual(timers.state.waits, SEED_WAITS.slice(0, timers.state.waits.length));

    const listed = await cli(['purchases', '--location', 'loc_airport', '--source', 'sandbox']);
    assert.deepEqual(listed.json.map((p) => p.amount), ['6.40']);
  });

  test('purchase without --wait prints what was accepted, with purchased_at filled in', async () => {
    const res = await cli(['purchase', '--merchant', 'm_harbor_coffee', '--user', 'u_1002', '--amount', '1'], { now: () => Date.parse('2026-11-24T12:00:00Z') });
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(res.json, {
      accepted: true,
      purchase: { merchant_id: 'm_harbor_coffee', location_id: null, user_id: 'u_1002', amount: '1', purchased_at: '2026-11-24T12:00:00.000Z' },
    });
  });

  test('wait gives up after the schedule with exit 3', { timeout: 30_000 }, async () => {
    const timers = scaledTimers(1, START);
    const res = await cli(['wait', '--user', 'u_1002', '--amount', '999.99'], { timers });
    assert.equal(res.code, 3, res.stderr);
    assert.equal(res.stdout, '');
    assert.deepEqual(timers.state.waits, SEED_WAITS);
    assert.match(res.stderr, /no matching purchase after 45:00 \(11 polls\)/);
  });
});

describe('errors', () => {
  test('a service error is exit 1 with its body on stderr', async () => {
    const res = await cli(['grant', '--campaign', '41001', '--user', 'u_1002']);
    assert.equal(res.code, 1);
    const body = JSON.parse(res.stderr);
    assert.equal(body.code, 404);
    assert.match(body.message, /numeric program id/);
  });

  test('a bad command line is exit 2 with the usage, as plain text', async () => {
    for (const [args, message] of [
      [['launch'], /unknown sandbox command "launch"/],
      [['grant', '--user', 'u_1002'], /sandbox grant needs --campaign/],
      [['grant', '--campaign', 'c', '--user', 'u', '--color', 'red'], /unknown option "--color" for sandbox grant/],
      [['rewards', '--state'], /option --state needs a value/],
      [['purchase', '--merchant', 'm', '--user', 'u', '--amount', '1', '--wait=yes'], /option --wait takes no value/],
      [['wait', '--user', 'u', '--first-poll', '0'], /--first-poll must be a positive number of seconds/],
    ]) {
      const res = await cli(args);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stdout, '');
      assert.match(res.stderr, /^loyalty-qualifier sandbox: /);
      assert.match(res.stderr, message);
      assert.match(res.stderr, /\n\nusage: loyalty-qualifier sandbox/);
    }
    const missing = await cli(['rewards'], { env: {} });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing --url \(or LOYALTY_SANDBOX_API_URL\)/);
  });

  test('wait: exit 4 when no poll reaches the service, exit 3 only when polls answered', { timeout: 30_000 }, async () => {
    const down = { ...env, LOYALTY_SANDBOX_API_URL: 'http://127.0.0.1:9' };
    const timers = scaledTimers(1, START);
    const unreachable = await cli(['wait', '--user', 'u_1002', '--amount', '999.99'], { timers, env: down });
    assert.equal(unreachable.code, 4, unreachable.stderr);
    assert.equal(unreachable.stdout, '');
    assert.match(unreachable.stderr, /the service could not be reached on any of the 11 polls in 45:00/);
    assert.doesNotMatch(unreachable.stderr, /no matching purchase/);
    assert.equal(JSON.parse(unreachable.stderr.trim().split('\n').at(-1)).code, 0);
    // The same wait against the running service: every poll answered, nothing landed.
    const notLanded = await cli(['wait', '--user', 'u_1002', '--amount', '999.99'], { timers: scaledTimers(1, START) });
    assert.equal(notLanded.code, 3, notLanded.stderr);
    assert.doesNotMatch(notLanded.stderr, /could not be reached/);
  });

  test('--help prints the usage', async () => {
    for (const args of [[], ['--help'], ['grant', '-h']]) {
      const res = await cli(args);
      assert.equal(res.code, 0);
      assert.match(res.stdout, /^usage: loyalty-qualifier sandbox <command>/);
    }
  });
});

test('on a terminal the progress is one live line with a countdown', () => {
  const stream = sink(true);
  let now = 0;
  let tick = null;
  const renderer = progressRenderer({
    stream,
    isTTY: true,
    now: () => now,
    timers: { setInterval: (fn) => { tick = fn; return 1; }, clearInterval: () => { tick = null; } },
  });
  renderer.onProgress({ type: 'waiting', attempt: 2, delayMs: 120_000, elapsedMs: 60_000, totalMs: 2_700_000 });
  now = 30_000;
  tick();
  renderer.onProgress({ type: 'polling', attempt: 2, elapsedMs: 180_000, totalMs: 2_700_000 });
  assert.equal(tick, null, 'the countdown stops while polling');
  renderer.onProgress({ type: 'found', attempt: 2, elapsedMs: 180_000, totalMs: 2_700_000 });
  renderer.finish();
  assert.deepEqual(stream.text.split('\r\x1b[K'), [
    '',
    'waiting for the purchase: poll 2 in 2:00 (1:00 of 45:00)',
    'waiting for the purchase: poll 2 in 1:30 (1:30 of 45:00)',
    'poll 2: asking GET /purchases ...',
    'poll 2: landed after 3:00\n',
  ]);
});
