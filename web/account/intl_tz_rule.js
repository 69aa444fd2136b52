// A POSIX TZ rule (the `tz_rule` of a snapshot, docs/reference.md#snapshot) for an IANA time zone, from
// the runtime's own Intl data: no tzdata files, so it works in browsers and web workers too.
//
// The offsets in force are read from Intl.DateTimeFormat; this year's and next year's transitions
// are found by sampling every four days and bisecting every change to the second; then each transition
// (DST start, DST end) is written as the `Mm.w.d/time` (or `Jn/time`) rule that reproduces it in
// both years and in six later ones. When no rule does, the zone has no yearly rule, and the rule is
// the one in force after tzdata's explicit transitions, as a TZif footer writes it: Intl's in 2200.
// Offsets and times of day keep their minutes and seconds (`<+0545>-5:45`,
// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`).

const SECOND = 1000;
const DAY = 86_400_000;
// Offsets are sampled this often; every change between two samples is bisected to the second.
// tzdata has no pair of transitions this close together after 1945 (the closest are Ramadan
// suspensions, about a month apart).
const STEP = 4 * DAY;
const MAX_TIME_OF_DAY = 167 * 3600; // RFC 8536 3.3.1: hours of a transition time, -167..167
const PROBE_YEARS = 6; // later years a rule fitting this year and the next must also fit
// A year after tzdata's explicit transitions (its tables end in 2087): the rule Intl follows then
// is the one of the zone's TZif footer, the rule of a zone whose transitions follow none.
const FAR_YEAR = 2200;

const formatters = new Map();

function formatterFor(timeZone) {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const US_DATE_TIME = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

/** The offset from UTC (seconds east) that `timeZone` has at epoch milliseconds `ms`, per Intl. */
export function intlOffsetAt(timeZone, ms) {
  const at = Math.floor(ms / SECOND) * SECOND;
  const formatter = formatterFor(timeZone);
  // format() and a pattern are three times faster than formatToParts(), which is the fallback.
  const m = US_DATE_TIME.exec(formatter.format(at));
  const fields = m
    ? { month: +m[1], day: +m[2], year: +m[3], hour: +m[4], minute: +m[5], second: +m[6] }
    : Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  const local = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour % 24, fields.minute, fields.second);
  return Math.round((local - at) / SECOND) + 0; // never -0
}

// Every instant (epoch ms) in [from, to) at which the offset changes, with the offsets around it.
function transitionsBetween(timeZone, from, to) {
  const found = [];
  let before = intlOffsetAt(timeZone, from);
  for (let t = from; t < to; ) {
    const next = Math.min(t + STEP, to);
    const after = intlOffsetAt(timeZone, next);
    if (after !== before) {
      // Bisect (lo has the old offset, hi the new) down to the second.
      let lo = t;
      let hi = next;
      while (hi - lo > SECOND) {
        const mid = lo + Math.floor((hi - lo) / 2 / SECOND) * SECOND;
        if (intlOffsetAt(timeZone, mid) === before) lo = mid;
        else hi = mid;
      }
      const offsetAfter = intlOffsetAt(timeZone, hi);
      found.push({ at: hi, before, after: offsetAfter });
      before = offsetAfter;
      t = hi;
      continue;
    }
    t = next;
  }
  return found;
}

/** The transitions of a UTC calendar year: `{ at (epoch ms), before, after (seconds east) }`. */
export function intlTransitionsInYear(timeZone, year) {
  return transitionsBetween(timeZone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
}

// ---------------------------------------------------------------------------------------------
// POSIX transition rules (the same calendar arithmetic as the engine's own reader of POSIX TZ rules)

const daysOf = (year, month, day) => Date.UTC(year, month - 1, day) / DAY; // days since 1970-01-01
const weekdayOf = (days) => (((days + 4) % 7) + 7) % 7; // 0 = Sunday; 1970-01-01 was a Thursday
const daysInMonth = (year, month) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const isLeap = (year) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

// The day (days since the epoch) a rule names in `year`.
function ruleDay(rule, year) {
  if (rule.form === 'J') {
    // Jn: 1..365, February 29 never counted.
    const leapShift = isLeap(year) && rule.day >= 60 ? 1 : 0;
    return daysOf(year, 1, 1) + rule.day - 1 + leapShift;
  }
  const first = daysOf(year, rule.month, 1);
  let dayOfMonth = 1 + ((rule.weekday - weekdayOf(first) + 7) % 7) + (rule.week - 1) * 7;
  while (dayOfMonth > daysInMonth(year, rule.month)) dayOfMonth -= 7;
  return first + dayOfMonth - 1;
}

// Local seconds since the epoch at which a rule fires in `year`.
const ruleLocalSeconds = (rule, year) => ruleDay(rule, year) * 86_400 + rule.time;

// The transition's local time (seconds since the epoch, counted in the offset BEFORE it, as
// POSIX counts both DST start and end) and its calendar fields.
function localOf(transition) {
  const local = transition.at / SECOND + transition.before;
  const date = new Date(Math.floor(local / 86_400) * DAY);
  return { seconds: local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

// Every `Mm.w.d/time` rule firing at `local.seconds` (time of day within +-167 h), best first:
// a time of day within the day, then the transition's own month, then "last" (w = 5) before 4.
function monthWeekDayCandidates(local) {
  const candidates = [];
  for (let shift = -1; shift <= 1; ++shift) {
    const anchor = new Date(Date.UTC(local.year, local.month - 1 + shift, 1));
    const year = anchor.getUTCFullYear();
    const month = anchor.getUTCMonth() + 1;
    for (let week = 1; week <= 5; ++week) {
      for (let weekday = 0; weekday <= 6; ++weekday) {
        const rule = { form: 'M', month, week, weekday, time: 0 };
        rule.time = local.seconds - ruleDay(rule, year) * 86_400;
        if (Math.abs(rule.time) <= MAX_TIME_OF_DAY) candidates.push({ rule, year });
      }
    }
  }
  const penalty = ({ rule }) =>
    (rule.time >= 0 && rule.time < 86_400 ? 0 : 1000 + Math.abs(Math.floor(rule.time / 86_400)) * 10) +
    (rule.month === local.month ? 0 : 100) +
    (5 - rule.week);
  return candidates.sort((a, b) => penalty(a) - penalty(b)).map(({ rule }) => rule);
}

// `Jn/time` rules (a fixed date) firing at `local.seconds`.
function julianCandidates(local) {
  const days = Math.floor(local.seconds / 86_400);
  const jan1 = daysOf(local.year, 1, 1);
  let n = days - jan1 + 1;
  if (isLeap(local.year) && days >= daysOf(local.year, 3, 1)) n -= 1;
  if (isLeap(local.year) && days === daysOf(local.year, 2, 29)) return []; // Jn cannot name it
  return [{ form: 'J', day: n, time: local.seconds - days * 86_400 }];
}

// The rules reproducing a transition seen in each of `seen` (one per year, same direction).
function fittingRules(seen) {
  const [first, ...rest] = seen.map(localOf);
  const fits = (rule) => rest.every((local) => ruleLocalSeconds(rule, local.year) === local.seconds);
  const rules = monthWeekDayCandidates(first).filter(fits);
  return rules.length > 0 ? rules : julianCandidates(first).filter(fits);
}

// Does Intl show the change `before` -> `after` at the instant the rule gives in `year`?
function intlAgrees(timeZone, rule, year, before, after) {
  const at = (ruleLocalSeconds(rule, year) - before) * SECOND;
  return intlOffsetAt(timeZone, at - SECOND) === before && intlOffsetAt(timeZone, at) === after;
}

// The best of the rules fitting the observed years that every later probe year confirms, or null:
// then the zone's transitions follow no yearly rule (Morocco's Ramadan suspensions).
function confirmedRule(timeZone, rules, lastYear, before, after) {
  let remaining = rules;
  for (let year = lastYear + 1; remaining.length > 0 && year <= lastYear + PROBE_YEARS; ++year) {
    remaining = remaining.filter((rule) => intlAgrees(timeZone, rule, year, before, after));
  }
  return remaining[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Writing the TZ string

function clock(seconds) {
  const sign = seconds < 0 ? '-' : '';
  const s = Math.abs(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const tail = sec !== 0 ? `:${pad(m)}:${pad(sec)}` : m !== 0 ? `:${pad(m)}` : '';
  return `${sign}${h}${tail}`;
}

const pad = (n) => String(n).padStart(2, '0');

// `<+0530>`-style abbreviation of an offset (seconds east), as tzdata writes numeric ones.
function abbreviation(offset) {
  const s = Math.abs(offset);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `<${offset < 0 ? '-' : '+'}${pad(h)}${m !== 0 || sec !== 0 ? pad(m) : ''}${sec !== 0 ? pad(sec) : ''}>`;
}

// TZ strings count hours WEST of UTC: the sign is inverted.
const offsetText = (offset) => clock(-offset);

function ruleText(rule) {
  const date = rule.form === 'J' ? `J${rule.day}` : `M${rule.month}.${rule.week}.${rule.weekday}`;
  return rule.time === 7200 ? date : `${date}/${clock(rule.time)}`;
}

function fixedRule(offset) {
  return `${abbreviation(offset)}${offsetText(offset)}`;
}

function dstRule(std, dst, start, end) {
  const dstOffset = dst === std + 3600 ? '' : offsetText(dst);
  return `${abbreviation(std)}${offsetText(std)}${abbreviation(dst)}${dstOffset},${ruleText(start)},${ruleText(end)}`;
}

// A year with exactly two transitions between two offsets, there and back.
function seasonal(transitions) {
  if (transitions.length !== 2) return null;
  const [a, b] = transitions;
  if (a.after !== b.before || b.after !== a.before || a.before === a.after) return null;
  const std = Math.min(a.before, a.after);
  const dst = Math.max(a.before, a.after);
  const start = a.after === dst ? a : b;
  const end = start === a ? b : a;
  return { std, dst, start, end };
}

// The rule reproducing the transitions Intl shows in `year`, the next year and the PROBE_YEARS
// after (`transitions`: those of the first two), or null when none does.
function recurringRule(timeZone, year, [thisTransitions, nextTransitions]) {
  const thisYear = seasonal(thisTransitions);
  const nextYear = seasonal(nextTransitions);
  if (!thisYear || !nextYear || thisYear.std !== nextYear.std || thisYear.dst !== nextYear.dst) return null;
  const { std, dst } = thisYear;
  const start = confirmedRule(timeZone, fittingRules([thisYear.start, nextYear.start]), year + 1, std, dst);
  const end = confirmedRule(timeZone, fittingRules([thisYear.end, nextYear.end]), year + 1, dst, std);
  return start === null || end === null ? null : dstRule(std, dst, start, end);
}

const transitionsOfYears = (timeZone, year) => [year, year + 1].map((y) => intlTransitionsInYear(timeZone, y));

/**
 * The POSIX TZ rule (RFC 8536 3.3 syntax) of an IANA time zone, from Intl: the rule of its TZif
 * footer in tzdata. `options.at` (a Date or epoch ms, default now) picks "this year" (UTC). A
 * zone without transitions this year and next gives its fixed offset (`<+0530>-5:30`); a zone
 * with a yearly rule gives the rule of this year's transitions, next year's and six years' after;
 * a zone whose transitions follow no yearly rule (Morocco's Ramadan suspensions, listed one by
 * one in tzdata until 2087) gives the rule in force after them, which Intl follows in 2200, as
 * tzdata's footer does (`<+01>-1` for Africa/Casablanca). Throws RangeError for a zone Intl does
 * not know.
 */
export function tzRuleFromIntl(timeZone, options = {}) {
  if (typeof timeZone !== 'string' || timeZone === '') {
    throw new TypeError('timeZone must be an IANA time zone name such as "America/New_York"');
  }
  try {
    formatterFor(timeZone);
  } catch {
    throw new RangeError(`timeZone "${timeZone}" is not a time zone this runtime knows`);
  }
  const atValue = options.at ?? Date.now();
  const at = typeof atValue === 'number' ? atValue : atValue?.getTime?.();
  if (typeof at !== 'number' || !Number.isFinite(at)) {
    throw new TypeError('options.at must be a valid Date or epoch milliseconds');
  }
  const year = new Date(at).getUTCFullYear();
  const transitions = transitionsOfYears(timeZone, year);
  if (transitions.every((found) => found.length === 0)) return fixedRule(intlOffsetAt(timeZone, at));
  const rule = recurringRule(timeZone, year, transitions);
  if (rule !== null) return rule;
  // Transitions without a yearly rule: the footer's rule, the one in force after them.
  const far = transitionsOfYears(timeZone, FAR_YEAR);
  if (far.every((found) => found.length === 0)) return fixedRule(intlOffsetAt(timeZone, Date.UTC(FAR_YEAR, 0, 1)));
  const farRule = recurringRule(timeZone, FAR_YEAR, far);
  if (farRule === null) throw new RangeError(`timeZone "${timeZone}": Intl shows no yearly rule even in ${FAR_YEAR}`);
  return farRule;
}
