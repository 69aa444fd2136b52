// The JS API in Chromium (Debian's /usr/bin/chromium driven by playwright-core), as a page uses it:
//
//   node bench/browser/browser.mjs [DIR] [--quick]     DIR: the workload files (default build/bench)
//
// A static server on 127.0.0.1 (port 0) serves the repository (web/ and the workloads, .wasm as
// application/wasm so that streaming compilation applies). Figures, in milliseconds:
//   createQualifier     the first createQualifier(5,000-reward snapshot object) of a fresh page,
//                       importing the browser bundle (web/dist/loyalty_qualifier.browser.mjs):
//                       its download from the local server, the .wasm's streaming compile,
//                       instantiation and the load; median of several fresh pages (no cache);
//   createQualifierS    the same with the S snapshot (the cold start of a small account);
//   createQualifierModules  the same as createQualifierS importing web/engine/qualifier.js unbundled;
//   setSnapshot         setSnapshot(5,000-reward snapshot object) on a warm page, median of rounds;
//   qualify.S/M/L, explain.S/M/L
//                       per call through the JS API, requests as objects cycling over the 64
//                       baskets, medians of rounds after a warm-up (as bench/timing.mjs does).
// Prints one JSON object. bench/run.mjs runs it and prints the rows with their targets.
import path from 'node:path';
import process from 'node:process';

import { launchBenchChromium, serveBenchPage } from './browser_harness.mjs';
import { NOW_MS, defaultDir } from '../workloads.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? defaultDir);
const COLD_PAGES = quick ? 3 : 7;
const ROUNDS = quick ? 7 : 15;
const ROUND_MS = quick ? 30 : 60;
const WARM_MS = quick ? 1000 : 2500;



// Runs in the page. Everything it needs comes in `setup`; returns the figures in ms.
async function inPage(setup) {
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const n = sorted.length;
    return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  };
  const fetchJson = async (url) => (await fetch(url)).json();
  const fetchLines = async (url) =>
    (await (await fetch(url)).text()).split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));

  if (setup.mode === 'cold') {
    const snapshot = await fetchJson(setup.snapshot);
    const start = performance.now();
    const { createQualifier } = await import(setup.entry);
    const q = await createQualifier(snapshot);
    const ms = performance.now() - start;
    q.dispose();
    return { ms };
  }

  const { createQualifier } = await import('/web/dist/loyalty_qualifier.browser.mjs');
  const out = {};
  // Per-call medians, as bench/timing.mjs: warm up until V8 has tiered the code up, then rounds.
  const perCall = (fn, inputs) => {
    const began = performance.now();
    while (performance.now() - began < setup.warmMs) for (let i = 0; i < inputs; ++i) fn(i);
    let passes = 1;
    for (;;) {
      const start = performance.now();
      for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) fn(i);
      if (performance.now() - start >= setup.roundMs || passes >= 1 << 16) break;
      passes *= 2;
    }
    const samples = [];
    for (let round = 0; round < setup.rounds; ++round) {
      const start = performance.now();
      for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) fn(i);
      samples.push((performance.now() - start) / (passes * inputs));
    }
    return median(samples);
  };
  for (const name of ['S', 'M', 'L']) {
    const snapshot = await fetchJson(`/workloads/${name}.snapshot.json`);
    const requests = await fetchLines(`/workloads/${name}.requests.jsonl`);
    const q = await createQualifier(snapshot, { now: () => setup.nowMs });
    out[`qualify.${name}`] = perCall((i) => q.qualify(requests[i]), requests.length);
    out[`explain.${name}`] = perCall((i) => q.explain(requests[i]), requests.length);
    q.dispose();
  }
  const big = await fetchJson('/workloads/load.snapshot.json');
  const q = await createQualifier(big);
  const samples = [];
  for (let round = 0; round < setup.rounds; ++round) {
    const start = performance.now();
    q.setSnapshot(big);
    samples.push(performance.now() - start);
  }
  q.dispose();
  out.setSnapshot = median(samples);
  return out;
}

async function main() {
  const server = await serveBenchPage(dir, 'loyalty-qualifier bench');
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchBenchChromium();
  try {
    const figures = { browser: `Chromium ${browser.version()}` };
    const page = async (run) => {
      // A fresh context per page: nothing cached, no compiled module kept from an earlier page.
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        const errors = [];
        tab.on('pageerror', (e) => errors.push(e.message));
        await tab.goto(`${base}/`);
        const result = await run(tab);
        if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
        return result;
      } finally {
        await context.close();
      }
    };
    const cold = async (snapshot, entry = '/web/dist/loyalty_qualifier.browser.mjs') => {
      const samples = [];
      for (let i = 0; i < COLD_PAGES; ++i) {
        samples.push((await page((tab) => tab.evaluate(inPage, { mode: 'cold', snapshot, entry }))).ms);
      }
      samples.sort((a, b) => a - b);
      return samples[(samples.length - 1) >> 1];
    };
    figures.createQualifier = await cold('/workloads/load.snapshot.json');
    figures.createQualifierS = await cold('/workloads/S.snapshot.json');
    figures.createQualifierModules = await cold('/workloads/S.snapshot.json', '/web/engine/qualifier.js');
    Object.assign(figures, await page((tab) => tab.evaluate(inPage, {
      mode: 'warm', rounds: ROUNDS, roundMs: ROUND_MS, warmMs: WARM_MS, nowMs: NOW_MS,
    })));
    console.log(JSON.stringify(figures));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => {
  console.error(`bench/browser/browser.mjs: ${e.stack ?? e.message}`);
  process.exitCode = 1;
});
