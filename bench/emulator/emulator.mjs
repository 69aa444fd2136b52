// The emulator (docs/emulator.md) under the four figures of issue 37, each row [figure, measured,
// target, ok]:
// - its download: web/dist/loyalty_emulator.wasm, its glue, the emulator's own modules bundled
//   and minified as a page would ship them and the seeded image, gzip -9 (target <= 600 KB; never
//   in the base bundle);
// - the first answer after `import` in a fresh Node process: import the entry, createEmulator()
//   with the demo fixture, one qualifying call (target <= 150 ms; the lowest of three sets'
//   medians of fresh processes, as bench/run.mjs keeps every figure's);
// - the same in a fresh Chromium page (target <= 400 ms);
// - a qualifying call through emulator.fetch against the native service's round trip over
//   loopback HTTP, the same basket, one kept-alive connection (target <= 1.5x).
//
//   node bench/emulator/emulator.mjs [--quick]   (prints the rows as JSON)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import * as esbuild from 'esbuild';

import { startLocalService } from '../../web/local/service/local_service.js';
import { launchBenchChromium, serveBenchPage } from '../browser/browser_harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOWNLOAD_TARGET = 600 * 1024;
const NODE_TARGET_MS = 150;
const PAGE_TARGET_MS = 400;
const RATIO_TARGET = 1.5;
const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
const HEADERS = {
  Authorization: 'Bearer at_u1001_7Qx2LmN9pR4s',
  'Merchant-Key': 'mk_harbor_5f1c9a7e2b',
  Accept: 'application/vnd.service-v1+json',
  'Content-Type': 'application/json',
};
const BASKET = JSON.stringify({
  redemption_venue: 'instore',
  location_uid: 'harbor-downtown',
  order_timestamp: '2026-11-24T13:15:00Z',
  subtotal: '19.00',
  items: [
    { id: 'latte', price: '5.25', categories: ['coffee'] },
    { id: 'croissant', price: '3.25', categories: ['pastry'], quantity: 2 },
  ],
});

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function downloadRow() {
  const bundle = esbuild.buildSync({
    entryPoints: [path.join(root, 'web/local/emulator/emulator.js')],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    external: ['../dist/*', '../../dist/*'],
    logLevel: 'silent',
  });
  const parts = {
    wasm: readFileSync(path.join(root, 'web/dist/loyalty_emulator.wasm')),
    glue: readFileSync(path.join(root, 'web/dist/loyalty_emulator.mjs')),
    modules: Buffer.from(bundle.outputFiles[0].text),
    // The demo fixture's seeded image, which createEmulator loads beside the module.
    seed: readFileSync(path.join(root, 'web/dist/loyalty_emulator_seed.mjs')),
  };
  const sizes = Object.fromEntries(Object.entries(parts).map(([name, bytes]) => [name, gzipSync(bytes, { level: 9 }).length]));
  const total = sizes.wasm + sizes.glue + sizes.modules + sizes.seed;
  return ['emulator download (gzip -9: wasm + glue + modules + seeded image)', `${kb(total)} (wasm ${kb(sizes.wasm)}, glue ${kb(sizes.glue)}, modules ${kb(sizes.modules)}, seeded image ${kb(sizes.seed)})`, '<= 600 KB', total <= DOWNLOAD_TARGET];
}

// One fresh process in the repository, as a consumer writes it: import the package's emulator by
// name (Node's `node` condition: the one-file entry), create, one qualifying answer; prints the
// milliseconds. The main thread's CPU time (Linux: /proc's schedstat, in ns; null elsewhere) tells
// the module's own start-up work from V8's background compilers and from waiting for a busy machine.
const FIRST_ANSWER = `
const { readFileSync } = await import('node:fs');
const mainThreadMs = () => {
  try {
    return Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
};
const main0 = mainThreadMs();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const { createEmulator } = await import('loyalty-qualifier/emulator');
const emulator = await createEmulator();
const res = await emulator.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers: ${JSON.stringify(HEADERS)}, body: ${JSON.stringify(BASKET)} });
if (res.status !== 200) throw new Error('status ' + res.status);
await res.arrayBuffer();
const cpu = process.cpuUsage(cpu0);
const main1 = mainThreadMs();
console.log(JSON.stringify({ ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, mainMs: main0 === null || main1 === null ? null : main1 - main0 }));
`;

// One set: `runs` fresh processes, the medians of their wall, CPU and main-thread times.
function nodeSet(runs) {
  const times = [];
  const cpuTimes = [];
  const mainTimes = [];
  for (let i = 0; i < runs; i++) {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', FIRST_ANSWER], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`first answer in Node failed: ${run.stderr}`);
    const { ms, cpuMs, mainMs } = JSON.parse(run.stdout.trim());
    times.push(ms);
    cpuTimes.push(cpuMs);
    if (mainMs !== null) mainTimes.push(mainMs);
  }
  return { ms: median(times), cpuMs: median(cpuTimes), mainMs: mainTimes.length === runs ? median(mainTimes) : null };
}

// As bench/run.mjs does for every figure: `sets` sets of fresh processes, the least disturbed
// (lowest) median kept and every set's shown. On this 2-vCPU VM a neighbour's burst adds 20-40 ms
// to a set, by taking a core from V8's background compile that runs beside the main thread.
function nodeRow(runs, sets) {
  const measured = Array.from({ length: sets }, () => nodeSet(runs));
  const best = measured.reduce((a, b) => (b.ms < a.ms ? b : a));
  const main = best.mainMs === null ? '' : `, main thread ${best.mainMs.toFixed(0)} ms`;
  const others = sets > 1 ? `; sets ${measured.map((m) => m.ms.toFixed(1)).join(' / ')} ms` : '';
  // CPU time (this thread's and V8's compiler threads') says how much of the wall time was waiting for a busy machine;
  // the main thread's share is what an idle machine would still wait for.
  return [
    'emulator first answer after import, fresh Node process',
    `${best.ms.toFixed(1)} ms (lowest median of ${sets} sets of ${runs}; CPU ${best.cpuMs.toFixed(0)} ms${main}${others})`,
    '<= 150 ms',
    best.ms <= NODE_TARGET_MS,
  ];
}

async function pageRow(runs) {
  const server = await serveBenchPage(path.join(root, 'fixtures'), 'emulator bench');
  const browser = await launchBenchChromium();
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/`);
      times.push(await page.evaluate(async ({ fixtureText, headers, basket }) => {
        const t0 = performance.now();
        const { createEmulator } = await import('/web/local/emulator/emulator.js');
        const emulator = await createEmulator({ fixture: JSON.parse(fixtureText) });
        const res = await emulator.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers, body: basket });
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        await res.arrayBuffer();
        return performance.now() - t0;
      }, { fixtureText: JSON.stringify(fixture), headers: HEADERS, basket: BASKET }));
      await context.close();
    }
    const ms = median(times);
    return ['emulator first answer after import, fresh Chromium page', `${ms.toFixed(1)} ms (median of ${runs})`, '<= 400 ms', ms <= PAGE_TARGET_MS];
  } finally {
    await browser.close();
    server.close();
  }
}

function post(agent, url) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/api/baskets/qualifying`, { method: 'POST', agent, headers: { ...HEADERS, 'Content-Length': Buffer.byteLength(BASKET) } }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`status ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end(BASKET);
  });
}

async function perCallMs(call, calls) {
  for (let i = 0; i < 50; i++) await call();
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    rounds.push((performance.now() - t0) / calls);
  }
  return median(rounds);
}

async function ratioRow(binary, calls) {
  const { createEmulator } = await import('../../web/local/emulator/emulator.js');
  const emulator = await createEmulator({ now: () => Date.parse('2026-11-24T13:15:00Z') });
  const service = await startLocalService({ binary, fixture, now: '2026-11-24T13:15:00Z', accessLog: 'off' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const viaEmulator = await perCallMs(async () => {
      const res = await emulator.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers: HEADERS, body: BASKET });
      await res.arrayBuffer();
    }, calls);
    const viaService = await perCallMs(() => post(agent, service.url), calls);
    const ratio = viaEmulator / viaService;
    return ['qualifying: emulator.fetch vs native service over 127.0.0.1', `${(viaEmulator * 1000).toFixed(0)} µs vs ${(viaService * 1000).toFixed(0)} µs: ${ratio.toFixed(2)}x`, '<= 1.5x', ratio <= RATIO_TARGET];
  } finally {
    agent.destroy();
    await service.stop();
    await emulator.close();
  }
}

/** The rows; `binary`: the native service for the ratio (none: that row says so). */
export async function emulatorRows({ quick = false, binary = null, browser = true } = {}) {
  const rows = [downloadRow(), nodeRow(quick ? 3 : 7, quick ? 1 : 3)];
  if (browser) rows.push(await pageRow(quick ? 3 : 5));
  rows.push(binary ? await ratioRow(binary, quick ? 200 : 1000) : ['qualifying: emulator.fetch vs native service', 'n/a (no native service built)', '<= 1.5x', null]);
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = await emulatorRows({ quick: process.argv.includes('--quick'), binary: path.join(root, 'build/native/service/loyalty_service') });
  console.log(JSON.stringify(rows, null, 2));
}
