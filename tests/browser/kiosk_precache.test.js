// The kiosk's service worker must precache every module the page imports (statically or with a
// literal dynamic import) and every worker script it starts, with their imports: one left out and
// a reload with the network off fails to start the page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { importGraph } from '../../scripts/check-imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const kiosk = path.join(root, 'kiosk/page');

function precacheList() {
  const text = readFileSync(path.join(kiosk, 'sw.js'), 'utf8');
  const list = text.match(/const PRECACHE = \[([\s\S]*?)\];/);
  assert.ok(list, 'kiosk/page/sw.js declares const PRECACHE = [...]');
  return new Set([...list[1].matchAll(/'([^']+)'/g)].map((m) => path.resolve(kiosk, m[1])));
}

// A script a module starts as a worker: `new Worker(new URL('./script.js', import.meta.url), …)`.
const WORKER_SCRIPT = /new Worker\(\s*new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g;

function workerScripts(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(WORKER_SCRIPT)].map((m) => path.resolve(path.dirname(file), m[1]));
}

// Every module loaded from `entry`: its imports, and the workers it starts with theirs.
function reachableFrom(entry, graph) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
    for (const script of workerScripts(file)) visit(script);
  };
  visit(entry);
  return seen;
}

test('the service worker precaches every module the kiosk page imports (its engine worker too)', () => {
  const graph = new Map([...importGraph(path.join(root, 'web')), ...importGraph(kiosk)]);
  const cached = precacheList();
  const needed = [...reachableFrom(path.join(kiosk, 'kiosk.js'), graph)];
  assert.ok(needed.length > 10, `the kiosk page imports its modules (found ${needed.length})`);
  const missing = needed.filter((file) => !cached.has(file)).map((file) => path.relative(root, file));
  assert.deepEqual(missing, [], 'modules the page imports but kiosk/page/sw.js does not precache');
  assert.ok(needed.includes(path.join(root, 'web/worker/qualifier_worker.js')), 'the engine worker\'s script is among them');
  assert.ok(needed.includes(path.join(root, 'web/messages/messages.js')), 'the messages entry is among them');
  assert.ok(needed.includes(path.join(root, 'web/messages/messageformat/messageformat.js')), 'the entry\'s formatter is among them');
  // German and Portuguese are imported only when a guest chooses them, and precached all the same.
  for (const file of ['kiosk/page/texts/de.js', 'web/messages/catalogs/de.js', 'kiosk/page/texts/pt-BR.js', 'web/messages/catalogs/pt-BR.js']) {
    assert.ok(needed.includes(path.join(root, file)), `${file} is among them`);
  }
});

test('the page\'s modules and the messages entry import no module by bare name (the page has no import map)', () => {
  const bare = [];
  for (const dir of [path.join(root, 'web/messages'), kiosk]) {
    for (const file of importGraph(dir).keys()) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:from|import)\s*\(?\s*'([^'.][^']*)'/g)) bare.push(`${path.relative(root, file)}: ${m[1]}`);
    }
  }
  assert.deepEqual(bare, []);
  assert.doesNotMatch(readFileSync(path.join(kiosk, 'index.html'), 'utf8'), /importmap/);
});

test('every precached file exists', () => {
  const absent = [...precacheList()]
    .filter((file) => file !== kiosk && !file.includes(`${path.sep}dist${path.sep}`))
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
