// What the service checks before it stores or bills a basket (issue 28, "the service checks what it
// bills"), over real HTTP on a real SQLite file: a declared subtotal above the total of the
// basket's priced items is 400 naming `subtotal` (nothing redeemed, no points), while the
// qualifying call keeps the engine's answer on the declared figures; a basket body over 64 KiB is
// 413 on both basket endpoints in every state, so 20 billed 1 MiB attempts leave the database
// small; and the database, its WAL and its SHM are created 0600 (they hold every token and key).
import assert from 'node:assert/strict';
import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FIXED_NOW, account, basket, qualifying, scratchDir, serviceBinary, startService, waitFor } from '../harness.js';

const scratch = scratchDir('lq-billing-checks-');
const started = [];

before(() => {
  serviceBinary();
}, { timeout: 900_000 });

after(async () => {
  for (const service of started) if (service.running()) await service.crash();
  scratch.cleanup();
});

async function start(name, options = {}) {
  const service = await startService({ db: path.join(scratch.dir, `${name}.db`), now: true, mode: 'production', ...options });
  started.push(service);
  return service;
}

function assertError(res, status, pattern) {
  assert.equal(res.status, status, res.text.slice(0, 500));
  assert.deepEqual(Object.keys(res.body), ['code', 'message'], res.text.slice(0, 500));
  assert.equal(res.body.code, status);
  assert.match(res.body.message, pattern);
}

const beans = async (service, user) =>
  (await account(service, user)).body.points.find((p) => p.points_experience_id === 'beans')?.balance ?? 0;
const rewardState = async (service, user, id) => (await account(service, user)).body.rewards.find((r) => r.id === id).state;

const drip = { redemption_venue: 'instore', order_timestamp: FIXED_NOW, items: [{ id: 'drip_coffee', price: '2.50', categories: ['coffee'] }] };
const STATES = ['checkout', 'placed', 'billed', 'voided', 'completed', 'refunded'];

describe('a declared subtotal is checked against the basket\'s items', () => {
  test('a $2.50 drip declared as 99999 is 400 naming subtotal and mints no points', async () => {
    const service = await start('minted');
    assert.equal(await beans(service, 'u_1003'), 0);
    const minted = await basket(service, 'u_1003', { ...drip, id: 'mint-1', state: 'billed', subtotal: '99999' });
    assertError(minted, 400, /^subtotal 99999\.00 is above the total of the basket's items, 2\.50 \(each item's price plus its modifiers' prices, times its quantity; an item without a price counts 0\)/);
    // Nothing was stored: the same id bills the honest basket, whose 25 beans are all that land.
    const honest = await basket(service, 'u_1003', { ...drip, id: 'mint-1', state: 'billed', subtotal: '2.50' });
    assert.equal(honest.status, 201, honest.text);
    assert.ok(await waitFor(async () => (await beans(service, 'u_1003')) === 25, 10_000, 50), 'the honest basket\'s points never landed');
    assert.equal(await beans(service, 'u_1003'), 25);
  });

  test('a drip declared as 15.00 does not unlock "$5 off $15", in any state; the qualifying answer is the engine\'s', async () => {
    const service = await start('unlock');
    const declared = { ...drip, subtotal: '15.00' };
    // The qualifying call is the engine's dry run on the declared figures (the subtotal is the
    // base when given), as the package and the CLI answer it: it lists the reward.
    const offered = await qualifying(service, 'u_1001', declared);
    assert.equal(offered.status, 200, offered.text);
    assert.ok(offered.body.rewards.some((r) => r.id === 'rw_welcome5'), offered.text);
    for (const state of STATES.slice(0, 3)) {
      const refused = await basket(service, 'u_1001', { ...declared, id: `unlock-${state}`, state, rewards: ['rw_welcome5'] });
      assertError(refused, 400, /^subtotal 15\.00 is above the total of the basket's items, 2\.50 /);
    }
    // Without the reward too: the figure is what is stored and billed.
    assertError(await basket(service, 'u_1001', { ...declared, id: 'unlock-plain', state: 'billed' }), 400, /^subtotal 15\.00 /);
    assert.equal(await rewardState(service, 'u_1001', 'rw_welcome5'), 'redeemable');

    // A basket that holds $15.25 (unit price plus modifiers, times quantity) gets it.
    const real = {
      redemption_venue: 'instore',
      order_timestamp: FIXED_NOW,
      subtotal: '15.25',
      items: [
        { id: 'latte', price: '5.25', categories: ['coffee'], quantity: 2, modifiers: [{ id: 'oat_milk', price: '0.75' }] },
        { id: 'croissant', price: '3.25', categories: ['pastry'] },
      ],
    };
    const billed = await basket(service, 'u_1001', { ...real, id: 'unlock-real', state: 'billed', rewards: ['rw_welcome5'] });
    assert.equal(billed.status, 201, billed.text);
    assert.equal(billed.body.discount, '5.00');
  });

  test('a subtotal at or below the items\' total, or none, is accepted; an unpriced item counts 0', async () => {
    const service = await start('honest');
    const accepted = [
      { id: 'equal', subtotal: '2.50' },
      { id: 'equal-spelling', subtotal: 2.5 },
      { id: 'discounted', subtotal: '2.00' },  // a discount the till gave
      { id: 'none' },
      { id: 'unpriced-none', items: [{ id: 'latte' }] },
      { id: 'unpriced-zero', subtotal: '0', items: [{ id: 'latte' }] },
    ];
    for (const body of accepted) {
      const res = await basket(service, 'u_1002', { ...drip, state: 'billed', ...body });
      assert.equal(res.status, 201, `${body.id}: ${res.text}`);
    }
    for (const body of [
      { id: 'cent-over', subtotal: '2.51' },
      { id: 'unpriced', subtotal: '5.00', items: [{ id: 'latte' }] },
      { id: 'partly-priced', subtotal: '5.00', items: [{ id: 'latte' }, { id: 'drip_coffee', price: '2.50' }] },
      { id: 'no-items', subtotal: '5.00', items: [] },
      { id: 'no-items-at-all', subtotal: '5.00', items: undefined },
    ]) {
      const res = await basket(service, 'u_1002', { ...drip, state: 'billed', ...body });
      assertError(res, 400, /^subtotal \d+\.\d\d is above the total of the basket's items, \d+\.\d\d /);
    }
  });
});

/** A JSON basket body of exactly `bytes` bytes (padded by a member the service ignores). */
function bodyOfSize(fields, bytes) {
  const base = JSON.stringify({ ...fields, note: '' });
  assert.ok(base.length <= bytes);
  return JSON.stringify({ ...fields, note: 'x'.repeat(bytes - base.length) });
}

describe('a basket body may take 64 KiB', () => {
  test('over 64 KiB is 413 with the error body on both basket endpoints, in every state; 64 KiB is read', async () => {
    const service = await start('body-size');
    const message = /^a basket body may take at most 64 KiB \(65536 bytes\); this one has 65537 bytes$/;
    const fields = { ...drip, subtotal: '2.50' };
    const over = await qualifying(service, 'u_1001', undefined, { raw: bodyOfSize(fields, 65_537) });
    assertError(over, 413, message);
    assert.match(over.headers.get('content-type'), /^application\/json/);
    const fits = await qualifying(service, 'u_1001', undefined, { raw: bodyOfSize(fields, 65_536) });
    assert.equal(fits.status, 200, fits.text);
    for (const state of STATES) {
      const res = await basket(service, 'u_1001', undefined, { raw: bodyOfSize({ ...fields, id: `big-${state}`, state }, 65_537) });
      assertError(res, 413, message);
    }
    const billed = await basket(service, 'u_1001', undefined, { raw: bodyOfSize({ ...fields, id: 'fits', state: 'billed' }, 65_536) });
    assert.equal(billed.status, 201, billed.text);
    // The bound is on the basket's endpoints; a 401 still comes first.
    const anonymous = await qualifying(service, undefined, undefined, { raw: bodyOfSize(fields, 65_537) });
    assert.equal(anonymous.status, 401);
  });

  test('a basket whose stored form passes 64 KiB is 413, whatever its state', async () => {
    const service = await start('stored-size');
    // 22 KB sent, ~130 KB as the canonical body the service stores.
    const items = Array.from({ length: 2_000 }, () => ({ id: 'a' }));
    for (const state of ['checkout', 'billed']) {
      const res = await basket(service, 'u_1001', { id: `wide-${state}`, state, items });
      assertError(res, 413, /^basket wide-\w+ takes \d+ bytes as stored, over the 64 KiB a basket may take$/);
    }
    const fits = await basket(service, 'u_1001', { id: 'wide-ok', state: 'billed', items: items.slice(0, 800) });
    assert.equal(fits.status, 201, fits.text);
  });

  test('20 billed 1 MiB baskets are refused: the database stays small', async () => {
    const db = path.join(scratch.dir, 'flood.db');
    const service = await start('flood', { db });
    const size = () => ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (statSync(db + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
    assert.equal((await basket(service, 'u_1003', { ...drip, id: 'warm-up', state: 'billed' })).status, 201);
    const before = size();
    // Just under the 1 MiB framing limit, sent and as stored: 20 items with 52,000-byte ids.
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `${i}-${'x'.repeat(52_000)}`, price: '0.01' }));
    const answers = [];
    for (let i = 0; i < 20; i++) {
      const body = JSON.stringify({ id: `flood-${i}`, state: 'billed', order_timestamp: FIXED_NOW, subtotal: '0.20', items });
      assert.ok(body.length > 1_000_000 && body.length < 1_048_576, `${body.length}`);
      answers.push(await basket(service, 'u_1003', undefined, { raw: body }));
    }
    assert.ok(size() - before < 256 * 1024, `the database grew by ${size() - before} bytes`);
    for (const res of answers) assertError(res, 413, /^a basket body may take at most 64 KiB/);
  });
});

describe('the database file', () => {
  const mode = (file) => statSync(file).mode & 0o7777;

  test('a new database, its WAL and SHM are created 0600, even under umask 000', async () => {
    const db = path.join(scratch.dir, 'private.db');
    // The service runs under umask 000: only its own mode keeps the file private.
    const service = await start('private', { db, launcher: ['sh', '-c', 'umask 000 && exec "$0" "$@"'] });
    assert.equal((await basket(service, 'u_1001', { ...drip, id: 'written', state: 'billed' })).status, 201);
    for (const suffix of ['', '-wal', '-shm']) {
      assert.equal(mode(db + suffix).toString(8), '600', `${db}${suffix}`);
    }
    assert.doesNotMatch(service.stderr, /warning: .* has mode/);
    await service.stop();
  });

  test('an existing database keeps its mode, and a loose one is warned about at start', async () => {
    const db = path.join(scratch.dir, 'loose.db');
    await (await start('loose', { db })).stop();
    chmodSync(db, 0o644);
    const again = await start('loose', { db });
    assert.equal(mode(db).toString(8), '644');
    assert.match(again.stderr, /loyalty_service: warning: \S+loose\.db has mode 0644, so others than its owner may read or write it, and it holds every access token and merchant key: chmod 600 /);
    await again.stop();
  });
});
