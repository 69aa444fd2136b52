// Zone rules on both runtimes: the native service reads tzdata (/usr/share/zoneinfo), the emulator
// reads Intl. A fixture with one merchant in each of a dozen zones chosen for their edges (half
// hours, quarter hours, southern summers, a 30-minute DST, transitions at midnight or at 01:00
// UTC): each account's tz_rule, from either runtime, gives the same UTC offset at every second
// around every transition of this year and next, and every six hours between.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createEmulator } from '../../web/local/emulator/emulator.js';
import { offsetAt, parsePosixTz, ruleEvents } from '../support/tz_footers.js';
import { FIXED_NOW, scratchDir, serviceBinary, startService } from '../service/harness.js';

const ZONES = [
  'America/New_York', 'America/St_Johns', 'America/Santiago', 'America/Sao_Paulo', 'Europe/London', 'Europe/Paris',
  'Europe/Dublin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Pacific/Chatham',
];
const YEAR = new Date(FIXED_NOW).getUTCFullYear();
const HOUR = 3600;

const fixture = {
  merchants: ZONES.map((zone, i) => ({
    id: `m_${i}`,
    merchant_key: `mk_${i}_zones`,
    time_zone: zone,
    points_per_dollar: 1,
    points_experience_id: `px_${i}`,
    locations: [{ uid: `loc-${i}`, id: `loc_${i}` }],
  })),
  users: ZONES.map((_, i) => ({ id: `u_${i}`, merchant_id: `m_${i}`, access_token: `at_${i}_zones`, points: [] })),
};

const scratch = scratchDir('lq-zones-');
let native;
let emulator;

before(async () => {
  serviceBinary();
  native = await startService({ db: path.join(scratch.dir, 'zones.db'), now: true, fixture, runtime: 'native' });
  emulator = await createEmulator({ fixture, now: () => Date.parse(FIXED_NOW) });
}, { timeout: 900_000 });

after(async () => {
  await native?.crash();
  await emulator?.close();
  scratch.cleanup();
});

const headers = (i) => ({ Authorization: `Bearer at_${i}_zones`, 'Merchant-Key': `mk_${i}_zones`, Accept: 'application/vnd.service-v1+json' });

test('every zone: the emulator\'s rule from Intl gives the native tzdata rule\'s offsets, across every DST edge', async () => {
  const differing = [];
  for (const [i, zone] of ZONES.entries()) {
    const fromNative = await (await fetch(`${native.url}/api/account`, { headers: headers(i) })).json();
    const fromEmulator = await (await emulator.fetch('http://emulator.test/api/account', { headers: headers(i) })).json();
    const nativeRule = parsePosixTz(fromNative.merchant.tz_rule);
    const emulatorRule = parsePosixTz(fromEmulator.merchant.tz_rule);
    const probes = [];
    for (let t = Date.UTC(YEAR, 0, 1) / 1000; t < Date.UTC(YEAR + 2, 0, 1) / 1000; t += 6 * HOUR) probes.push(t);
    for (const year of [YEAR, YEAR + 1]) {
      for (const rule of [nativeRule, emulatorRule]) for (const { at } of ruleEvents(rule, year)) probes.push(at - 1, at, at + 1);
    }
    const wrong = probes.filter((t) => offsetAt(nativeRule, t) !== offsetAt(emulatorRule, t));
    if (wrong.length > 0) differing.push(`${zone}: ${fromNative.merchant.tz_rule} vs ${fromEmulator.merchant.tz_rule} at ${new Date(wrong[0] * 1000).toISOString()}`);
  }
  assert.deepEqual(differing, []);
});
