// How snapshots and requests reach the engine (web/engine/qualifier.js writeInput): JSON text is written
// as UTF-8 into a wasm buffer sized for ASCII first and rewritten when it does not fit, so text
// with 2-, 3- and 4-byte characters must arrive intact, whatever came before it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createQualifier } from '../../../web/engine/qualifier.js';
import { readJson } from '../../support/support.js';

const NOW = Date.parse('2026-11-24T13:15:00Z');

// Labels and ids with characters of every UTF-8 length: é (2 bytes), 漢 (3), 🎉 (4, a surrogate
// pair in JS), and JSON escapes.
const LABEL = 'Café crème 漢字 🎉 "quoted" \\ tab\t';
const PRODUCT = 'thé_vert_🍵';

function unicodeSnapshot() {
  const snapshot = readJson('examples/snapshot.json');
  snapshot.rewards[0].label = LABEL;
  snapshot.rewards[0].fine_print = '¡Sólo hoy! 今日だけ';
  snapshot.rewards.push({
    id: 'rw_thé_🍵',
    value: '1.00',
    label: LABEL,
    type: 'amount',
    products: [PRODUCT],
  });
  return snapshot;
}

function unicodeBasket() {
  const basket = readJson('examples/basket.json');
  basket.items.push({ id: PRODUCT, name: 'Thé vert 🍵 (grand)', price: '4.00', categories: ['thé'] });
  return basket;
}

function answerIds(answer) {
  return answer.rewards.map((reward) => reward.id);
}

test('non-ASCII snapshots and requests arrive intact, as objects and as strings', async () => {
  for (const form of ['object', 'string']) {
    const snapshot = unicodeSnapshot();
    const q = await createQualifier(form === 'object' ? snapshot : JSON.stringify(snapshot), {
      now: () => NOW,
    });
    try {
      const basket = unicodeBasket();
      const answer = q.qualify(form === 'object' ? basket : JSON.stringify(basket));
      assert.ok(answerIds(answer).includes('rw_thé_🍵'), `${form}: ${answerIds(answer)}`);
      const product = answer.rewards.find((reward) => reward.id === 'rw_thé_🍵');
      assert.equal(product.label, LABEL);
      assert.deepEqual(product.products, [PRODUCT]);
      const welcome = answer.rewards.find((reward) => reward.id === snapshot.rewards[0].id);
      assert.equal(welcome.label, LABEL);
      assert.equal(welcome.fine_print, '¡Sólo hoy! 今日だけ');
      const explained = q.explain(basket).entries.find((entry) => entry.id === 'rw_thé_🍵');
      assert.equal(explained.qualifies, true);
    } finally {
      q.dispose();
    }
  }
});

test('ASCII and non-ASCII loads and requests alternate on one qualifier', async () => {
  const ascii = readJson('examples/snapshot.json');
  const q = await createQualifier(ascii, { now: () => NOW });
  try {
    const plain = answerIds(q.qualify(readJson('examples/basket.json')));
    for (let round = 0; round < 3; ++round) {
      q.setSnapshot(unicodeSnapshot());
      assert.ok(answerIds(q.qualify(unicodeBasket())).includes('rw_thé_🍵'));
      // A request of nothing but multi-byte characters needs three bytes per UTF-16 unit.
      assert.throws(
        () => q.qualify(`{"items":"${'漢'.repeat(5000)}"}`),
        (e) => e.code === 400 && /items/.test(e.message),
      );
      q.setSnapshot(JSON.stringify(ascii));
      assert.deepEqual(answerIds(q.qualify(readJson('examples/basket.json'))), plain);
    }
  } finally {
    q.dispose();
  }
});

// A snapshot object is written to the engine in pieces (web/engine/qualifier.js snapshotJson): each
// member, and each element of a long offer list, through JSON.stringify on its own. The text must
// be exactly JSON.stringify's: toJSON called with the key it would get, members and elements that
// JSON.stringify drops or turns into null treated the same, and its errors word for word.
function longSnapshot(count) {
  const snapshot = readJson('examples/snapshot.json');
  const template = snapshot.rewards[0];
  snapshot.rewards = Array.from({ length: count }, (_, i) => ({
    ...template,
    id: `rw_${i}_é漢🎉`,
    label: `reward ${i}`,
  }));
  return snapshot;
}

test('a long offer list as an object loads as its JSON string does', async () => {
  const snapshot = longSnapshot(3000);
  const basket = readJson('examples/basket.json');
  const fromObject = await createQualifier(snapshot, { now: () => NOW });
  const fromString = await createQualifier(JSON.stringify(snapshot), { now: () => NOW });
  try {
    const answer = fromObject.qualify(basket);
    assert.equal(answer.rewards.length, 3000);
    assert.deepEqual(answer, fromString.qualify(basket));
    assert.deepEqual(fromObject.explain(basket), fromString.explain(basket));
  } finally {
    fromObject.dispose();
    fromString.dispose();
  }
});

test('toJSON gets the key JSON.stringify gives it, in members and in long lists', async () => {
  const snapshot = longSnapshot(100);
  const template = snapshot.rewards[0];
  snapshot.rewards[70] = { toJSON: (key) => ({ ...template, id: `rw_from_key_${key}` }) };
  snapshot.user = { toJSON: (key) => ({ id: `u_${key}` }) };
  snapshot.skipped = undefined;
  snapshot.method = () => 'dropped';
  const q = await createQualifier(snapshot, { now: () => NOW });
  try {
    const ids = q.qualify(readJson('examples/basket.json')).rewards.map((reward) => reward.id);
    assert.ok(ids.includes('rw_from_key_70'), ids.slice(0, 5).join());
    assert.ok(!ids.includes('rw_70_é漢🎉'));
  } finally {
    q.dispose();
  }
  // The user id the engine read is "u_user": a reward owned by another user does not qualify.
  const owned = longSnapshot(100);
  owned.user = { toJSON: (key) => ({ id: `u_${key}` }) };
  owned.rewards[3].user_id = 'u_user';
  owned.rewards[4].user_id = 'u_someone_else';
  const check = await createQualifier(owned, { now: () => NOW });
  try {
    const ids = check.qualify(readJson('examples/basket.json')).rewards.map((reward) => reward.id);
    assert.ok(ids.includes('rw_3_é漢🎉'));
    assert.ok(!ids.includes('rw_4_é漢🎉'));
  } finally {
    check.dispose();
  }
});

test('elements JSON.stringify turns into null are null at their index', async () => {
  for (const element of [undefined, () => 1, Symbol('s'), { toJSON: () => undefined }]) {
    const snapshot = longSnapshot(100);
    snapshot.rewards[77] = element;
    await assert.rejects(createQualifier(snapshot), (e) => {
      assert.equal(e.code, 422);
      assert.equal(e.message, 'rewards[77] must be an object');
      return true;
    });
  }
});

test('a snapshot JSON.stringify refuses is refused with its words', async () => {
  const cyclic = longSnapshot(100);
  cyclic.rewards[70].self = cyclic;
  const big = longSnapshot(100);
  big.rewards[80].value = 1n;
  for (const snapshot of [cyclic, big]) {
    let expected;
    try {
      JSON.stringify(snapshot);
    } catch (e) {
      expected = `snapshot cannot be serialised to JSON: ${e.message}`;
    }
    await assert.rejects(createQualifier(snapshot), (e) => {
      assert.equal(e.code, 422);
      assert.equal(e.message, expected);
      return true;
    });
    const q = await createQualifier(longSnapshot(100));
    try {
      assert.throws(() => q.setSnapshot(snapshot), (e) => e.code === 422 && e.message === expected);
      assert.equal(q.qualify(readJson('examples/basket.json')).rewards.length, 100);
    } finally {
      q.dispose();
    }
  }
});
