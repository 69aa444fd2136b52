// The figures a guest reads (what is still to spend, points still needed, an offer's value) and
// their currency. A figure is given as a finite, non-negative number or decimal string, read once
// by the caller and kept as decimal text from then on, so it is rounded only on purpose.
const DECIMAL = /^\d+(\.\d+)?$/;
const digitsOf = new Map();

/** `value` as decimal text ('3.25'; 7 -> '7'); a TypeError naming `field` for NaN, -1, '1e3', an object… */
export function figureText(value, field) {
  if (typeof value === 'number' && value >= 0 && value < Infinity) value = plainDecimal(value);
  if (typeof value === 'string' && DECIMAL.test(value)) return value;
  throw new TypeError(`${field} must be a finite, non-negative number or decimal string`);
}

// A number's shortest text without an exponent: 1e-7 -> '0.0000001' (-0 reads 0).
function plainDecimal(number) {
  const [digits, exponent] = String(number + 0).split('e');
  if (exponent === undefined) return digits;
  const [whole, fraction = ''] = digits.split('.');
  const point = whole.length + Number(exponent);
  return point > 0 ? (whole + fraction).padEnd(point, '0') : `0.${'0'.repeat(-point)}${whole}${fraction}`;
}

/** Decimal text rounded up to `digits` fraction digits ('0.49', 0 -> '1'): what a guest must still spend or earn. */
export function roundedUp(text, digits) {
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length <= digits) return text;
  let units = whole + fraction.slice(0, digits);
  if (/[1-9]/.test(fraction.slice(digits))) units = String(BigInt(units) + 1n).padStart(digits + 1, '0');
  return digits === 0 ? units : `${units.slice(0, -digits)}.${units.slice(-digits)}`;
}

/** `currency` upper-cased; a RangeError for anything but three letters ('USD', 'eur'). */
export function currencyCode(currency) {
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) {
    throw new RangeError('currency must be an ISO 4217 code such as \'USD\'');
  }
  return currency.toUpperCase();
}

/** The fraction digits of the currency's smallest unit: 2 for USD and EUR, 0 for JPY. */
export function minorDigits(code) {
  if (!digitsOf.has(code)) digitsOf.set(code, new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits);
  return digitsOf.get(code);
}
