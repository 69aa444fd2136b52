// The package as a front end gets it: the tarballs of `npm run pack` installed into a temporary
// project (consumer_project.js), bundled by esbuild (page and module worker, the wasm handed over
// with the `wasm` option) and by Vite (production build, default location and `loyalty-qualifier/wasm?url`), then loaded in
// Chromium (playwright-core, Debian's /usr/bin/chromium) from a local server. Also: a wasm URL on
// another path of the same server, served as application/wasm and as application/octet-stream
// (one download either way), a Promise<Response>, bytes, a WebAssembly.Module, and load failures.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';

import { exampleRewards, launchChromium, sendFile } from '../support/support.js';
import { consumerProject, root } from './consumer_project.js';

const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');

// What every page and worker below does: load a snapshot with the given options and qualify.
const RUN = `
async function qualifyWith(api, snapshot, basket, options, init) {
  try {
    if (init) await api.initQualifier(init);
    const q = await api.createQualifier(snapshot, options);
    const rewards = q.qualify(basket).rewards.map((e) => e.id);
    q.dispose();
    return { rewards };
  } catch (e) {
    return { error: { isQualifyError: e instanceof api.QualifyError, name: e.name, code: e.code, message: e.message } };
  }
}
`;

// Every page's lq.worker(): qualifies in a module worker of its own (./worker.js) and ends it.
const PAGE_WORKER = `worker(snapshot, basket) {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    return new Promise((resolve) => {
      worker.onmessage = (event) => { resolve(event.data); worker.terminate(); };
      worker.onerror = (event) => resolve({ error: { message: String(event.message) } });
      worker.postMessage({ snapshot, basket });
    });
  },`;

const ESBUILD_PAGE = `import * as api from 'loyalty-qualifier';
import wasmFile from 'loyalty-qualifier/wasm';
${RUN}
const bundled = new URL(wasmFile, import.meta.url).href;
// how: where the wasm comes from; url: a location on the server.
async function options(how, url) {
  switch (how) {
    case 'default': return {};
    case 'bundled': return { wasm: bundled };
    case 'url': return { wasm: url };
    case 'url-object': return { wasm: new URL(url, location.href) };
    case 'promise': return { wasm: fetch(url) };
    case 'response': return { wasm: await fetch(url) };
    case 'bytes': return { wasm: await (await fetch(url)).arrayBuffer() };
    case 'module': return { wasm: await WebAssembly.compile(await (await fetch(url)).arrayBuffer()) };
    default: throw new Error(how);
  }
}
window.lq = {
  async run(snapshot, basket, how, url) {
    if (how === 'init') return qualifyWith(api, snapshot, basket, {}, { wasm: url });
    return qualifyWith(api, snapshot, basket, await options(how, url));
  },
  ${PAGE_WORKER}
};
document.body.dataset.ready = 'yes';
`;

const ESBUILD_WORKER = `import * as api from 'loyalty-qualifier';
import wasmFile from 'loyalty-qualifier/wasm';
${RUN}
self.onmessage = async ({ data }) => {
  self.postMessage(await qualifyWith(api, data.snapshot, data.basket, { wasm: new URL(wasmFile, import.meta.url) }));
};
`;

const VITE_PAGE = `import * as api from 'loyalty-qualifier';
${RUN}
window.lq = {
  run: (snapshot, basket) => qualifyWith(api, snapshot, basket, {}),
  ${PAGE_WORKER}
};
document.body.dataset.ready = 'yes';
`;

const VITE_WORKER = `import * as api from 'loyalty-qualifier';
import wasmUrl from 'loyalty-qualifier/wasm?url';
${RUN}
self.onmessage = async ({ data }) => {
  self.postMessage(await qualifyWith(api, data.snapshot, data.basket, { wasm: wasmUrl }));
};
`;

const HTML = (script) =>
  `<!doctype html><html><head><title>consumer</title></head><body><script type="module" src="${script}"></script></body></html>`;

let project;
let esbuildOut;
let viteOut;
let wasmBytes;
let server;
let origin;
let browser;
const downloads = new Map();

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
}

function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  downloads.set(url.pathname, (downloads.get(url.pathname) ?? 0) + 1);
  // The wasm on other paths of the same server, as a CDN or a kiosk would serve it.
  if (url.pathname === '/cdn/wasm-type/engine.wasm' || url.pathname === '/cdn/octet-stream/engine.wasm') {
    const type = url.pathname.includes('wasm-type') ? 'application/wasm' : 'application/octet-stream';
    response.writeHead(200, { 'content-type': type });
    response.end(wasmBytes);
    return;
  }
  for (const [prefix, dir] of [['/esbuild/', esbuildOut], ['/vite/', viteOut]]) {
    if (url.pathname.startsWith(prefix)) {
      const file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html');
      if (!file.startsWith(dir + path.sep)) break;
      sendFile(response, file);
      return;
    }
  }
  response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
}

before(async () => {
  project = consumerProject('lq-consumer-browser-', { files: {
    'esbuild-src/page.js': ESBUILD_PAGE,
    'esbuild-src/worker.js': ESBUILD_WORKER,
    'vite-src/index.html': HTML('./main.js'),
    'vite-src/main.js': VITE_PAGE,
    'vite-src/worker.js': VITE_WORKER,
  } });
  wasmBytes = readFileSync(path.join(project.dir, 'node_modules/loyalty-qualifier/web/dist/loyalty_qualifier.wasm'));
  esbuildOut = path.join(project.dir, 'esbuild-out');
  project.write('esbuild-out/index.html', HTML('./page.js'));
  await esbuild.build({
    absWorkingDir: project.dir,
    entryPoints: ['esbuild-src/page.js', 'esbuild-src/worker.js'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outdir: esbuildOut,
    loader: { '.wasm': 'file' },
    logLevel: 'silent',
  });
  viteOut = path.join(project.dir, 'vite-out');
  await viteBuild({
    root: path.join(project.dir, 'vite-src'),
    configFile: false,
    base: '/vite/',
    logLevel: 'silent',
    worker: { format: 'es' },
    build: { outDir: viteOut, emptyOutDir: true },
  });
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

/** A fresh page (a fresh module instance) of `app`, its console messages collected. */
async function openPage(app) {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  await page.goto(`${origin}/${app}/index.html`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  return { page, messages };
}

async function runIn(app, how, url) {
  const { page, messages } = await openPage(app);
  try {
    const result = await page.evaluate(([s, b, h, u]) => window.lq.run(s, b, h, u), [snapshot, basket, how, url]);
    return { result, messages };
  } finally {
    await page.close();
  }
}

test('esbuild emits the wasm once (file loader) and no copy of the glue', () => {
  const files = listFiles(esbuildOut);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, files.join(', '));
  assert.equal(files.filter((f) => f.endsWith('.mjs')).length, 0, files.join(', '));
});

test('Vite emits exactly one wasm asset and no stray glue', () => {
  const files = listFiles(viteOut);
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, files.join(', '));
  // The glue is a chunk of the page and part of the worker bundle; a stray copy was an .mjs
  // asset. The Vite test below also checks that the page and worker use every file emitted.
  assert.equal(files.filter((f) => f.endsWith('.mjs')).length, 0, files.join(', '));
});

test('esbuild page: the wasm option with the bundled file qualifies in Chromium', { timeout: 60_000 }, async () => {
  const { result, messages } = await runIn('esbuild', 'bundled');
  assert.deepEqual(result, { rewards: exampleRewards }, messages.join('\n'));
});

test('esbuild page without the option: a QualifyError 503 naming the URL tried', { timeout: 60_000 }, async () => {
  const { result } = await runIn('esbuild', 'default');
  assert.equal(result.error.isQualifyError, true, JSON.stringify(result));
  assert.equal(result.error.code, 503);
  assert.ok(result.error.message.startsWith('MODULE_LOAD_FAILED'), result.error.message);
  assert.ok(result.error.message.includes(`${origin}/dist/loyalty_qualifier.wasm`), result.error.message);
  assert.match(result.error.message, /HTTP 404/);
});

test('esbuild module worker: the wasm option qualifies in a worker', { timeout: 60_000 }, async () => {
  const { page, messages } = await openPage('esbuild');
  try {
    const result = await page.evaluate(([s, b]) => window.lq.worker(s, b), [snapshot, basket]);
    assert.deepEqual(result, { rewards: exampleRewards }, messages.join('\n'));
  } finally {
    await page.close();
  }
});

test('a wasm URL on another path: one download, as application/wasm or octet-stream', { timeout: 90_000 }, async () => {
  for (const type of ['wasm-type', 'octet-stream']) {
    const url = `/cdn/${type}/engine.wasm`;
    for (const how of ['url', 'url-object', 'init']) {
      downloads.clear();
      const { result, messages } = await runIn('esbuild', how, url);
      assert.deepEqual(result, { rewards: exampleRewards }, `${type} ${how}: ${messages.join('\n')}`);
      assert.equal(downloads.get(url), 1, `${type} ${how}: downloads`);
      assert.equal(downloads.get('/dist/loyalty_qualifier.wasm'), undefined);
      // The glue's streaming fallback would log "wasm streaming compile failed" here.
      assert.deepEqual(messages.filter((m) => /wasm|streaming|MIME/i.test(m)), [], `${type} ${how}`);
    }
  }
});

test('a Promise<Response>, a Response, bytes and a WebAssembly.Module', { timeout: 90_000 }, async () => {
  for (const how of ['promise', 'response', 'bytes', 'module']) {
    const { result, messages } = await runIn('esbuild', how, '/cdn/octet-stream/engine.wasm');
    assert.deepEqual(result, { rewards: exampleRewards }, `${how}: ${messages.join('\n')}`);
  }
});

test('a missing wasm URL and a non-wasm body: QualifyError 503 naming the URL', { timeout: 60_000 }, async () => {
  const missing = (await runIn('esbuild', 'url', '/cdn/missing/engine.wasm')).result;
  assert.equal(missing.error.isQualifyError, true);
  assert.equal(missing.error.code, 503);
  assert.match(missing.error.message, /^MODULE_LOAD_FAILED: cannot load the wasm module from \/cdn\/missing\/engine\.wasm: .*HTTP 404/);
  const html = (await runIn('esbuild', 'url', '/esbuild/index.html')).result;
  assert.equal(html.error.code, 503);
  assert.match(html.error.message, /^MODULE_LOAD_FAILED: .*\/esbuild\/index\.html: CompileError/);
});

test('Vite production build: the page loads the default wasm, the worker the ?url import', { timeout: 60_000 }, async () => {
  downloads.clear();
  const { page, messages } = await openPage('vite');
  try {
    const onPage = await page.evaluate(([s, b]) => window.lq.run(s, b), [snapshot, basket]);
    assert.deepEqual(onPage, { rewards: exampleRewards }, messages.join('\n'));
    const inWorker = await page.evaluate(([s, b]) => window.lq.worker(s, b), [snapshot, basket]);
    assert.deepEqual(inWorker, { rewards: exampleRewards }, messages.join('\n'));
  } finally {
    await page.close();
  }
  // The page and the worker each load their own instance, from the one emitted asset.
  const wasmPaths = [...downloads.keys()].filter((p) => p.endsWith('.wasm'));
  assert.equal(wasmPaths.length, 1, wasmPaths.join(', '));
  assert.ok(wasmPaths[0].startsWith('/vite/assets/'), wasmPaths[0]);
  // Nothing emitted goes unused (the stray glue copy did), except the chunks of
  // loyalty-qualifier/worker that HybridQualifier({ worker: true }) imports on demand: its module
  // (named by its error text) and the worker script.
  const onDemand = (f) =>
    path.basename(f).startsWith('qualifier_worker-') ||
    readFileSync(path.join(viteOut, f), 'utf8').includes('this runtime has no Web Worker');
  const unused = listFiles(viteOut).filter((f) => !downloads.has(`/vite/${f.split(path.sep).join('/')}`));
  assert.deepEqual(unused.filter((f) => !onDemand(f)), []);
});
