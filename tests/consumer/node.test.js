// The package as a user's Node project gets it: the tarballs of `npm run pack` installed into a
// temporary project (consumer_project.js) and imported BY ITS NAME. Every way to hand over the wasm module, the
// load failures, an esbuild --platform=node bundle, a jsdom environment, the types and the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import * as esbuild from 'esbuild';

import { importGraph } from '../../scripts/check-imports.mjs';
import { examplePointsProducts, exampleRewards } from '../support/support.js';
import { consumerProject, root } from './consumer_project.js';

const snapshotFile = path.join(root, 'examples/snapshot.json');
const basketFile = path.join(root, 'examples/basket.json');
const jsdomUrl = pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('jsdom')).href;

// One child process per way of loading: the module is loaded once per process.
const LOAD = `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createQualifier, initQualifier, QualifyError } from 'loyalty-qualifier';

const require = createRequire(import.meta.url);
const [mode, snapshotFile, basketFile] = process.argv.slice(2);
const wasmPath = require.resolve('loyalty-qualifier/wasm');
const bytes = readFileSync(wasmPath);
const sources = {
  default: () => undefined,
  path: () => wasmPath,
  'file-url': () => new URL(import.meta.resolve('loyalty-qualifier/wasm')),
  bytes: () => new Uint8Array(bytes),
  'array-buffer': () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  module: () => new WebAssembly.Module(bytes),
  response: () => new Response(bytes, { headers: { 'content-type': 'application/wasm' } }),
  'response-promise': () => Promise.resolve(new Response(bytes)),
  'missing-file': () => '/nonexistent/lq/loyalty_qualifier.wasm',
  'not-wasm': () => new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]),
  'not-a-source': () => 42,
};
const snapshot = readFileSync(snapshotFile, 'utf8');
const basket = readFileSync(basketFile, 'utf8');
const ids = (q) => q.qualify(basket).rewards.map((e) => e.id);
const out = { mode };
try {
  const wasm = sources[mode.replace(/^init-/, '')]();
  let q;
  if (mode.startsWith('init-')) {
    await initQualifier({ wasm });
    q = await createQualifier(snapshot);
  } else {
    q = await createQualifier(snapshot, wasm === undefined ? {} : { wasm });
  }
  out.rewards = ids(q);
  q.dispose();
} catch (e) {
  out.error = { isQualifyError: e instanceof QualifyError, name: e.name, code: e.code, message: e.message };
  // A failed load is not remembered: the next call with a good source loads.
  const q = await createQualifier(snapshot, { wasm: wasmPath });
  out.retry = ids(q);
}
console.log(JSON.stringify(out));
`;

// An app bundled by esbuild for Node; the wasm comes beside the bundle through esbuild's file loader.
const NODE_APP = `import { readFileSync } from 'node:fs';
import { createQualifier, QualifyError } from 'loyalty-qualifier';
import wasmFile from 'loyalty-qualifier/wasm';

const [mode, snapshotFile, basketFile] = process.argv.slice(2);
const options = mode === 'default' ? {} : { wasm: new URL(wasmFile, import.meta.url) };
try {
  const q = await createQualifier(readFileSync(snapshotFile, 'utf8'), options);
  console.log(JSON.stringify({ rewards: q.qualify(readFileSync(basketFile, 'utf8')).rewards.map((e) => e.id) }));
} catch (e) {
  console.log(JSON.stringify({ error: { isQualifyError: e instanceof QualifyError, code: e.code, message: e.message } }));
}
`;

// A node:test file under jsdom globals, the way Vitest's jsdom environment sets them up.
const JSDOM_TEST = `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { JSDOM } from '${jsdomUrl}';

const dom = new JSDOM('<!doctype html><p id="offers"></p>', { url: 'http://localhost:3000/' });
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) globalThis[key] = dom.window[key];
}
globalThis.window = dom.window;
globalThis.document = dom.window.document;

test('the qualifier runs under jsdom globals', async () => {
  assert.equal(typeof window, 'object');
  const { createQualifier } = await import('loyalty-qualifier');
  const q = await createQualifier(readFileSync(process.env.LQ_SNAPSHOT, 'utf8'));
  const answer = q.qualify(readFileSync(process.env.LQ_BASKET, 'utf8'));
  document.getElementById('offers').textContent = answer.rewards.map((e) => e.id).join(',');
  assert.equal(document.getElementById('offers').textContent, process.env.LQ_EXPECTED);
  q.dispose();
});
`;

// A CommonJS consumer: require() of every entry, where Node can require ES modules (20.19+, 22.12+).
const REQUIRED = `const { readFileSync } = require('node:fs');
const { createQualifier } = require('loyalty-qualifier');
const { createQualifierWorker } = require('loyalty-qualifier/worker');
const { formatReason } = require('loyalty-qualifier/messages');
const { startLocalService } = require('loyalty-qualifier/service');
const fixture = require('loyalty-qualifier/fixtures/demo.json');

const [snapshotFile, basketFile] = process.argv.slice(2);
(async () => {
  const snapshot = readFileSync(snapshotFile, 'utf8');
  const basket = readFileSync(basketFile, 'utf8');
  const q = await createQualifier(snapshot);
  const w = await createQualifierWorker(snapshot);
  const local = q.qualify(basket).rewards.map((r) => r.id);
  const worker = (await w.qualify(basket)).rewards.map((r) => r.id);
  q.dispose();
  await w.dispose();
  const service = await startLocalService({ fixture });
  const user = fixture.users[0];
  const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
  const answer = await fetch(service.url + '/api/account', { headers: {
    Authorization: 'Bearer ' + user.access_token, 'Merchant-Key': merchant.merchant_key, Accept: 'application/vnd.service-v1+json',
  } });
  await service.stop();
  let wasm;
  try {
    require('loyalty-qualifier/wasm');
  } catch (e) {
    wasm = { required: e.name, resolved: require.resolve('loyalty-qualifier/wasm').endsWith('/web/dist/loyalty_qualifier.wasm') };
  }
  const reason = formatReason({ code: 'INSUFFICIENT_POINTS', message: '1 more points needed.', points_needed: 1 }, { locale: 'fr' });
  console.log(JSON.stringify({ local, worker, service: answer.status, reason, wasm }));
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
`;

const TYPED = `import { createQualifier, initQualifier, QualifyError, type QualifyRequest, type QualifyResult } from 'loyalty-qualifier';
import wasmFile from 'loyalty-qualifier/wasm';
const bundled: string = wasmFile;
await initQualifier({ wasm: new URL(bundled, 'https://kiosk.example/app/') });
await initQualifier({ wasm: new URL('https://cdn.example/loyalty_qualifier.wasm') });
const q = await createQualifier({ schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, rewards: [] }, { now: () => Date.now(), wasm: new Uint8Array(8) });
const answer: QualifyResult = q.qualify({ subtotal: '8.00', items: [{ id: 'latte', price: '4.20' }] });
const ids: string[] = answer.rewards.map((r) => r.id);
const error: QualifyError = new QualifyError(400, 'x');
// Extra fields are forwarded when named.
const forwarded: QualifyRequest<{ pos_ref: string }, { pos_line: number }> = {
  pos_ref: 'till-4',
  items: [{ id: 'latte', pos_line: 1 }],
};
q.qualify(forwarded);
// @ts-expect-error a misspelt field is a compile error
q.qualify({ subtotl: '19.00' });
console.log(ids, error.code);
`;

const MISSPELT = `import { createQualifier } from 'loyalty-qualifier';
const q = await createQualifier('{"schema_version": 1}');
q.qualify({ subtotl: '19.00', items: [{ id: 'latte', price: '4.20' }] });
q.qualify({ subtotal: '19.00', items: [{ id: 'latte', quantiy: 2 }] });
`;

function tsconfig(file, moduleResolution) {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: moduleResolution === 'bundler' ? 'esnext' : 'nodenext',
      moduleResolution,
      target: 'es2022',
      types: [],
      lib: ['es2022', 'dom'],
    },
    files: [file],
  });
}

let project;
let scratch;

before(() => {
  project = consumerProject('lq-consumer-node-', { files: {
    'load.mjs': LOAD,
    'required.cjs': REQUIRED,
    'app.mjs': NODE_APP,
    'jsdom.test.mjs': JSDOM_TEST,
    'typed.ts': TYPED,
    'misspelt.ts': MISSPELT,
    'tsconfig.json': tsconfig('typed.ts', 'nodenext'),
    'tsconfig.bundler.json': tsconfig('typed.ts', 'bundler'),
    'tsconfig.misspelt.json': tsconfig('misspelt.ts', 'nodenext'),
  } });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-consumer-run-'));
});

after(() => {
  project?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function node(args, options = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd: project.dir,
    env: project.env,
    encoding: 'utf8',
    timeout: 60_000,
    ...options,
  });
  assert.equal(result.error, undefined);
  return result;
}

function load(mode) {
  const result = node(['load.mjs', mode, snapshotFile, basketFile]);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('the tarball holds every module the package imports', () => {
  const installed = path.join(project.dir, 'node_modules/loyalty-qualifier');
  for (const [file, targets] of importGraph(path.join(installed, 'web'))) {
    for (const target of targets) {
      assert.ok(existsSync(target), `${path.relative(installed, file)} imports a file the tarball lacks: ${path.relative(installed, target)}`);
    }
  }
  const shipped = ['web/dist/loyalty_qualifier.wasm', 'web/dist/loyalty_qualifier.mjs', 'README.md', 'docs/service.md', 'fixtures/demo.json', 'examples/snapshot.json', 'examples/basket.json'];
  for (const file of shipped) {
    assert.ok(existsSync(path.join(installed, file)), `${file} is not in the tarball`);
  }
  // Only the package's own files travel: no checkout, so no local build to fall back on.
  assert.ok(!existsSync(path.join(installed, 'build')));
});

test('the wasm module loads from each kind of source', { timeout: 120_000 }, () => {
  for (const mode of ['default', 'path', 'file-url', 'bytes', 'array-buffer', 'module', 'response', 'response-promise', 'init-path', 'init-module']) {
    const out = load(mode);
    assert.deepEqual(out, { mode, rewards: exampleRewards }, mode);
  }
});

test('a load failure is a QualifyError 503 naming the source and the cause', { timeout: 60_000 }, () => {
  const missing = load('missing-file');
  assert.equal(missing.error.isQualifyError, true);
  assert.equal(missing.error.code, 503);
  assert.match(missing.error.message, /^MODULE_LOAD_FAILED: .*\/nonexistent\/lq\/loyalty_qualifier\.wasm.*ENOENT/);
  assert.deepEqual(missing.retry, exampleRewards);

  const garbage = load('not-wasm');
  assert.equal(garbage.error.code, 503);
  assert.match(garbage.error.message, /^MODULE_LOAD_FAILED: .*the given bytes \(8 bytes\).*CompileError/);
  assert.deepEqual(garbage.retry, exampleRewards);

  const wrongType = load('not-a-source');
  assert.equal(wrongType.error.name, 'TypeError');
  assert.match(wrongType.error.message, /options\.wasm must be a URL or string/);
});

test('require.resolve and import.meta.resolve find the wasm file through the subpath export', () => {
  const result = node([
    '--input-type=module',
    '-e',
    `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const a = createRequire(import.meta.url).resolve('loyalty-qualifier/wasm');
const b = fileURLToPath(import.meta.resolve('loyalty-qualifier/wasm'));
console.log(JSON.stringify({ same: a === b, file: a, magic: [...readFileSync(a).subarray(0, 4)] }));`,
  ]);
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.equal(out.same, true);
  assert.match(out.file, /node_modules[\\/]loyalty-qualifier[\\/]web[\\/]dist[\\/]loyalty_qualifier\.wasm$/);
  assert.deepEqual(out.magic, [0, 0x61, 0x73, 0x6d]);
});

test('an esbuild --platform=node bundle runs anywhere with the wasm beside it', { timeout: 120_000 }, async () => {
  const outdir = path.join(project.dir, 'out-node');
  const built = await esbuild.build({
    absWorkingDir: project.dir,
    entryPoints: ['app.mjs'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir,
    loader: { '.wasm': 'file' },
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.keys(built.metafile.outputs).map((f) => path.basename(f));
  assert.equal(outputs.filter((f) => f.endsWith('.wasm')).length, 1, outputs.join(', '));
  assert.equal(outputs.filter((f) => /loyalty_qualifier.*\.mjs$/.test(f)).length, 0, outputs.join(', '));
  // Away from node_modules, from another working directory.
  const away = path.join(scratch, 'node-app');
  cpSync(outdir, away, { recursive: true });
  const run = (mode) => {
    const result = node([path.join(away, 'app.js'), mode, snapshotFile, basketFile], { cwd: os.tmpdir() });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout);
  };
  assert.deepEqual(run('wasm-option'), { rewards: exampleRewards });
  // Without the option the default location beside the bundle does not exist: an honest error.
  const failed = run('default').error;
  assert.equal(failed.isQualifyError, true);
  assert.equal(failed.code, 503);
  assert.ok(failed.message.startsWith('MODULE_LOAD_FAILED'), failed.message);
  assert.ok(failed.message.includes(path.join(away, 'dist/loyalty_qualifier.wasm')), failed.message);
});

test('a node:test file under jsdom globals qualifies (environment detection ignores window)', { timeout: 120_000 }, () => {
  const result = node(['--test', '--test-reporter=tap', 'jsdom.test.mjs'], {
    env: { ...project.env, LQ_SNAPSHOT: snapshotFile, LQ_BASKET: basketFile, LQ_EXPECTED: exampleRewards.join(',') },
    timeout: 120_000,
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /# pass 1/);
});

test('a consumer imports the package by name and gets QualifyError for a bad request', { timeout: 30_000 }, () => {
  const result = node([
    '--input-type=module',
    '-e',
    `import { readFileSync } from 'node:fs';
import { createQualifier, QualifyError } from 'loyalty-qualifier';
const q = await createQualifier(readFileSync(${JSON.stringify(snapshotFile)}, 'utf8'));
const answer = q.qualify(JSON.parse(readFileSync(${JSON.stringify(basketFile)}, 'utf8')));
let error = null;
try { q.qualify({ redemption_venue: 'moon' }); } catch (e) { error = { isQualifyError: e instanceof QualifyError, code: e.code }; }
q.dispose();
console.log(JSON.stringify({ rewards: answer.rewards.map((e) => e.id), points_products: answer.points_products.map((e) => e.id), error }));`,
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    rewards: exampleRewards,
    points_products: examplePointsProducts,
    error: { isQualifyError: true, code: 400 },
  });
});

test('require() of the package works where Node can require ES modules (20.19+, 22.12+): every entry but the wasm file', {
  timeout: 120_000,
  skip: !process.features.require_module && `Node ${process.versions.node} cannot require() an ES module`,
}, () => {
  const result = node(['required.cjs', snapshotFile, basketFile], { timeout: 120_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    local: exampleRewards,
    worker: exampleRewards,
    service: 200,
    reason: 'Il manque 1 point.',
    // The wasm entry is the module's file, not a module: its path comes from require.resolve.
    wasm: { required: 'SyntaxError', resolved: true },
  });
});

test('TypeScript consumers: the types resolve (nodenext, bundler) and a misspelt field fails', { timeout: 120_000 }, () => {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  for (const config of ['tsconfig.json', 'tsconfig.bundler.json']) {
    const result = node([tsc, '-p', config], { timeout: 120_000 });
    assert.equal(result.status, 0, `${config}: ${result.stdout}${result.stderr}`);
  }
  const misspelt = node([tsc, '-p', 'tsconfig.misspelt.json'], { timeout: 120_000 });
  assert.notEqual(misspelt.status, 0);
  assert.match(misspelt.stdout, /misspelt\.ts\(3,\d+\): error TS(2353|2561): .*'subtotl'/);
  assert.match(misspelt.stdout, /misspelt\.ts\(4,\d+\): error TS(2353|2561): .*'quantiy'/);
});

test('the installed CLI answers --version and qualifies with short flags', { timeout: 30_000 }, () => {
  const bin = path.join(project.dir, 'node_modules/.bin/loyalty-qualifier');
  const version = spawnSync(bin, ['--version'], { cwd: project.dir, env: project.env, encoding: 'utf8' });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `${JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
  const answer = spawnSync(bin, ['qualify', '-s', snapshotFile, '-r', basketFile], { cwd: project.dir, env: project.env, encoding: 'utf8' });
  assert.equal(answer.status, 0, answer.stderr);
  assert.deepEqual(JSON.parse(answer.stdout).rewards.map((e) => e.id), exampleRewards);
});
