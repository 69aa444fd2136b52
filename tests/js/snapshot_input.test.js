// How snapshots and requests reach the engine (web/qualifier.js writeInput): JSON text is written
// as UTF-8 into a wasm buffer sized for ASCII first and rewritten when it does not fit, so text
// with 2-, 3- and 4-byte characters must arrive intact, whatever came before it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createQualifier } from '../../web/qualifier.js';
import { readJson } from './support.js';

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
