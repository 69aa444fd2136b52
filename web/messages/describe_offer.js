// describeOffer: an offer (a reward or points product record) described in the guest's language
// from its own structure (type, value, minimum, maximum, products, points), for a page whose guest
// does not read the language of the merchant's labels.
import { catalogOf } from './catalogs.js';
import { currencyCode, figureText } from './figures.js';
import { compiledMessage, formatted } from './format_message.js';
import { guestLocale } from './guest_locale.js';

const ITEM_KINDS = ['free_item', 'bogo', 'modifier'];

/** { title, detail } of one offer in the best catalog for `options.locale`; docs/reference.md, "Messages". */
export function describeOffer(offer, options = {}) {
  if (offer === null || typeof offer !== 'object') throw new TypeError('offer must be a reward or points product record');
  const { locale, currency = 'USD', region, productName, categoryName } = options ?? {};
  const code = currencyCode(currency);
  if (![productName, categoryName].every((name) => name === undefined || typeof name === 'function')) {
    throw new TypeError('productName and categoryName must be functions: (id) => its name');
  }
  const { language, tag } = guestLocale(locale, region);
  const say = (key, values = {}) => formatted(compiledMessage(tag, catalogOf(language).offers[key]), values)[0];
  const money = (text) => {
    const digits = /\.\d*[1-9]/.test(text) ? undefined : 0; // whole amounts without cents: "$5 off"
    return new Intl.NumberFormat(tag, { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(text);
  };

  // Each field read once and checked before anything is formatted.
  const type = offer.type;
  if (typeof type !== 'string') throw new TypeError('offer.type must be a string');
  const kind = type === 'item' ? offer.item_kind ?? 'free_item' : type;
  const value = ['amount', 'percent', 'fixed_price', ...ITEM_KINDS].includes(kind) ? figureText(offer.value, 'offer.value') : null;
  const figure = (field, given = offer[field]) => (given === null || given === undefined ? null : figureText(given, `offer.${field}`));
  const minimum = figure('minimum');
  const maximum = figure('maximum');
  const points = figure('points');
  const ids = (field, given = offer[field] ?? []) => {
    if (Array.isArray(given) && given.every((id) => typeof id === 'string')) return given;
    throw new TypeError(`offer.${field} must be an array of ids`);
  };
  // What it applies to: every item, or its products and categories by the page's names for them
  // ("Latte or Cappuccino"), or "selected items" when the page cannot name one of them.
  const names = [...ids('products').map((id) => productName?.(id)), ...ids('categories').map((id) => categoryName?.(id))];
  const any = names.length === 0;
  const items = any || !names.every((name) => typeof name === 'string' && name) ? null
    : new Intl.ListFormat(tag, { type: 'disjunction' }).format(names);

  let title;
  if (kind === 'amount' || kind === 'percent' || kind === 'fixed_price') {
    const amount = kind === 'percent' ? new Intl.NumberFormat(tag, { style: 'unit', unit: 'percent' }).format(value) : money(value);
    const [whole, restricted] = kind === 'fixed_price' ? ['price', 'priceItems'] : ['off', 'offItems'];
    title = any ? say(whole, { value: amount }) : say(restricted, { value: amount, items: items ?? say('someItems') });
  } else if (ITEM_KINDS.includes(kind)) {
    title = items ? say(kind === 'bogo' ? 'bogo' : 'free', { items }) : say({ bogo: 'bogoAny', modifier: 'freeExtra' }[kind] ?? 'freeItem');
  } else {
    title = say('other');
  }

  // The conditions: the points it costs, the minimum order, the most it takes off (an item's
  // `value` caps its price when above 0, as `maximum` caps every discount).
  let cap = maximum;
  if (ITEM_KINDS.includes(kind) && Number(value) > 0 && (cap === null || Number(value) < Number(cap))) cap = value;
  const detail = [
    points !== null && say('points', { points }),
    minimum !== null && say('minimum', { minimum: money(minimum) }),
    cap !== null && say('maximum', { maximum: money(cap) }),
  ].filter(Boolean).join(' · ');
  return { title, detail };
}
