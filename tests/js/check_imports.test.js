// scripts/check-imports.mjs (run by `npm test`): it names a cycle, static or dynamic, and web/ has none.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { importCycles, importGraph } from '../../scripts/check-imports.mjs';
import { root } from './support.js';

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
