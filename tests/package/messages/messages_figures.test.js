// formatReason and formatMessage format only the figures they are given (issue 35, finding 5): each
// figure is read once and checked (a finite, non-negative number or decimal string), the texts kept
// are keyed on the values formatted, a malformed locale is refused on every call, formatMessage reads
// only the values' own properties, and what a guest must still spend is rounded up to what can be paid.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatMessage, formatReason } from '../../../web/messages/messages.js';

const below = (remaining) => ({ code: 'BELOW_MINIMUM', message: '', remaining });
const points = (needed) => ({ code: 'INSUFFICIENT_POINTS', message: '', points_needed: needed });

test('a figure is read once: a reason whose getter changes its answer cannot put another text in the kept ones', () => {
  let reads = 0;
  const hostile = { code: 'BELOW_MINIMUM', message: '', get remaining() {
    reads += 1;
    return reads === 1 ? '1.00' : '999.00';
  } };
  assert.equal(formatReason(hostile, { locale: 'en' }), 'Spend $1.00 more to unlock.');
  assert.equal(reads, 1);
  assert.equal(formatReason(below('1.00'), { locale: 'en' }), 'Spend $1.00 more to unlock.');
  assert.equal(formatReason(below('999.00'), { locale: 'en' }), 'Spend $999.00 more to unlock.');
});

test('an object is no figure, whatever its valueOf says: a TypeError naming the field', () => {
  for (const value of [7, 9]) {
    const object = { valueOf: () => value, toString: () => String(value) };
    assert.throws(() => formatReason(below(object), { locale: 'en' }), { name: 'TypeError', message: /reason\.remaining/ });
    assert.throws(() => formatReason(points(object), { locale: 'en' }), { name: 'TypeError', message: /reason\.points_needed/ });
  }
  assert.throws(() => formatReason(below(new String('3.25')), { locale: 'en' }), { name: 'TypeError', message: /reason\.remaining/ });
});

test('NaN, Infinity, negative and non-decimal figures are TypeErrors naming the field, never formatted', () => {
  for (const bad of [NaN, Infinity, -Infinity, -5, -0.01, '-5.00', '1e3', '0x10', ' 3', '3.', '.5', '', 'NaN', true, null, undefined]) {
    assert.throws(() => formatReason(below(bad), { locale: 'en' }), { name: 'TypeError', message: /^reason\.remaining must be a finite, non-negative number or decimal string/ }, String(bad));
    assert.throws(() => formatReason(points(bad), { locale: 'fr' }), { name: 'TypeError', message: /^reason\.points_needed must be a finite, non-negative number or decimal string/ }, String(bad));
  }
  // Numbers are read as their shortest decimal text, so no binary noise reaches the guest.
  assert.equal(formatReason(below(0.1 + 0.2), { locale: 'en' }), 'Spend $0.31 more to unlock.'); // 0.30000000000000004, rounded up
  assert.equal(formatReason(below(-0), { locale: 'en' }), 'Spend $0.00 more to unlock.');
  assert.equal(formatReason(below(1e-7), { locale: 'en' }), 'Spend $0.01 more to unlock.');
  assert.equal(formatReason(below(3.25), { locale: 'en' }), 'Spend $3.25 more to unlock.');
  assert.equal(formatReason(points(150), { locale: 'en' }), '150 more points needed.');
  assert.equal(formatReason(points('2'), { locale: 'en' }), '2 more points needed.');
});

test('what a guest must still spend or earn is rounded up to what can be paid', () => {
  assert.equal(formatReason(below('0.49'), { locale: 'en', currency: 'JPY' }), 'Spend ¥1 more to unlock.');
  assert.equal(formatReason(below(0.49), { locale: 'en', currency: 'JPY' }), 'Spend ¥1 more to unlock.');
  assert.equal(formatReason(below('0.00001'), { locale: 'en', currency: 'JPY' }), 'Spend ¥1 more to unlock.');
  assert.equal(formatReason(below('3.251'), { locale: 'en' }), 'Spend $3.26 more to unlock.');
  assert.equal(formatReason(below('3.2500'), { locale: 'en' }), 'Spend $3.25 more to unlock.');
  assert.equal(formatReason(below('9.999'), { locale: 'en', currency: 'EUR' }), 'Spend €10.00 more to unlock.');
  assert.match(formatReason(below('0.0001'), { locale: 'en', currency: 'KWD' }), /^Spend KWD\s0\.001 more to unlock\.$/); // three-decimal dinar
  assert.equal(formatReason(points(1.5), { locale: 'en' }), '2 more points needed.');
  assert.equal(formatReason(points('0.2'), { locale: 'es' }), 'Falta 1 punto.');
  // Rounded up in decimal, before any binary floating point: 1.005 is not 1.00499999….
  assert.equal(formatReason(below('1.005'), { locale: 'en' }), 'Spend $1.01 more to unlock.');
  assert.equal(formatReason(below('1.001'), { locale: 'en' }), 'Spend $1.01 more to unlock.');
});

test('a malformed locale is a RangeError on every call, whatever was asked before', () => {
  const expired = { code: 'EXPIRED', message: 'x' };
  assert.throws(() => formatReason(expired, { locale: 'es\u0000fr' }), RangeError);
  assert.equal(formatReason(expired, { locale: ['es', 'fr'] }), 'La recompensa ha caducado.');
  assert.throws(() => formatReason(expired, { locale: 'es\u0000fr' }), RangeError);
  assert.throws(() => formatMessage('x', {}, { locale: 'es\u0000fr' }), RangeError);
  assert.equal(formatReason(expired, { locale: ['es', 'fr'] }), 'La recompensa ha caducado.');
  assert.throws(() => formatReason(expired, { locale: ['es', 'not a tag!'] }), RangeError);
  assert.throws(() => formatReason(expired, { locale: ['es', 'not a tag!'] }), RangeError);
  assert.throws(() => formatReason(expired, { locale: 'es', region: 'USA!' }), { name: 'RangeError', message: /region/ });
});

test('formatMessage reads only the values\' own properties', () => {
  assert.throws(() => formatMessage('{$toString}', {}), { name: 'TypeError', message: /values\.toString/ });
  assert.throws(() => formatMessage('{$constructor}', {}), { name: 'TypeError', message: /values\.constructor/ });
  assert.throws(() => formatMessage('{$hasOwnProperty} {$n}', { n: 1 }), { name: 'TypeError', message: /values\.hasOwnProperty/ });
  const inherited = Object.create({ name: 'from the prototype' });
  assert.throws(() => formatMessage('Hello {$name}', inherited), { name: 'TypeError', message: /values\.name/ });
  assert.equal(formatMessage('Hello {$toString}', { toString: 'own' }), 'Hello own');
  // Each value the message reads is read once.
  let reads = 0;
  const counted = { get name() {
    reads += 1;
    return `Alex ${reads}`;
  } };
  assert.equal(formatMessage('{$name}, {$name}', counted), 'Alex 1, Alex 1');
  assert.equal(reads, 1);
});
