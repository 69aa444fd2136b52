// Money on the page is integer cents: prices are parsed from their decimal text, never through
// binary floating point, and only turned back into text for display and for requests
// (the package's centsOf and decimalOfCents).
import { centsOf, decimalOfCents } from '../../../web/index.js';
import { formatLocale, storeCurrency } from '../language/language.js';

/** "4.75", 4.75, "5" -> 475, half up below the cent. Throws for anything that is not a non-negative decimal. */
export function parseCents(value) {
  const cents = centsOf(value);
  if (cents === null) throw new RangeError(`not a price: ${JSON.stringify(value)}`);
  return cents;
}

/** 475 -> "4.75" (the decimal text the API expects). */
export const centsToDecimal = decimalOfCents;

// One Intl.NumberFormat per (language in the store's region, currency): the store's currency.
const formats = new Map();

/** 475 -> "$4.75" (in English, and in Spanish in a US store; "4,75 $US" in French there); -200 -> "−$2.00". */
export function formatMoney(cents) {
  const key = `${formatLocale()} ${storeCurrency()}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(formatLocale(), { style: 'currency', currency: storeCurrency() });
    formats.set(key, format);
  }
  // Through the decimal text, never a binary float: Intl.NumberFormat formats a decimal string exactly.
  const text = format.format(centsToDecimal(Math.abs(cents)));
  return cents < 0 ? `\u2212${text}` : text;
}
