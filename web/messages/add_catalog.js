// addCatalog: a language given as data, in the shipped catalogs' format ({ reasons, offers }, one
// Unicode MessageFormat 2 message per key), checked against the English catalog before it is used:
// every key present and no other, each message compiling, reading exactly the English message's
// arguments, and formatting without error.
import en from './catalogs/en.js';
import { useCatalog } from './catalogs.js';
import { compiledMessage, formatted } from './format_message.js';

/** Checks `catalog` and uses it for `locale` (one BCP 47 tag); returns the tag it is known by ('pt-br' -> 'pt-BR'). */
export function addCatalog(locale, catalog) {
  if (typeof locale !== 'string') throw new TypeError('locale must be a BCP 47 language tag such as \'de\'');
  let tag;
  try {
    [tag] = Intl.getCanonicalLocales(locale);
  } catch (cause) {
    throw new RangeError(`locale must be a BCP 47 language tag: ${cause.message}`, { cause });
  }
  const checked = {};
  for (const part of ['reasons', 'offers']) {
    const given = catalog?.[part];
    if (given === null || typeof given !== 'object') throw new TypeError(`catalog.${part} is missing`);
    const keys = Object.keys(en[part]);
    const missing = keys.filter((key) => !Object.hasOwn(given, key));
    if (missing.length > 0) throw new TypeError(`catalog.${part} lacks ${missing.join(', ')}`);
    const unknown = Object.keys(given).filter((key) => !keys.includes(key));
    if (unknown.length > 0) throw new TypeError(`catalog.${part} has unknown keys: ${unknown.join(', ')}`);
    checked[part] = {};
    for (const key of keys) checked[part][key] = checkedMessage(tag, `catalog.${part}.${key}`, given[key], en[part][key]);
  }
  useCatalog(tag, checked);
  return tag;
}

function checkedMessage(tag, field, source, english) {
  if (typeof source !== 'string') throw new TypeError(`${field} must be a MessageFormat 2 message`);
  let found;
  try {
    found = compiledMessage(tag, source);
  } catch (cause) {
    throw new SyntaxError(`${field}: ${cause.message}`, { cause });
  }
  const expected = compiledMessage('en', english).inputs;
  const names = (list) => list.map((name) => `$${name}`).join(', ') || 'none';
  if (found.inputs.length !== expected.length || expected.some((name) => !found.inputs.includes(name))) {
    throw new TypeError(`${field} reads ${names(found.inputs)}; its arguments are ${names(expected)}`);
  }
  // Formatted once per plural case (0, 1, 2, a round million): an unknown function or a bad option shows.
  for (const count of [0, 1, 2, 1e6]) {
    const failure = formatted(found, { remaining: '3.25', currency: 'USD', points_needed: count, points: count, value: '$5', items: 'A', minimum: '$9', maximum: '$4' })[1];
    if (failure) throw new SyntaxError(`${field}: ${failure.message}`);
  }
  return source;
}
