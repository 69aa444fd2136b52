// Zone rules on both runtimes: the native service reads tzdata (/usr/share/zoneinfo), the emulator
// reads Intl. A fixture with one merchant in each of a dozen zones chosen for their edges (half
// hours, quarter hours, southern summers, a 30-minute DST, transitions at midnight or at 01:00
// UTC, Morocco's Ramadan suspensions that follow no yearly rule): each account's tz_rule, from
// either runtime, gives the same UTC offset at every second around every transition of this year
// and next, and every six hours between; and the demo's breakfast reward in Casablanca during
// Ramadan is the same answer from both.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createEmulator } from '../../web/local/emulator/emulator.js';
import { offsetAt, parsePosixTz, ruleEvents } from '../support/tz_footers.js';
import { FIXED_NOW, credentialsOf, fixturePath, scratchDir, serviceBinary, startService } from '../service/harness.js';

const ZONES = [
  'America/New_York', 'America/St_Johns', 'America/Santiago', 'America/Sao_Paulo', 'Europe/London', 'Europe/Paris',
  'Europe/Dublin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Pacific/Chatham',
  // No yearly rule (Ramadan suspensions listed one by one until 2087): tzdata's footer, <+01>-1.
  'Africa/Casablanca', 'Africa/El_Aaiun',
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

// The demo fixture with its merchant in Casablanca.
const casablanca = JSON.parse(readFileSync(fixturePath, 'utf8'));
casablanca.merchants[0].time_zone = 'Africa/Casablanca';

const scratch = scratchDir('lq-zones-');
let native;
let emulator;
let nativeCasablanca;
let emulatorCasablanca;

before(async () => {
  serviceBinary();
  native = await startService({ db: path.join(scratch.dir, 'zones.db'), now: true, fixture, runtime: 'native' });
  emulator = await createEmulator({ fixture, now: () => Date.parse(FIXED_NOW) });
  nativeCasablanca = await startService({ db: path.join(scratch.dir, 'casablanca.db'), now: true, fixture: casablanca, runtime: 'native' });
  emulatorCasablanca = await createEmulator({ fixture: casablanca, now: () => Date.parse(FIXED_NOW) });
}, { timeout: 900_000 });

after(async () => {
  await native?.crash();
  await nativeCasablanca?.crash();
  await emulator?.close();
  await emulatorCasablanca?.close();
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

test('Casablanca in Ramadan: the breakfast basket gets the same rewards from both, hour by hour', async () => {
  const { token, key } = credentialsOf('u_1001'); // the guest holding rw_breakfast_20
  const headers = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json', 'Content-Type': 'application/json' };
  const basket = (at) => JSON.stringify({ redemption_venue: 'instore', location_uid: 'harbor-downtown', order_timestamp: at, items: [{ id: 'egg', price: '6.50', categories: ['breakfast'] }] });
  const differing = [];
  const breakfastAt = [];
  // 2026-03-02 and 03: Intl has Casablanca on +00 then (Ramadan), tzdata's footer on +01.
  for (let t = Date.UTC(2026, 2, 2); t < Date.UTC(2026, 2, 4); t += 3_600_000) {
    const at = new Date(t).toISOString().replace('.000Z', 'Z');
    const fromNative = await fetch(`${nativeCasablanca.url}/api/baskets/qualifying`, { method: 'POST', headers, body: basket(at) });
    const fromEmulator = await emulatorCasablanca.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers, body: basket(at) });
    const [nativeText, emulatorText] = [await fromNative.text(), await fromEmulator.text()];
    assert.equal(fromNative.status, 200, nativeText);
    if (fromEmulator.status !== 200 || emulatorText !== nativeText) differing.push(`${at}: native ${nativeText} emulator ${emulatorText}`);
    if (JSON.parse(nativeText).rewards.some((r) => r.id === 'rw_breakfast_20')) breakfastAt.push(at.slice(11, 13));
  }
  assert.deepEqual(differing, []);
  // The breakfast window in the footer's +01 (the review's 06:30Z order among them), each day.
  assert.ok(breakfastAt.includes('06'), `breakfast at ${breakfastAt}`);
  const account = await (await emulatorCasablanca.fetch('http://emulator.test/api/account', { headers })).json();
  assert.equal(account.merchant.tz_rule, '<+01>-1');
});
