// The engine off the main thread (issue 22), in Chromium (Debian's /usr/bin/chromium driven by
// playwright-core):
//
//   node bench/browser/worker.mjs [DIR] [--quick] [--no-kiosk]     DIR: the workload files (default build/bench)
//
// A static server on 127.0.0.1 serves web/ (unbundled, as the kiosk serves it) and the workloads.
// Figures, in milliseconds:
//   longTask.thread / longTask.worker  the longest main-thread task (PerformanceObserver
//       'longtask', 0 when none reached 50 ms) while a fresh page loads the 5,000-reward snapshot
//       (an object, as parsed from an API answer) with createQualifier / createQualifierWorker;
//       load.thread / load.worker: how long that load took; medians of several fresh pages;
//   startImport.* / startLoad.*  the same with the S snapshot: the page's import of the module,
//       then createQualifier / createQualifierWorker (for the worker: its start, its own imports
//       of the engine and the glue, the wasm, the load): what a small account waits for;
//   roundTrip.S/M/L, inThread.S/M/L  qualify() per call through the worker (each awaited before
//       the next) and in the page's thread, requests as objects cycling over the 64 baskets,
//       medians of rounds after a warm-up;
//   kiosk.{thread,worker}.{x1,x4}  the kiosk page (kiosk/server/main.mjs, the demo fixture) from
//       navigation to the first offers shown for the demo guest: the page adds a latte as soon as
//       it is ready, and the time is performance.now() when the first offer is in the list;
//       x4: CPU throttled 4x (CDP Emulation.setCPUThrottlingRate); fresh browser contexts;
//       kioskReady.*: when the page was ready (the guest's snapshot in use in the engine).
//   --only-kiosk: only the kiosk figures. --paired DIR: also the kiosk page of another checkout
//       DIR (e.g. `git archive` of an earlier commit, with node_modules and web/dist), on the
//       same service and hub binaries (this checkout's build/native), its pages interleaved with
//       this one's, so that both see the same load: kioskPaired.* are its figures and
//       kioskDelta.* the median of (this page - that page) over the pairs.
// Pages alternate between in-thread and worker, so that a neighbour's load burdens both alike.
// Prints one JSON object. bench/run.mjs runs it and prints the rows with their targets.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import readline from 'node:readline';

import { launchBenchChromium, serveBenchPage } from './browser_harness.mjs';
import { NOW_MS, defaultDir, root } from '../workloads.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyKiosk = args.includes('--only-kiosk');
const pairedRoot = args.includes('--paired') ? path.resolve(args[args.indexOf('--paired') + 1]) : null;
const dir = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--paired') ?? defaultDir);
const COLD_PAGES = quick ? 3 : 7;
const KIOSK_PAGES = quick ? 3 : 5;
const ROUNDS = quick ? 7 : 15;
const ROUND_MS = quick ? 30 : 60;
const WARM_MS = quick ? 1000 : 2500;
const KIOSK_NOW = '2026-11-24T13:15:00Z';


const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
};


// In the page, before anything else runs: every long task is kept.
function observeLongTasks() {
  window.longTasks = [];
  new PerformanceObserver((list) => window.longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });
}

// Runs in the page: the first load of the big snapshot, in this thread or in a worker.
async function firstLoad({ how, snapshot }) {
  const body = await (await fetch(snapshot)).json();
  // Let the fetch and parse finish their own tasks first.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  let q;
  let importMs;
  if (how === 'worker') {
    const { createQualifierWorker } = await import('/web/worker/worker.js');
    importMs = performance.now() - start;
    q = await createQualifierWorker(body);
  } else {
    const { createQualifier } = await import('/web/dist/loyalty_qualifier.browser.mjs');
    importMs = performance.now() - start;
    q = await createQualifier(body);
  }
  const loadMs = performance.now() - start;
  // A task ends before its entry is delivered: wait for two more tasks, then take every entry.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setTimeout(resolve, 0));
  const tasks = window.longTasks.filter((t) => t.startTime + t.duration >= start);
  await q.dispose();
  return { importMs, loadMs, longestMs: Math.max(0, ...tasks.map((t) => t.duration)) };
}

// Runs in the page: qualify() per call, in the thread and through the worker.
async function roundTrips(setup) {
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const n = sorted.length;
    return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  };
  const fetchLines = async (url) =>
    (await (await fetch(url)).text()).split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
  const { createQualifier } = await import('/web/dist/loyalty_qualifier.browser.mjs');
  const { createQualifierWorker } = await import('/web/worker/worker.js');
  // As bench/timing.mjs: warm up, find a pass count filling a round, then median of rounds.
  const perCall = async (fn, inputs) => {
    const began = performance.now();
    while (performance.now() - began < setup.warmMs) for (let i = 0; i < inputs; ++i) await fn(i);
    let passes = 1;
    for (;;) {
      const start = performance.now();
      for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) await fn(i);
      if (performance.now() - start >= setup.roundMs || passes >= 1 << 16) break;
      passes *= 2;
    }
    const samples = [];
    for (let round = 0; round < setup.rounds; ++round) {
      const start = performance.now();
      for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) await fn(i);
      samples.push((performance.now() - start) / (passes * inputs));
    }
    return median(samples);
  };
  const out = {};
  for (const name of ['S', 'M', 'L']) {
    const snapshot = await (await fetch(`/workloads/${name}.snapshot.json`)).text();
    const requests = await fetchLines(`/workloads/${name}.requests.jsonl`);
    const local = await createQualifier(snapshot, { now: () => setup.nowMs });
    const remote = await createQualifierWorker(snapshot, { now: () => setup.nowMs });
    if (JSON.stringify(await remote.qualify(requests[0])) !== JSON.stringify(local.qualify(requests[0]))) {
      throw new Error(`the worker's answer differs on ${name}`);
    }
    out[`inThread.${name}`] = await perCall((i) => local.qualify(requests[i]), requests.length);
    out[`roundTrip.${name}`] = await perCall((i) => remote.qualify(requests[i]), requests.length);
    local.dispose();
    await remote.dispose();
  }
  return out;
}

// In the kiosk page, before anything else runs: add a latte as soon as the page is ready, and
// note when the first offer shows.
function firstOffers() {
  const observer = new MutationObserver(() => {
    if (window.firstOfferMs === undefined && document.querySelector('#offer-list li.offer')) {
      window.firstOfferMs = performance.now();
    }
    if (!window.latteAdded && document.body?.dataset.ready) {
      window.latteAdded = true;
      window.readyMs = performance.now();
      document.querySelector('button.item[data-id="latte"]').click();
      const dialog = document.getElementById('customize');
      if (dialog.open) document.getElementById('customize-add').click();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
}

function startKiosk(scratch, { at = root, name = 'demo', env = process.env } = {}) {
  const proc = spawn(process.execPath, ['kiosk/server/main.mjs', '--port', '0', '--db', path.join(scratch, `${name}.db`),
    '--processing-delay', '0', '--now', KIOSK_NOW], { cwd: at, stdio: ['pipe', 'pipe', 'pipe'], env });
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once('line', (line) => resolve({ proc, exited, pageUrl: line.trim() }));
    exited.then((code) => reject(new Error(`the kiosk exited (${code}): ${stderr}`)));
  });
}

async function main() {
  const server = await serveBenchPage(dir, 'loyalty-qualifier worker bench');
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchBenchChromium();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-bench-worker-'));
  let kiosk = null;
  let paired = null;
  try {
    const figures = { browser: `Chromium ${browser.version()}` };
    // A fresh context per page: nothing cached, no compiled module kept from an earlier page.
    const page = async (url, run, { init, throttle } = {}) => {
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        const errors = [];
        tab.on('pageerror', (e) => errors.push(e.message));
        if (init) await tab.addInitScript(init);
        if (throttle) {
          const cdp = await context.newCDPSession(tab);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        }
        await tab.goto(url);
        const result = await run(tab);
        if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
        return result;
      } finally {
        await context.close();
      }
    };
    if (!onlyKiosk) Object.assign(figures, await engineFigures(page, base));
    if (!args.includes('--no-kiosk')) {
      kiosk = await startKiosk(scratch);
      // The other checkout's page on this checkout's service and hub: only the page differs.
      const binaries = { ...process.env, LQ_SERVICE_BIN: path.join(root, 'build/native/service/loyalty_service'), LQ_HUB_BIN: path.join(root, 'build/native/hub/loyalty_hub') };
      if (pairedRoot !== null) paired = await startKiosk(scratch, { at: pairedRoot, name: 'paired', env: binaries });
      Object.assign(figures, await kioskFigures(page, kiosk, paired));
    }
    console.log(JSON.stringify(figures));
  } finally {
    await browser.close();
    server.close();
    for (const started of [kiosk, paired]) {
      if (started === null) continue;
      started.proc.kill('SIGTERM');
      await started.exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The engine's figures in a plain page: first loads, starts, round trips (see the top). */
async function engineFigures(page, base) {
  const figures = {};
  // Pages alternate between the two ways, so that a neighbour's load burdens both alike.
  const loads = { thread: [], worker: [] };
  for (let i = 0; i < COLD_PAGES; ++i) {
    for (const how of ['thread', 'worker']) {
      loads[how].push(await page(`${base}/`, (tab) => tab.evaluate(firstLoad, { how, snapshot: '/workloads/load.snapshot.json' }),
        { init: observeLongTasks }));
    }
  }
  for (const how of ['thread', 'worker']) {
    figures[`longTask.${how}`] = median(loads[how].map((l) => l.longestMs));
    figures[`load.${how}`] = median(loads[how].map((l) => l.loadMs));
  }
  // The cost of starting: the same with the S snapshot (the page's import, then the load).
  const starts = { thread: [], worker: [] };
  for (let i = 0; i < COLD_PAGES; ++i) {
    for (const how of ['thread', 'worker']) {
      starts[how].push(await page(`${base}/`, (tab) => tab.evaluate(firstLoad, { how, snapshot: '/workloads/S.snapshot.json' }),
        { init: observeLongTasks }));
    }
  }
  for (const how of ['thread', 'worker']) {
    figures[`startImport.${how}`] = median(starts[how].map((l) => l.importMs));
    figures[`startLoad.${how}`] = median(starts[how].map((l) => l.loadMs - l.importMs));
  }
  Object.assign(figures, await page(`${base}/`, (tab) => tab.evaluate(roundTrips, {
    rounds: ROUNDS, roundMs: ROUND_MS, warmMs: WARM_MS, nowMs: NOW_MS,
  })));
  return figures;
}

/**
 * The kiosk page from navigation to the first offers (see the top), in-thread and worker, at CPU
 * x1 and x4; with `paired`, that kiosk's page right after this one's (the order of the two
 * alternating), and the median of the differences.
 */
async function kioskFigures(page, kiosk, paired) {
  const figures = {};
  const firstOffersOf = (started, how, throttle) => page(`${started.pageUrl}${how === 'thread' ? '&worker=off' : ''}`, async (tab) => {
    await tab.waitForFunction(() => window.firstOfferMs !== undefined, null, { timeout: 120_000 });
    return tab.evaluate(() => ({ ready: window.readyMs, first: window.firstOfferMs }));
  }, { init: firstOffers, throttle });
  for (const throttle of [1, 4]) {
    const samples = { thread: [], worker: [] };
    const pairedSamples = { thread: [], worker: [] };
    for (let i = 0; i < KIOSK_PAGES; ++i) {
      for (const how of ['thread', 'worker']) {
        if (paired !== null && i % 2 === 1) pairedSamples[how].push(await firstOffersOf(paired, how, throttle));
        samples[how].push(await firstOffersOf(kiosk, how, throttle));
        if (paired !== null && i % 2 === 0) pairedSamples[how].push(await firstOffersOf(paired, how, throttle));
      }
    }
    for (const how of ['thread', 'worker']) {
      figures[`kiosk.${how}.x${throttle}`] = median(samples[how].map((s) => s.first));
      figures[`kioskReady.${how}.x${throttle}`] = median(samples[how].map((s) => s.ready));
      if (paired === null) continue;
      figures[`kioskPaired.${how}.x${throttle}`] = median(pairedSamples[how].map((s) => s.first));
      figures[`kioskDelta.${how}.x${throttle}`] = median(samples[how].map((s, i) => s.first - pairedSamples[how][i].first));
    }
  }
  return figures;
}

main().catch((e) => {
  console.error(`bench/browser/worker.mjs: ${e.stack ?? e.message}`);
  process.exitCode = 1;
});
