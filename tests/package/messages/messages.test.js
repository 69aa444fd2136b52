// loyalty-qualifier/messages: every reason code the engine and the reference know, in every shipped
// locale, through formatReason; the reasons themselves come from the real wasm engine's explain().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { NOW_MS, makeRequests, makeSnapshot } from '../../../bench/workloads.mjs';
import * as api from '../../../web/index.js';
import { formatMessage, formatReason, supportedLocales } from '../../../web/messages/messages.js';
import { caseOutcome } from '../engine/case_outcome.js';
import { loadPublicCases, root } from '../../support/support.js';

// The hybrid's reason codes of issue 29 (contract names), whether or not its code has landed here.
const HYBRID_CODES = ['PENDING_ORDER', 'CLAIMED_ELSEWHERE'];
// What no formatted text may keep: message syntax, or a variable's raw name.
const LEFTOVER = /[{}]|\$[a-z_]|remaining|points_needed|currency/;
const SENTINEL = 'the reason\'s own message';

/** Every reason code of the engine, with its English template, as the wasm module reports them. */
async function engineReasons() {
  const { default: createModule } = await import('../../../web/dist/loyalty_qualifier.mjs');
  const module = await createModule({ wasmBinary: readFileSync(path.join(root, 'web/dist/loyalty_qualifier.wasm')) });
  return JSON.parse(module.wire_layout()).reasons;
}

/** The codes of docs/reference.md's explain table. */
function referenceCodes() {
  const text = readFileSync(path.join(root, 'docs/reference.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Explain'), text.indexOf('\n## Errors'));
  return [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
}

/** Explain reasons as the engine gives them: the public cases and generated baskets, one per code. */
async function realReasons() {
  const byCode = new Map();
  const keep = (explanation) => {
    for (const entry of explanation.entries) for (const reason of entry.reasons) if (!byCode.has(reason.code)) byCode.set(reason.code, reason);
  };
  for (const testCase of loadPublicCases()) {
    const outcome = await caseOutcome(api, testCase);
    if (outcome.explain) keep(outcome.explain);
  }
  const spec = { rewards: 40, pointsProducts: 20, items: 4 };
  const q = await api.createQualifier(makeSnapshot(spec, 11), { now: () => NOW_MS });
  try {
    makeRequests(spec, 60, 11).forEach((request, i) => {
      const varied = { ...request };
      if (i % 5 === 1) delete varied.subtotal;
      if (i % 7 === 2) varied.items = [];
      keep(q.explain(varied));
    });
  } finally {
    q.dispose();
  }
  return byCode;
}

/** Values for a code's figure, as the engine would give them. */
function valuesOf(code, figure = 2) {
  if (code === 'BELOW_MINIMUM') return { remaining: '3.25' };
  if (code === 'INSUFFICIENT_POINTS') return { points_needed: figure };
  return {};
}

const engine = await engineReasons();
const allCodes = [...new Set([...engine.map((r) => r.code), ...referenceCodes(), ...HYBRID_CODES])];

test('the codes come from the engine and the reference, and the reference lists every engine code', () => {
  assert.ok(engine.length >= 20, `the engine reports ${engine.length} codes`);
  const documented = new Set(referenceCodes());
  for (const { code } of engine) assert.ok(documented.has(code), `docs/reference.md's explain table lacks ${code}`);
  assert.deepEqual([...supportedLocales], ['en', 'es', 'fr']);
  assert.ok(Object.isFrozen(supportedLocales));
});

test('every reason code has a message in every shipped locale, with no leftover placeholder', () => {
  for (const locale of supportedLocales) {
    for (const code of allCodes) {
      const text = formatReason({ code, message: SENTINEL, ...valuesOf(code) }, { locale });
      assert.notEqual(text, SENTINEL, `${locale} has no message for ${code}`);
      assert.ok(text.trim().length > 0, `${locale} ${code} is empty`);
      assert.doesNotMatch(text, LEFTOVER, `${locale} ${code}: ${text}`);
      if (locale !== 'en') {
        const english = formatReason({ code, ...valuesOf(code) }, { locale: 'en' });
        assert.notEqual(text, english, `${locale} ${code} is still the English text`);
      }
    }
  }
});

test('the engine\'s own reasons format in every locale, figures in place, the reason unchanged', async () => {
  const reasons = await realReasons();
  assert.ok(reasons.has('BELOW_MINIMUM') && reasons.has('INSUFFICIENT_POINTS'), [...reasons.keys()].join(' '));
  for (const [code, reason] of reasons) {
    const before = structuredClone(reason);
    for (const locale of supportedLocales) {
      const text = formatReason(reason, { locale });
      if (locale !== 'en') assert.notEqual(text, reason.message, `${locale} ${code} is the engine's English`);
      assert.doesNotMatch(text, LEFTOVER, `${locale} ${code}: ${text}`);
      if (code === 'BELOW_MINIMUM') {
        const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(reason.remaining);
        assert.ok(text.includes(amount), `${locale}: ${text} lacks ${amount}`);
      }
      if (code === 'INSUFFICIENT_POINTS') {
        const points = new Intl.NumberFormat(locale).format(reason.points_needed);
        assert.ok(text.includes(points), `${locale}: ${text} lacks ${points}`);
      }
    }
    assert.deepEqual(reason, before, `formatReason changed the ${code} reason`);
  }
});

test('the English catalog says what the engine says, but for the plural the engine gets wrong', () => {
  for (const { code, message } of engine) {
    const values = valuesOf(code, 150);
    const engineText = message.replace('{remaining}', values.remaining).replace('{points_needed}', values.points_needed);
    assert.equal(formatReason({ code, message, ...values }, { locale: 'en' }), engineText, code);
  }
  const one = { code: 'INSUFFICIENT_POINTS', message: '1 more points needed.', points_needed: 1 };
  assert.equal(formatReason(one, { locale: 'en' }), '1 more point needed.');
});

test('plurals are right for 0, 1, 2 and 5 in each locale (French: 0 and 1 are singular)', () => {
  const expected = {
    en: { 0: '0 more points needed.', 1: '1 more point needed.', 2: '2 more points needed.', 5: '5 more points needed.' },
    es: { 0: 'Faltan 0 puntos.', 1: 'Falta 1 punto.', 2: 'Faltan 2 puntos.', 5: 'Faltan 5 puntos.' },
    fr: { 0: 'Il manque 0 point.', 1: 'Il manque 1 point.', 2: 'Il manque 2 points.', 5: 'Il manque 5 points.' },
  };
  for (const locale of supportedLocales) {
    for (const n of [0, 1, 2, 5]) {
      const text = formatReason({ code: 'INSUFFICIENT_POINTS', message: '', points_needed: n }, { locale });
      assert.equal(text, expected[locale][n], `${locale} ${n}`);
    }
  }
  // CLDR's `many` (round millions) in Spanish and French: "de" before the noun.
  const million = { code: 'INSUFFICIENT_POINTS', message: '', points_needed: 1_000_000 };
  assert.match(formatReason(million, { locale: 'es' }), /^Faltan 1\.000\.000 de puntos\.$/);
  assert.match(formatReason(million, { locale: 'fr' }), /^Il manque 1\s000\s000 de points\.$/);
  assert.equal(formatReason(million, { locale: 'en' }), '1,000,000 more points needed.');
});

test('amounts are formatted by Intl.NumberFormat in the locale and currency', () => {
  const below = { code: 'BELOW_MINIMUM', message: 'Spend $3.25 more to unlock.', remaining: '3.25' };
  assert.equal(formatReason(below, { locale: 'en' }), 'Spend $3.25 more to unlock.');
  assert.match(formatReason(below, { locale: 'fr' }), /^Dépensez encore 3,25\s\$US pour en profiter\.$/);
  assert.match(formatReason(below, { locale: 'es' }), /^Gaste 3,25\sUS\$ más para desbloquearla\.$/);
  assert.match(formatReason(below, { locale: 'fr', currency: 'EUR' }), /3,25\s€/);
  assert.match(formatReason(below, { locale: 'en', currency: 'cad' }), /CA\$3\.25/);
  // The guest's own tag formats the figures: Spanish words, Mexican amounts.
  const mexico = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'USD' }).format(3.25);
  assert.equal(formatReason(below, { locale: 'es-MX' }), `Gaste ${mexico} más para desbloquearla.`);
  for (const locale of supportedLocales) {
    for (const currency of ['USD', 'EUR', 'JPY']) {
      const amount = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(21);
      assert.ok(formatReason({ ...below, remaining: '21.00' }, { locale, currency }).includes(amount), `${locale} ${currency}`);
    }
  }
});

test('the locale is negotiated as Intl does: a region or a list, English when nothing matches', () => {
  const expired = { code: 'EXPIRED', message: 'The reward has expired.' };
  const spanish = 'La recompensa ha caducado.';
  const french = 'La récompense a expiré.';
  const english = 'The reward has expired.';
  assert.equal(formatReason(expired, { locale: 'es-MX' }), spanish);
  assert.equal(formatReason(expired, { locale: 'es-419' }), spanish);
  assert.equal(formatReason(expired, { locale: 'fr-CA' }), french);
  assert.equal(formatReason(expired, { locale: 'FR-ch' }), french);
  assert.equal(formatReason(expired, { locale: 'fr-u-nu-latn' }), french);
  assert.equal(formatReason(expired, { locale: 'de' }), english);
  assert.equal(formatReason(expired, { locale: 'en-GB' }), english);
  assert.equal(formatReason(expired, { locale: ['de', 'fr-CA', 'es'] }), french);
  assert.equal(formatReason(expired, { locale: ['de-AT', 'pt-BR'] }), english);
  // No locale: the runtime's default locale, as Intl takes it.
  const runtime = new Intl.Locale(new Intl.NumberFormat().resolvedOptions().locale).language;
  const byDefault = formatReason(expired, { locale: supportedLocales.includes(runtime) ? runtime : 'en' });
  assert.equal(formatReason(expired), byDefault);
  assert.equal(formatReason(expired, {}), byDefault);
  assert.equal(formatReason(expired, { locale: [] }), byDefault);
});

test('an unknown code gives the reason\'s own message, in every locale', () => {
  for (const locale of [...supportedLocales, 'de']) {
    assert.equal(formatReason({ code: 'A_NEWER_CODE', message: 'Something the engine says.' }, { locale }),
      'Something the engine says.');
  }
});

test('bad arguments are clear errors naming what is wrong', () => {
  assert.throws(() => formatReason(null, { locale: 'en' }), { name: 'TypeError', message: /reason must be/ });
  assert.throws(() => formatReason({ message: 'x' }), { name: 'TypeError', message: /reason\.code/ });
  assert.throws(() => formatReason({ code: 'A_NEWER_CODE' }), { name: 'TypeError', message: /reason\.message/ });
  assert.throws(() => formatReason({ code: 'BELOW_MINIMUM', message: '' }, { locale: 'fr' }),
    { name: 'TypeError', message: /reason\.remaining/ });
  assert.throws(() => formatReason({ code: 'INSUFFICIENT_POINTS', message: '', points_needed: 'many' }, { locale: 'es' }),
    { name: 'TypeError', message: /reason\.points_needed/ });
  assert.throws(() => formatReason({ code: 'EXPIRED', message: '' }, { locale: 'not a tag!' }),
    { name: 'RangeError', message: /locale/ });
  assert.throws(() => formatReason({ code: 'EXPIRED', message: '' }, { locale: 'en', currency: 'dollars' }),
    { name: 'RangeError', message: /currency/ });
});

test('the reason catalogs read no variable but remaining, points_needed and currency', async () => {
  for (const locale of [...supportedLocales, 'de', 'pt-BR']) {
    const { default: catalog } = await import(`../../../web/messages/catalogs/${locale}.js`);
    for (const [code, source] of Object.entries(catalog.reasons)) {
      for (const [, name] of source.matchAll(/\$(\w+)/g)) {
        assert.ok(['remaining', 'points_needed', 'currency'].includes(name), `${locale} ${code} reads $${name}`);
      }
    }
  }
});

test('formatMessage formats an application\'s own MessageFormat 2 message as the catalogs are', () => {
  const offers = `.input {$count :integer}
.match $count
one {{{$count} oferta}}
* {{{$count} ofertas}}`;
  assert.equal(formatMessage(offers, { count: 1 }, { locale: 'es' }), '1 oferta');
  assert.equal(formatMessage(offers, { count: 2600 }, { locale: 'es-MX' }), '2,600 ofertas');
  assert.equal(formatMessage('{$n :integer} points', { n: 2600 }, { locale: 'fr' }), '2\u202f600 points');
  assert.match(formatMessage('Dépensez {$r :currency currency=USD}', { r: '3.25' }, { locale: 'fr' }), /^Dépensez 3,25\s\$US$/u);
  assert.equal(formatMessage('Hello {$name}', { name: 'Alex' }), 'Hello Alex');
  assert.throws(() => formatMessage('Hello {$name}', {}), { name: 'TypeError', message: /values\.name/ });
  assert.throws(() => formatMessage('Hello {$name', { name: 'x' }), { name: 'SyntaxError' });
  assert.throws(() => formatMessage(42), { name: 'TypeError', message: /source/ });
  assert.throws(() => formatMessage('x', {}, { locale: 'not a tag!' }), RangeError);
  // formatReason's texts come through the same compiled messages
  assert.equal(formatReason({ code: 'BELOW_MINIMUM', remaining: '3.25' }, { locale: 'fr' }),
    formatMessage('Dépensez encore {$remaining :currency currency=$currency} pour en profiter.', { remaining: '3.25', currency: 'USD' }, { locale: 'fr' }));
});
