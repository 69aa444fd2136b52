// Languages as data (issue 39): addCatalog checks a catalog in the shipped format before using it
// (every reason code and every offer message present, each compiling and reading exactly its
// documented arguments), German and Brazilian Portuguese ship as two such catalogs, loaded only when
// a page adds them, and negotiateLocale says which language a text is given in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import de from '../../../web/messages/catalogs/de.js';
import en from '../../../web/messages/catalogs/en.js';
import es from '../../../web/messages/catalogs/es.js';
import fr from '../../../web/messages/catalogs/fr.js';
import ptBR from '../../../web/messages/catalogs/pt-BR.js';
import { addCatalog, formatReason, negotiateLocale, supportedLocales } from '../../../web/messages/messages.js';
import { root } from '../../support/support.js';

const SHIPPED = { en, es, fr, de, 'pt-BR': ptBR };
const LEFTOVER = /[{}]|\$[a-z_]|remaining|points_needed|currency|undefined|NaN/;
const copy = (catalog) => structuredClone(catalog);

/** The reason codes of docs/reference.md's explain table, with PENDING_ORDER and CLAIMED_ELSEWHERE. */
function documentedCodes() {
  const text = readFileSync(path.join(root, 'docs/reference.md'), 'utf8');
  const explain = text.slice(text.indexOf('\n## Explain'), text.indexOf('\n## Errors'));
  return [...new Set([...explain.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]).concat('PENDING_ORDER', 'CLAIMED_ELSEWHERE'))];
}

test('German and Portuguese are loaded only when added: until then their guests read English', () => {
  assert.deepEqual([...supportedLocales], ['en', 'es', 'fr']);
  assert.equal(negotiateLocale('de-AT'), 'en');
  assert.equal(negotiateLocale(['pt-BR', 'fr']), 'fr');
  assert.equal(formatReason({ code: 'EXPIRED', message: 'The reward has expired.' }, { locale: 'de' }), 'The reward has expired.');
  assert.equal(addCatalog('de', de), 'de');
  assert.equal(addCatalog('pt-br', ptBR), 'pt-BR');
  assert.deepEqual([...supportedLocales], ['en', 'es', 'fr', 'de', 'pt-BR']);
  assert.ok(Object.isFrozen(supportedLocales));
  assert.equal(formatReason({ code: 'EXPIRED', message: '' }, { locale: 'de' }), 'Die Prämie ist abgelaufen.');
  assert.equal(formatReason({ code: 'EXPIRED', message: '' }, { locale: 'pt-BR' }), 'A recompensa expirou.');
});

test('negotiateLocale: the language a text is given in, as Intl\'s lookup, then by language alone', () => {
  assert.equal(negotiateLocale('es-MX'), 'es');
  assert.equal(negotiateLocale('fr-CA-u-nu-latn'), 'fr');
  assert.equal(negotiateLocale('pt-PT'), 'pt-BR'); // no European catalog: the Brazilian one, not English
  assert.equal(negotiateLocale('pt'), 'pt-BR');
  assert.equal(negotiateLocale(['ja', 'de-CH']), 'de');
  assert.equal(negotiateLocale(['ja', 'ko']), 'en');
  assert.throws(() => negotiateLocale('es\u0000fr'), RangeError);
  const runtime = new Intl.Locale(new Intl.NumberFormat().resolvedOptions().locale).language;
  assert.equal(negotiateLocale(), ['en', 'es', 'fr', 'de'].includes(runtime) ? runtime : runtime === 'pt' ? 'pt-BR' : 'en');
});

test('every shipped catalog has every documented reason code and passes addCatalog\'s checks', () => {
  const codes = documentedCodes();
  assert.ok(codes.length >= 22, codes.join(' '));
  for (const [locale, catalog] of Object.entries(SHIPPED)) {
    for (const code of codes) assert.ok(Object.hasOwn(catalog.reasons, code), `${locale} lacks ${code}`);
    assert.deepEqual(Object.keys(catalog.reasons).sort(), Object.keys(en.reasons).sort(), locale);
    assert.deepEqual(Object.keys(catalog.offers).sort(), Object.keys(en.offers).sort(), locale);
    assert.equal(addCatalog(locale, copy(catalog)), locale);
  }
});

test('every reason code in every shipped locale, in USD, EUR and JPY: its figure, not English', () => {
  for (const locale of Object.keys(SHIPPED)) {
    for (const currency of ['USD', 'EUR', 'JPY']) {
      for (const code of Object.keys(en.reasons)) {
        const reason = { code, message: 'the engine\'s own words', remaining: '21.5', points_needed: 2 };
        const text = formatReason(reason, { locale, currency, region: 'US' });
        assert.doesNotMatch(text, LEFTOVER, `${locale} ${currency} ${code}: ${text}`);
        assert.notEqual(text, reason.message, `${locale} ${code}`);
        if (locale !== 'en') assert.notEqual(text, formatReason(reason, { locale: 'en', currency }), `${locale} ${code} is English`);
        if (code === 'BELOW_MINIMUM') {
          const tag = new Intl.Locale(locale, { region: 'US' }).toString();
          const amount = new Intl.NumberFormat(tag, { style: 'currency', currency }).format(currency === 'JPY' ? 22 : 21.5);
          assert.ok(text.includes(amount), `${locale} ${currency}: ${text} lacks ${amount}`);
        }
      }
    }
  }
});

test('points still needed take each language\'s plural at 0, 1, 2 and large counts', () => {
  const million = (locale) => new Intl.NumberFormat(locale).format(1_000_000).replace(/\s/g, ' ');
  const expected = {
    en: ['0 more points needed.', '1 more point needed.', '2 more points needed.', `${million('en')} more points needed.`],
    es: ['Faltan 0 puntos.', 'Falta 1 punto.', 'Faltan 2 puntos.', `Faltan ${million('es')} de puntos.`],
    fr: ['Il manque 0 point.', 'Il manque 1 point.', 'Il manque 2 points.', `Il manque ${million('fr')} de points.`],
    de: ['Es fehlen 0 Punkte.', 'Es fehlt 1 Punkt.', 'Es fehlen 2 Punkte.', `Es fehlen ${million('de')} Punkte.`],
    'pt-BR': ['Falta 0 ponto.', 'Falta 1 ponto.', 'Faltam 2 pontos.', `Faltam ${million('pt-BR')} de pontos.`],
  };
  for (const [locale, texts] of Object.entries(expected)) {
    const made = [0, 1, 2, 1_000_000].map((n) =>
      formatReason({ code: 'INSUFFICIENT_POINTS', message: '', points_needed: n }, { locale }).replace(/\s/g, ' '));
    assert.deepEqual(made, texts, locale);
  }
});

test('a catalog with a missing reason code or offer message is refused, naming what is missing', () => {
  const lacking = copy(de);
  delete lacking.reasons.BELOW_MINIMUM;
  delete lacking.reasons.CLAIMED_ELSEWHERE;
  assert.throws(() => addCatalog('it', lacking), { name: 'TypeError', message: 'catalog.reasons lacks BELOW_MINIMUM, CLAIMED_ELSEWHERE' });
  const noTitle = copy(de);
  delete noTitle.offers.bogo;
  assert.throws(() => addCatalog('it', noTitle), { name: 'TypeError', message: 'catalog.offers lacks bogo' });
  assert.throws(() => addCatalog('it', { reasons: de.reasons }), { name: 'TypeError', message: /catalog\.offers is missing/ });
  assert.throws(() => addCatalog('it', null), { name: 'TypeError', message: /catalog\.reasons is missing/ });
  assert.throws(() => addCatalog('it', { ...copy(de), reasons: { ...de.reasons, BELOW_MINIMUN: 'x' } }),
    { name: 'TypeError', message: /catalog\.reasons has unknown keys: BELOW_MINIMUN/ });
  assert.ok(!supportedLocales.includes('it'), 'a refused catalog is not used');
});

test('each message must compile and read exactly its documented arguments', () => {
  const with_ = (part, key, source) => {
    const catalog = copy(de);
    catalog[part][key] = source;
    return catalog;
  };
  assert.throws(() => addCatalog('it', with_('reasons', 'EXPIRED', 'Scaduto {$x')), { name: 'SyntaxError', message: /^catalog\.reasons\.EXPIRED: / });
  assert.throws(() => addCatalog('it', with_('reasons', 'EXPIRED', 42)), { name: 'TypeError', message: /catalog\.reasons\.EXPIRED must be a MessageFormat 2 message/ });
  // BELOW_MINIMUM without its amount: the guest would not learn how much.
  assert.throws(() => addCatalog('it', with_('reasons', 'BELOW_MINIMUM', 'Spendi di più.')),
    { name: 'TypeError', message: 'catalog.reasons.BELOW_MINIMUM reads none; its arguments are $remaining, $currency' });
  assert.throws(() => addCatalog('it', with_('reasons', 'EXPIRED', 'Scaduto il {$date}.')),
    { name: 'TypeError', message: 'catalog.reasons.EXPIRED reads $date; its arguments are none' });
  assert.throws(() => addCatalog('it', with_('offers', 'free', '{$item} gratis')),
    { name: 'TypeError', message: 'catalog.offers.free reads $item; its arguments are $items' });
  assert.throws(() => addCatalog('it', with_('offers', 'off', '{$value :percent} di sconto')), { name: 'SyntaxError', message: /catalog\.offers\.off: .*percent/ });
  assert.throws(() => addCatalog('it', with_('reasons', 'INSUFFICIENT_POINTS', `.input {$points_needed :integer}
.match $points_needed
one {{Manca {$points_needed} punto.}}
* {{Mancano {$points_needed :nonesuch} punti.}}`)), { name: 'SyntaxError', message: /INSUFFICIENT_POINTS: .*nonesuch/ });
  assert.throws(() => addCatalog('not a tag!', copy(de)), RangeError);
  assert.throws(() => addCatalog(['it'], copy(de)), TypeError);
});

test('a catalog is data: added, it is used as given, and changing the object afterwards changes nothing', () => {
  const italian = copy(en);
  italian.reasons.EXPIRED = 'La ricompensa è scaduta.';
  italian.reasons.BELOW_MINIMUM = 'Spendi ancora {$remaining :currency currency=$currency} per sbloccarla.';
  assert.equal(addCatalog('it', italian), 'it');
  italian.reasons.EXPIRED = 'changed afterwards';
  assert.equal(formatReason({ code: 'EXPIRED', message: '' }, { locale: 'it-CH' }), 'La ricompensa è scaduta.');
  assert.match(formatReason({ code: 'BELOW_MINIMUM', message: '', remaining: '3.25' }, { locale: 'it', currency: 'EUR' }), /^Spendi ancora 3,25\s€ per sbloccarla\.$/);
  assert.equal(negotiateLocale('it-IT'), 'it');
  // A catalog replaced: the texts made with the old one are not given again.
  const spanish = copy(es);
  spanish.reasons.EXPIRED = 'Caducó.';
  assert.equal(formatReason({ code: 'EXPIRED', message: '' }, { locale: 'es' }), 'La recompensa ha caducado.');
  addCatalog('es', spanish);
  assert.equal(formatReason({ code: 'EXPIRED', message: '' }, { locale: 'es' }), 'Caducó.');
});
