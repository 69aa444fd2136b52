// web/account/money_text.js: the one reader and writer of money text in JS, and the two ways its
// callers round below the cent (the kiosk page half up, as the engine; the checkout's limits up).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseCents } from '../../../kiosk/page/basket/money.js';
import { centsOf, decimalOfCents } from '../../../web/account/money_text.js';
import { offlinePolicy } from '../../../web/offline/orders/offline_policy.js';

test('decimal text and JSON numbers read as exact cents', () => {
  assert.equal(centsOf('5.25'), 525);
  assert.equal(centsOf(5.25), 525);
  assert.equal(centsOf(' 5 '), 500);
  assert.equal(centsOf('0.1'), 10);
  assert.equal(centsOf(0.07), 7);
  assert.equal(centsOf('9999999999999.99'), 999999999999999);
});

test('anything that is not a non-negative decimal is null', () => {
  for (const value of ['-1', '5.', '.5', '1e3', 'abc', '', '12345678901234', NaN, Infinity, -1, null, undefined, {}]) {
    assert.equal(centsOf(value), null, String(value));
    assert.equal(centsOf(value, { round: 'up' }), null, String(value));
  }
});

test('below the cent: half up by default, up when asked', () => {
  assert.equal(centsOf('4.755'), 476);
  assert.equal(centsOf('4.7549'), 475);
  assert.equal(centsOf('4.7500'), 475);
  assert.equal(centsOf('4.751', { round: 'up' }), 476);
  assert.equal(centsOf('4.7500001', { round: 'up' }), 476);
  assert.equal(centsOf('4.7500', { round: 'up' }), 475);
});

test('cents write as the decimal text the API expects', () => {
  assert.equal(decimalOfCents(475), '4.75');
  assert.equal(decimalOfCents(0), '0.00');
  assert.equal(decimalOfCents(5), '0.05');
  assert.equal(decimalOfCents(-5), '-0.05');
  assert.equal(decimalOfCents(123456), '1234.56');
});

test('the kiosk page rounds half up and throws; the checkout limit rounds up', () => {
  assert.equal(parseCents('4.755'), 476);
  assert.equal(parseCents(4.75), 475);
  assert.throws(() => parseCents('four'), RangeError);
  assert.equal(offlinePolicy({ redeem: 'provisional', maxDiscount: '5.001' }).maxDiscountCents, 501);
  assert.equal(offlinePolicy({ redeem: 'provisional', maxDiscount: 5 }).maxDiscountCents, 500);
  assert.throws(() => offlinePolicy({ maxDiscount: '-1' }), TypeError);
});
