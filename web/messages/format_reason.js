// formatReason: the guest-facing text of one explain reason in the guest's language, from the
// catalogs (Unicode MessageFormat 2, formatted by the `messageformat` reference implementation
// with Intl.PluralRules and Intl.NumberFormat).
import en from './catalogs/en.js';
import es from './catalogs/es.js';
import fr from './catalogs/fr.js';
import { compiledMessage } from './format_message.js';
import { guestLocale } from './guest_locale.js';

const CATALOGS = { en, es, fr };
const CURRENCY = /^[A-Za-z]{3}$/;

// The texts already made: a kiosk shows the same few reasons again and again, and each figure
// formatted costs an Intl.NumberFormat (compiled messages are kept by compiledMessage).
const texts = new Map();
const TEXTS_MAX = 512;

/** The text of one explain reason in the best shipped match of `locale`; docs/reference.md, "Messages". */
export function formatReason(reason, options = {}) {
  if (reason === null || typeof reason !== 'object') {
    throw new TypeError('reason must be an explain reason: { code, message, ...its values }');
  }
  if (typeof reason.code !== 'string') throw new TypeError('reason.code must be a string');
  const { locale, currency = 'USD' } = options ?? {};
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
    throw new RangeError(`currency must be an ISO 4217 code such as 'USD', not ${JSON.stringify(currency)}`);
  }
  const currencyCode = currency.toUpperCase();
  const { language, tag } = guestLocale(locale);
  if (!Object.hasOwn(CATALOGS[language], reason.code)) {
    if (typeof reason.message !== 'string') {
      throw new TypeError(`reason.message must be a string: ${reason.code} has no catalog entry, so its own message is the text`);
    }
    return reason.message;
  }
  // The key holds every variable a catalog message reads (the package's tests check that no
  // message reads another).
  const { remaining, points_needed: pointsNeeded } = reason;
  const textKey = [tag, currencyCode, reason.code, typeof remaining, remaining, typeof pointsNeeded, pointsNeeded].join('\u0000');
  const known = texts.get(textKey);
  if (known !== undefined) return known;
  let failure;
  const text = compiledMessage(tag, CATALOGS[language][reason.code]).format({ ...reason, currency: currencyCode }, (error) => {
    failure ??= error;
  });
  if (failure !== undefined) {
    // The value at fault: named by the error, else the message's one figure (never $currency,
    // which was checked above).
    const variable = /\$(\w+)/.exec(failure.message)?.[1] ?? /\$(?!currency\b)(\w+)/.exec(CATALOGS[language][reason.code])[1];
    throw new TypeError(`reason.${variable} is missing or not a number for ${reason.code}: ${failure.message}`);
  }
  if (texts.size >= TEXTS_MAX) texts.clear();
  texts.set(textKey, text);
  return text;
}
