// Money as the API writes it: decimal text ("5.25") or a JSON number (5.25), turned into integer
// cents without binary floating point, and cents back into decimal text. The one place JS reads
// and writes money text (the engine formats its own answers: web/engine/wire.js).

// Whole part of at most 13 digits, so that every amount is exact as a number of cents.
const DECIMAL = /^(\d{1,13})(?:\.(\d{1,2})(\d*))?$/;

/**
 * "5.25" or 5.25 -> 525; null for anything that is not a non-negative decimal. Digits below the
 * cent round half up (as the engine rounds), or up with `{ round: 'up' }` (a limit that must
 * never be exceeded: 5.001 -> 501).
 */
export function centsOf(amount, { round = 'half-up' } = {}) {
  const text = typeof amount === 'number' && Number.isFinite(amount) ? String(amount) : amount;
  const match = typeof text === 'string' ? DECIMAL.exec(text.trim()) : null;
  if (match === null) return null;
  const [, whole, cents = '', rest = ''] = match;
  const roundsUp = round === 'up' ? /[1-9]/.test(rest) : rest !== '' && rest[0] >= '5';
  return Number(whole) * 100 + Number(cents.padEnd(2, '0')) + (roundsUp ? 1 : 0);
}

/** 475 -> "4.75", -5 -> "-0.05": the decimal text the API expects. */
export function decimalOfCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}
