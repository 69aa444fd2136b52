// snapshotFromAccount and tzRuleFromIntl in Chromium (playwright-core, Debian's
// /usr/bin/chromium): the account-read bodies give the same snapshots and answers as in Node, and
// the browser's own Intl gives zone rules that behave as the service's tzdata footers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import * as api from '../../../web/index.js';
import { CONTEXT, DOCUMENTED, DOCUMENTED_STRINGS, REWARDS_ONLY, VENDOR_EXAMPLE, accountError, accountOutcome } from './account_reads.js';
import { openPackagePage } from '../../support/support.js';
import { offsetAt, parsePosixTz, readTzif } from '../../support/tz_footers.js';

// A sample of zones: both hemispheres, half- and quarter-hour offsets, a 30-minute DST, a
// transition at 24:00 and one the evening before, a two-hour DST and no DST at all.
const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'America/Chicago',
  'Europe/London',
  'Europe/Paris',
  'Europe/Dublin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'America/Santiago',
  'America/Nuuk',
  'America/Sao_Paulo',
  'Antarctica/Troll',
  'UTC',
];
const AT = Date.UTC(2026, 10, 23);

let opened;
let page;

before(async () => {
  opened = await openPackagePage('account reads', () => false, { files: 'repository' });
  page = opened.page;
});

after(() => opened?.close());

const BODIES = { DOCUMENTED, DOCUMENTED_STRINGS, REWARDS_ONLY, VENDOR_EXAMPLE };

test('account reads give the same snapshots and answers in Chromium as in Node', { timeout: 120_000 }, async () => {
  const inBrowser = await page.evaluate(
    async ({ names, context }) => {
      const api = await import('/web/index.js');
      const reads = await import('/tests/package/account/account_reads.js');
      const outcomes = {};
      for (const name of names) outcomes[name] = await reads.accountOutcome(api, reads[name], context);
      outcomes.error = reads.accountError(api, { rewards: [{ value: 1 }] }, context);
      return outcomes;
    },
    { names: Object.keys(BODIES), context: CONTEXT },
  );
  for (const [name, body] of Object.entries(BODIES)) {
    assert.deepEqual(inBrowser[name], JSON.parse(JSON.stringify(await accountOutcome(api, body, CONTEXT))), name);
  }
  assert.deepEqual(inBrowser.error, accountError(api, { rewards: [{ value: 1 }] }, CONTEXT));
  assert.equal(inBrowser.error.code, 422);
  assert.deepEqual(inBrowser.DOCUMENTED.baskets.instore.rewards, ['rw_ten_pct', 'rw_five_off', 'rw_latte']);
});

test("Chromium's Intl gives rules that behave as the service's tzdata footers", { timeout: 120_000 }, async () => {
  const rules = await page.evaluate(
    async ({ zones, at }) => {
      const { tzRuleFromIntl } = await import('/web/account/intl_tz_rule.js');
      return Object.fromEntries(zones.map((zone) => [zone, tzRuleFromIntl(zone, { at })]));
    },
    { zones: ZONES, at: AT },
  );
  for (const zone of ZONES) {
    const derived = parsePosixTz(rules[zone]);
    const footer = parsePosixTz(readTzif(zone).footer);
    for (let t = Date.UTC(2026, 0, 1) / 1000; t < Date.UTC(2028, 0, 1) / 1000; t += 1800) {
      if (offsetAt(derived, t) !== offsetAt(footer, t)) {
        assert.fail(`${zone}: ${rules[zone]} gives ${offsetAt(derived, t)} at ${t}, the footer ${offsetAt(footer, t)}`);
      }
    }
  }
  assert.equal(rules['America/New_York'], '<-05>5<-04>,M3.2.0,M11.1.0');
  assert.equal(rules['Australia/Lord_Howe'], '<+1030>-10:30<+11>-11,M10.1.0,M4.1.0');
});
