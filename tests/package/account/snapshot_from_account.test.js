// snapshotFromAccount: account-read bodies written from the loyalty service's documented field
// lists (with and without points products, numbers and numeric strings, unknown fields) become
// schema-v1 snapshots that the real wasm engine loads and answers from.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as api from '../../../web/index.js';
import { tzRuleFromIntl } from '../../../web/account/intl_tz_rule.js';
import {
  CONTEXT,
  DOCUMENTED,
  DOCUMENTED_STRINGS,
  REWARDS_ONLY,
  VENDOR_EXAMPLE,
  accountError,
  accountOutcome,
} from './account_reads.js';

const entry = (outcome, basket, id) => outcome.baskets[basket].explain.find((e) => e.id === id);

test('the documented body becomes a schema-v1 snapshot of its discount fields only', () => {
  const snapshot = api.snapshotFromAccount(DOCUMENTED, CONTEXT);
  const rule = tzRuleFromIntl('America/New_York', { at: Date.parse(CONTEXT.fetchedAt) });
  assert.equal(rule, '<-05>5<-04>,M3.2.0,M11.1.0');
  assert.deepEqual(snapshot.merchant, { id: 'm_harbor_coffee', time_zone: 'America/New_York', tz_rule: rule });
  assert.deepEqual(snapshot.locations, [
    { uid: 'harbor-downtown', merchant_id: 'm_harbor_coffee', time_zone: 'America/New_York', tz_rule: rule },
  ]);
  assert.equal(snapshot.schema_version, 1);
  assert.equal(snapshot.generated_at, '2026-11-24T13:15:00.000Z');
  assert.deepEqual(snapshot.user, { id: 'u_1001' });
  assert.deepEqual(snapshot.points, [{ points_experience_id: 'beans', balance: 450 }]);
  // Documented fields are kept as given; unknown ones (barcode, tier, email) are not.
  assert.deepEqual(snapshot.rewards[0], {
    id: 'rw_five_off',
    value: 5,
    minimum: 15,
    label: '$5 off $15',
    state: 'redeemable',
    type: 'amount',
    products: [],
    fine_print: 'One per visit',
    retire_at: '2026-12-31T23:59:59Z',
    redemption_venue: 'instore',
  });
  assert.ok(!('email' in snapshot) && !('tier' in snapshot) && !('progress' in snapshot));
  // No restrictions of their own: the read was already filtered by location, venue and time.
  for (const reward of snapshot.rewards) {
    for (const field of ['restriction_location_ids', 'time_restrictions', 'handoff', 'starts_at']) {
      assert.ok(!(field in reward), `${reward.id}.${field}`);
    }
  }
  // A points product without discount fields: cost as its points, marked, nothing else.
  assert.deepEqual(snapshot.points_products[0], { id: 'pp_mug', points: 300, label: 'A mug', discount_unknown: true });
  assert.deepEqual(snapshot.points_products[1], {
    id: 'pp_two_off',
    points: 200,
    label: '$2 off',
    state: 'redeemable',
    value: 2,
    type: 'amount',
    redemption_venue: 'instore',
  });
});

test('through the engine: rewards and priced points products qualify, the unpriced one never', async () => {
  const outcome = await accountOutcome(api, DOCUMENTED);
  const instore = outcome.baskets.instore;
  assert.deepEqual(instore.rewards, ['rw_ten_pct', 'rw_five_off', 'rw_latte']);
  assert.deepEqual(instore.points_products, ['pp_two_off']);
  assert.deepEqual(
    instore.explain.map((e) => [e.id, e.discount]),
    [
      ['rw_expired', '3.00'],
      ['rw_ten_pct', '2.00'],
      ['rw_five_off', '5.00'],
      ['rw_latte', '5.50'],
      ['pp_two_off', '2.00'],
      ['pp_mug', '0.00'],
      ['pp_ten_off', '10.00'],
    ],
  );
  assert.deepEqual(entry(outcome, 'instore', 'rw_expired').codes, ['EXPIRED']);
  assert.deepEqual(entry(outcome, 'instore', 'pp_ten_off').codes, ['INSUFFICIENT_POINTS']);
  // Affordable (450 >= 300) on a large basket, and still not qualifying: its discount is unknown.
  const mug = entry(outcome, 'instore', 'pp_mug');
  assert.equal(mug.qualifies, false);
  assert.deepEqual(mug.codes, ['DISCOUNT_UNKNOWN']);
  const explained = await api.createQualifier(outcome.snapshot).then((q) => {
    try {
      return q.explain({ subtotal: '50.00' }).entries.find((e) => e.id === 'pp_mug');
    } finally {
      q.dispose();
    }
  });
  assert.deepEqual(explained.reasons, [
    { code: 'DISCOUNT_UNKNOWN', message: 'Its discount is not known here: the service decides when confirming.' },
  ]);

  // Read for in store: online, nothing is known to be usable.
  assert.deepEqual(outcome.baskets.online.rewards, []);
  assert.deepEqual(outcome.baskets.online.points_products, []);
  assert.deepEqual(entry(outcome, 'online', 'rw_latte').codes, ['VENUE_MISMATCH']);

  const small = outcome.baskets.small;
  assert.deepEqual(small.rewards, ['rw_ten_pct', 'rw_latte']);
  assert.deepEqual(entry(outcome, 'small', 'rw_five_off').codes, ['BELOW_MINIMUM']);
});

test('numeric strings give the same answers, echoed as strings', async () => {
  const numbers = await accountOutcome(api, DOCUMENTED);
  const strings = await accountOutcome(api, DOCUMENTED_STRINGS);
  assert.equal(DOCUMENTED_STRINGS.rewards[0].value, '5.00');
  assert.equal(DOCUMENTED_STRINGS.points_products[0].cost, '300');
  assert.deepEqual(strings.snapshot.points, numbers.snapshot.points);
  assert.equal(strings.snapshot.points_products[0].points, 300);
  for (const name of Object.keys(numbers.baskets)) {
    assert.deepEqual(strings.baskets[name].explain, numbers.baskets[name].explain, name);
    assert.deepEqual(strings.baskets[name].rewards, numbers.baskets[name].rewards, name);
  }
  const five = strings.baskets.instore.entities.rewards.find((r) => r.id === 'rw_five_off');
  assert.equal(five.value, '5.00');
  assert.equal(five.minimum, '15.00');
});

test('a body without points products, and an empty one', async () => {
  const outcome = await accountOutcome(api, REWARDS_ONLY);
  assert.deepEqual(outcome.snapshot.points, []);
  assert.deepEqual(outcome.snapshot.points_products, []);
  assert.deepEqual(outcome.baskets.instore.rewards, ['rw_five_off']);
  const empty = await accountOutcome(api, {}, { merchantId: 'm_x' });
  assert.deepEqual(empty.snapshot.user, { id: '' });
  assert.deepEqual(empty.snapshot.merchant, { id: 'm_x' });
  assert.deepEqual(empty.baskets.instore.explain, []);
});

test("the vendor's published example: points lists, points on products, no type", async () => {
  const outcome = await accountOutcome(api, VENDOR_EXAMPLE, { merchantId: 'm_1', timeZone: 'Asia/Kolkata' });
  assert.equal(outcome.snapshot.merchant.tz_rule, '<+0530>-5:30');
  assert.deepEqual(outcome.snapshot.points, [{ points_experience_id: '590485d6f0', balance: 10 }]);
  // Value but no type: amount or percent cannot be told apart locally.
  assert.deepEqual(outcome.snapshot.points_products[0], {
    id: '9xw6543wh8jmde0',
    points: 10,
    label: 'Onion rings',
    state: 'redeemable',
    fine_print: 'Points product fine print',
    points_experience_id: '590485d6f0',
    discount_unknown: true,
  });
  assert.ok(!('restriction_location_ids' in outcome.snapshot.rewards[0]));
  // Without a venue in the context, the rewards qualify at both venues.
  assert.deepEqual(outcome.baskets.instore.rewards, ['gheTfR']);
  assert.deepEqual(outcome.baskets.online.rewards, ['gheTfR']);
  assert.deepEqual(outcome.baskets.instore.points_products, []);
  assert.deepEqual(entry(outcome, 'instore', '9xw6543wh8jmde0').codes, ['DISCOUNT_UNKNOWN']);
});

test('a fractional balance counts down; an item product without value is computed', async () => {
  const body = {
    id: 'u',
    points_balances: [{ points_experience_id: 'pe', balance: '299.9' }],
    points_products: [
      { id: 'pp_free_latte', cost: 299, type: 'item', products: ['latte'] },
      { id: 'pp_free_latte_dear', cost: '300', type: 'item', products: ['latte'] },
    ],
  };
  const outcome = await accountOutcome(api, body, { merchantId: 'm' });
  assert.deepEqual(outcome.snapshot.points, [{ points_experience_id: 'pe', balance: 299 }]);
  assert.deepEqual(outcome.baskets.instore.points_products, ['pp_free_latte']);
  assert.deepEqual(entry(outcome, 'instore', 'pp_free_latte_dear').codes, ['INSUFFICIENT_POINTS']);
});

test('a body that cannot be read is a 422 naming the field', () => {
  const cases = [
    [null, 'account must be a JSON object'],
    [[], 'account must be a JSON object'],
    ['{', /^account is not valid JSON/],
    [{ rewards: {} }, 'account.rewards must be an array'],
    [{ rewards: [1] }, 'account.rewards[0] must be an object'],
    [{ rewards: [{ id: 'a' }, { value: 1 }] }, 'account.rewards[1].id is required (a string)'],
    [{ rewards: [{ id: 'a', value: true }] }, 'account.rewards[0].value must be a decimal (a JSON number or numeric string)'],
    [{ rewards: [{ id: 'a', products: [1] }] }, 'account.rewards[0].products must be an array of strings'],
    [{ rewards: [{ id: 'a', label: 3 }] }, 'account.rewards[0].label must be a string'],
    [{ points_balances: [{ balance: 3 }] }, 'account.points_balances[0].points_experience_id is required (a string)'],
    [
      { points_balances: [{ points_experience_id: 'p', balance: 'lots' }] },
      'account.points_balances[0].balance must be a non-negative number (a JSON number or numeric string)',
    ],
    [{ points_products: [{ id: 'p', cost: 1.5 }] }, 'account.points_products[0].cost must be a whole number of points'],
    [{ points_products: [{ id: 'p', cost: -1 }] }, /cost must be a non-negative number/],
    [{ id: {} }, 'account.id must be a string'],
  ];
  for (const [body, message] of cases) {
    const error = accountError(api, body);
    assert.equal(error?.name, 'QualifyError', JSON.stringify(body));
    assert.equal(error.code, 422);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
  }
  // A decimal the engine cannot read is its 422 when loading, with the snapshot path.
  const snapshot = api.snapshotFromAccount({ rewards: [{ id: 'a', value: 'five' }] }, CONTEXT);
  return assert.rejects(api.createQualifier(snapshot), {
    name: 'QualifyError',
    code: 422,
    message: 'rewards[0].value must be a non-negative decimal (a JSON number or numeric string)',
  });
});

test('a bad context is a TypeError (RangeError for an unknown zone)', () => {
  const bad = [
    [undefined, TypeError, /context must be an object/],
    [{}, TypeError, /context\.merchantId/],
    [{ merchantId: '' }, TypeError, /context\.merchantId/],
    [{ merchantId: 'm', venue: 'drive-thru' }, TypeError, 'context.venue must be one of: instore, online'],
    [{ merchantId: 'm', locationUid: 5 }, TypeError, /context\.locationUid/],
    [{ merchantId: 'm', fetchedAt: 'yesterday' }, TypeError, /context\.fetchedAt/],
    [{ merchantId: 'm', servedAt: 'Tue, 31 Feb 2026 99:00:00 GMT' }, TypeError, 'context.servedAt must be a valid Date, epoch milliseconds or an ISO 8601 string'],
    [{ merchantId: 'm', timeZone: 'Nowhere/City' }, RangeError, 'timeZone "Nowhere/City" is not a time zone this runtime knows'],
  ];
  for (const [context, type, message] of bad) {
    assert.throws(() => api.snapshotFromAccount(DOCUMENTED, context), (e) => {
      assert.ok(e instanceof type, `${JSON.stringify(context)}: ${e}`);
      if (typeof message === 'string') assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    });
  }
});

test('a JSON text body and the default fetchedAt (now)', () => {
  const before = Date.now();
  const snapshot = api.snapshotFromAccount(JSON.stringify(REWARDS_ONLY), { merchantId: 'm' });
  const generated = Date.parse(snapshot.generated_at);
  assert.ok(generated >= before - 1000 && generated <= Date.now() + 1000);
  assert.equal(snapshot.rewards[0].id, 'rw_five_off');
  assert.ok(!('redemption_venue' in snapshot.rewards[0]));
});

test("servedAt, the service's time of the answer (its Date, to the second), is generated_at, written without a fraction; fetchedAt is then only this device's", () => {
  const served = api.snapshotFromAccount(DOCUMENTED, { ...CONTEXT, fetchedAt: '2026-11-24T12:15:00.250Z', servedAt: 'Tue, 24 Nov 2026 13:15:07 GMT' });
  assert.equal(served.generated_at, '2026-11-24T13:15:07Z');
  const exact = api.snapshotFromAccount(DOCUMENTED, { ...CONTEXT, servedAt: Date.parse('2026-11-24T13:15:07.125Z') });
  assert.equal(exact.generated_at, '2026-11-24T13:15:07.125Z');
});
