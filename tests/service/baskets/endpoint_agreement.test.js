// POST /api/baskets/qualifying and POST /api/baskets read a body with one parser (the engine's):
// for the same bytes they give the same status and message about every request field they
// share, valid and malformed alike.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { basket, prng, qualifying, scratchDir, serviceBinary, startService } from '../harness.js';

const USER = 'u_1001';
const BODY_COUNT = 200;

const scratch = scratchDir();
let service;

before(async () => {
  serviceBinary();
  // One user sends 200 open baskets here, beyond the default cap of 50 (billing_rules.test.js).
  service = await startService({
    db: path.join(scratch.dir, 'agreement.db'),
    now: true,
    delay: 3600,
    args: ['--max-open-baskets', '1000'],
  });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

// A well-formed basket of the demo menu; `id` makes it a basket body too.
function validBasket(random, id) {
  const items = [];
  for (let i = random.int(0, 3); i > 0; i -= 1) {
    const item = { id: random.pick(['latte', 'croissant', 'muffin', 'tea']), price: random.pick(['4.50', 3.25, '0', 12]) };
    if (random.chance(0.4)) item.quantity = random.int(1, 3);
    if (random.chance(0.3)) item.categories = [random.pick(['coffee', 'bakery'])];
    if (random.chance(0.3)) item.modifiers = [{ id: 'oat_milk', price: '0.60' }];
    items.push(item);
  }
  const body = { id, redemption_venue: random.pick(['instore', 'online']), items };
  if (random.chance(0.5)) body.subtotal = random.pick(['10.00', 25, '7.5']);
  if (random.chance(0.3)) body.order_timestamp = '2026-11-24T09:30:00-05:00';
  if (random.chance(0.2)) body.handoff = 'pickup';
  return body;
}

// Ways to break a request field (or the JSON itself) of a valid basket.
const fieldBreakers = [
  (b) => ({ ...b, redemption_venue: 'drive-thru' }),
  (b) => ({ ...b, redemption_venue: 1 }),
  (b) => ({ ...b, order_timestamp: 'yesterday' }),
  (b) => ({ ...b, order_timestamp: 20261124 }),
  (b) => ({ ...b, location_uid: 5 }),
  (b) => ({ ...b, handoff: ['pickup'] }),
  (b) => ({ ...b, subtotal: '-1' }),
  (b) => ({ ...b, subtotal: 'ten' }),
  (b) => ({ ...b, subtotal: '1e15' }),
  (b) => ({ ...b, items: {} }),
  (b) => ({ ...b, items: [1] }),
  (b) => ({ ...b, items: [{ id: 'latte', price: -2 }] }),
  (b) => ({ ...b, items: [{ id: 'latte', price: '1.0000000000000000001' }] }),
  (b) => ({ ...b, items: [{ id: 'latte', quantity: 0 }] }),
  (b) => ({ ...b, items: [{ id: 'latte', quantity: 1.5 }] }),
  (b) => ({ ...b, items: [{ id: 7 }] }),
  (b) => ({ ...b, items: [{ id: 'latte', name: false }] }),
  (b) => ({ ...b, items: [{ id: 'latte', categories: 'coffee' }] }),
  (b) => ({ ...b, items: [{ id: 'latte', categories: ['coffee', 2] }] }),
  (b) => ({ ...b, items: [{ id: 'latte', modifiers: [{ id: 'x', price: 'free' }] }] }),
  (b) => ({ ...b, items: [{ id: 'latte', modifiers: [{ id: 'x', item_base_price: -1 }] }] }),
  (b) => ({ ...b, items: [{ id: 'latte', modifiers: ['x'] }] }),
  (b) => ({ ...b, items: [{ id: 'latte', price: '999999999999999', quantity: 2 }] }),
];

// Text-level damage: the result may or may not still be JSON.
function damaged(random, text) {
  switch (random.int(0, 4)) {
    case 0:
      return text.slice(0, random.int(0, text.length - 1));  // cut short
    case 1: {
      const at = random.int(0, text.length);
      return text.slice(0, at) + random.pick(['}', ']', ',', ':', '"', '\\', 'x', '1e400']) + text.slice(at);
    }
    case 2:
      return text.replace(/"items":\[/, '"items":[}');
    case 3:
      return text.replace(/,/, random.pick([',,', ' ', ',]']));
    default:
      return text.replace(/"$|}$/, '');
  }
}

function bodies() {
  const random = prng(12);
  const out = [
    '{"id":"b1","items":[],"note":1e400}',
    '{"items":[}',
    '',
    '[]',
    '1',
    'null',
    '"basket"',
    '{"id":"b2"} trailing',
    '{"id":"b3","items":[],"deep":' + '['.repeat(63) + ']'.repeat(63) + '}',
    '{"id":"b4","items":[],"deep":' + '['.repeat(64) + ']'.repeat(64) + '}',
    '{"id":"b5","items":[],"meta":{"big":-1e400,"small":1e-400}}',
    '{"id":"b6","items":[],"items":5}',
    '{"id":"b7","items":5,"items":[]}',
    '{"id":"b8","subtotal":1e400}',
    '{"id":"b9","items":[{"id":"latte","price":"\\ud800"}]}',
    '{"id":"b10","items":[{"id":"latte\\u0000"}]}',
    Buffer.from('{"id":"b11","items":[{"id":"caf\xff"}]}', 'latin1'),
    Buffer.from('{"id":"b12","handoff":"\xc3\xa9pickup"}', 'latin1'),
  ];
  let n = 0;
  while (out.length < BODY_COUNT) {
    n += 1;
    const body = validBasket(random, `agree-${n}`);
    const kind = random.int(0, 2);
    if (kind === 0) out.push(JSON.stringify(body));
    else if (kind === 1) out.push(JSON.stringify(random.pick(fieldBreakers)(body)));
    else out.push(damaged(random, JSON.stringify(body)));
  }
  return out;
}

// Messages only POST /api/baskets gives: its own members, checked after the request fields, and
// the declared subtotal against the items (it bills the subtotal; the qualifying call is the
// engine's dry run on the declared figures, as on every face).
const BASKET_ONLY = /^(id |state |rewards|points_products|at most one |subtotal \S+ is above the total of the basket's items)/;

test('both endpoints give the same status and message for the same 200 bodies', async () => {
  const all = bodies();
  assert.equal(all.length, BODY_COUNT);
  let refusedByBoth = 0;
  for (const raw of all) {
    const shown = Buffer.isBuffer(raw) ? raw.toString('latin1') : raw;
    const q = await qualifying(service, USER, undefined, { raw });
    const b = await basket(service, USER, undefined, { raw });
    if (q.status === 200) {
      const basketOnly = b.status === 400 && BASKET_ONLY.test(b.body?.message ?? '');
      assert.ok(b.status === 200 || b.status === 201 || basketOnly,
        `qualifying accepts ${shown} but /api/baskets answers ${b.status} ${b.text}`);
    } else {
      refusedByBoth += 1;
      assert.equal(q.status, 400, `qualifying ${shown}: ${q.text}`);
      assert.deepEqual({ status: b.status, message: b.body?.message },
        { status: q.status, message: q.body?.message }, `body: ${shown}`);
    }
  }
  // Enough malformed bodies to mean something (the named ones included).
  assert.ok(refusedByBoth >= 60, `only ${refusedByBoth} bodies were refused`);
});

test('a number out of double range is refused by neither endpoint', async () => {
  const raw = '{"id":"b-out-of-range","items":[],"note":1e400}';
  const q = await qualifying(service, USER, undefined, { raw });
  const b = await basket(service, USER, undefined, { raw });
  assert.equal(q.status, 200, q.text);
  assert.equal(b.status, 201, b.text);
});

test('a broken items array gets the same 400 on both endpoints, naming the syntax error', async () => {
  const raw = '{"items":[}';
  const q = await qualifying(service, USER, undefined, { raw });
  const b = await basket(service, USER, undefined, { raw });
  assert.equal(q.status, 400);
  assert.deepEqual(q.body, {
    code: 400,
    message: "request body is not valid JSON: unexpected '}' at offset 10",
  });
  assert.equal(b.status, 400);
  assert.deepEqual(b.body, q.body);
});
