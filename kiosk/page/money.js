// Money on the page is integer cents: prices are parsed from their decimal text, never through
// binary floating point, and only turned back into text for display and for requests.

/** "4.75", 4.75, "5" -> 475. Throws for anything that is not a non-negative decimal. */
export function parseCents(value) {
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? /^(\d+)(?:\.(\d{0,2})(\d*))?$/.exec(text.trim()) : null;
  if (match === null) throw new RangeError(`not a price: ${JSON.stringify(value)}`);
  const [, whole, cents = '', rest = ''] = match;
  let result = Number(whole) * 100 + Number(cents.padEnd(2, '0'));
  if (rest !== '' && rest[0] >= '5') result += 1;  // half-up, as the engine rounds
  return result;
}

/** 475 -> "4.75" (the decimal text the API expects). */
export function centsToDecimal(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 475 -> "$4.75"; -200 -> "−$2.00". */
export function formatMoney(cents) {
  const text = `$${centsToDecimal(Math.abs(cents))}`;
  return cents < 0 ? `\u2212${text}` : text;
}
