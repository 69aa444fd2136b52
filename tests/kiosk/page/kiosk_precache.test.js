// The kiosk's service worker must precache every file the page loads, and nothing else: what
// index.html names (its stylesheet, its script: the build's bundle of the page), and from the
// bundles (kiosk/page/dist/, made here from the current sources by kiosk/server/page_bundle.mjs, as
// the build and `npm start` make them) every module they import, every worker they start and
// every file they fetch by URL (the module glue, the wasm). One left out and a reload with the
// network off fails to start the page; one too many is a request more at every install.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { bundlePage } from '../../../kiosk/server/page_bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const kiosk = path.join(root, 'kiosk/page');
// The package's own worker script, named by URL in its worker module for callers that pass no
// worker: the page passes its own (dist/engine_worker.js, inside the service worker's scope), so
// this one is never loaded.
const NAMED_NOT_LOADED = [path.join(root, 'web/worker/qualifier_worker.js')];

let bundle;
before(async () => {
  bundle = await bundlePage(root);
}, { timeout: 120_000 });

function precacheList() {
  const text = readFileSync(path.join(kiosk, 'sw.js'), 'utf8');
  const list = text.match(/const PRECACHE = \[([\s\S]*?)\];/);
  assert.ok(list, 'kiosk/page/sw.js declares const PRECACHE = [...]');
  return new Set([...list[1].matchAll(/'([^']+)'/g)].map((m) => path.resolve(kiosk, m[1])));
}

// What a script loads: its imports (static and dynamic, relative) and the files it names with
// new URL('...', import.meta.url) (workers, the .wasm), minified or not.
const LOADS = [
  /\b(?:from|import)\s*\(?\s*["'](\.{0,2}\/[^"']+)["']/g,
  /new URL\(\s*["']([^"':]+)["']\s*,\s*import\.meta\.url\s*\)/g,
];

function loadedFrom(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!/\.m?js$/.test(file)) return seen;
  const text = readFileSync(file, 'utf8');
  for (const pattern of LOADS) {
    for (const [, target] of text.matchAll(pattern)) loadedFrom(path.resolve(path.dirname(file), target), seen);
  }
  return seen;
}

// What index.html loads: <link href> (its stylesheet, what it preloads) and <script src>.
function pageFiles() {
  const html = readFileSync(path.join(kiosk, 'index.html'), 'utf8');
  return [...html.matchAll(/<(?:link|script)\b[^>]*\b(?:href|src)="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((target) => !target.startsWith('data:'))
    .map((target) => path.resolve(kiosk, target));
}

function neededFiles() {
  const needed = new Set([kiosk, path.join(kiosk, 'index.html'), path.join(kiosk, 'config.json'), path.join(kiosk, 'menu.json')]);
  // Never followed into: what a file named but not loaded would load is not loaded either.
  const seen = new Set(NAMED_NOT_LOADED);
  for (const file of pageFiles()) for (const loaded of loadedFrom(file, seen)) needed.add(loaded);
  for (const file of NAMED_NOT_LOADED) needed.delete(file);
  return needed;
}

test('the page loads the build\'s bundles, which hold the page\'s modules, the messages entry, its formatter and every language', () => {
  assert.deepEqual(pageFiles().map((file) => path.relative(root, file)),
    ['kiosk/page/kiosk.css', 'kiosk/page/dist/kiosk.js', 'kiosk/page/config.json', 'kiosk/page/menu.json']);
  assert.doesNotMatch(readFileSync(path.join(kiosk, 'index.html'), 'utf8'), /importmap/, 'bare imports are the bundler\'s');
  const inputs = bundle.inputs.map((file) => path.relative(root, file));
  // German and Portuguese are imported only when a guest chooses them: bundled all the same, so offline too.
  for (const module of ['kiosk/page/state.js', 'kiosk/page/language/texts/fr.js', 'kiosk/page/language/texts/de.js', 'kiosk/page/language/texts/pt-BR.js',
    'web/index.js', 'web/messages/messages.js', 'web/messages/catalogs/de.js', 'web/messages/catalogs/pt-BR.js',
    'web/messages/messageformat/messageformat.js', 'web/worker/qualifier_worker.js', 'web/dist/loyalty_qualifier.browser.mjs']) {
    assert.ok(inputs.includes(module), `${module} is bundled`);
  }
  const needed = [...neededFiles()].map((file) => path.relative(root, file));
  assert.ok(needed.includes('kiosk/page/dist/engine_worker.js'), 'the engine worker is started from the bundle');
  assert.ok(needed.includes('web/dist/loyalty_qualifier.wasm'), 'the wasm module, fetched by URL');
});

test('the service worker precaches every file the kiosk page loads, and only those', () => {
  const cached = precacheList();
  const needed = neededFiles();
  const missing = [...needed].filter((file) => !cached.has(file)).map((file) => path.relative(root, file));
  assert.deepEqual(missing, [], 'files the page loads but kiosk/page/sw.js does not precache');
  const unused = [...cached].filter((file) => !needed.has(file)).map((file) => path.relative(root, file));
  assert.deepEqual(unused, [], 'files kiosk/page/sw.js precaches but the page does not load');
});

test('every precached file exists once the build has run', () => {
  const absent = [...precacheList()]
    .filter((file) => file !== kiosk)
    .filter((file) => {
      try {
        readFileSync(file);
        return false;
      } catch {
        return true;
      }
    });
  assert.deepEqual(absent, []);
});
