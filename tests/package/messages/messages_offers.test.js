// describeOffer (issue 39): every offer type described in every shipped locale (German and Brazilian
// Portuguese added as a page adds them), in USD, EUR and JPY, points counted at 0, 1, 2 and large
// counts; amounts in the guest's language as the store's region writes them; the merchant's label
// never read; fields that are not what a record holds refused, naming the field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import de from '../../../web/messages/catalogs/de.js';
import ptBR from '../../../web/messages/catalogs/pt-BR.js';
import { addCatalog, describeOffer, formatMessage, negotiateLocale } from '../../../web/messages/messages.js';
import { root } from '../../support/support.js';

addCatalog('de', de);
addCatalog('pt-BR', ptBR);
const LOCALES = ['en', 'es', 'fr', 'de', 'pt-BR'];
const CURRENCIES = ['USD', 'EUR', 'JPY'];
const LEFTOVER = /[{}]|\$[a-z_]|undefined|null|NaN/;
const NAMES = { latte: 'Latte', cappuccino: 'Cappuccino', croissant: 'Croissant', oat_milk: 'Oat milk', pastry: 'Pastries' };
const productName = (id) => NAMES[id];
const categoryName = (id) => NAMES[id];

/** One record of each type the contract knows, and one it does not: [name, record, what it shows]. */
const OFFERS = [
  ['amount', { type: 'amount', value: '5.00', minimum: '15.00', maximum: null, products: [], label: 'LABEL' }, { value: 5, minimum: 15 }],
  ['amount on products', { type: 'amount', value: 4, products: ['latte'], label: 'LABEL' }, { value: 4, items: 'Latte' }],
  ['percent', { type: 'percent', value: 20, minimum: '8.00', maximum: 4, products: [], categories: ['pastry'] }, { percent: 20, minimum: 8, maximum: 4, items: 'Pastries' }],
  ['free item', { type: 'item', item_kind: 'free_item', value: 6, products: ['latte', 'cappuccino'] }, { maximum: 6, items: 'Latte' }],
  ['free item, any', { type: 'item', value: 0, products: [] }, {}],
  ['buy one get one', { type: 'item', item_kind: 'bogo', value: 0, products: ['croissant'] }, { items: 'Croissant' }],
  ['free modifier', { type: 'item', item_kind: 'modifier', value: '0.75', maximum: '0.50', products: ['oat_milk'] }, { maximum: 0.5, items: 'Oat milk' }],
  ['fixed price', { type: 'fixed_price', value: '1.00', categories: ['pastry'] }, { value: 1, items: 'Pastries' }],
  ['fixed price, any', { type: 'fixed_price', value: '2.50' }, { value: 2.5 }],
  ['points product', { type: 'amount', value: 2, points: 1500, products: [] }, { value: 2, points: 1500 }],
  ['a newer type', { type: 'mystery_box', value: 'whatever', points: 10 }, { points: 10 }],
];

/** An amount as describeOffer writes it: whole amounts without cents. */
function money(tag, currency, amount) {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(tag, { style: 'currency', currency, ...(whole && { minimumFractionDigits: 0, maximumFractionDigits: 0 }) }).format(amount);
}

test('every offer type in every shipped locale and currency: its figures, no placeholder left, not English', () => {
  for (const locale of LOCALES) {
    for (const currency of CURRENCIES) {
      for (const [name, offer, shows] of OFFERS) {
        const tag = new Intl.Locale(locale, { region: 'US' }).toString();
        const { title, detail } = describeOffer(offer, { locale, currency, region: 'US', productName, categoryName });
        const what = `${locale} ${currency} ${name}: ${title} / ${detail}`;
        assert.ok(title.length > 0, what);
        assert.doesNotMatch(`${title} ${detail}`, LEFTOVER, what);
        assert.doesNotMatch(title, /LABEL/, what);
        if (shows.value !== undefined) assert.ok(title.includes(money(tag, currency, shows.value)), `${what} lacks ${money(tag, currency, shows.value)}`);
        if (shows.percent !== undefined) {
          assert.ok(title.includes(new Intl.NumberFormat(tag, { style: 'unit', unit: 'percent' }).format(shows.percent)), what);
        }
        if (shows.items) assert.ok(title.includes(shows.items), what);
        if (shows.minimum !== undefined) assert.ok(detail.includes(money(tag, currency, shows.minimum)), what);
        if (shows.maximum !== undefined) assert.ok(detail.includes(money(tag, currency, shows.maximum)), what);
        if (shows.points !== undefined) assert.ok(detail.includes(new Intl.NumberFormat(tag).format(shows.points)), what);
        if (Object.keys(shows).length === 0 || (shows.items && shows.minimum === undefined && shows.maximum === undefined && shows.points === undefined)) {
          assert.equal(detail, '', what);
        }
        if (locale !== 'en') {
          const english = describeOffer(offer, { locale: 'en', currency, region: 'US', productName, categoryName });
          assert.notEqual(title, english.title, what);
        }
      }
    }
  }
});

test('the offers read as written in each language (US dollars in a US store)', () => {
  const welcome = OFFERS[0][1];
  const latte = OFFERS[3][1];
  const expected = {
    en: [['$5 off your order', 'On orders of $15 or more'], ['Free Latte or Cappuccino', 'Up to $6']],
    es: [['$5 de descuento en su pedido', 'En pedidos de $15 o más'], ['Latte o Cappuccino gratis', 'Hasta $6']],
    fr: [['5 $US de réduction sur votre commande', 'Pour une commande de 15 $US ou plus'], ['Offert : Latte ou Cappuccino', 'Jusqu’à 6 $US']],
    de: [['5 $ Rabatt auf Ihre Bestellung', 'Ab 15 $ Bestellwert'], ['Latte oder Cappuccino gratis', 'Bis zu 6 $']],
    'pt-BR': [['US$ 5 de desconto no seu pedido', 'Em pedidos a partir de US$ 15'], ['Latte ou Cappuccino grátis', 'Até US$ 6']],
  };
  const plain = (text) => text.replace(/\s/g, ' ');
  for (const locale of LOCALES) {
    const options = { locale, region: 'US', productName };
    assert.deepEqual(Object.values(describeOffer(welcome, options)).map(plain), expected[locale][0], locale);
    assert.deepEqual(Object.values(describeOffer(latte, options)).map(plain), expected[locale][1], locale);
  }
  // Without a region, the guest's own: Spanish from Spain writes "5 US$".
  assert.match(describeOffer(welcome, { locale: 'es' }).title, /^5\sUS\$ de descuento en su pedido$/);
  assert.match(describeOffer(welcome, { locale: 'es', currency: 'EUR', region: 'ES' }).title, /^5\s€ de descuento en su pedido$/);
  assert.equal(describeOffer(welcome, { locale: 'en', currency: 'JPY' }).title, '¥5 off your order');
  // Cents where there are cents.
  assert.equal(describeOffer({ type: 'amount', value: '2.50' }, { locale: 'en' }).title, '$2.50 off your order');
});

test('points are counted with the language\'s plurals at 0, 1, 2 and large counts', () => {
  // A million as Intl writes it in the language in a US store (ICU has US data for some languages only).
  const million = (locale) => new Intl.NumberFormat(new Intl.Locale(locale, { region: 'US' }).toString()).format(1_000_000).replace(/\s/g, ' ');
  const expected = {
    en: ['0 points', '1 point', '2 points', `${million('en')} points`],
    es: ['0 puntos', '1 punto', '2 puntos', `${million('es')} de puntos`],
    fr: ['0 point', '1 point', '2 points', `${million('fr')} de points`],
    de: ['0 Punkte', '1 Punkt', '2 Punkte', `${million('de')} Punkte`],
    'pt-BR': ['0 ponto', '1 ponto', '2 pontos', `${million('pt-BR')} de pontos`],
  };
  for (const locale of LOCALES) {
    const texts = [0, 1, 2, 1_000_000].map((points) =>
      describeOffer({ type: 'amount', value: 2, points }, { locale, region: 'US' }).detail.replace(/\s/g, ' '));
    assert.deepEqual(texts, expected[locale], locale);
  }
  // The guest's own region groups as it does: a million in Germany.
  assert.match(describeOffer({ type: 'amount', value: 2, points: 1_000_000 }, { locale: 'de-DE' }).detail, /^1\.000\.000 Punkte$/);
});

test('restricted products the page cannot name read "selected items", never an id', () => {
  const restricted = { type: 'amount', value: 3, products: ['tote_bag'] };
  assert.equal(describeOffer(restricted, { locale: 'en' }).title, '$3 off selected items');
  assert.equal(describeOffer(restricted, { locale: 'en', productName: () => undefined }).title, '$3 off selected items');
  assert.equal(describeOffer(restricted, { locale: 'es', region: 'US', productName: (id) => (id === 'tote_bag' ? 'Bolsa' : undefined) }).title, '$3 de descuento en Bolsa');
  assert.equal(describeOffer({ type: 'item', item_kind: 'bogo', value: 0, products: ['x'] }, { locale: 'fr' }).title, '1 acheté, 1 offert');
  assert.equal(describeOffer({ type: 'item', item_kind: 'modifier', value: 0, products: ['x'] }, { locale: 'de' }).title, 'Ein Extra gratis');
});

test('the demo\'s records are all described, in every shipped locale', () => {
  const demo = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
  for (const record of [...demo.rewards, ...demo.points_products]) {
    for (const locale of LOCALES) {
      const { title, detail } = describeOffer(record, { locale, region: 'US' });
      assert.ok(title && !LEFTOVER.test(title + detail), `${record.id} ${locale}: ${title} / ${detail}`);
    }
  }
});

test('fields that are not what a record holds are TypeErrors naming the field; options are checked', () => {
  const ok = { type: 'amount', value: 5 };
  assert.throws(() => describeOffer(null), { name: 'TypeError', message: /offer must be/ });
  assert.throws(() => describeOffer({ value: 5 }), { name: 'TypeError', message: /offer\.type/ });
  for (const value of [NaN, -1, '5$', { valueOf: () => 5 }, undefined]) {
    assert.throws(() => describeOffer({ type: 'amount', value }), { name: 'TypeError', message: /offer\.value/ }, String(value));
  }
  assert.throws(() => describeOffer({ ...ok, minimum: -2 }), { name: 'TypeError', message: /offer\.minimum/ });
  assert.throws(() => describeOffer({ ...ok, maximum: Infinity }), { name: 'TypeError', message: /offer\.maximum/ });
  assert.throws(() => describeOffer({ ...ok, points: -10 }), { name: 'TypeError', message: /offer\.points/ });
  assert.throws(() => describeOffer({ ...ok, products: 'latte' }), { name: 'TypeError', message: /offer\.products/ });
  assert.throws(() => describeOffer({ ...ok, categories: [1] }), { name: 'TypeError', message: /offer\.categories/ });
  assert.throws(() => describeOffer(ok, { productName: 'Latte' }), { name: 'TypeError', message: /productName/ });
  assert.throws(() => describeOffer(ok, { currency: 'dollars' }), { name: 'RangeError', message: /currency/ });
  assert.throws(() => describeOffer(ok, { locale: 'not a tag!' }), { name: 'RangeError', message: /locale/ });
  assert.throws(() => describeOffer(ok, { region: 'America' }), { name: 'RangeError', message: /region/ });
  // Each field is read once.
  const reads = {};
  const counted = new Proxy({ type: 'percent', value: 10, minimum: '8', maximum: '3', points: 5, products: [], categories: [] }, {
    get(target, key) {
      reads[key] = (reads[key] ?? 0) + 1;
      return target[key];
    },
  });
  describeOffer(counted, { locale: 'en' });
  assert.deepEqual(Object.values(reads).filter((n) => n > 1), [], JSON.stringify(reads));
});

test('region: every function of the entry writes the guest\'s language as the store\'s region does', () => {
  // es + US formats as es-US: "$4.00", in the reasons, the page's own messages and the offers alike.
  const reason = { code: 'BELOW_MINIMUM', message: '', remaining: '4.00' };
  assert.equal(formatMessage('{$n :currency currency=USD}', { n: '4.00' }, { locale: 'es', region: 'US' }), '$4.00');
  assert.equal(describeOffer({ type: 'amount', value: '4.50' }, { locale: 'es', region: 'US' }).title, '$4.50 de descuento en su pedido');
  assert.equal(formatMessage('{$n :integer}', { n: 1500 }, { locale: 'es', region: 'US' }), '1,500');
  assert.equal(formatMessage('{$n :integer}', { n: 15000 }, { locale: 'es', region: 'ES' }), '15.000');
  assert.equal(negotiateLocale('es-MX'), 'es');
  return import('../../../web/messages/messages.js').then(({ formatReason }) => {
    assert.equal(formatReason(reason, { locale: 'es', region: 'US' }), 'Gaste $4.00 más para desbloquearla.');
    assert.equal(formatReason(reason, { locale: 'es-MX', region: 'us' }), 'Gaste $4.00 más para desbloquearla.');
    assert.match(formatReason(reason, { locale: 'fr', region: 'CA' }), /^Dépensez encore 4,00\s\$\sUS pour en profiter\.$/);
  });
});
