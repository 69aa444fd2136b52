// Start-up: the command line, fixture validation, seeding only what is missing, the schema
// version, modes and ports.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { account, basket, fixture, runServiceSync, useServices } from './harness.js';

const { scratch, start, fixtureFile } = useServices();

test('--help prints the usage; a bad command line exits 2 with it', () => {
  const help = runServiceSync(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--port P --db FILE/);
  for (const [args, message] of [
    [['--db', 'x.db'], /--port is required/],
    [['--port', '0'], /--db is required/],
    [['--port', '70000', '--db', 'x.db'], /--port must be/],
    [['--port', '0', '--db', 'x.db', '--mode', 'staging'], /--mode must be one of: sandbox, production/],
    [['--port', '0', '--db', 'x.db', '--processing-delay', '-1'], /--processing-delay/],
    [['--port', '0', '--db', 'x.db', '--now', 'yesterday'], /--now must be an RFC 3339 instant/],
    [['--port', '0', '--db', 'x.db', '--colour', 'blue'], /unknown option: --colour/],
  ]) {
    const result = runServiceSync(args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /usage: loyalty_service/);
  }
});

test('an invalid fixture stops the start with the path of the problem', () => {
  const cases = [
    ['zone.json', (f) => { f.merchants[0].time_zone = 'Mars/Olympus_Mons'; }, /merchants\[0\]\.time_zone names no time zone/],
    ['user.json', (f) => { f.users[1].merchant_id = 'm_nobody'; }, /users\[1\]\.merchant_id names no merchant/],
    ['reward.json', (f) => { delete f.rewards[2].id; }, /rewards\[2\]\.id is required/],
    ['owner.json', (f) => { f.rewards[0].user_id = 'u_nobody'; }, /rewards\[0\]\.user_id names no user/],
    ['engine.json', (f) => { f.rewards[0].time_restrictions = [{ start: '25:00', end: '26:00' }]; }, /not a valid snapshot.*time_restrictions/],
    ['balance.json', (f) => { f.users[0].points[0].balance = -5; }, /users\[0\]\.points\[0\]\.balance/],
  ];
  for (const [name, mutate, message] of cases) {
    const result = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, `${name}.db`), '--fixture', fixtureFile(name, mutate)]);
    assert.equal(result.status, 1, `${name}: ${result.stderr}`);
    assert.match(result.stderr, message, name);
    assert.equal(result.stdout, '', name);
  }
  const missing = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, 'none.db'), '--fixture', path.join(scratch.dir, 'absent.json')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read fixture/);
});

test('the fixture seeds a new database only and never overwrites one', { timeout: 60_000 }, async () => {
  const db = path.join(scratch.dir, 'seed.db');
  const first = await start({ db });
  assert.match(first.stderr, /created .*seed\.db \(schema 4\)/);
  const total = fixture.merchants.reduce((n, m) => n + 1 + m.locations.length, 0) +
    fixture.clients.length +
    fixture.users.reduce((n, u) => n + 1 + u.points.length, 0) +
    fixture.rewards.length + fixture.points_products.length + fixture.campaigns.length;
  assert.match(first.stderr, new RegExp(`new database .*seed\\.db seeded from fixture .*: ${total} records added`));
  const billed = await basket(first, 'u_1003', {
    id: 'seed-1', state: 'billed', subtotal: '10.00', items: [{ id: 'latte', price: '10.00' }], rewards: ['rw_1003_welcome'],
  });
  assert.equal(billed.status, 201, billed.text);
  assert.equal((await first.stop()).code, 0);

  // A fixture that changes an existing reward and adds a user: not applied at all, the
  // database stays the source of truth.
  const grown = fixtureFile('grown.json', (f) => {
    f.rewards.find((r) => r.id === 'rw_1003_welcome').value = 99;
    f.users.push({ id: 'u_1004', merchant_id: 'm_harbor_coffee', access_token: 'at_u1004_new', points: [] });
  });
  const second = await start({ db, fixture: grown });
  assert.doesNotMatch(second.stderr, /created/);
  assert.match(second.stderr, /fixture .*grown\.json not applied: .*seed\.db already exists \(a fixture seeds only a new database\)/);
  const welcome = (await account(second, 'u_1003')).body.rewards.find((r) => r.id === 'rw_1003_welcome');
  assert.equal(welcome.state, 'redeemed');
  assert.equal(welcome.value, 3);
  const newcomer = await account(second, 'u_1004', { token: 'at_u1004_new', key: 'mk_harbor_5f1c9a7e2b' });
  assert.equal(newcomer.status, 401, newcomer.text);
  assert.equal((await second.stop()).code, 0);

  // No fixture at all: the database alone.
  const third = await start({ db, fixture: null });
  assert.equal((await account(third, 'u_1001')).status, 200);
  assert.equal((await third.stop()).code, 0);
});

test('a database from a newer service is refused', { timeout: 60_000 }, async (t) => {
  const sqlite = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' });
  if (sqlite.error) {
    t.skip('the sqlite3 command line tool is not installed');
    return;
  }
  const db = path.join(scratch.dir, 'future.db');
  const created = await start({ db });
  assert.equal((await created.stop()).code, 0);
  const bump = spawnSync('sqlite3', [db, 'UPDATE schema_version SET version = 99'], { encoding: 'utf8' });
  assert.equal(bump.status, 0, bump.stderr);
  const refused = runServiceSync(['--port', '0', '--db', db]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /schema version 99, newer than this service \(4\)/);
});

test('the database is in WAL mode with synchronous FULL commits', { timeout: 60_000 }, async (t) => {
  const sqlite = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' });
  if (sqlite.error) {
    t.skip('the sqlite3 command line tool is not installed');
    return;
  }
  const db = path.join(scratch.dir, 'wal.db');
  const service = await start({ db });
  const mode = spawnSync('sqlite3', [db, 'PRAGMA journal_mode; SELECT version FROM schema_version'], { encoding: 'utf8' });
  assert.deepEqual(mode.stdout.trim().split('\n'), ['wal', '4']);
  assert.equal((await service.stop()).code, 0);
});

test('a port in use is an error; production mode has no delay by default', { timeout: 60_000 }, async () => {
  const db = path.join(scratch.dir, 'modes.db');
  const service = await start({ db, mode: 'production' });
  assert.match(service.stderr, /production mode, processing delay 0\.000 s/);
  const port = new URL(service.url).port;
  const clash = runServiceSync(['--port', port, '--db', path.join(scratch.dir, 'clash.db')]);
  assert.equal(clash.status, 1);
  assert.match(clash.stderr, /cannot listen on 127\.0\.0\.1:\d+/);

  // Near real-time accrual in production: floor(10.00 x 10) beans land at once.
  const billed = await basket(service, 'u_1003', {
    id: 'prod-1', state: 'billed', subtotal: '10.00', items: [{ id: 'latte', price: '10.00' }],
  });
  assert.equal(billed.status, 201, billed.text);
  let beans = 0;
  for (let i = 0; i < 50 && beans === 0; i++) {
    const points = (await account(service, 'u_1003')).body.points;
    beans = points.find((p) => p.points_experience_id === 'beans')?.balance ?? 0;
    if (beans === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(beans, 100);
  assert.equal((await service.stop()).code, 0);

  const sandbox = await start({ db: path.join(scratch.dir, 'sandbox.db') });
  assert.match(sandbox.stderr, /sandbox mode, processing delay 900\.000 s/);
  assert.equal((await sandbox.stop()).code, 0);
});
