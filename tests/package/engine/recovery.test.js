// Errors leave the engine usable; disposed qualifiers fail clearly; handles do not leak.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createQualifier, diagnostics, DisposedError, QualifyError } from '../../../web/index.js';
import { examplePointsProducts, exampleRewards, readJson } from '../../support/support.js';

const snapshot = readJson('examples/snapshot.json');
const basket = readJson('examples/basket.json');

function ids(answer) {
  return {
    rewards: answer.rewards.map((entity) => entity.id),
    points_products: answer.points_products.map((entity) => entity.id),
  };
}

const expected = { rewards: exampleRewards, points_products: examplePointsProducts };

function assertQualifyError(fn, code, fragment, name = 'QualifyError') {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof QualifyError, `not a QualifyError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, name);
    assert.equal(e.code, code, e.message);
    if (fragment !== undefined) assert.match(e.message, fragment);
    assert.deepEqual(e.toJSON(), { code: e.code, message: e.message });
    return true;
  });
}

test(
  'a rejected request leaves the module answering the next one',
  { timeout: 30_000 },
  async () => {
    const q = await createQualifier(snapshot);
    try {
      assert.deepEqual(ids(q.qualify(basket)), expected);
      assertQualifyError(
        () => q.qualify({ ...basket, redemption_venue: 'drive-thru' }),
        400,
        /redemption_venue must be one of: instore, online/,
      );
      assert.deepEqual(ids(q.qualify(basket)), expected);
      assertQualifyError(
        () => q.qualify({ ...basket, order_timestamp: 'yesterday' }),
        400,
        /order_timestamp/,
      );
      assertQualifyError(() => q.qualify('{"items": [1, 2'), 400);
      assertQualifyError(() => q.qualify('[]'), 400);
      assertQualifyError(() => q.qualify(42), 400);
      assertQualifyError(() => q.qualify(null), 400);
      assertQualifyError(() => q.qualify(undefined), 400);
      assertQualifyError(() => q.qualify({ big: 1n }), 400);
      assertQualifyError(
        () => q.explain({ ...basket, redemption_venue: 7 }),
        400,
        /redemption_venue/,
      );
      assert.deepEqual(ids(q.qualify(JSON.stringify(basket))), expected);
      assert.equal(q.explain(basket).best, 'rw_free_latte');
    } finally {
      q.dispose();
    }
  },
);

test(
  'a rejected snapshot leaves the previous one in force (422)',
  { timeout: 30_000 },
  async () => {
    const q = await createQualifier(JSON.stringify(snapshot));
    try {
      assertQualifyError(() => q.setSnapshot({ ...snapshot, schema_version: 2 }), 422);
      assertQualifyError(() => q.setSnapshot('{"schema_version": 1, "rewards": ['), 422);
      assertQualifyError(
        () => q.setSnapshot({ ...snapshot, rewards: [{ value: 1 }] }),
        422,
        /rewards\[0\]/,
      );
      assertQualifyError(() => q.setSnapshot(17), 422);
      assert.deepEqual(ids(q.qualify(basket)), expected);

      q.setSnapshot({
        ...snapshot,
        rewards: snapshot.rewards.filter((r) => r.id === 'rw_welcome5'),
      });
      assert.deepEqual(ids(q.qualify(basket)), {
        rewards: ['rw_welcome5'],
        points_products: examplePointsProducts,
      });
    } finally {
      q.dispose();
    }
    await assert.rejects(createQualifier({ ...snapshot, schema_version: 3 }), (e) => {
      assert.ok(e instanceof QualifyError);
      assert.equal(e.code, 422);
      assert.match(e.message, /schema_version/);
      return true;
    });
    await assert.rejects(
      createQualifier('not json'),
      (e) => e instanceof QualifyError && e.code === 422,
    );
  },
);

test('a disposed qualifier throws DisposedError: a QualifyError 410 named for what it is', { timeout: 30_000 }, async () => {
  const q = await createQualifier(snapshot);
  assert.equal(q.disposed, false);
  q.dispose();
  q.dispose();
  assert.equal(q.disposed, true);
  for (const call of [() => q.qualify(basket), () => q.explain(basket), () => q.setSnapshot(snapshot)]) {
    assertQualifyError(call, 410, /disposed/, 'DisposedError');
    assert.throws(call, DisposedError);
  }
});

test('`using` disposes a qualifier at the end of its block (Symbol.dispose)', { timeout: 30_000 }, async () => {
  const before = (await diagnostics()).liveHandles;
  const q = await createQualifier(snapshot);
  assert.equal((await diagnostics()).liveHandles, before + 1);
  assert.equal(typeof Symbol.dispose, 'symbol', 'Node 20 has Symbol.dispose');
  q[Symbol.dispose]();
  assert.equal(q.disposed, true);
  assert.equal((await diagnostics()).liveHandles, before);
});

test('answers are frozen: a caller cannot corrupt later answers', { timeout: 30_000 }, async () => {
  const q = await createQualifier(snapshot);
  try {
    const first = q.qualify(basket);
    const reward = first.rewards[0];
    assert.throws(() => {
      reward.label = 'hacked';
    }, TypeError);
    assert.throws(() => {
      reward.products.push('x');
    }, TypeError);
    first.rewards.length = 0;
    const again = q.qualify(basket);
    assert.deepEqual(ids(again), expected);
    assert.equal(again.rewards[0].label, 'Buy one croissant, get one free');
    assert.deepEqual(again.rewards[0].products, ['croissant']);
  } finally {
    q.dispose();
  }
});

test(
  'the injected clock decides a request without order_timestamp',
  { timeout: 30_000 },
  async () => {
    const { order_timestamp: _, ...untimed } = basket;
    let now = new Date('2026-11-24T13:15:00Z');
    const q = await createQualifier(snapshot, { now: () => now });
    try {
      assert.deepEqual(ids(q.qualify(untimed)), expected);
      now = Date.parse('2026-12-05T13:15:00Z'); // a Saturday: no weekday breakfast offer
      assert.deepEqual(ids(q.qualify(untimed)), {
        rewards: ['rw_bogo_croissant', 'rw_free_latte', 'rw_welcome5', 'rw_downtown_pastry', 'rw_oat_milk'],
        points_products: examplePointsProducts,
      });
      now = 'soon';
      assert.throws(() => q.qualify(untimed), TypeError);
      now = new Date('2026-11-24T13:15:00Z');
      assert.deepEqual(ids(q.qualify(untimed)), expected);
    } finally {
      q.dispose();
    }
    const fixed = await createQualifier(snapshot, { now: new Date('2026-11-24T13:15:00Z') });
    assert.deepEqual(ids(fixed.qualify(untimed)), expected);
    fixed.dispose();
    await assert.rejects(createQualifier(snapshot, { now: 'today' }), TypeError);
  await assert.rejects(createQualifier(snapshot, { now: 1e300 }), TypeError);
  await assert.rejects(createQualifier(snapshot, { now: new Date(NaN) }), TypeError);
  },
);

test('create/dispose cycles do not leak wasm handles or memory', { timeout: 60_000 }, async () => {
  const big = {
    ...snapshot,
    rewards: Array.from({ length: 300 }, (_, i) => ({
      ...snapshot.rewards[i % snapshot.rewards.length],
      id: `r${i}`,
    })),
  };
  const warmup = await createQualifier(big);
  warmup.qualify(basket);
  warmup.dispose();
  const before = await diagnostics();
  for (let i = 0; i < 300; ++i) {
    const q = await createQualifier(big);
    q.qualify(basket);
    if (i % 3 === 0) q.setSnapshot(snapshot);
    if (i % 5 === 0) await createQualifier({ schema_version: 9 }).catch(() => {});
    q.dispose();
  }
  const after = await diagnostics();
  assert.equal(after.liveHandles, before.liveHandles);
  assert.ok(
    after.wasmMemoryBytes <= before.wasmMemoryBytes + 4 * 1024 * 1024,
    `wasm memory grew from ${before.wasmMemoryBytes} to ${after.wasmMemoryBytes}`,
  );
});
