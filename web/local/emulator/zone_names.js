// The abbreviations of a zone's rule as tzdata writes them, where Intl knows them. tzRuleFromIntl
// names each offset numerically (`<-05>5<-04>,M3.2.0,M11.1.0`): Intl gives offsets, not always
// names. tzdata names many zones with letters (`EST5EDT,M3.2.0,M11.1.0`), and the service puts
// that text in its account answers, so the emulator writes a letter name wherever Intl's short
// name for that offset is one (EST, CET, AEST, IST...): the same offsets, and for those zones the
// same bytes as the native service. Elsewhere the numeric name stays, as tzdata writes it.
import { intlOffsetAt } from '../../account/intl_tz_rule.js';

// Locales whose short zone names are the ones tzdata uses: North America, Europe, Australia, India.
const LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-ZA', 'en-KE', 'en-NG', 'ja-JP', 'ko-KR'];
const DAY = 86_400_000;

// The offset (seconds east) a numeric abbreviation stands for: <-05>, <+0530>, <+054536>.
function offsetOf(name) {
  const m = /^([+-])(\d{2})(\d{2})?(\d{2})?$/.exec(name);
  if (m === null) return null;
  const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -seconds : seconds;
}

function shortName(zone, locale, at) {
  const part = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

// The letter name of `zone` at an instant of `year` when its offset is `offset`, or null.
function letterName(zone, offset, year) {
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 14 * DAY) {
    if (intlOffsetAt(zone, t) !== offset) continue;
    for (const locale of LOCALES) {
      const name = shortName(zone, locale, t);
      if (/^[A-Z]{3,5}$/.test(name) && name !== 'GMT') return name;
      if (name === 'GMT' && offset === 0) return name;
    }
    return null;
  }
  return null;
}

/** `rule` (tzRuleFromIntl's, for `zone` in the year of `atMs`) with letter names where Intl has them. */
export function withZoneNames(rule, zone, atMs) {
  const year = new Date(atMs).getUTCFullYear();
  return rule.replace(/<([+-]\d{2,6})>/g, (numeric, name) => {
    const offset = offsetOf(name);
    return (offset === null ? null : letterName(zone, offset, year)) ?? numeric;
  });
}
