// A UTF-8 byte-order mark before a request or a snapshot is refused through the real wasm, and the
// same way whether the text comes as UTF-8 bytes or as a JS string starting with U+FEFF (the
// package writes strings as UTF-8, so both reach the engine as EF BB BF): docs/reference.md,
// "Byte-order mark". Inside a string value U+FEFF is a character like any other.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createQualifier } from '../../../web/engine/qualifier.js';
import { readJson } from '../../support/support.js';

const NOW = Date.parse('2026-11-24T13:15:00Z');
const BOM_BYTES = [0xef, 0xbb, 0xbf];

const utf8 = (text) => new TextEncoder().encode(text);
const withBomBytes = (text) => new Uint8Array([...BOM_BYTES, ...utf8(text)]);

/** The QualifyError a call throws, as { code, message }. */
function refusal(call) {
  try {
    call();
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return { code: e.code, message: e.message };
  }
  assert.fail('accepted');
}

test('a request that starts with a byte-order mark is refused as bytes and as a string alike', async () => {
  const q = await createQualifier(readJson('examples/snapshot.json'), { now: () => NOW });
  try {
    const basket = JSON.stringify(readJson('examples/basket.json'));
    const expected = {
      code: 400,
      message: 'request body is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0',
    };
    // The same text without the mark is a basket the engine answers.
    assert.ok(q.qualify(basket).rewards.length > 0);
    assert.deepEqual(refusal(() => q.qualify(withBomBytes(basket))), expected);
    assert.deepEqual(refusal(() => q.qualify(`\uFEFF${basket}`)), expected);
    assert.deepEqual(refusal(() => q.explain(withBomBytes(basket))), expected);
    // The fuzz finding itself: a number after the mark.
    assert.deepEqual(refusal(() => q.qualify(new Uint8Array([...BOM_BYTES, 0x32]))), expected);
    // As JavaScript's own reader refuses such a string.
    assert.throws(() => JSON.parse(`\uFEFF${basket}`), SyntaxError);
    // After white space the mark is named at its own offset.
    assert.deepEqual(refusal(() => q.qualify(`  \uFEFF${basket}`)), {
      code: 400,
      message: 'request body is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 2',
    });
  } finally {
    q.dispose();
  }
});

test('a snapshot that starts with a byte-order mark is refused and the loaded one stays', async () => {
  const snapshot = readJson('examples/snapshot.json');
  const text = JSON.stringify(snapshot);
  const expected = {
    code: 422,
    message: 'snapshot is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0',
  };
  await assert.rejects(createQualifier(withBomBytes(text), { now: () => NOW }), (e) => {
    assert.deepEqual({ code: e.code, message: e.message }, expected);
    return true;
  });
  const q = await createQualifier(utf8(text), { now: () => NOW });
  try {
    const basket = readJson('examples/basket.json');
    const before = q.qualify(basket);
    snapshot.rewards = [];
    assert.deepEqual(refusal(() => q.setSnapshot(withBomBytes(JSON.stringify(snapshot)))), expected);
    assert.deepEqual(refusal(() => q.setSnapshot(`\uFEFF${JSON.stringify(snapshot)}`)), expected);
    assert.deepEqual(q.qualify(basket), before);
  } finally {
    q.dispose();
  }
});

test('U+FEFF inside a string value is kept as a character', async () => {
  const snapshot = readJson('examples/snapshot.json');
  snapshot.rewards[0].label = '\uFEFFWelcome';
  const q = await createQualifier(JSON.stringify(snapshot), { now: () => NOW });
  try {
    const answer = q.qualify(utf8(JSON.stringify(readJson('examples/basket.json'))));
    const reward = answer.rewards.find((r) => r.id === snapshot.rewards[0].id);
    assert.ok(reward, `${snapshot.rewards[0].id} qualifies`);
    assert.equal(reward.label, '\uFEFFWelcome');
  } finally {
    q.dispose();
  }
});
