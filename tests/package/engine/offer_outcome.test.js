// offerOutcome(request, offer): how one offer fares on a basket, computed by the engine for that
// offer alone (the real wasm module, in this thread and in a worker). It must equal the offer's
// entry of explain() on every public case and on held rewards (PENDING_ORDER, CLAIMED_ELSEWHERE),
// and fail as qualify() fails on a bad request.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QualifyError, createQualifier } from '../../../web/index.js';
import { ensureWasm } from '../../service/harness.js';
import { loadPublicCases, readJson } from '../../support/support.js';

const cases = loadPublicCases();

test('offerOutcome equals the explain() entry of every offer on every public case', async () => {
  let compared = 0;
  for (const testCase of cases) {
    if ('error' in testCase.expect) continue;
    const qualifier = await createQualifier(testCase.snapshot, { now: () => new Date(testCase.now) });
    try {
      const { entries } = qualifier.explain(testCase.request);
      for (const entry of entries) {
        // The first entry of that kind and id, as the engine looks offers up.
        const first = entries.find((e) => e.kind === entry.kind && e.id === entry.id);
        const outcome = qualifier.offerOutcome(testCase.request, { kind: entry.kind, id: entry.id });
        assert.deepEqual(outcome, first, `${testCase.name}: ${entry.kind} ${entry.id}`);
        ++compared;
      }
    } finally {
      qualifier.dispose();
    }
  }
  assert.ok(compared > 0, 'no entry compared');
});

test('a held reward: offerOutcome equals its explain() entry, PENDING_ORDER or CLAIMED_ELSEWHERE', async () => {
  const snapshot = readJson('examples/snapshot.json');
  const basket = readJson('examples/basket.json');
  const holds = { rw_welcome5: 'PENDING_ORDER', rw_free_latte: 'CLAIMED_ELSEWHERE' };
  const held = { ...snapshot, rewards: snapshot.rewards.map((r) => (r.id in holds ? { ...r, hold: holds[r.id] } : r)) };
  const qualifier = await createQualifier(held);
  try {
    const { entries } = qualifier.explain(basket);
    for (const [id, code] of Object.entries(holds)) {
      const outcome = qualifier.offerOutcome(basket, { kind: 'reward', id });
      assert.deepEqual(outcome, entries.find((e) => e.kind === 'reward' && e.id === id), id);
      assert.equal(outcome.qualifies, false, id);
      assert.ok(outcome.reasons.some((r) => r.code === code), `${id}: ${code}`);
    }
  } finally {
    qualifier.dispose();
  }
});

test('in a worker, offerOutcome answers as in this thread; its errors cross as the same QualifyError or TypeError', async () => {
  ensureWasm();
  const { createQualifierWorker } = await import('../../../web/worker/worker.node.js');
  const snapshot = readJson('examples/snapshot.json');
  const basket = readJson('examples/basket.json');
  const now = Date.parse('2026-03-02T10:00:00Z');
  const here = await createQualifier(snapshot, { now });
  const there = await createQualifierWorker(snapshot, { now });
  try {
    for (const entry of here.explain(basket).entries) {
      const offer = { kind: entry.kind, id: entry.id };
      assert.deepEqual(await there.offerOutcome(basket, offer), here.offerOutcome(basket, offer), `${entry.kind} ${entry.id}`);
    }
    await assert.rejects(there.offerOutcome(basket, { kind: 'reward', id: 'rw_none' }), {
      code: 404,
      message: 'the snapshot has no reward "rw_none"',
    });
    await assert.rejects(there.offerOutcome(basket, { kind: 'coupon', id: 'x' }), TypeError);
  } finally {
    here.dispose();
    await there.dispose();
  }
});

test('offerOutcome fails on a bad request as qualify() does (400)', async () => {
  const bad = cases.filter((c) => c.expect.error === 400);
  assert.ok(bad.length > 0, 'no public case of a bad request');
  for (const testCase of bad) {
    const qualifier = await createQualifier(testCase.snapshot, { now: () => new Date(testCase.now) });
    try {
      const offer = { kind: 'reward', id: 'any' };
      const expected = catchQualifyError(() => qualifier.qualify(testCase.request));
      const actual = catchQualifyError(() => qualifier.offerOutcome(testCase.request, offer));
      assert.deepEqual(actual.toJSON(), expected.toJSON(), testCase.name);
    } finally {
      qualifier.dispose();
    }
  }
});

test('an offer the snapshot lacks is a QualifyError 404 naming it', async () => {
  const qualifier = await createQualifier(readJson('examples/snapshot.json'));
  try {
    const basket = readJson('examples/basket.json');
    const { entries } = qualifier.explain(basket);
    const reward = entries.find((e) => e.kind === 'reward');
    assert.ok(reward, 'the example has a reward');
    // The same id as the other kind is another offer.
    const error = catchQualifyError(() =>
      qualifier.offerOutcome(basket, { kind: 'points_product', id: reward.id }),
    );
    assert.equal(error.code, 404);
    assert.equal(error.message, `the snapshot has no points product ${JSON.stringify(reward.id)}`);
    const missing = catchQualifyError(() => qualifier.offerOutcome(basket, { kind: 'reward', id: 'no such "one"' }));
    assert.equal(missing.code, 404);
    assert.equal(missing.message, 'the snapshot has no reward "no such \\"one\\""');
  } finally {
    qualifier.dispose();
  }
});

test('offerOutcome takes { kind, id } and nothing else', async () => {
  const qualifier = await createQualifier(readJson('examples/snapshot.json'));
  try {
    const basket = readJson('examples/basket.json');
    for (const offer of [undefined, null, 'rw_welcome5', { id: 'x' }, { kind: 'coupon', id: 'x' }, { kind: 'reward', id: 5 }]) {
      assert.throws(() => qualifier.offerOutcome(basket, offer), TypeError, JSON.stringify(offer));
    }
  } finally {
    qualifier.dispose();
  }
  assert.throws(
    () => qualifier.offerOutcome({}, { kind: 'reward', id: 'x' }),
    (e) => e instanceof QualifyError && e.code === 410,
  );
});

function catchQualifyError(fn) {
  try {
    fn();
  } catch (e) {
    if (e instanceof QualifyError) return e;
    throw e;
  }
  assert.fail('expected a QualifyError');
}
