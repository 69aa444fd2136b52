// explain() builds its answer in JS from numbers the engine writes into wasm memory (codes,
// figures, best) and messages read once from the engine. These tests hold it to the engine's own
// JSON rendering, byte for byte (JSON.stringify of the answer against the rendered text), over
// many generated baskets: the native engine (lq_native_bench --print explain) and the JSON render
// of the same wasm engine (the bench build, build/wasm/loyalty_qualifier_bench.*: the shipped
// module leaves explain_json out).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { NOW_MS, makeRequests, makeSnapshot } from '../../../bench/workloads.mjs';
import { QualifyError } from '../../../web/engine/qualify_error.js';
import { createQualifier } from '../../../web/engine/qualifier.js';
import { root } from '../../support/support.js';

const nativeBench = path.join(root, 'build/native/bench/lq_native_bench');
const ORDER_TIMES = [
  '2026-11-24T13:15:00Z',
  '2026-11-24T03:10:00Z',
  '2026-11-28T22:45:00-05:00',
  '2025-01-01T00:00:00Z',
  '2031-06-30T12:00:00Z',
];

/** Generated baskets, varied further so that every kind of reason turns up. */
function baskets(spec, count, seed) {
  return makeRequests(spec, count, seed).map((request, i) => {
    const varied = { ...request, order_timestamp: ORDER_TIMES[i % ORDER_TIMES.length] };
    if (i % 7 === 1) delete varied.location_uid;
    if (i % 5 === 2) delete varied.handoff;
    if (i % 6 === 3) delete varied.subtotal;
    if (i % 11 === 4) varied.items = [];
    if (i % 13 === 5) {
      varied.items = varied.items.map((item, k) => (k % 2 ? item : { ...item, price: undefined }));
    }
    if (i % 17 === 6) varied.handoff = 'curbside';
    return JSON.parse(JSON.stringify(varied));
  });
}

const CASES = [
  { spec: { rewards: 40, pointsProducts: 20, items: 4 }, seed: 11, count: 120 },
  { spec: { rewards: 60, pointsProducts: 25, items: 12 }, seed: 23, count: 120 },
  { spec: { rewards: 15, pointsProducts: 8, items: 1 }, seed: 37, count: 80 },
];

const malformed = [
  '{',
  '{"items":7}',
  '{"items":[{"id":"x","price":"1.005"}]}',
  '{"items":[],"order_timestamp":"yesterday"}',
  '[]',
];

/** What JS answers for each request text: JSON of explain(), or the error body. */
async function jsAnswers(snapshot, texts) {
  const q = await createQualifier(snapshot, { now: () => NOW_MS });
  try {
    return texts.map((text, i) => {
      try {
        // Every other basket as an object (what callers pass), the rest and the malformed as text.
        return JSON.stringify(q.explain(i % 2 === 0 && !malformed.includes(text) ? JSON.parse(text) : text));
      } catch (e) {
        if (!(e instanceof QualifyError)) throw e;
        return JSON.stringify({ code: e.code, message: e.message });
      }
    });
  } finally {
    q.dispose();
  }
}

test('explain() equals the native engine\'s JSON explanation, byte for byte', async (t) => {
  if (!existsSync(nativeBench)) {
    t.skip(`${path.relative(root, nativeBench)} is not built (node scripts/build.mjs --only native)`);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-explain-'));
  const codes = new Set();
  try {
    for (const { spec, seed, count } of CASES) {
      const snapshot = makeSnapshot(spec, seed);
      const texts = [...baskets(spec, count, seed + 1).map((r) => JSON.stringify(r)), ...malformed];
      const snapshotFile = path.join(dir, 'snapshot.json');
      const requestsFile = path.join(dir, 'requests.jsonl');
      writeFileSync(snapshotFile, JSON.stringify(snapshot));
      writeFileSync(requestsFile, `${texts.join('\n')}\n`);
      const native = execFileSync(
        nativeBench,
        ['--snapshot', snapshotFile, '--requests', requestsFile, '--print', 'explain'],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      )
        .split('\n')
        .filter((line) => line.length > 0);
      assert.equal(native.length, texts.length);
      const js = await jsAnswers(snapshot, texts);
      for (let i = 0; i < texts.length; ++i) {
        assert.equal(js[i], native[i], `request ${i} of seed ${seed}: ${texts[i].slice(0, 200)}`);
        for (const entry of JSON.parse(native[i]).entries ?? []) {
          for (const reason of entry.reasons) codes.add(reason.code);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The comparison covered the figures and the messages built around them.
  for (const code of ['BELOW_MINIMUM', 'INSUFFICIENT_POINTS', 'NO_MATCHING_ITEM', 'EMPTY_BASKET',
    'EXPIRED', 'OUTSIDE_TIME_WINDOW', 'ZERO_DISCOUNT', 'LOCATION_MISMATCH', 'LOCATION_REQUIRED', 'HANDOFF_MISMATCH',
    'ITEM_PRICE_MISSING', 'SUBTOTAL_REQUIRED']) {
    assert.ok(codes.has(code), `no basket produced ${code} (codes seen: ${[...codes].join(', ')})`);
  }
});

test('explain() equals the JSON the wasm engine renders for the same request', async () => {
  const { default: createModule } = await import('../../../build/wasm/loyalty_qualifier_bench.mjs');
  const module = await createModule({
    wasmBinary: readFileSync(path.join(root, 'build/wasm/loyalty_qualifier_bench.wasm')),
  });
  const encoder = new TextEncoder();
  for (const { spec, seed, count } of CASES) {
    const snapshot = makeSnapshot(spec, seed + 100);
    const snapshotText = JSON.stringify(snapshot);
    const handle = new module.SnapshotHandle();
    const write = (text) => {
      const bytes = encoder.encode(text);
      module.HEAPU8.set(bytes, handle.input_buffer(bytes.length));
      return bytes.length;
    };
    try {
      assert.equal(handle.load(write(snapshotText)), 0);
      const texts = [...baskets(spec, count, seed + 101).map((r) => JSON.stringify(r)), ...malformed];
      const expected = texts.map((text) => {
        const status = handle.explain_json(write(text), NOW_MS);
        return status === 0 ? handle.text() : JSON.stringify({ code: status, message: handle.error_message() });
      });
      const js = await jsAnswers(snapshot, texts);
      for (let i = 0; i < texts.length; ++i) assert.equal(js[i], expected[i], `request ${i}`);
    } finally {
      handle.delete();
    }
  }
});

test('explain() answers are fresh objects; entities stay frozen and shared across answers', async () => {
  const spec = { rewards: 20, pointsProducts: 10, items: 6 };
  const snapshot = makeSnapshot(spec, 5);
  const [request] = makeRequests(spec, 1, 6);
  const q = await createQualifier(snapshot, { now: () => NOW_MS });
  try {
    const first = q.explain(request);
    first.entries[0].reasons.push({ code: 'EXPIRED', message: 'changed' });
    first.best = 'changed';
    const second = q.explain(request);
    assert.notEqual(second.best, 'changed');
    assert.notDeepEqual(second.entries[0].reasons, first.entries[0].reasons);
    const a = q.qualify(request);
    const b = q.qualify(request);
    assert.ok(a.rewards.length > 0);
    assert.equal(a.rewards[0], b.rewards[0]);
    assert.ok(Object.isFrozen(a.rewards[0]));
    // A new snapshot brings its own entities.
    q.setSnapshot(makeSnapshot(spec, 5));
    const c = q.qualify(request);
    assert.notEqual(c.rewards[0], a.rewards[0]);
    assert.deepEqual(c.rewards[0], a.rewards[0]);
  } finally {
    q.dispose();
  }
});
