// `npm run bench`: every figure of issue 6 in one run, as medians beside its target, with every
// ratio measured in the same run. bench/README.md says how to read the table.
//
//   node bench/run.mjs [--quick] [--soak-calls N] [--no-soak] [--no-callgrind] [--no-service]
//                      [--no-browser] [--no-worker] [--only worker] [--only messages]
//                      [--only emulator] [--only react]
//
// --quick: fewer rounds and a 100,000-call soak (a smoke run; the figures are noisier).
// --only worker: only the rows of the engine in a Web Worker (bench/browser/worker.mjs, issue 22).
// --only messages: only the rows of loyalty-qualifier/messages (bench/messages.mjs, issue 30).
// --only emulator: only the rows of loyalty-qualifier/emulator (bench/emulator/emulator.mjs, issue 37).
// --only react: only the row of loyalty-qualifier/react's download (issue 38).
// Results also go to build/bench/results.json. Exit code 0 whatever the figures say (a benchmark
// reports; it does not gate), 1 when a step could not run or an answer was wrong.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { buildWasm } from '../scripts/build.mjs';
import { startLocalService } from '../web/local/service/local_service.js';
import { checkoutRows } from './service/checkout.mjs';
import { connectionRows } from './service/connections.mjs';
import { emulatorRows } from './emulator/emulator.mjs';
import { holdsRows } from './service/holds.mjs';
import { hubRows } from './service/hub.mjs';
import { median, perCall, wallMs } from './timing.mjs';
import { WORKLOADS, LOAD_REWARDS, defaultDir, root, writeWorkloads } from './workloads.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : fallback;
};
const quick = flag('--quick');
const only = (() => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : null;
})();
const ROUNDS = quick ? 7 : 15;
const ROUND_MS = quick ? 30 : 60;
// Each figure is measured in REPEATS fresh processes and the least disturbed (lowest) median is
// kept: on this 2-vCPU machine another tenant's job halves a process's speed for seconds at a time.
const REPEATS = quick ? 1 : 3;
const SOAK_CALLS = option('--soak-calls', quick ? 100_000 : 1_000_000);

const distDir = path.join(root, 'web/dist');
// The native bench has its own Release tree, whatever build type build/native was given.
const nativeBuildDir = path.join(defaultDir, 'native');
const nativeBench = path.join(nativeBuildDir, 'bench/lq_native_bench');
// The service as npm run build makes it; LQ_BENCH_SERVICE names another build of it.
const serviceBinary = process.env.LQ_BENCH_SERVICE
  ? path.resolve(process.env.LQ_BENCH_SERVICE)
  : path.join(root, 'build/native/service/loyalty_service');
// The store hub as npm run build makes it; LQ_BENCH_HUB names another build of it.
const hubBinary = process.env.LQ_BENCH_HUB
  ? path.resolve(process.env.LQ_BENCH_HUB)
  : path.join(root, 'build/native/hub/loyalty_hub');
const rows = [];
const results = {
  started: new Date().toISOString(),
  machine: machine(),
  load: os.loadavg().map((l) => l.toFixed(2)).join(' '),
  busy: os.loadavg()[0] > os.cpus().length * 0.5,
  figures: {},
};
let failures = 0;

function machine() {
  const cpus = os.cpus();
  return `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} x ${cpus[0]?.model ?? 'cpu'}`;
}

function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

const us = (ms) => `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
const msText = (ms) => `${ms.toFixed(2)} ms`;
const ratioText = (r) => `${r.toFixed(2)}x`;

/** One table row; `ok` true/false against a target, null for information only. */
function row(figure, measured, target, ok, key, value) {
  rows.push({ figure, measured, target, status: ok === null ? 'info' : ok ? 'ok' : 'MISS' });
  if (key) results.figures[key] = { value, target, ok };
}


// ---- Preparation: workloads, wasm artifacts, native bench. ----------------------------------

function prepare() {
  const files = writeWorkloads(defaultDir);
  // The wasm module and the native bench from the same sources (both builds are incremental).
  log('building the wasm module (as npm run build does) and lq_native_bench');
  buildWasm();
  for (const step of [
    ['-S', '.', '-B', nativeBuildDir, '-DCMAKE_BUILD_TYPE=Release'],
    ['--build', nativeBuildDir, '--target', 'lq_native_bench', '--parallel', String(os.cpus().length)],
  ]) {
    const done = spawnSync('cmake', step, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (done.status !== 0) throw new Error(`cmake ${step.join(' ')} failed`);
  }
  return files;
}

/** lq_native_bench on a workload, REPEATS times; each figure the lowest of the medians. */
function runNative(workloadFiles) {
  let best = null;
  for (let r = 0; r < REPEATS; ++r) {
    const out = JSON.parse(execFileSync(
      nativeBench,
      ['--snapshot', workloadFiles.snapshot, ...(workloadFiles.requests ? ['--requests', workloadFiles.requests] : []),
        '--rounds', String(ROUNDS)],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    ));
    if (best === null) {
      best = out;
    } else {
      for (const key of ['load_ms', 'qualify_ns', 'qualify_json_ns', 'explain_ns', 'explain_words_ns']) {
        if (key in out) best[key] = Math.min(best[key], out[key]);
      }
    }
  }
  return best;
}



// ---- The figures. ------------------------------------------------------------------------------

function child(script, args) {
  const out = execFileSync(process.execPath, [path.join(root, 'bench', script), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out);
}

async function jsAndWasm(files) {
  for (const [name, spec] of Object.entries(WORKLOADS)) {
    const label = `${name} (${spec.rewards} rewards / ${spec.pointsProducts} pp / ${spec.items} items)`;
    log(`workload ${name}: public JS API and raw wasm engine (a fresh process per figure), native engine`);
    const js = {};
    for (const variant of ['qualify', 'qualifyText', 'explain', 'stringify', 'wasmQualify', 'wasmExplain']) {
      for (let r = 0; r < REPEATS; ++r) {
        const figure = child('engine/measure.mjs', ['workload', files[name].snapshot, files[name].requests, String(ROUNDS),
          String(ROUND_MS), variant]);
        js[variant] = Math.min(js[variant] ?? Infinity, figure.ms);
        if (figure.digest) js.digest = figure.digest;
      }
    }
    const native = runNative(files[name]);
    const same = native.refused === 0 && native.digest === js.digest;
    if (!same) {
      log(`workload ${name}: wasm and native answers DIFFER (digest ${js.digest} vs ${native.digest})`);
      failures += 1;
    }
    const nativeQualify = native.qualify_ns / 1e6;
    // What the wasm explain computes (parse + explain, no JSON render); the JSON one for reference.
    const nativeExplain = native.explain_words_ns / 1e6;
    const target = { S: 0.01, M: 0.04, L: 0.4 }[name];
    // Issue 13: keep the absolute target, and stay within 1.6x the native engine (same run).
    const overNative = js.qualify / nativeQualify;
    row(`qualify() JS API, ${label}`, `${us(js.qualify)} (${ratioText(overNative)} native ${us(nativeQualify)})`,
      `<= ${us(target)} and <= 1.6x native`, js.qualify <= target && overNative <= 1.6,
      `js_qualify_${name}_ms`, js.qualify);
    results.figures[`js_qualify_over_native_${name}`] = { value: overNative, target: '<= 1.6', ok: overNative <= 1.6 };
    row(`explain() / qualify() JS API, ${name}`, `${ratioText(js.explain / js.qualify)} (explain ${us(js.explain)})`,
      '<= 1.5x', js.explain <= 1.5 * js.qualify, `js_explain_ratio_${name}`, js.explain / js.qualify);
    row(`  qualify() with a JSON string request / JSON.stringify(request) alone, ${name}`,
      `${us(js.qualifyText)} / ${us(js.stringify)}`, '', null, `js_qualify_text_${name}_ms`, js.qualifyText);
    const ratio = js.wasmQualify / nativeQualify;
    row(`wasm / native qualify, ${name} (engine only, same bytes${same ? ', same answers' : ', ANSWERS DIFFER'})`,
      `${ratioText(ratio)} (${us(js.wasmQualify)} / ${us(nativeQualify)})`, '<= 2', ratio <= 2,
      `wasm_native_ratio_${name}`, ratio);
    row(`  wasm / native explain (no JSON render either side), ${name}`,
      `${ratioText(js.wasmExplain / nativeExplain)} (${us(js.wasmExplain)} / ${us(nativeExplain)})`, '', null,
      `wasm_native_explain_ratio_${name}`, js.wasmExplain / nativeExplain);
    row(`  JS face over the raw wasm call, ${name}: qualify / explain (request crossing + answer objects)`,
      `${us(js.qualify - js.wasmQualify)} / ${us(js.explain - js.wasmExplain)}`, '', null,
      `js_overhead_${name}_ms`, js.qualify - js.wasmQualify);
    // Why a missed 1.6x cannot be reached with requests crossing as JSON text (bench/README.md,
    // "qualify() JS API against native"): the engine alone in wasm plus JSON.stringify alone, both
    // measured above, before a single answer object is built.
    const floor = (js.wasmQualify + js.stringify) / nativeQualify;
    results.figures[`js_qualify_floor_${name}`] = { value: floor, target: '<= 1.6', ok: floor <= 1.6 };
    if (overNative > 1.6) {
      row(`  why 1.6x native is out of reach, ${name}: engine in wasm + JSON.stringify(request) alone`,
        `${ratioText(ratio)} + ${ratioText(js.stringify / nativeQualify)} = ${ratioText(floor)} native` +
          ` (the whole JS face would have ${us(Math.max(0, 1.6 * nativeQualify - js.wasmQualify))})`,
        '', null);
    }
  }
}

function httpAgentRequest(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: body === undefined ? 'GET' : 'POST', agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

async function service(api) {
  if (flag('--no-service') || !existsSync(serviceBinary)) {
    row('local compute vs service HTTP (127.0.0.1), same basket', 'n/a (service not built)', 'ratio', null);
    return;
  }
  log('service: starting build/native/service/loyalty_service with fixtures/demo.json');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-bench-'));
  let service = null;
  try {
    // Through the package's one launcher; stderr (the access log) is read by it, never left to block.
    service = await startLocalService({
      binary: serviceBinary,
      db: path.join(dir, 'bench.db'),
      fixture: path.join(root, 'fixtures/demo.json'),
      now: '2026-11-24T13:15:00Z',
      startTimeoutMs: 20_000,
    });
    const base = service.url;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers = {
      Authorization: 'Bearer at_u1001_7Qx2LmN9pR4s',
      'Merchant-Key': 'mk_harbor_5f1c9a7e2b',
      Accept: 'application/vnd.service-v1+json',
      'Content-Type': 'application/json',
    };
    const account = await httpAgentRequest(agent, `${base}/api/account`, headers);
    if (account.status !== 200) throw new Error(`GET /api/account: ${account.status} ${account.body}`);
    const basketText = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');
    const basket = JSON.parse(basketText);
    const q = await api.createQualifier(account.body, { now: () => Date.parse('2026-11-24T13:15:00Z') });
    const local = q.qualify(basket);
    const first = await httpAgentRequest(agent, `${base}/api/baskets/qualifying`, headers, basketText);
    const ids = (a) => JSON.stringify([a.rewards.map((e) => e.id), a.points_products.map((e) => e.id)]);
    const same = first.status === 200 && ids(JSON.parse(first.body)) === ids(local);
    if (!same) failures += 1;
    const localMs = perCall(() => q.qualify(basket), 1, { rounds: ROUNDS, roundMs: ROUND_MS, clock: wallMs });
    q.dispose();
    agent.destroy();
    // HTTP: sequential requests on one kept-alive connection per round (the server closes a
    // connection after its keep-alive maximum of requests), opened by one untimed request.
    const samples = [];
    for (let round = 0; round < ROUNDS; ++round) {
      const count = quick ? 50 : 200;
      const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
      await httpAgentRequest(connection, `${base}/api/baskets/qualifying`, headers, basketText);
      const start = performance.now();
      for (let i = 0; i < count; ++i) {
        const answer = await httpAgentRequest(connection, `${base}/api/baskets/qualifying`, headers, basketText);
        if (answer.status !== 200) throw new Error(`qualifying: ${answer.status}`);
      }
      samples.push((performance.now() - start) / count);
      connection.destroy();
    }
    const httpMs = median(samples);
    const cacheFile = path.join(path.dirname(serviceBinary), '..', 'CMakeCache.txt');
    const cache = existsSync(cacheFile) ? readFileSync(cacheFile, 'utf8') : '';
    const buildType = /CMAKE_BUILD_TYPE:STRING=(\w*)/.exec(cache)?.[1] || 'unknown build type';
    row(`local compute vs service HTTP (127.0.0.1, ${buildType} service), examples/basket.json, demo account${same ? '' : ' (ANSWERS DIFFER)'}`,
      `${ratioText(httpMs / localMs)} slower over HTTP (${us(localMs)} local, ${us(httpMs)} HTTP)`, 'ratio', null,
      'service_http_over_local', httpMs / localMs);
  } finally {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loading(files) {
  log(`loading the ${LOAD_REWARDS}-reward snapshot (fresh process)`);
  const bytes = readFileSync(files.load.snapshot).length;
  let js = null;
  for (let r = 0; r < REPEATS; ++r) {
    const figure = child('engine/measure.mjs', ['load', files.load.snapshot, String(quick ? 5 : 11)]);
    js = js === null || figure.setSnapshotObject < js.setSnapshotObject ? figure : js;
  }
  const native = runNative(files.load);
  const overLoad = js.setSnapshotObject / native.load_ms;
  row(`load a ${LOAD_REWARDS}-reward snapshot, setSnapshot(object) (${(bytes / 1e6).toFixed(2)} MB JSON)`,
    `${msText(js.setSnapshotObject)} (${ratioText(overLoad)} the native load)`, '<= 2x native load',
    overLoad <= 2, 'load_5000_ms', js.setSnapshotObject);
  results.figures.load_5000_over_native = { value: overLoad, target: '<= 2', ok: overLoad <= 2 };
  row('  setSnapshot(JSON string) / native load_snapshot', `${msText(js.setSnapshotText)} / ${msText(native.load_ms)}`,
    '', null, 'load_5000_native_ms', native.load_ms);
  // As for qualify: the native load takes the snapshot as text, the JS face must serialise an object.
  const loadFloor = (js.wasmLoad + js.stringify) / native.load_ms;
  results.figures.load_5000_floor = { value: loadFloor, target: '<= 2', ok: loadFloor <= 2 };
  if (overLoad > 2) {
    row('  why 2x native is out of reach: raw wasm load + JSON.stringify(snapshot) alone',
      `${ratioText(js.wasmLoad / native.load_ms)} + ${ratioText(js.stringify / native.load_ms)} = ${ratioText(loadFloor)} native`,
      '', null);
  }
  row('  of setSnapshot(object): JSON.stringify (whole) / raw wasm load (own process) / the rest (text in pieces, offer table)',
    `${msText(js.stringify)} / ${msText(js.wasmLoad)} / ${msText(js.setSnapshotObject - js.stringify - js.wasmLoad)}`,
    '', null, 'load_5000_wasm_ms', js.wasmLoad);

  log('instantiating the module in fresh processes');
  const imports = [];
  const cold = (mode, extra = []) => {
    const samples = [];
    for (let i = 0; i < (quick ? 3 : 7); ++i) {
      const out = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/engine/instantiate.mjs'), mode, ...extra], { encoding: 'utf8' }));
      samples.push(out.ms);
      if (out.importMs !== undefined) imports.push(out.importMs);
    }
    return median(samples);
  };
  const instantiateMs = cold('module');
  row('instantiate the module (glue import + compile + instantiate, fresh process)', msText(instantiateMs), '<= 20 ms',
    instantiateMs <= 20, 'instantiate_ms', instantiateMs);
  const firstMs = cold('api', [files.S.snapshot]);
  row('first createQualifier() of a process (import + instantiate + S snapshot)', msText(firstMs), '<= 30 ms',
    firstMs <= 30, 'first_create_ms', firstMs);
  if (imports.length > 0) {
    const importMs = median(imports);
    row('  of which Node\'s import of the package (web/index.node.mjs, one file) / createQualifier itself',
      `${msText(importMs)} / ${msText(firstMs - importMs)}`, '', null, 'first_create_import_ms', importMs);
  }
}

function downloadSize() {
  const gzip = (file) => {
    const bytes = readFileSync(file);
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const kb = (b) => (b / 1024).toFixed(1);
  // What a page fetches for createQualifier: the .wasm and the browser bundle (web/engine/qualifier.js
  // and the Embind glue, minified by scripts/build.mjs into one module).
  const wasm = gzip(path.join(distDir, 'loyalty_qualifier.wasm'));
  const bundle = gzip(path.join(distDir, 'loyalty_qualifier.browser.mjs'));
  const total = wasm.gzip + bundle.gzip;
  row(`browser download, gzip -9 (wasm ${kb(wasm.gzip)} + browser bundle ${kb(bundle.gzip)} KB)`,
    `${kb(total)} KB (${total} B)`, '<= 60 KB', total <= 60 * 1024, 'download_gzip_bytes', total);
  // The same modules unbundled, as a page importing web/engine/qualifier.js loads them.
  const parts = [['glue (minified)', path.join(distDir, 'loyalty_qualifier.mjs')],
    ['qualifier.js', path.join(root, 'web/engine/qualifier.js')], ['qualify_error.js', path.join(root, 'web/engine/qualify_error.js')]]
    .map(([name, file]) => ({ name, ...gzip(file) }));
  const unbundled = wasm.gzip + parts.reduce((sum, p) => sum + p.gzip, 0);
  row(`  unbundled: wasm ${kb(wasm.gzip)} + ${parts.map((p) => `${p.name} ${kb(p.gzip)}`).join(' + ')} KB`,
    `${kb(unbundled)} KB (${unbundled} B)`, '', null, 'download_unbundled_gzip_bytes', unbundled);
}

/** bench/messages.mjs: loyalty-qualifier/messages' download and formatReason's speed (issue 30). */
function messagesFigures() {
  log('loyalty-qualifier/messages: bundle sizes and formatReason (bench/messages.mjs, a fresh process)');
  const m = child('messages.mjs', quick ? ['--quick'] : []);
  const kb = (b) => `${(b / 1024).toFixed(1)} KB (${b} B)`;
  const one = m.singleCatalogGzip;
  row('messages entry download, gzip -9, with one catalog: en / es / fr (the largest held to the target)',
    `${kb(one.en)} / ${kb(one.es)} / ${kb(one.fr)}`, '<= 10 KB', m.oneCatalogGzip <= 10 * 1024,
    'messages_one_catalog_gzip_bytes', m.oneCatalogGzip);
  row('  as shipped (en + es + fr) / formatter alone (no catalog)', `${kb(m.shippedGzip)} / ${kb(m.formatterGzip)}`, '', null,
    'messages_gzip_bytes', m.shippedGzip);
  row('  a language added when asked for (addCatalog): de / pt-BR catalog module',
    `${kb(m.addedCatalogGzip.de)} / ${kb(m.addedCatalogGzip['pt-BR'])}`, '', null, 'messages_added_catalog_gzip_bytes', m.addedCatalogGzip);
  row('  the base page (web/index.js bundled) reaches loyalty-qualifier/messages or messageformat',
    m.baseHasMessages ? 'yes' : 'no', 'no', !m.baseHasMessages, 'messages_in_base_bundle', m.baseHasMessages);
  row('  formatReason: first call of a process / warm, mixed locales (texts memoised) / a new amount each call',
    `${msText(m.firstMs)} / ${us(m.warmMs)} / ${us(m.freshMs)}`, '', null, 'messages_format_warm_ms', m.warmMs);
  results.figures.messages_format_fresh_ms = { value: m.freshMs };
}

/**
 * What loyalty-qualifier/react adds to a page (issue 38): gzip -9 of esbuild's minified bundle of
 * web/react/react.js with React and the package's main entry left out (the page has both), and
 * whether the base page (web/index.js bundled) reaches it or React.
 */
async function reactDownload() {
  const esbuild = await import('esbuild');
  const bundle = async (entry, external) => esbuild.build({ entryPoints: [path.join(root, entry)], bundle: true, minify: true,
    format: 'esm', platform: 'browser', write: false, external, logLevel: 'silent', legalComments: 'none', metafile: true });
  const hooks = await bundle('web/react/react.js', ['react', 'loyalty-qualifier']);
  const gzip = gzipSync(hooks.outputFiles[0].contents, { level: 9 }).length;
  row('loyalty-qualifier/react download, gzip -9 (useHybridQualifier + useOffers; React and the main entry external)',
    `${(gzip / 1024).toFixed(2)} KB (${gzip} B)`, '<= 2 KB', gzip <= 2 * 1024, 'react_gzip_bytes', gzip);
  const base = await bundle('web/index.js', []);
  const reaches = Object.keys(base.metafile.inputs).some((file) => /web[\\/]react[\\/]|node_modules[\\/]react/.test(file));
  row('  the base page (web/index.js bundled) reaches loyalty-qualifier/react or React', reaches ? 'yes' : 'no', 'no', !reaches,
    'react_in_base_bundle', reaches);
}

/** bench/browser/browser.mjs: the JS API in Chromium through Playwright (bench/README.md). */
function browserFigures() {
  if (flag('--no-browser')) return;
  if (!existsSync('/usr/bin/chromium')) {
    row('Chromium (Playwright): createQualifier / setSnapshot', 'n/a (/usr/bin/chromium not installed)', '', null);
    return;
  }
  log('Chromium: createQualifier, setSnapshot, qualify and explain through the JS API (Playwright)');
  let b;
  try {
    b = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/browser/browser.mjs'), defaultDir,
      ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 }));
  } catch (e) {
    row('Chromium (Playwright)', `n/a (bench/browser/browser.mjs failed: ${e.message.split('\n')[0]})`, '', null);
    failures += 1;
    return;
  }
  row(`Chromium: first createQualifier(${LOAD_REWARDS}-reward snapshot) of a fresh page (${b.browser})`,
    msText(b.createQualifier), '<= 150 ms', b.createQualifier <= 150, 'browser_create_ms', b.createQualifier);
  row('  Chromium: first createQualifier(S snapshot) of a fresh page: browser bundle / web/engine/qualifier.js',
    `${msText(b.createQualifierS)} / ${msText(b.createQualifierModules)}`, '', null,
    'browser_create_S_ms', b.createQualifierS);
  if (b.createQualifier > 150) {
    // bench/README.md, "Cold start in a page": a fresh instance runs its first calls in V8's
    // baseline code (Liftoff: the optimizing tier takes over between calls, never within one) and
    // pages in fresh memory, so the first big load costs several warm ones.
    row(`  why: fresh page with the S snapshot / the ${LOAD_REWARDS}-reward load's first run / the same load warm`,
      `${msText(b.createQualifierS)} / ${msText(b.createQualifier - b.createQualifierS)} / ${msText(b.setSnapshot)}`,
      '', null);
  }
  row(`Chromium: setSnapshot(${LOAD_REWARDS}-reward snapshot object)`, msText(b.setSnapshot), '<= 60 ms',
    b.setSnapshot <= 60, 'browser_set_snapshot_ms', b.setSnapshot);
  for (const name of Object.keys(WORKLOADS)) {
    const ratio = b[`explain.${name}`] / b[`qualify.${name}`];
    row(`  Chromium: qualify() / explain() JS API, ${name}`,
      `${us(b[`qualify.${name}`])} / ${us(b[`explain.${name}`])} (${ratioText(ratio)})`, '', null,
      `browser_qualify_${name}_ms`, b[`qualify.${name}`]);
    results.figures[`browser_explain_${name}_ms`] = { value: b[`explain.${name}`] };
  }
}

/** What loyalty-qualifier/worker adds to a page's download, gzip -9 of esbuild's minified bundles. */
async function workerDownload() {
  const esbuild = await import('esbuild');
  const gzipOf = async (entry, external = []) => {
    const built = await esbuild.build({ entryPoints: [path.join(root, entry)], bundle: true, minify: true, format: 'esm',
      platform: 'browser', write: false, external, logLevel: 'silent', legalComments: 'none' });
    return gzipSync(built.outputFiles[0].contents, { level: 9 }).length;
  };
  // The page's side: createQualifierWorker and its protocol, without what the main bundle has.
  const client = await gzipOf('web/worker/worker.js', ['../engine/*']);
  // The worker's script: the host, the engine's JS and the glue (the .wasm is the same file).
  const script = await gzipOf('web/worker/qualifier_worker.js');
  const host = await gzipOf('web/worker/qualifier_worker.js', ['../engine/*', '../dist/*']);
  row(`worker download, gzip -9: page side (createQualifierWorker) / worker script (host ${host} B + engine JS + glue)`,
    `${client} B / ${(script / 1024).toFixed(1)} KB`, '', null, 'worker_client_gzip_bytes', client);
  results.figures.worker_script_gzip_bytes = { value: script };
}

/** bench/browser/worker.mjs: the engine in a Web Worker, in Chromium (bench/README.md, "Off the main thread"). */
async function workerFigures() {
  if (flag('--no-worker') || flag('--no-browser')) return;
  if (!existsSync('/usr/bin/chromium')) {
    row('Chromium: the engine in a Web Worker', 'n/a (/usr/bin/chromium not installed)', '', null);
    return;
  }
  await workerDownload();
  log('Chromium: the engine in a Web Worker: first load, round trips, the kiosk page (bench/browser/worker.mjs)');
  let w;
  try {
    w = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/browser/worker.mjs'), defaultDir,
      ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 }));
  } catch (e) {
    row('Chromium: the engine in a Web Worker', `n/a (bench/browser/worker.mjs failed: ${e.message.split('\n')[0]})`, '', null);
    failures += 1;
    return;
  }
  const longest = w['longTask.worker'];
  row(`Chromium: longest main-thread task, first load of the ${LOAD_REWARDS}-reward snapshot: worker / in-thread`,
    `${msText(longest)} / ${msText(w['longTask.thread'])}`, '<= 50 ms', longest <= 50, 'worker_long_task_ms', longest);
  results.figures.thread_long_task_ms = { value: w['longTask.thread'] };
  row('  Chromium: that first load, until the qualifier answers: worker / in-thread',
    `${msText(w['load.worker'])} / ${msText(w['load.thread'])}`, '', null, 'worker_first_load_ms', w['load.worker']);
  if (longest > 50) {
    row('  why: the page serialises the snapshot object (JSON.stringify) before it crosses; pass JSON text',
      `${msText(longest)}`, '', null);
  }
  for (const name of Object.keys(WORKLOADS)) {
    const overhead = w[`roundTrip.${name}`] - w[`inThread.${name}`];
    const target = name === 'S' ? '<= 0.2 ms overhead' : '';
    row(`Chromium: qualify() through the worker / in-thread, ${name} (round trip, awaited)`,
      `${us(w[`roundTrip.${name}`])} / ${us(w[`inThread.${name}`])} (+${us(overhead)})`, target,
      name === 'S' ? overhead <= 0.2 : null, `worker_round_trip_${name}_ms`, w[`roundTrip.${name}`]);
    results.figures[`worker_overhead_${name}_ms`] = { value: overhead };
  }
  for (const throttle of [1, 4]) {
    const withWorker = w[`kiosk.worker.x${throttle}`];
    const without = w[`kiosk.thread.x${throttle}`];
    if (withWorker === undefined) continue;
    // Issue 38: the page's start back within 500 ms, worker and in-thread alike (its bundles, not
    // ~100 modules in a waterfall); CPU 4x slower: the worker costs no more than 10 %.
    const ok = throttle === 1 ? Math.max(withWorker, without) <= 500 : withWorker <= without * 1.1;
    row(`Chromium: kiosk page, navigation to the demo guest's first offers${throttle > 1 ? `, CPU ${throttle}x slower` : ''}: worker / in-thread`,
      `${msText(withWorker)} / ${msText(without)}`, throttle === 1 ? '<= 500 ms (both)' : 'worker <= in-thread + 10 %', ok,
      `kiosk_first_offers_x${throttle}_ms`, withWorker);
    if (!ok && throttle === 1) {
      // bench/README.md, "The kiosk page's start": where the page's start went.
      row('  when the page was ready (the guest\'s snapshot in use): worker / in-thread; a load average far above the cores inflates every figure',
        `${msText(w['kioskReady.worker.x1'])} / ${msText(w['kioskReady.thread.x1'])}`, '', null);
    } else if (!ok) {
      // bench/README.md, "Off the main thread": a worker is a second JS isolate that loads its own
      // copy of the engine's modules and glue, one import after the other, before the wasm.
      row('  why: snapshot in use (page ready) worker / in-thread; a worker starts, then loads the engine modules again',
        `${msText(w[`kioskReady.worker.x${throttle}`])} / ${msText(w[`kioskReady.thread.x${throttle}`])}`, '', null);
      row('  profile: a fresh page with the S snapshot: import + first load, worker / in-thread (not throttled)',
        `${msText(w['startImport.worker'])} + ${msText(w['startLoad.worker'])} / ` +
        `${msText(w['startImport.thread'])} + ${msText(w['startLoad.thread'])}`, '', null);
    }
  }
}

async function soak(files) {
  if (flag('--no-soak')) return;
  log(`soak: ${SOAK_CALLS.toLocaleString('en-US')} qualify() calls on M, 10 % malformed (fresh process)`);
  // A fresh process, so that the heap figures are the soak's own (earlier steps grew the memory).
  const out = execFileSync(process.execPath, [path.join(root, 'bench/engine/soak.mjs'), files.M.snapshot, files.M.requests,
    files.malformed.requests, String(SOAK_CALLS)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const s = JSON.parse(out);
  const mb = (b) => `${(b / 1048576).toFixed(2)} MB`;
  const growth = s.endBytes - s.afterWarmupBytes;
  row(`soak: ${SOAK_CALLS.toLocaleString('en-US')} qualify() calls (M, 10 % malformed), wasm memory after warm-up -> end`,
    `${mb(s.afterWarmupBytes)} -> ${mb(s.endBytes)} (+${growth} B; at start ${mb(s.startBytes)})`, 'no growth',
    growth === 0, 'soak_heap_growth_bytes', growth);
  results.figures.soak_heap_after_warmup_bytes = { value: s.afterWarmupBytes };
  results.figures.soak_samples_bytes = { value: s.samples };
  row(`soak: wrong answers or refusals (of ${SOAK_CALLS.toLocaleString('en-US')}; ${s.seconds.toFixed(1)} s)`,
    String(s.wrong), '0', s.wrong === 0, 'soak_wrong_answers', s.wrong);
  if (s.handlesBefore !== s.handlesAfter) {
    row('soak: live wasm handles changed', `${s.handlesBefore} -> ${s.handlesAfter}`, 'same', false);
  }
  if (s.wrong !== 0) failures += 1;
}

function callgrind() {
  if (flag('--no-callgrind')) return;
  const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (valgrind.status !== 0) {
    row('native instructions per qualify, L (callgrind)', 'n/a (valgrind not installed)', '<= 1 M', null);
    return;
  }
  log('callgrind: native instruction counts on L');
  const count = (operation) =>
    JSON.parse(execFileSync('bash', [path.join(root, 'bench/callgrind.sh'), 'L', operation, quick ? '16' : '64'], {
      encoding: 'utf8',
      env: { ...process.env, LQ_BENCH_DIR: defaultDir, LQ_NATIVE_BENCH: nativeBench },
    }));
  const qualify = count('qualify');
  const m = (n) => `${(n / 1e6).toFixed(2)} M`;
  row('native instructions per qualify(), L (callgrind; budget 11 M)', m(qualify.instructions_per_call), '<= 1 M',
    qualify.instructions_per_call <= 1e6, 'callgrind_L_qualify', qualify.instructions_per_call);
  for (const operation of ['qualify_json', 'explain']) {
    const other = count(operation);
    row(`  native instructions per ${operation}, L`, m(other.instructions_per_call), '', null,
      `callgrind_L_${operation}`, other.instructions_per_call);
  }
  results.profile = path.relative(root, qualify.profile);
}

function printTable() {
  const widths = ['figure', 'measured', 'target', 'status'].map((key) =>
    Math.max(key.length, ...rows.map((r) => r[key].length)),
  );
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  console.log(`\nloyalty-qualifier benchmarks — ${results.machine}`);
  console.log(`medians of ${ROUNDS} rounds (elapsed time), the lowest of ${REPEATS} fresh processes; ratios from this run${quick ? '; --quick' : ''}`);
  console.log(`load average at start ${results.load}${results.busy ? ' — BUSY MACHINE: figures are pessimistic' : ''}\n`);
  console.log(line(['figure', 'measured', 'target', 'status']));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line([r.figure, r.measured, r.target, r.status]));
  const missed = rows.filter((r) => r.status === 'MISS').length;
  console.log(`\n${missed} target(s) missed; profile of the L qualify call: ${results.profile ?? 'not run'}`);
  console.log(`results: ${path.relative(root, path.join(defaultDir, 'results.json'))}`);
}

// The emulator's download, first answers and fetch() against the native round trip (bench/emulator/emulator.mjs).
async function emulatorFigures() {
  const binary = !flag('--no-service') && existsSync(serviceBinary) ? serviceBinary : null;
  for (const r of await emulatorRows({ quick, binary, browser: !flag('--no-browser') }).catch((e) => [[
    'emulator: download, first answers, fetch vs HTTP', `n/a (${e.message})`, 'info', null]])) row(...r);
}

async function main() {
  if (only === 'worker') {
    writeWorkloads(defaultDir);
    buildWasm(); // incremental, as prepare() does
    await workerFigures();
    results.rows = rows;
    printTable();
    return failures === 0 ? 0 : 1;
  }
  if (only === 'messages') {
    buildWasm(); // incremental: the base download row reads web/dist
    downloadSize();
    messagesFigures();
    results.rows = rows;
    printTable();
    return failures === 0 ? 0 : 1;
  }
  if (only === 'emulator') {
    await emulatorFigures();
    results.rows = rows;
    printTable();
    return failures === 0 ? 0 : 1;
  }
  if (only === 'react') {
    await reactDownload();
    results.rows = rows;
    printTable();
    return failures === 0 ? 0 : 1;
  }
  if (only !== null) throw new Error(`--only ${only}: only 'worker', 'messages', 'emulator' and 'react' are known`);
  const files = prepare();
  const api = await import(pathToFileURL(path.join(root, 'web/index.js')).href);
  await jsAndWasm(files);
  try {
    await service(api);
  } catch (e) {
    row('local compute vs service HTTP (127.0.0.1), same basket', `n/a (service failed: ${e.message})`, 'ratio', null);
    failures += 1;
  }
  // Qualifying at 1, 8 and 64 connections (bench/service/connections.mjs, issue 10).
  if (!flag('--no-service') && existsSync(serviceBinary)) {
    for (const r of await connectionRows({ binary: serviceBinary, quick }).catch((e) => [[
      'service qualifying at 1, 8, 64 connections', `n/a (${e.message})`, 'info', null]])) row(...r);
    // A checkout while 1,000 orders wait (bench/service/checkout.mjs, issue 28).
    for (const r of await checkoutRows({ binary: serviceBinary, quick }).catch((e) => [[
      'checkout with 1,000 queued orders', `n/a (${e.message})`, '<= 10 ms', null]])) row(...r);
  }
  // The store hub: claim round trips of 32 kiosks at once, races for one reward (bench/service/hub.mjs, issue 29).
  if (!flag('--no-service') && existsSync(hubBinary)) {
    for (const r of await hubRows({ binary: hubBinary, quick }).catch((e) => [[
      'store hub: claim round trip and race', `n/a (${e.message})`, 'info', null]])) row(...r);
    // A checkout beside a slow replay, qualify() with the hub stopped (bench/service/holds.mjs, issue 34).
    if (existsSync(serviceBinary)) {
      for (const r of await holdsRows({ binary: serviceBinary, hubBinary, quick }).catch((e) => [[
        'checkout beside a replay; qualify with the hub stopped', `n/a (${e.message})`, 'info', null]])) row(...r);
    }
  } else {
    row('store hub: claim round trip and race', 'n/a (build/native/hub/loyalty_hub not built)', 'info', null);
  }
  await loading(files);
  downloadSize();
  await emulatorFigures();
  messagesFigures();
  await reactDownload();
  browserFigures();
  await workerFigures();
  await soak(files);
  callgrind();
  results.rows = rows;
  writeFileSync(path.join(defaultDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  printTable();
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`bench: ${e.stack ?? e.message}`);
    process.exitCode = 1;
  },
);
