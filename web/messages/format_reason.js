// formatReason: the guest-facing text of one explain reason in the guest's language, from the
// catalogs (Unicode MessageFormat 2, formatted by the `messageformat` reference implementation
// with Intl.PluralRules and Intl.NumberFormat).
import { catalogOf } from './catalogs.js';
import { currencyCode, figureText, minorDigits, roundedUp } from './figures.js';
import { compiledMessage, formatted } from './format_message.js';
import { guestLocale } from './guest_locale.js';

// The texts already made, keyed on the values they were made of: a kiosk shows the same few
// reasons again and again, and each figure formatted costs an Intl.NumberFormat.
const texts = new Map();

/** The text of one explain reason in the best catalog for `options.locale`; docs/reference.md, "Messages". */
export function formatReason(reason, options = {}) {
  if (reason === null || typeof reason !== 'object') throw new TypeError('reason must be an explain reason');
  const code = reason.code;
  if (typeof code !== 'string') throw new TypeError('reason.code must be a string');
  const { locale, currency = 'USD', region } = options ?? {};
  const values = { currency: currencyCode(currency) };
  const { language, tag } = guestLocale(locale, region);
  const reasons = catalogOf(language).reasons;
  if (!Object.hasOwn(reasons, code)) {
    // A code no catalog knows (a newer engine): the reason's own message is the text.
    const message = reason.message;
    if (typeof message !== 'string') throw new TypeError(`reason.message must be a string (${code} has no catalog entry)`);
    return message;
  }
  const source = reasons[code];
  const found = compiledMessage(tag, source);
  // Each figure the message reads is read once and checked; what is still to spend or earn is
  // rounded up to what can be paid (0.49 JPY is ¥1). The text is made of these values only.
  if (found.inputs.includes('remaining')) values.remaining = roundedUp(figureText(reason.remaining, 'reason.remaining'), minorDigits(values.currency));
  if (found.inputs.includes('points_needed')) values.points_needed = roundedUp(figureText(reason.points_needed, 'reason.points_needed'), 0);
  const key = JSON.stringify([tag, source, values]);
  if (!texts.has(key)) {
    if (texts.size >= 512) texts.clear();
    texts.set(key, formatted(found, values)[0]);
  }
  return texts.get(key);
}
