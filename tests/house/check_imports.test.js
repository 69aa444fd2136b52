// scripts/check-imports.mjs (run by `npm test`): it names a cycle, static or dynamic, between files or
// between folders, and web/ has neither.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { folderCycles, folderGraph, importCycles, importGraph } from '../../scripts/check-imports.mjs';
import { root } from '../support/support.js';

test('a re-export cycle and a dynamic-import cycle are found; a commented import is not', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-imports-'));
  try {
    writeFileSync(path.join(dir, 'a.js'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(path.join(dir, 'b.js'), "export { a as b } from './a.js';\n");
    writeFileSync(path.join(dir, 'c.js'), "// import './e.js';\nexport const c = () => import(/* lazy */ './d.js');\n");
    writeFileSync(path.join(dir, 'd.js'), "import './c.js';\n");
    writeFileSync(path.join(dir, 'e.js'), "import './c.js';\n");
    const cycles = importCycles(importGraph(dir)).map((cycle) => cycle.map((f) => path.basename(f)));
    assert.deepEqual(cycles, [['a.js', 'b.js', 'a.js'], ['c.js', 'd.js', 'c.js']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package (web/) has no import cycle', () => {
  const graph = importGraph(path.join(root, 'web'));
  assert.ok(graph.get(path.join(root, 'web/index.js')).length > 0);
  assert.deepEqual(importCycles(graph), []);
});

test('folders that import each other are a cycle even when no file does (the hub and the hybrid before issue 34)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-folders-'));
  try {
    for (const folder of ['hub', 'hybrid', 'engine']) mkdirSync(path.join(dir, folder));
    // hub/claims.js -> hybrid/held.js; hybrid/facade.js -> hub/claims.js: no file cycle, a folder cycle.
    writeFileSync(path.join(dir, 'hub/claims.js'), "import { held } from '../hybrid/held.js';\nexport const claims = held;\n");
    writeFileSync(path.join(dir, 'hybrid/held.js'), "import { engine } from '../engine/engine.js';\nexport const held = engine;\n");
    writeFileSync(path.join(dir, 'hybrid/facade.js'), "import { claims } from '../hub/claims.js';\nexport const facade = claims;\n");
    writeFileSync(path.join(dir, 'engine/engine.js'), 'export const engine = 1;\n');
    writeFileSync(path.join(dir, 'index.js'), "export * from './hybrid/facade.js';\n");
    const graph = importGraph(dir);
    assert.deepEqual(importCycles(graph), [], 'no file imports itself back');
    const cycles = folderCycles(graph, dir);
    assert.deepEqual(cycles.map((c) => c.folders), [['hub', 'hybrid', 'hub']]);
    assert.deepEqual(cycles[0].imports.map(([file, target]) => [path.relative(dir, file), path.relative(dir, target)]), [
      ['hub/claims.js', 'hybrid/held.js'],
      ['hybrid/facade.js', 'hub/claims.js'],
    ]);
    // The command fails and names the cycle with the imports that make it.
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/check-imports.mjs'), dir], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /folder cycle: hub -> hybrid -> hub \(hub\/claims\.js imports hybrid\/held\.js; hybrid\/facade\.js imports hub\/claims\.js\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('in a group (a folder of folders only), each folder of the group is a folder of the graph', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-groups-'));
  try {
    for (const folder of ['offline/hub', 'offline/hybrid', 'engine']) mkdirSync(path.join(dir, folder), { recursive: true });
    writeFileSync(path.join(dir, 'offline/hub/claims.js'), "import { held } from '../hybrid/held.js';\nexport const claims = held;\n");
    writeFileSync(path.join(dir, 'offline/hybrid/held.js'), "import { engine } from '../../engine/engine.js';\nexport const held = engine;\n");
    writeFileSync(path.join(dir, 'offline/hybrid/facade.js'), "import { claims } from '../hub/claims.js';\nexport const facade = claims;\n");
    writeFileSync(path.join(dir, 'engine/engine.js'), 'export const engine = 1;\n');
    const graph = importGraph(dir);
    assert.deepEqual([...folderGraph(graph, dir).keys()].sort(), ['engine', 'offline/hub', 'offline/hybrid']);
    assert.deepEqual(folderCycles(graph, dir).map((c) => c.folders), [['offline/hub', 'offline/hybrid', 'offline/hub']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package (web/) has no cycle between its folders', () => {
  const dir = path.join(root, 'web');
  assert.deepEqual(folderCycles(importGraph(dir), dir), []);
});
