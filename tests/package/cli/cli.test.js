// The CLI on the bundled examples, its error bodies and every exit code (README "CLI"): 0 done,
// 1 refused, 2 bad command line or unreadable file, 3 and 4 (sandbox wait) here for 4 and in
// tests/package/http/sandbox_cli.test.js against the real service.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { examplePointsProducts, exampleRewards, readJson, root } from '../../support/support.js';

const cli = path.join(root, 'web/local/cli/cli.js');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function runCli(args, input) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    encoding: 'utf8',
    input: input ?? '',
    timeout: 30_000,
  });
  assert.equal(result.error, undefined);
  return result;
}

function scratchFile(name, value) {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

const exampleArgs = ['--snapshot', 'examples/snapshot.json', '--request', 'examples/basket.json'];

test('qualify prints the API spec body for the examples', { timeout: 30_000 }, () => {
  const result = runCli(['qualify', ...exampleArgs]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  const body = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(body), ['rewards', 'points_products']);
  assert.deepEqual(
    body.rewards.map((e) => e.id),
    exampleRewards,
  );
  assert.deepEqual(
    body.points_products.map((e) => e.id),
    examplePointsProducts,
  );
  const first = readJson('examples/snapshot.json').rewards.find(
    (r) => r.id === exampleRewards[0],
  );
  assert.deepEqual(body.rewards[0], {
    id: first.id,
    value: first.value,
    minimum: first.minimum,
    maximum: first.maximum,
    label: first.label,
    state: first.state,
    type: first.type,
    products: first.products,
    fine_print: first.fine_print,
    retire_at: first.retire_at,
    restriction_location_ids: first.restriction_location_ids,
  });
});

test('explain prints every offer with reasons and the best one', { timeout: 30_000 }, () => {
  const result = runCli(['explain', ...exampleArgs]);
  assert.equal(result.status, 0, result.stderr);
  const body = JSON.parse(result.stdout);
  const snapshot = readJson('examples/snapshot.json');
  assert.equal(body.entries.length, snapshot.rewards.length + snapshot.points_products.length);
  assert.equal(body.best, 'rw_free_latte');
  const byId = Object.fromEntries(body.entries.map((entry) => [entry.id, entry]));
  assert.deepEqual(
    body.entries
      .filter((entry) => entry.qualifies)
      .map((entry) => entry.id)
      .sort(),
    [...exampleRewards, ...examplePointsProducts].sort(),
  );
  assert.equal(byId.rw_free_latte.discount, '5.25'); // the unit price; modifiers are not the item
  assert.equal(byId.rw_breakfast_20.discount, '1.30');
  assert.deepEqual(
    byId.rw_birthday.reasons.map((r) => r.code),
    ['NOT_REDEEMABLE'],
  );
  assert.deepEqual(
    byId.rw_summer.reasons.map((r) => r.code),
    ['EXPIRED'],
  );
  assert.ok(byId.rw_delivery_3.reasons.some((r) => r.code === 'VENUE_MISMATCH'));
  assert.ok(byId.pp_tote.reasons.some((r) => r.code === 'INSUFFICIENT_POINTS'));
  for (const entry of body.entries)
    assert.equal(entry.qualifies, entry.reasons.length === 0, entry.id);
});

test('--now is the clock of a request without order_timestamp', { timeout: 30_000 }, () => {
  const { order_timestamp: _, ...untimed } = readJson('examples/basket.json');
  const request = scratchFile('untimed.json', untimed);
  const monday = runCli([
    'qualify',
    '--snapshot',
    'examples/snapshot.json',
    '--request',
    request,
    '--now',
    '2026-11-23T14:00:00Z',
  ]);
  assert.equal(monday.status, 0, monday.stderr);
  assert.deepEqual(
    JSON.parse(monday.stdout).rewards.map((e) => e.id),
    exampleRewards,
  );
  const saturday = runCli([
    'qualify',
    '--snapshot=examples/snapshot.json',
    `--request=${request}`,
    '--now=2026-11-28T14:00:00-05:00',
  ]);
  assert.equal(saturday.status, 0, saturday.stderr);
  assert.ok(!JSON.parse(saturday.stdout).rewards.some((e) => e.id === 'rw_breakfast_20'));
});

test('the request can come from standard input', { timeout: 30_000 }, () => {
  const result = runCli(
    ['qualify', '--snapshot', 'examples/snapshot.json', '--request', '-'],
    JSON.stringify(readJson('examples/basket.json')),
  );
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(
    JSON.parse(result.stdout).rewards.map((e) => e.id),
    exampleRewards,
  );
});

function assertErrorBody(result, code, fragment, status = 1) {
  assert.equal(result.status, status, `exit status; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const body = JSON.parse(result.stderr);
  assert.deepEqual(Object.keys(body), ['code', 'message']);
  assert.equal(body.code, code);
  assert.match(body.message, fragment);
}

test(
  'a request error prints the error body on stderr and exits non-zero',
  { timeout: 30_000 },
  () => {
    const request = scratchFile('bad_venue.json', { subtotal: 8, redemption_venue: 'drive-thru' });
    const result = runCli([
      'qualify',
      '--snapshot',
      'examples/snapshot.json',
      '--request',
      request,
    ]);
    assertErrorBody(result, 400, /redemption_venue must be one of: instore, online/);
    const explain = runCli([
      'explain',
      '--snapshot',
      'examples/snapshot.json',
      '--request',
      scratchFile('bad.json', '{"items": 3}'),
    ]);
    assertErrorBody(explain, 400, /items/);
  },
);

test('a file is read as bytes: the engine names a syntax error, or bytes that are not UTF-8, with the offset', { timeout: 30_000 }, () => {
  const syntax = scratchFile('broken_items.json', '{"items":[}');
  assertErrorBody(
    runCli(['qualify', '--snapshot', 'examples/snapshot.json', '--request', syntax]),
    400,
    /^request body is not valid JSON: unexpected '\}' at offset 10$/,
  );
  // Decoded as text, 0xff would become U+FFFD and the body would pass; the service refuses it.
  const notUtf8 = path.join(scratch, 'not_utf8.json');
  writeFileSync(notUtf8, Buffer.from('{"handoff":"caf\xff"}', 'latin1'));
  assertErrorBody(
    runCli(['qualify', '--snapshot', 'examples/snapshot.json', '--request', notUtf8]),
    400,
    /^request body is not valid JSON: invalid UTF-8 in string at offset 15$/,
  );
  const snapshot = path.join(scratch, 'snapshot_not_utf8.json');
  writeFileSync(snapshot, Buffer.concat([Buffer.from('{"schema_version":1,"x":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]));
  assertErrorBody(
    runCli(['qualify', '--snapshot', snapshot, '--request', 'examples/basket.json']),
    422,
    /^snapshot is not valid JSON: invalid UTF-8 in string at offset 25$/,
  );
});

test('a snapshot error is a 422 body', { timeout: 30_000 }, () => {
  const snapshot = scratchFile('v2.json', { schema_version: 2 });
  assertErrorBody(
    runCli(['qualify', '--snapshot', snapshot, '--request', 'examples/basket.json']),
    422,
    /schema_version/,
  );
});

/** A usage error: exit 2, plain text on stderr (no JSON), the usage only when `withUsage`. */
function assertUsageError(result, fragment, withUsage = true) {
  assert.equal(result.status, 2, `exit status; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^loyalty-qualifier( \w+)?: /);
  assert.match(result.stderr, fragment);
  assert.equal(/\nusage: loyalty-qualifier/.test(result.stderr), withUsage, result.stderr);
  assert.throws(() => JSON.parse(result.stderr));
}

test('usage errors are plain text on stderr with exit 2', { timeout: 60_000 }, () => {
  assertUsageError(runCli(['qualify', '--snapshot', 'examples/snapshot.json']), /missing --request/);
  assertUsageError(runCli(['redeem', ...exampleArgs]), /unknown command "redeem"/);
  assertUsageError(runCli(['qualify', ...exampleArgs, '--verbose']), /unknown option "--verbose"/);
  assertUsageError(runCli(['qualify', ...exampleArgs, '-x']), /unknown option "-x"/);
  assertUsageError(runCli(['qualify', ...exampleArgs, 'extra']), /unexpected argument "extra"/);
  assertUsageError(runCli(['qualify', '-s', '-r', 'examples/basket.json']), /option --snapshot needs a value/);
  assertUsageError(runCli(['qualify', ...exampleArgs, '--now']), /option --now needs a value/);
  assertUsageError(runCli(['qualify', ...exampleArgs, '-s', 'x.json']), /option --snapshot is given twice/);
  assertUsageError(
    runCli(['qualify', ...exampleArgs, '--now', 'tuesday']),
    /--now must be an RFC 3339 instant/,
  );
  assertUsageError(runCli(['qualify', '-s', '-', '-r', '-']), /only one of --snapshot and --request/);
  assertUsageError(runCli([]), /missing command/);
  assertUsageError(runCli(['--snapshot', 'examples/snapshot.json', 'qualify']), /missing command before "--snapshot"/);
  assertUsageError(runCli(['sandbox', 'launch']), /^loyalty-qualifier sandbox: unknown sandbox command "launch"/);
});

test('a missing or unreadable file is exit 2 naming the path', { timeout: 30_000 }, () => {
  const missing = path.join(scratch, 'missing.json');
  assertUsageError(
    runCli(['qualify', '--snapshot', missing, '--request', 'examples/basket.json']),
    new RegExp(`cannot read the snapshot file "${missing.replaceAll('.', '\\.')}": no such file`),
    false,
  );
  const folder = path.join(scratch, 'a-folder.json');
  mkdirSync(folder, { recursive: true });
  assertUsageError(
    runCli(['explain', '-s', 'examples/snapshot.json', '-r', folder]),
    /cannot read the request file ".*a-folder\.json": EISDIR/,
    false,
  );
});

test('short flags -s -r -n equal the long ones', { timeout: 30_000 }, () => {
  const { order_timestamp: _, ...untimed } = readJson('examples/basket.json');
  const request = scratchFile('untimed-short.json', untimed);
  const long = runCli(['explain', '--snapshot', 'examples/snapshot.json', '--request', request, '--now', '2026-11-28T14:00:00Z']);
  const short = runCli(['explain', '-s', 'examples/snapshot.json', '-r', request, '-n', '2026-11-28T14:00:00Z']);
  assert.equal(short.status, 0, short.stderr);
  assert.equal(short.stdout, long.stdout);
  const joined = runCli(['explain', '-sexamples/snapshot.json', `-r${request}`, '-n2026-11-28T14:00:00Z']);
  assert.equal(joined.stdout, long.stdout);
});

test('--version and --help exit 0', { timeout: 30_000 }, () => {
  const version = runCli(['--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `${JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
  const help = runCli(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: loyalty-qualifier <command>/);
  for (const name of ['qualify', 'explain', 'sandbox']) assert.match(help.stdout, new RegExp(`\n  ${name} `));
  const qualifyHelp = runCli(['qualify', '-h']);
  assert.equal(qualifyHelp.status, 0);
  assert.match(qualifyHelp.stdout, /^usage: loyalty-qualifier qualify\|explain -s FILE -r FILE/);
  const sandboxHelp = runCli(['sandbox', '--help']);
  assert.equal(sandboxHelp.status, 0);
  assert.match(sandboxHelp.stdout, /^usage: loyalty-qualifier sandbox <command>/);
});

test('sandbox: a service that cannot be reached on any poll is exit 4, not "not landed" (3)', { timeout: 60_000 }, async () => {
  // A port that was just free: every connection is refused.
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${probe.address().port}`;
  await new Promise((resolve) => probe.close(resolve));
  const connection = ['--url', url, '--token', 'at_x', '--client-id', 'cl_x'];
  const wait = runCli(['sandbox', 'wait', '--user', 'u_1', ...connection,
    '--first-poll', '0.01', '--max-interval', '0.02', '--give-up-after', '0.1']);
  assert.equal(wait.status, 4, wait.stderr);
  assert.equal(wait.stdout, '');
  assert.match(wait.stderr, /the service could not be reached on any of the \d+ polls/);
  const body = JSON.parse(wait.stderr.trim().split('\n').at(-1));
  assert.equal(body.code, 0);
  assert.match(body.message, /cannot reach the service/);
  const grant = runCli(['sandbox', 'grant', '--campaign', 'c', '--user', 'u_1', ...connection]);
  assert.equal(grant.status, 4, grant.stderr);
  assert.equal(JSON.parse(grant.stderr).code, 0);
});
