// The CLI on the bundled examples, and its error bodies.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { examplePointsProducts, exampleRewards, readJson, root } from './support.js';

const cli = path.join(root, 'web/cli.js');
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
  const pastry = readJson('examples/snapshot.json').rewards.find(
    (r) => r.id === 'rw_downtown_pastry',
  );
  assert.deepEqual(body.rewards[0], {
    id: pastry.id,
    value: pastry.value,
    minimum: pastry.minimum,
    maximum: pastry.maximum,
    label: pastry.label,
    state: pastry.state,
    type: pastry.type,
    products: pastry.products,
    fine_print: pastry.fine_print,
    retire_at: pastry.retire_at,
    restriction_location_ids: pastry.restriction_location_ids,
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

test('a snapshot error is a 422 body', { timeout: 30_000 }, () => {
  const snapshot = scratchFile('v2.json', { schema_version: 2 });
  assertErrorBody(
    runCli(['qualify', '--snapshot', snapshot, '--request', 'examples/basket.json']),
    422,
    /schema_version/,
  );
  assertErrorBody(
    runCli([
      'qualify',
      '--snapshot',
      path.join(scratch, 'missing.json'),
      '--request',
      'examples/basket.json',
    ]),
    422,
    /cannot read snapshot file/,
  );
});

test('usage errors say so clearly', { timeout: 30_000 }, () => {
  assertErrorBody(
    runCli(['qualify', '--snapshot', 'examples/snapshot.json']),
    400,
    /missing --request[\s\S]*usage: loyalty-qualifier/,
    2,
  );
  assertErrorBody(runCli(['redeem', ...exampleArgs]), 400, /unknown command "redeem"/, 2);
  assertErrorBody(
    runCli(['qualify', ...exampleArgs, '--verbose']),
    400,
    /unknown option "--verbose"/,
    2,
  );
  assertErrorBody(
    runCli(['qualify', ...exampleArgs, '--now', 'tuesday']),
    400,
    /--now must be an RFC 3339 instant/,
    2,
  );
  assertErrorBody(runCli([]), 400, /missing command/, 2);
  const help = runCli(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: loyalty-qualifier/);
});
