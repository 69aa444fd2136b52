// The sandbox across restarts and versions: a pending simulated purchase survives a restart, a
// schema 1 database is migrated to the current schema, and invalid campaign triggers or templates stop the start.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { account, consumer, runServiceSync, useServices, waitFor } from '../harness.js';

const { scratch, start, fixtureFile } = useServices();

const beans = async (service, user) =>
  (await account(service, user)).body.points.find((p) => p.points_experience_id === 'beans')?.balance ?? 0;

test('a simulated purchase still pending at shutdown lands after the restart, once', { timeout: 60_000 }, async () => {
  const db = path.join(scratch.dir, 'restart.db');
  const first = await start({ db, delay: 2 });
  const res = await consumer(first, 'POST', '/purchases', {
    as: 'u_1003',
    body: { purchase: { merchant_id: 'm_harbor_coffee', location_id: 'loc_brooklyn', user_id: 'u_1003', amount: '21.00' } },
  });
  assert.equal(res.status, 202, res.text);
  assert.equal((await first.stop()).code, 0);

  const second = await start({ db, delay: 2, port: new URL(first.url).port });
  assert.equal(second.url, first.url, 'the restart reuses the port');
  const found = await waitFor(async () => (await consumer(second, 'GET', '/purchases', { as: 'u_1003' })).body.purchases[0], 8_000, 50);
  assert.ok(found, 'the purchase never landed after the restart');
  assert.equal(found.points, 210);
  assert.equal(found.triggered_rewards.length, 1);
  assert.equal(await beans(second, 'u_1003'), 210);
  assert.equal((await second.stop()).code, 0);

  const third = await start({ db, delay: 2 });
  assert.equal((await consumer(third, 'GET', '/purchases', { as: 'u_1003' })).body.purchases.length, 1);
  assert.equal(await beans(third, 'u_1003'), 210);
  assert.equal((await consumer(third, 'GET', '/rewards?campaign_ids[]=cmp_Hb4tR6', { as: 'u_1003' })).body.rewards.length, 1);
});

test('a schema 1 database is migrated to the current schema (4) on start', { timeout: 60_000 }, async (t) => {
  if (spawnSync('sqlite3', ['-version']).error) {
    t.skip('the sqlite3 command line tool is not installed');
    return;
  }
  const db = path.join(scratch.dir, 'v1.db');
  const created = await start({ db });
  assert.equal((await created.stop()).code, 0);
  // Back to the version 1 layout: what a service of the previous release left behind.
  const downgrade = spawnSync('sqlite3', [db, [
    'DROP INDEX rewards_by_campaign;',
    'DROP INDEX purchases_by_user;',
    'ALTER TABLE campaigns DROP COLUMN purchase_trigger;',
    'ALTER TABLE rewards DROP COLUMN trigger_purchase_id;',
    'DROP INDEX baskets_open;',
    'DROP TABLE user_cards;',
    'ALTER TABLE campaigns DROP COLUMN reward_type;',
    'UPDATE schema_version SET version = 1;',
  ].join(' ')], { encoding: 'utf8' });
  assert.equal(downgrade.status, 0, downgrade.stderr);

  const migrated = await start({ db });
  const version = spawnSync('sqlite3', [db, 'SELECT version FROM schema_version'], { encoding: 'utf8' });
  assert.equal(version.stdout.trim(), '4');
  const granted = await consumer(migrated, 'POST', '/rewards/grant', { as: 'u_1001', body: { campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1001' } });
  assert.equal(granted.status, 201, granted.text);
  assert.equal((await migrated.stop()).code, 0);
});

test('an invalid campaign trigger or reward template stops the start with its path', () => {
  const cases = [
    ['trigger-amount.json', (f) => { f.campaigns[2].trigger.minimum_amount = '-5'; }, /campaigns\[2\]\.trigger\.minimum_amount must be a non-negative decimal/],
    ['trigger-type.json', (f) => { f.campaigns[0].trigger = { type: 'birthday' }; }, /campaigns\[0\]\.trigger\.type must be "purchase"/],
    ['trigger-locations.json', (f) => { f.campaigns[0].trigger = { location_ids: 'loc_downtown' }; }, /campaigns\[0\]\.trigger\.location_ids must be an array/],
    ['trigger-once.json', (f) => { f.campaigns[0].trigger = { once_per_user: 'yes' }; }, /campaigns\[0\]\.trigger\.once_per_user must be a boolean/],
    ['template.json', (f) => { f.campaigns[1].reward.time_restrictions = [{ start: '25:00', end: '26:00' }]; }, /campaigns\[1\]\.reward is not a valid reward record/],
    ['template-value.json', (f) => { f.campaigns[0].reward.value = '-3'; }, /campaigns\[0\]\.reward is not a valid reward record/],
  ];
  for (const [name, mutate, message] of cases) {
    const result = runServiceSync(['--port', '0', '--db', path.join(scratch.dir, `${name}.db`), '--fixture', fixtureFile(name, mutate)]);
    assert.equal(result.status, 1, `${name}: ${result.stderr}`);
    assert.match(result.stderr, message, name);
  }
});
