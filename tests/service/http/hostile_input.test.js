// Hostile input against the real service: money and points out of the engine's range (400 naming
// the field, nothing stored), a poisoned stored account that must not stop the start, the
// database file deleted or replaced while running (503, never a lost write), the fixture seeding
// only a new database, the integrity check at start-up, and the access-log destinations.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  account,
  basket,
  consumer,
  runServiceSync,
  scratchDir,
  serviceBinary,
  startService,
  waitFor,
} from '../harness.js';

const scratch = scratchDir();
const hasSqlite = !spawnSync('sqlite3', ['-version']).error;
const MAX_POINTS = 999_999_999_999_999;

before(() => serviceBinary(), { timeout: 900_000 });
after(() => scratch.cleanup());

function assertError(res, status, pattern) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ['code', 'message'], res.text);
  assert.equal(res.body.code, status);
  if (pattern) assert.match(res.body.message, pattern);
}

const beans = async (service, user) =>
  (await account(service, user)).body.points.find((p) => p.points_experience_id === 'beans')?.balance ?? 0;

test('a billed basket or a purchase whose points leave the engine range is 400 naming the field', { timeout: 120_000 }, async () => {
  const production = await startService({ db: path.join(scratch.dir, 'bounds-prod.db'), now: true, mode: 'production' });
  const sandbox = await startService({ db: path.join(scratch.dir, 'bounds-sandbox.db'), now: true, delay: 3600 });
  try {
    const big = await basket(production, 'u_1003', {
      id: 'big-1', state: 'billed', subtotal: '100000000000000.00', items: [{ id: 'latte', price: '100000000000000.00' }],
    });
    assertError(big, 400, /^subtotal is out of range/);
    // Nothing was stored: the same id is still new, and the account still loads.
    const small = await basket(production, 'u_1003', { id: 'big-1', state: 'billed', subtotal: '1.00', items: [{ id: 'latte', price: '1.00' }] });
    assert.equal(small.status, 201, small.text);
    assert.equal((await account(production, 'u_1003')).status, 200);

    const purchase = (fields) => consumer(sandbox, 'POST', '/purchases', {
      as: 'u_1001',
      body: { purchase: { merchant_id: 'm_harbor_coffee', user_id: 'u_1001', ...fields } },
    });
    assertError(await purchase({ amount: '999999999999999.99' }), 400, /^purchase\.amount is out of range/);
    // Up to the limit with what is pending: the balance (450) plus pending credits may reach it,
    // never pass it, however the credits are split.
    const balance = await beans(sandbox, 'u_1001');
    const room = MAX_POINTS - balance;
    const amount = `${Math.floor(room / 10 / 2)}.00`;  // 10 beans a dollar, two purchases of half
    assert.equal((await purchase({ amount })).status, 202);
    assert.equal((await purchase({ amount })).status, 202);
    assertError(await purchase({ amount: '1.00' }), 400, /^purchase\.amount is out of range: .*would take the balance beyond 999999999999999/);
    assert.equal((await account(sandbox, 'u_1001')).status, 200);
  } finally {
    await production.stop();
    await sandbox.stop();
  }
});

test('a stored account the engine cannot load never blocks the start: only that user gets an error', { timeout: 120_000 }, async (t) => {
  if (!hasSqlite) return t.skip('the sqlite3 command line tool is not installed');
  const db = path.join(scratch.dir, 'poisoned.db');
  const first = await startService({ db, now: true });
  assert.equal((await first.stop()).code, 0);
  // What a service before the bounds could store: 10^15 points.
  const poison = spawnSync('sqlite3', [db, "UPDATE points_balances SET balance = 1000000000000000 WHERE user_id = 'u_1001'"], { encoding: 'utf8' });
  assert.equal(poison.status, 0, poison.stderr);

  const second = await startService({ db, now: true });
  try {
    assert.match(second.stderr, /warning: the stored account of u_1001 cannot be loaded by the engine: points\[0\]\.balance/);
    assertError(await account(second, 'u_1001'), 500, /stored account of u_1001 cannot be loaded by the engine: points\[0\]\.balance/);
    assert.equal((await account(second, 'u_1002')).status, 200);
    const other = await basket(second, 'u_1002', { id: 'fine-1', subtotal: '5.00', items: [{ id: 'latte', price: '5.00' }] });
    assert.equal(other.status, 201, other.text);
  } finally {
    await second.stop();
  }
});

test('the database file deleted or replaced while running: writes are 503 and logged, never lost', { timeout: 120_000 }, async () => {
  for (const how of ['deleted', 'replaced']) {
    const db = path.join(scratch.dir, `gone-${how}.db`);
    const service = await startService({ db, now: true });
    try {
      const before = await basket(service, 'u_1003', { id: `${how}-1`, subtotal: '5.00', items: [{ id: 'latte', price: '5.00' }] });
      assert.equal(before.status, 201, before.text);
      for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      if (how === 'replaced') writeFileSync(db, '');
      const refused = await basket(service, 'u_1003', { id: `${how}-2`, subtotal: '5.00', items: [{ id: 'latte', price: '5.00' }] });
      assertError(refused, 503, /deleted or replaced while the service ran: nothing was written/);
      assert.ok(await waitFor(() => /database file .* was deleted or replaced/.test(service.stderr), 5_000), service.stderr);
      // Reads still answer from the open file.
      assert.equal((await account(service, 'u_1003')).status, 200);
    } finally {
      await service.stop();
    }
  }
});

test('--fixture seeds only a new database, and says which it did', { timeout: 120_000 }, async () => {
  const db = path.join(scratch.dir, 'seed-once.db');
  const first = await startService({ db, now: true });
  assert.match(first.stderr, /new database .*seed-once\.db seeded from fixture .*demo\.json: \d+ records added/);
  const billed = await basket(first, 'u_1001', { id: 'once-1', state: 'billed', subtotal: '5.00', items: [{ id: 'latte', price: '5.00' }], points_products: [] });
  assert.equal(billed.status, 201, billed.text);
  assert.equal((await first.stop()).code, 0);

  const second = await startService({ db, now: true });
  try {
    assert.match(second.stderr, /fixture .*demo\.json not applied: .*seed-once\.db already exists/);
    assert.doesNotMatch(second.stderr, /seeded/);
    const again = await basket(second, 'u_1001', { id: 'once-1', state: 'billed', subtotal: '5.00', items: [{ id: 'latte', price: '5.00' }] });
    assert.equal(again.status, 200, again.text);
  } finally {
    await second.stop();
  }
});

test('a corrupted database file stops the start with the integrity check message', { timeout: 60_000 }, async () => {
  const db = path.join(scratch.dir, 'corrupt.db');
  const service = await startService({ db, now: true });
  assert.equal((await service.stop()).code, 0);
  // Overwrite the pages after the first (the schema page stays readable) with garbage.
  const size = readFileSync(db).length;
  const fd = openSync(db, 'r+');
  const garbage = Buffer.alloc(Math.max(0, size - 4096), 0x5a);
  writeSync(fd, garbage, 0, garbage.length, 4096);
  closeSync(fd);
  const result = runServiceSync(['--port', '0', '--db', db]);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /(fails its integrity check \(PRAGMA quick_check\)|malformed|not a database)/);
  assert.equal(result.stdout, '');
});

test('--access-log sends the lines to a file, or nowhere', { timeout: 180_000 }, async () => {
  const file = path.join(scratch.dir, 'access.log');
  const logged = await startService({ db: path.join(scratch.dir, 'log-file.db'), now: true, args: ['--access-log', file] });
  try {
    assert.equal((await account(logged, 'u_1001')).status, 200);
    // The line is written after the answer is sent: wait for it, not for the file alone (an
    // empty list is truthy, so the wait used to end at the first look at an existing file).
    const logLines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => /"GET \/api\/account" 200 /.test(l)) : []);
    const lines = (await waitFor(() => logLines().length > 0, 5_000)) ? logLines() : [];
    assert.equal(lines.length, 1);
    assert.equal(logged.accessLogLines().length, 0);  // not on stderr
  } finally {
    await logged.stop();
  }
  // At 10 MiB the file is rotated: the old lines move to FILE.1, a new FILE starts.
  const full = path.join(scratch.dir, 'full.log');
  writeFileSync(full, Buffer.alloc((10 << 20) - 10, 'x'));  // the next line does not fit
  const rotating = await startService({ db: path.join(scratch.dir, 'log-rotate.db'), now: true, args: ['--access-log', full] });
  try {
    for (let i = 0; i < 3; ++i) assert.equal((await account(rotating, 'u_1001')).status, 200);
    const fresh = await waitFor(() => existsSync(`${full}.1`) && readFileSync(full, 'utf8').split('\n').filter(Boolean).length === 3, 5_000);
    assert.ok(fresh, 'the access log was not rotated');
    assert.ok(readFileSync(`${full}.1`).length <= 10 << 20);
    assert.match(readFileSync(full, 'utf8'), /"GET \/api\/account" 200 /);
  } finally {
    await rotating.stop();
  }
  const quiet = await startService({ db: path.join(scratch.dir, 'log-off.db'), now: true, args: ['--access-log', 'off'] });
  try {
    assert.equal((await account(quiet, 'u_1001')).status, 200);
    assert.equal(quiet.accessLogLines().length, 0);
  } finally {
    await quiet.stop();
  }
  const refused = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, 'x.db'), '--access-log', path.join(scratch.dir, 'no/such/dir/a.log')]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /cannot open the access log/);
});
