// Test support for the Intl TZ rules: the system tzdata as the local service reads it (the TZif
// footer of /usr/share/zoneinfo/<zone>, src/base/tzif.cpp) and the offset a POSIX TZ rule gives at an
// instant, written from RFC 8536 3.3 independently of web/account/intl_tz_rule.js.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ZONEINFO = '/usr/share/zoneinfo';

/** Every zone file name under /usr/share/zoneinfo (no posix/, right/, tables or links to them). */
export function zoneNames(dir = ZONEINFO, prefix = '') {
  const names = [];
  for (const entry of readdirSync(dir)) {
    if (prefix === '' && (entry === 'posix' || entry === 'right' || entry === 'posixrules' || entry === 'localtime')) continue;
    const full = path.join(dir, entry);
    const stat = statSync(full);
    if (stat.isDirectory()) names.push(...zoneNames(full, `${prefix}${entry}/`));
    else if (!entry.includes('.') && readFileSync(full).subarray(0, 4).toString('latin1') === 'TZif') {
      names.push(prefix + entry);
    }
  }
  return names.sort();
}

/** { footer, lastTransition (epoch seconds or null) } of a version 2+ TZif file. */
export function readTzif(zone) {
  const file = readFileSync(path.join(ZONEINFO, zone));
  const counts = (at) => [0, 1, 2, 3, 4, 5].map((i) => file.readUInt32BE(at + 20 + 4 * i));
  const size = ([isut, isstd, leap, time, type, char], timeSize) =>
    time * timeSize + time + type * 6 + char + leap * (timeSize + 4) + isstd + isut;
  const v2 = 44 + size(counts(0), 4);
  const c2 = counts(v2);
  let lastTransition = null;
  for (let i = 0; i < c2[3]; ++i) {
    const t = Number(file.readBigInt64BE(v2 + 44 + 8 * i));
    lastTransition = lastTransition === null ? t : Math.max(lastTransition, t);
  }
  const footerAt = v2 + 44 + size(c2, 8);
  const footer = file.subarray(footerAt + 1, file.indexOf(0x0a, footerAt + 1)).toString('latin1');
  return { footer, lastTransition };
}

// ---------------------------------------------------------------------------------------------
// POSIX TZ strings

function parseDuration(text, at) {
  const m = /^([+-]?)(\d{1,3})(?::(\d{2}))?(?::(\d{2}))?/.exec(text.slice(at));
  if (!m) throw new Error(`bad duration in ${text} at ${at}`);
  const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return { value: m[1] === '-' ? -seconds : seconds, end: at + m[0].length };
}

function parseName(text, at) {
  const m = /^(<[^>]*>|[A-Za-z]{3,})/.exec(text.slice(at));
  if (!m) throw new Error(`bad abbreviation in ${text} at ${at}`);
  return at + m[0].length;
}

function parseRule(text) {
  const m = /^(?:J(\d+)|(\d+)|M(\d+)\.(\d)\.(\d))(?:\/(.*))?$/.exec(text);
  if (!m) throw new Error(`bad rule ${text}`);
  const time = m[6] === undefined ? 7200 : parseDuration(m[6], 0).value;
  if (m[1] !== undefined) return { form: 'J', day: Number(m[1]), time };
  if (m[2] !== undefined) return { form: 'n', day: Number(m[2]), time };
  return { form: 'M', month: Number(m[3]), week: Number(m[4]), weekday: Number(m[5]), time };
}

/** { std, dst | null, start, end } with offsets in seconds EAST of UTC. */
export function parsePosixTz(text) {
  let at = parseName(text, 0);
  const std = parseDuration(text, at);
  at = std.end;
  if (at === text.length) return { std: 0 - std.value, dst: null };
  at = parseName(text, at);
  let dst = 0 - std.value + 3600;
  if (at < text.length && text[at] !== ',') {
    const d = parseDuration(text, at);
    dst = 0 - d.value;
    at = d.end;
  }
  if (at === text.length) {
    return { std: 0 - std.value, dst, start: parseRule('M3.2.0'), end: parseRule('M11.1.0') };
  }
  const [start, end] = text.slice(at + 1).split(',');
  return { std: 0 - std.value, dst, start: parseRule(start), end: parseRule(end) };
}

const DAY_S = 86_400;
const daysOf = (y, m, d) => Date.UTC(y, m - 1, d) / 86_400_000;
const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function dayOfRule(rule, year) {
  const jan1 = daysOf(year, 1, 1);
  if (rule.form === 'J') return jan1 + rule.day - 1 + (leap(year) && rule.day >= 60 ? 1 : 0);
  if (rule.form === 'n') return jan1 + rule.day;
  const first = daysOf(year, rule.month, 1);
  const firstWeekday = (((first + 4) % 7) + 7) % 7;
  let day = 1 + ((rule.weekday - firstWeekday + 7) % 7) + (rule.week - 1) * 7;
  const monthDays = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  while (day > monthDays) day -= 7;
  return first + day - 1;
}

/** The DST start and end instants (epoch seconds) a parsed rule gives in `year`, if any. */
export function ruleEvents(tz, year) {
  if (tz.dst === null) return [];
  const start = dayOfRule(tz.start, year) * DAY_S + tz.start.time - tz.std;
  const end = dayOfRule(tz.end, year) * DAY_S + tz.end.time - tz.dst;
  const length = (leap(year) ? 366 : 365) * DAY_S;
  if (!(end < start || (start < end && end - start < length))) return [];
  return [
    { at: start, dst: true },
    { at: end, dst: false },
  ];
}

/** The offset (seconds east) a parsed rule gives at epoch seconds `t`. */
export function offsetAt(tz, t) {
  if (tz.dst === null) return tz.std;
  const year = new Date(t * 1000).getUTCFullYear();
  const events = [];
  for (let y = year - 2; y <= year + 1; ++y) events.push(...ruleEvents(tz, y));
  if (events.length === 0) return tz.dst;
  events.sort((a, b) => a.at - b.at || (a.dst ? 1 : 0) - (b.dst ? 1 : 0));
  let state = null;
  for (const e of events) if (e.at <= t) state = e.dst;
  if (state === null) state = !events[0].dst;
  return state ? tz.dst : tz.std;
}
