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

// The page's import map (index.html): bare specifiers (messageformat, imported by the messages
// entry) resolved to the files the page loads.
function importMap() {
  const html = readFileSync(path.join(kiosk, 'index.html'), 'utf8');
  const map = html.match(/<script type="importmap">([\s\S]*?)<\/script>/);
  if (!map) return {};
  const { imports } = JSON.parse(map[1]);
  return Object.fromEntries(Object.entries(imports).map(([name, target]) => [name, path.resolve(kiosk, target)]));
}

test('the service worker precaches every module the kiosk page imports (its engine worker too)', () => {
  const imports = importMap();
  const graph = new Map([
    ...importGraph(path.join(root, 'web'), { imports }),
    ...importGraph(kiosk, { imports }),
    ...importGraph(path.join(root, 'node_modules/messageformat/lib'), { imports }),
  ]);
  const cached = precacheList();
  const needed = [...reachableFrom(path.join(kiosk, 'kiosk.js'), graph)];
  assert.ok(needed.length > 10, `the kiosk page imports its modules (found ${needed.length})`);
  const missing = needed.filter((file) => !cached.has(file)).map((file) => path.relative(root, file));
  assert.deepEqual(missing, [], 'modules the page imports but kiosk/page/sw.js does not precache');
  assert.ok(needed.includes(path.join(root, 'web/worker/qualifier_worker.js')), 'the engine worker\'s script is among them');
  assert.ok(needed.includes(path.join(root, 'web/messages/messages.js')), 'the messages entry is among them');
  assert.ok(needed.includes(path.join(root, 'node_modules/messageformat/lib/functions/currency.js')),
    'messageformat\'s modules are among them (through the import map)');
});

test('every bare import of the page\'s modules is in its import map (a browser resolves no other)', () => {
  const imports = importMap();
  const bare = [];
  for (const dir of [path.join(root, 'web/messages'), kiosk]) {
    for (const file of importGraph(dir).keys()) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import [^'\n]*'([^'.][^']*)';$/gm)) {
        if (!Object.hasOwn(imports, m[1])) bare.push(`${path.relative(root, file)}: ${m[1]}`);
      }
    }
  }
  assert.deepEqual(bare, []);
  assert.ok(Object.hasOwn(imports, 'messageformat') && Object.hasOwn(imports, 'messageformat/functions'));
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
