// loyalty-qualifier/worker as a front end gets it: the package packed with `npm pack`, installed
// into a temporary project, bundled by Vite (default options), webpack (production) and esbuild
// (the worker script as an entry point of its own, the wasm option), each page loaded in headless
// Chromium: qualify and explain through the worker equal the in-thread answers, errors arrive as
// QualifyError with the same code, message and toJSON(), two qualifiers share one worker, and
// dispose() ends the worker it started. README's webpack recipe (HybridQualifier({ worker: true }))
// is built too: its engine runs in the worker, with the in-thread answers. Also Node's
// worker_threads (the package's node export).
// Self-contained: the project, server and browser are made here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

import { consumerProject } from './consumer_project.js';
import { exampleRewards, launchChromium, root, sendFile } from '../support/support.js';

const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');

// The same check on every page and in Node: the in-thread answers and errors, then the worker's.
const COMPARE = `
const NOW = Date.parse('2026-03-02T10:00:00Z');
async function errorOf(call) {
  try {
    await call();
    return null;
  } catch (e) {
    return { isQualifyError: e instanceof QualifyError, name: e.name, code: e.code, message: e.message, json: JSON.stringify(e) };
  }
}
async function compare(snapshot, basket, wasm) {
  const options = wasm === undefined ? {} : { wasm };
  const local = await createQualifier(snapshot, { ...options, now: () => NOW });
  const inWorker = await createQualifierWorker(snapshot, { ...options, now: () => NOW });
  const bytes = new TextEncoder().encode(snapshot);
  const shared = await createQualifierWorker(bytes, { worker: inWorker.worker, now: NOW });
  const result = {
    qualify: [local.qualify(basket), await inWorker.qualify(basket)],
    explain: [local.explain(JSON.parse(basket)), await shared.explain(JSON.parse(basket))],
    bytesIntact: bytes.byteLength,
    badRequest: [await errorOf(() => local.qualify('{')), await errorOf(() => inWorker.qualify('{'))],
    notObject: [await errorOf(() => local.qualify(7)), await errorOf(() => inWorker.qualify(7))],
    badSnapshot: [
      await errorOf(() => createQualifier('{"schema_version":99}', options)),
      await errorOf(() => createQualifierWorker('{"schema_version":99}', options)),
    ],
    setSnapshot: [await errorOf(() => local.setSnapshot('[')), await errorOf(() => inWorker.setSnapshot('['))],
    badClock: [
      await errorOf(() => createQualifier(snapshot, { ...options, now: 'soon' })),
      await errorOf(() => createQualifierWorker(snapshot, { ...options, now: 'soon' })),
    ],
    handlesWithTwo: (await inWorker.diagnostics()).liveHandles,
  };
  await shared.dispose();
  result.handlesWithOne = (await inWorker.diagnostics()).liveHandles;
  local.dispose();
  await inWorker.dispose();
  result.disposed = [await errorOf(() => local.qualify(basket)), await errorOf(() => inWorker.qualify(basket))];
  const ended = await createQualifierWorker(snapshot, options);
  await ended.terminate();
  result.terminated = await errorOf(() => ended.qualify(basket));
  return result;
}
`;

const PAGE = (wasmImport, wasmOption) => `import { createQualifier, QualifyError } from 'loyalty-qualifier';
import { createQualifierWorker, QualifyError as WorkerQualifyError } from 'loyalty-qualifier/worker';
${wasmImport}
${COMPARE}
window.lq = {
  sameErrorClass: QualifyError === WorkerQualifyError,
  compare: (snapshot, basket) => compare(snapshot, basket, ${wasmOption}),
};
document.body.dataset.ready = 'yes';
`;

// README's webpack recipe, as a page: HybridQualifier({ worker: true }) over a real LoyaltyClient
// whose service is never reached (the snapshot is given), against the in-thread engine.
const HYBRID_PAGE = `import { createQualifier, HybridQualifier, LoyaltyClient } from 'loyalty-qualifier';

window.lq = {
  async compare(snapshot, basket) {
    const hybrid = new HybridQualifier({
      client: new LoyaltyClient({ baseUrl: new URL('/nowhere', location.href).href, merchantKey: 'mk_test', accessToken: 'at_test' }),
      snapshot: JSON.parse(snapshot),
      worker: true,
    });
    const local = await createQualifier(snapshot);
    const request = JSON.parse(basket);
    request.order_timestamp = '2026-03-02T10:00:00Z';
    const result = {
      before: hybrid.engineLocation,
      hybrid: await hybrid.qualify(request),
      thread: local.qualify(request),
      location: hybrid.engineLocation,
    };
    local.dispose();
    window.lq.hybrid = hybrid;
    return result;
  },
};
document.body.dataset.ready = 'yes';
`;

const HTML = (script) =>
  `<!doctype html><html><head><title>consumer</title></head><body><script type="module" src="${script}"></script></body></html>`;

let project;
const outputs = {};
let server;
let origin;
let browser;

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
}

function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  const [, app, ...rest] = url.pathname.split('/');
  const dir = outputs[app];
  const file = dir && path.join(dir, decodeURIComponent(rest.join('/')) || 'index.html');
  if (!file || !file.startsWith(dir + path.sep)) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  sendFile(response, file);
}

function webpackBuild(config) {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve(stats);
    });
  });
}

before(async () => {
  project = consumerProject('lq-consumer-worker-', { files: {
    'vite-src/index.html': HTML('./main.js'),
    'vite-src/main.js': PAGE('', 'undefined'),
    'webpack-src/main.js': PAGE('', 'undefined'),
    'webpack-hybrid-src/main.js': HYBRID_PAGE,
    'esbuild-src/main.js': PAGE(
      "import wasmFile from 'loyalty-qualifier/wasm';",
      'new URL(wasmFile, import.meta.url).href',
    ),
    'node-check.mjs': `import { createQualifier, QualifyError } from 'loyalty-qualifier';
import { createQualifierWorker } from 'loyalty-qualifier/worker';
import { readFileSync } from 'node:fs';
${COMPARE}
const result = await compare(readFileSync(process.argv[2], 'utf8'), readFileSync(process.argv[3], 'utf8'));
process.stdout.write(JSON.stringify(result));
`,
  } });
  // Vite: its default options; the worker and the engine it imports are one chunk of their own.
  outputs.vite = path.join(project.dir, 'vite-out');
  await viteBuild({
    root: path.join(project.dir, 'vite-src'),
    configFile: false,
    base: '/vite/',
    logLevel: 'silent',
    build: { outDir: outputs.vite, emptyOutDir: true },
  });
  // webpack: production mode, nothing configured for the worker or the wasm.
  outputs.webpack = path.join(project.dir, 'webpack-out');
  await webpackBuild({
    mode: 'production',
    context: project.dir,
    entry: './webpack-src/main.js',
    output: { path: outputs.webpack, publicPath: 'auto', clean: true },
    performance: { hints: false },
  });
  project.write('webpack-out/index.html', HTML('./main.js'));
  // README's webpack recipe: HybridQualifier({ worker: true }), nothing configured either.
  outputs['webpack-hybrid'] = path.join(project.dir, 'webpack-hybrid-out');
  await webpackBuild({
    mode: 'production',
    context: project.dir,
    entry: './webpack-hybrid-src/main.js',
    output: { path: outputs['webpack-hybrid'], publicPath: 'auto', clean: true },
    performance: { hints: false },
  });
  project.write('webpack-hybrid-out/index.html', HTML('./main.js'));
  // esbuild: the worker script is an entry point of its own, named as the page looks for it.
  outputs.esbuild = path.join(project.dir, 'esbuild-out');
  await esbuild.build({
    absWorkingDir: project.dir,
    entryPoints: { main: 'esbuild-src/main.js', qualifier_worker: 'loyalty-qualifier/worker/script' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outdir: outputs.esbuild,
    loader: { '.wasm': 'file' },
    logLevel: 'silent',
  });
  project.write('esbuild-out/index.html', HTML('./main.js'));
  server = http.createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  project?.cleanup();
});

function assertSameAsInThread(result) {
  assert.deepEqual(result.qualify[0].rewards.map((e) => e.id), exampleRewards);
  for (const key of ['qualify', 'explain', 'badRequest', 'notObject', 'badSnapshot', 'setSnapshot', 'badClock', 'disposed']) {
    const [inThread, inWorker] = result[key];
    assert.ok(inThread !== null && inWorker !== null, key);
    assert.deepEqual(inWorker, inThread, key);
  }
  for (const key of ['badRequest', 'badSnapshot', 'setSnapshot', 'disposed']) {
    assert.equal(result[key][1].isQualifyError, true, key);
  }
  assert.deepEqual(result.badRequest[1].code, 400);
  assert.deepEqual(result.badSnapshot[1].code, 422);
  assert.equal(result.badClock[1].name, 'TypeError');
  assert.equal(result.bytesIntact, Buffer.byteLength(snapshot), 'the caller keeps its snapshot bytes');
  assert.equal(result.handlesWithTwo, 2, 'one worker hosts two qualifiers');
  assert.equal(result.handlesWithOne, 1, 'dispose() frees the snapshot in the worker');
  assert.equal(result.terminated.code, 410, 'terminate() ends the worker: later calls are refused');
  assert.equal(result.terminated.isQualifyError, true);
}

async function checkIn(app) {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  const closed = [];
  page.on('worker', (worker) => worker.on('close', () => closed.push(worker.url())));
  try {
    await page.goto(`${origin}/${app}/index.html`);
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
    const result = await page.evaluate(([s, b]) => window.lq.compare(s, b), [snapshot, basket]);
    assertSameAsInThread(result);
    assert.equal(await page.evaluate(() => window.lq.sameErrorClass), true);
    // Every worker the page started (the shared one, one for the invalid snapshot, one ended by
    // terminate()) has ended: dispose(), a failed create and terminate() leave nothing behind.
    await waitFor(() => page.workers().length === 0 && closed.length >= 3,
      () => `workers still running: ${page.workers().map((w) => w.url())}; ended: ${closed.join(', ')}`);
    assert.deepEqual(messages.filter((m) => /error/i.test(m)), [], messages.join('\n'));
  } finally {
    await page.close();
  }
}

// Waits (at most 20 s) for a condition the browser reports asynchronously, through its events.
async function waitFor(condition, describe) {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(describe());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The worker's chunk: the one emitted script that holds the worker's host (its own message).
function workerChunkOf(dir) {
  const scripts = listFiles(dir).filter((f) => f.endsWith('.js'));
  const workers = scripts.filter((f) => readFileSync(path.join(dir, f), 'utf8').includes('the qualifier worker has no operation'));
  assert.equal(workers.length, 1, `one chunk holds the worker script: ${scripts.join(', ')}`);
  return workers[0];
}

// One chunk: the worker's script holds the engine's glue (Emscripten's "Aborted(" message) and
// loads no other script (no webpack chunk loading: importScripts of a chunk's URL), and the build
// has one .wasm.
function assertWorkerIsOneChunk(dir) {
  const files = listFiles(dir);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, files.join(', '));
  const worker = readFileSync(path.join(dir, workerChunkOf(dir)), 'utf8');
  assert.ok(worker.includes('Aborted('), 'the engine\'s glue is in the worker\'s chunk');
  assert.doesNotMatch(worker, /importScripts\([^)]*\.u\(/, 'the worker loads no other chunk');
}

test('Vite (default options): the worker is one chunk with the engine, and one wasm asset', () => {
  const files = listFiles(outputs.vite);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, files.join(', '));
  const workers = files.filter((f) => /qualifier_worker/.test(f));
  assert.equal(workers.length, 1, files.join(', '));
  // Vite's default worker format (iife) cannot load a second chunk: the worker names no other script.
  const worker = readFileSync(path.join(outputs.vite, workers[0]), 'utf8');
  const scripts = files.filter((f) => f.endsWith('.js') && f !== workers[0]).map((f) => path.basename(f));
  assert.deepEqual(scripts.filter((name) => worker.includes(name)), []);
});

test('Vite build in Chromium: the worker answers as the page does', { timeout: 120_000 }, () => checkIn('vite'));

test('webpack build: the worker is one chunk with the engine, and one wasm asset', () => {
  assertWorkerIsOneChunk(outputs.webpack);
});

test('webpack build of README\'s HybridQualifier({ worker: true }) page: the worker is one chunk, one wasm asset', () => {
  assertWorkerIsOneChunk(outputs['webpack-hybrid']);
});

test('webpack build of HybridQualifier({ worker: true }) in Chromium: its engine runs in the worker, same answers', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  try {
    await page.goto(`${origin}/webpack-hybrid/index.html`);
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
    const result = await page.evaluate(([s, b]) => window.lq.compare(s, b), [snapshot, basket]);
    assert.equal(result.before, null);
    assert.equal(result.location, 'worker', 'HybridQualifier({ worker: true }) runs its engine in a Web Worker');
    assert.deepEqual(result.hybrid, result.thread);
    assert.ok(result.hybrid.rewards.length > 0);
    const chunk = path.basename(workerChunkOf(outputs['webpack-hybrid']));
    assert.deepEqual(page.workers().map((w) => path.basename(new URL(w.url()).pathname)), [chunk],
      'one worker, running the worker chunk');
    // The last hybrid's dispose() ends the page's worker (bounded by the test's timeout).
    const [running] = page.workers();
    const ended = new Promise((resolve) => running.once('close', resolve));
    await page.evaluate(() => window.lq.hybrid.dispose());
    await ended;
    assert.deepEqual(page.workers(), []);
    assert.deepEqual(messages.filter((m) => /error|warn/i.test(m)), [], messages.join('\n'));
  } finally {
    await page.close();
  }
});

test('webpack build in Chromium: the worker answers as the page does', { timeout: 120_000 }, () => checkIn('webpack'));

test('esbuild (worker script as an entry point, the wasm option) in Chromium', { timeout: 120_000 }, () => checkIn('esbuild'));

test('Node worker_threads: the node export answers as the thread does, and the process exits', () => {
  const result = spawnSync(process.execPath, ['node-check.mjs', path.join(root, 'examples/snapshot.json'), path.join(root, 'examples/basket.json')], {
    cwd: project.dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assertSameAsInThread(JSON.parse(result.stdout));
});
