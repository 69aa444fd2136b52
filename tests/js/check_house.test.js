// scripts/check-house.mjs and the page rule of scripts/check-imports.mjs (run by `npm test`): each
// rule fails on a breach it must find and passes what it must allow, on small trees written here;
// and the checkout holds the page and type rules.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { duplicateDeclarations, longCppUnits, longModules, longTypeFiles } from '../../scripts/check-house.mjs';
import { entryModules, pageImportsPastEntryPoints } from '../../scripts/check-imports.mjs';
import { root } from './support.js';

function tree(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-house-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const lines = (n) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';

test('a module over 400 lines is named with its length; 400 lines, skipped folders and other files pass', () => {
  const dir = tree({
    'web/long.js': lines(401),
    'web/exact.js': lines(400),
    'kiosk/page/long.mjs': lines(450),
    'web/dist/built.mjs': lines(5000),
    'web/types.d.ts': lines(900),
  });
  try {
    const found = longModules([path.join(dir, 'web'), path.join(dir, 'kiosk')], { skip: [path.join(dir, 'web/dist')] });
    assert.deepEqual(
      found.map(({ file, lines: n }) => [path.relative(dir, file), n]).sort(),
      [['kiosk/page/long.mjs', 450], ['web/long.js', 401]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a type declared twice (one file or two) is found; overloads of one function are one declaration', () => {
  const dir = tree({
    'web/a/a.d.ts': 'export interface PendingOrder { a: string }\nexport interface PendingOrder { b: string }\n' +
      'export function f(x: string): string;\nexport function f(x: number): number;\n',
    'web/b/b.d.ts': 'export type Shape = { key: string };\nexport declare class Client {}\n',
    'web/c/c.d.ts': 'export interface Shape { key: string }\nexport type Other = string;\n',
  });
  try {
    const found = duplicateDeclarations(path.join(dir, 'web'));
    assert.deepEqual(
      found.map(({ name, places }) => [name, places.map((p) => path.relative(dir, p))]).sort(),
      [['PendingOrder', ['web/a/a.d.ts:1', 'web/a/a.d.ts:2']], ['Shape', ['web/b/b.d.ts:1', 'web/c/c.d.ts:1']]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page import past the entry points is found; entry points and the page\'s own modules pass', () => {
  const dir = tree({
    'package.json': JSON.stringify({
      exports: {
        '.': { types: './web/index.d.ts', node: './web/index.node.mjs', default: './web/index.js' },
        './worker': { default: './web/worker/worker.js' },
        './fixtures/*': './fixtures/*',
      },
    }),
    'web/index.js': "export { x } from './orders/inner.js';\n",
    'web/orders/inner.js': 'export const x = 1;\n',
    'web/worker/worker.js': 'export const w = 1;\n',
    'kiosk/page/good.js': "import { x } from '../../web/index.js';\nimport { w } from '../../web/worker/worker.js';\nimport './own.js';\n",
    'kiosk/page/own.js': 'export {};\n',
    'kiosk/page/bad.js': "import { x } from '../../web/orders/inner.js';\nexport const lazy = () => import('../../web/orders/inner.js');\n",
  });
  try {
    const entries = entryModules(path.join(dir, 'package.json'));
    assert.deepEqual([...entries].map((f) => path.relative(dir, f)).sort(), ['web/index.js', 'web/index.node.mjs', 'web/worker/worker.js']);
    const found = pageImportsPastEntryPoints(path.join(dir, 'kiosk/page'), path.join(dir, 'web'), entries);
    assert.deepEqual(found.map(({ file, target }) => [path.relative(dir, file), path.relative(dir, target)]), [
      ['kiosk/page/bad.js', 'web/orders/inner.js'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the checkout: the kiosk page imports the package through its entry points, and each type of web/ is declared once', () => {
  const entries = entryModules(path.join(root, 'package.json'));
  assert.ok(entries.has(path.join(root, 'web/index.js')) && entries.has(path.join(root, 'web/worker/worker.js')));
  assert.deepEqual(pageImportsPastEntryPoints(path.join(root, 'kiosk/page'), path.join(root, 'web'), entries), []);
  assert.deepEqual(duplicateDeclarations(path.join(root, 'web')), []);
});

test('a C++ unit over 400 lines is named: a .cpp with its .hpp, src/ with its include/lq/ header; a .d.ts too', () => {
  const dir = tree({
    'service/store/store.cpp': lines(300),
    'service/store/store.hpp': lines(101),
    'service/store/small.cpp': lines(300),
    'service/store/small.hpp': lines(100),
    'src/json/json_reader.cpp': lines(250),
    'include/lq/json/json_reader.hpp': lines(160),
    'include/lq/alone.hpp': lines(401),
    'tests/engine/long_test.cpp': lines(900),
    'web/index.d.ts': lines(401),
    'web/ok.d.ts': lines(400),
    'web/dist/built.d.ts': lines(900),
  });
  try {
    assert.deepEqual(
      longCppUnits(dir).map(({ unit, files, lines: n }) => [unit, files, n]),
      [
        ['include/lq/alone', ['include/lq/alone.hpp'], 401],
        ['service/store/store', ['service/store/store.cpp', 'service/store/store.hpp'], 401],
        ['src/json/json_reader', ['include/lq/json/json_reader.hpp', 'src/json/json_reader.cpp'], 410],
      ],
    );
    assert.deepEqual(
      longTypeFiles([path.join(dir, 'web')], { skip: [path.join(dir, 'web/dist')] }).map(({ file, lines: n }) => [path.relative(dir, file), n]),
      [['web/index.d.ts', 401]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
