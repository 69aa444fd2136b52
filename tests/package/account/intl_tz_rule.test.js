// tzRuleFromIntl against the service's tzdata-derived rules (the TZif footers of
// /usr/share/zoneinfo, which the local service puts in its snapshots) for every zone both know,
// compared by behaviour: the offset each rule gives at sampled instants of this year and next,
// and at every transition of either, against each other and against Intl itself.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { intlOffsetAt, intlTransitionsInYear, tzRuleFromIntl } from '../../../web/account/intl_tz_rule.js';
import { ZONEINFO, offsetAt, parsePosixTz, readTzif, ruleEvents, zoneNames } from '../../support/tz_footers.js';

// "This year" of the comparison: fixed, so the outcome depends only on the two tzdata copies
// (Node's ICU and the system's), not on the day the test runs.
const AT = Date.UTC(2026, 10, 23);
const YEAR = 2026;
const HOUR = 3600;

// Zones whose rule legitimately differs from what Intl shows this year and next, with the reason.
// Both are Morocco's: tzdata writes its Ramadan suspensions of DST (+01 -> +00 for about a month,
// a date that moves by 11 days a year) as explicit transitions up to 2087, and the footer, the rule
// after the last one, is plain +01. No yearly rule reproduces them, so the Intl rule is the
// footer's too (Intl's offset after 2087), and is an hour off Intl during Ramadan.
const EXCEPTIONS = {
  'Africa/Casablanca': 'Ramadan suspensions: explicit transitions until 2087, footer <+01>-1',
  'Africa/El_Aaiun': 'Ramadan suspensions: explicit transitions until 2087, footer <+01>-1',
};

function knownToIntl(zone) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Every six hours of YEAR and YEAR + 1 (epoch seconds).
const sampled = [];
for (let t = Date.UTC(YEAR, 0, 1) / 1000; t < Date.UTC(YEAR + 2, 0, 1) / 1000; t += 6 * HOUR) sampled.push(t);

// The DST events of a parsed rule in YEAR and YEAR + 1 (epoch seconds).
const eventsOf = (tz) => [YEAR, YEAR + 1].flatMap((year) => ruleEvents(tz, year).map((e) => e.at));

const zones = zoneNames().filter(knownToIntl);

test('the system tzdata and Intl share (nearly) every zone', () => {
  assert.ok(zones.length >= 400, `only ${zones.length} zones in common`);
  for (const zone of ['America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Africa/Casablanca']) {
    assert.ok(zones.includes(zone), zone);
  }
  // Every zone Intl lists that has a file here is compared below.
  const listed = Intl.supportedValuesOf('timeZone').filter((zone) => existsSync(path.join(ZONEINFO, zone)));
  assert.deepEqual(listed.filter((zone) => !zones.includes(zone)), []);
});

test('every zone: the Intl rule behaves as the service tzdata footer, this year and next', { timeout: 600_000 }, () => {
  const differing = {};
  const offIntl = {};
  let sameText = 0;
  for (const zone of zones) {
    const rule = tzRuleFromIntl(zone, { at: AT });
    const { footer } = readTzif(zone);
    const derived = parsePosixTz(rule);
    const service = parsePosixTz(footer);
    // The same rule up to abbreviations (ours are numeric: <-05> for EST).
    const shape = (text) => text.replace(/<[^>]*>|[A-Za-z]{3,}/g, 'N');
    if (shape(rule) === shape(footer)) sameText += 1;

    // Against the footer: every six hours, and one second either side of every event of either.
    const instants = [...sampled];
    for (const t of [...eventsOf(derived), ...eventsOf(service)]) instants.push(t - 1, t, t + 1);
    for (const t of instants) {
      if (offsetAt(derived, t) !== offsetAt(service, t)) {
        differing[zone] = `${rule}: footer ${footer} gives ${offsetAt(service, t)} at ${t}, ours ${offsetAt(derived, t)}`;
        break;
      }
    }
    // Against Intl itself: weekly, and one second either side of each Intl transition.
    const probes = [];
    for (let i = 0; i < sampled.length; i += 4 * 7) probes.push(sampled[i]);
    for (const year of [YEAR, YEAR + 1]) {
      for (const { at } of intlTransitionsInYear(zone, year)) probes.push(at / 1000 - 1, at / 1000);
    }
    for (const t of probes) {
      const expected = intlOffsetAt(zone, t * 1000);
      if (offsetAt(derived, t) !== expected) {
        offIntl[zone] = `${rule}: Intl gives ${expected} at ${t}, ours ${offsetAt(derived, t)}`;
        break;
      }
    }
  }
  assert.deepEqual(differing, {});
  assert.deepEqual(Object.keys(offIntl).sort(), Object.keys(EXCEPTIONS).sort(), JSON.stringify(offIntl, null, 1));
  // Not only the same behaviour: nearly always the footer's very rule.
  assert.ok(sameText >= zones.length - 10, `${sameText} of ${zones.length} rules have the footer's shape`);
});

test('the exceptions: no yearly rule, so the footer\'s very rule, the offset Intl gives after 2087', () => {
  for (const zone of Object.keys(EXCEPTIONS)) {
    assert.equal(intlTransitionsInYear(zone, YEAR).length, 2, `${zone}: Intl shows this year's Ramadan suspension`);
    assert.deepEqual(intlTransitionsInYear(zone, 2200), [], zone);
    assert.equal(intlOffsetAt(zone, Date.UTC(2200, 0, 1)), 3600, zone);
    // For any "this year", including one of two suspensions (2030 has one starting in December).
    for (const year of [2026, 2027, 2030, 2031, 2086]) {
      assert.equal(tzRuleFromIntl(zone, { at: Date.UTC(year, 5, 1) }), readTzif(zone).footer, `${zone} in ${year}`);
    }
  }
});

test('rules with M-form dates, minutes in offsets and times, and negative times', () => {
  const cases = {
    'America/New_York': '<-05>5<-04>,M3.2.0,M11.1.0',
    'Europe/Paris': '<+01>-1<+02>,M3.5.0,M10.5.0/3',
    'Asia/Kolkata': '<+0530>-5:30',
    'Asia/Kathmandu': '<+0545>-5:45',
    // A 30-minute DST, south of the equator.
    'Australia/Lord_Howe': '<+1030>-10:30<+11>-11,M10.1.0,M4.1.0',
    'Pacific/Chatham': '<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45',
    // Transitions at 24:00 and at -1:00 (the previous evening).
    'America/Santiago': '<-04>4<-03>,M9.1.6/24,M4.1.6/24',
    'America/Nuuk': '<-02>2<-01>,M3.5.0/-1,M10.5.0/0',
    // A two-hour DST.
    'Antarctica/Troll': '<+00>0<+02>-2,M3.5.0/1,M10.5.0/3',
    UTC: '<+00>0',
  };
  for (const [zone, expected] of Object.entries(cases)) {
    assert.equal(tzRuleFromIntl(zone, { at: AT }), expected, zone);
  }
});

test('"this year" is the UTC year of options.at (default now); bad input is a clear error', () => {
  assert.equal(tzRuleFromIntl('Europe/Paris', { at: new Date(AT) }), tzRuleFromIntl('Europe/Paris', { at: AT }));
  assert.match(tzRuleFromIntl('Europe/Paris'), /^<\+01>-1<\+02>,M3\.5\.0,M10\.5\.0\/3$/);
  assert.throws(() => tzRuleFromIntl('Mars/Olympus_Mons'), {
    name: 'RangeError',
    message: 'timeZone "Mars/Olympus_Mons" is not a time zone this runtime knows',
  });
  assert.throws(() => tzRuleFromIntl(''), TypeError);
  assert.throws(() => tzRuleFromIntl(42), TypeError);
  assert.throws(() => tzRuleFromIntl('UTC', { at: new Date(NaN) }), TypeError);
});
