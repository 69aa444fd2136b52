// scripts/check-house.mjs and the page rule of scripts/check-imports.mjs (run by `npm test`): each
// rule fails on a breach it must find and passes what it must allow, on small trees written here;
// and the checkout holds the page and type rules.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { FUZZ_DATA, GENERATED, chromiumMisnamed, crowdedFolders, duplicateDeclarations, hiddenImports, longCppUnits, longModules, longTypeFiles, typesFromIndex } from '../../scripts/check-house.mjs';
import { entryModules, pageImportsPastEntryPoints, serverImportsPastExports } from '../../scripts/check-imports.mjs';
import { root } from '../support/support.js';

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

test('a folder\'s .d.ts that imports web/index is found; imports from the owning folder pass', () => {
  const dir = tree({
    'web/index.d.ts': "export * from './engine/engine.js';\nexport * from './orders/orders.js';\n",
    'web/engine/engine.d.ts': 'export type Decimal = string;\n',
    'web/orders/orders.d.ts': "import type { Decimal } from '../index.js';\nexport type Price = Decimal;\n",
    'web/http/http.d.ts': "import type { Decimal } from '../engine/engine.js';\nexport type { Decimal as Amount } from '../index';\nexport type Cost = Decimal;\n",
  });
  try {
    const found = typesFromIndex(path.join(dir, 'web'));
    assert.deepEqual(found.map(({ file, specifier }) => [path.relative(dir, file), specifier]).sort(), [
      ['web/http/http.d.ts', '../index'],
      ['web/orders/orders.d.ts', '../index.js'],
    ]);
    assert.deepEqual(typesFromIndex(path.join(root, 'web')), [], 'the checkout: every folder imports its types from their owner');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an import hidden from bundlers outside the one module is found; calls of it pass', () => {
  const hide = (name) => `export const m = () => import(/* @vite-ignore */ /* webpackIgnore: true */ ${name});\n`;
  const dir = tree({
    'web/engine/server_module.js': hide('name'),
    'web/orders/copy.js': "const fsModule = 'node:fs';\n" + hide('fsModule'),
    'web/storage/webpack_only.js': "export const c = () => import(/* webpackIgnore: true */ 'node:crypto');\n",
    'web/storage/caller.js': "import { serverModule } from '../engine/server_module.js';\nexport const fs = () => serverModule('node:fs');\n",
    'web/dist/built.mjs': hide('x'),
  });
  try {
    const found = hiddenImports(path.join(dir, 'web'), { allowed: path.join(dir, 'web/engine/server_module.js'), skip: [path.join(dir, 'web/dist')] });
    assert.deepEqual(found.map((file) => path.relative(dir, file)).sort(), ['web/orders/copy.js', 'web/storage/webpack_only.js']);
    assert.deepEqual(hiddenImports(path.join(root, 'web'), { allowed: path.join(root, 'web/engine/server_module.js'), skip: GENERATED.map((file) => path.join(root, file)) }), [],
      'the checkout: one module hides Node-only imports');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a kiosk/server import of the package past "exports" is found; mapped specifiers and kiosk files pass', () => {
  const dir = tree({
    'package.json': JSON.stringify({
      name: 'loyalty-qualifier',
      exports: { '.': { default: './web/index.js' }, './service': { node: './web/service/local_service.js' }, './fixtures/*': './fixtures/*' },
    }),
    'web/index.js': 'export const x = 1;\n',
    'web/service/local_service.js': 'export const s = 1;\n',
    'web/service/service_options.js': 'export const o = 1;\n',
    'kiosk/server/good.mjs': "import { x } from 'loyalty-qualifier';\nimport { s } from 'loyalty-qualifier/service';\n" +
      "import './own.mjs';\nimport demo from 'loyalty-qualifier/fixtures/demo.json' with { type: 'json' };\nimport 'node:fs';\n",
    'kiosk/server/own.mjs': 'export {};\n',
    'kiosk/server/bad.mjs': "import { o } from '../../web/service/service_options.js';\nimport { s } from '../../web/service/local_service.js';\n" +
      "export const lazy = () => import('loyalty-qualifier/web/index.js');\n",
  });
  try {
    const found = serverImportsPastExports(path.join(dir, 'kiosk/server'), path.join(dir, 'web'), path.join(dir, 'package.json'));
    assert.deepEqual(found.map(({ file, specifier }) => [path.relative(dir, file), specifier]).sort(), [
      ['kiosk/server/bad.mjs', '../../web/service/local_service.js'],
      ['kiosk/server/bad.mjs', '../../web/service/service_options.js'],
      ['kiosk/server/bad.mjs', 'loyalty-qualifier/web/index.js'],
    ]);
    assert.deepEqual(serverImportsPastExports(path.join(root, 'kiosk/server'), path.join(root, 'web'), path.join(root, 'package.json')), [],
      'the checkout: kiosk/server imports the package by its exports');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder of more than twelve concepts is found; stems, sub-folders and skipped output count as the house says', () => {
  const files = {};
  // thirteen concepts: twelve stems (a.js and a.css are one concept) and one sub-folder
  for (let i = 0; i < 12; i += 1) files[`web/crowded/m${i}.js`] = '';
  files['web/crowded/m0.css'] = '';
  files['web/crowded/inner/x.js'] = '';
  // twelve: eleven stems and one sub-folder; a skipped folder is no concept
  for (let i = 0; i < 11; i += 1) files[`web/full/m${i}.js`] = '';
  files['web/full/part/y.js'] = '';
  files['web/full/dist/z.js'] = '';
  for (let i = 0; i < 13; i += 1) files[`web/f${i}.js`] = ''; // web/ itself: checked like the folders below it
  // a data folder (the fuzz corpus) is one concept, its thirteen files never counted
  for (let i = 0; i < 13; i += 1) files[`web/full/part/corpus/c${i}`] = '';
  const dir = tree(files);
  try {
    const found = crowdedFolders([path.join(dir, 'web')], { skip: [path.join(dir, 'web/full/dist')], data: [path.join(dir, 'web/full/part/corpus')] });
    assert.deepEqual(found.map(({ dir: d, concepts }) => [path.relative(dir, d), concepts.length]), [['web', 15], ['web/crowded', 13]]);
    assert.deepEqual(crowdedFolders([path.join(dir, 'web/full')], { skip: [path.join(dir, 'web/full/dist')] }).map(({ dir: d }) => path.relative(dir, d)), ['web/full/part/corpus'], 'without `data`, the corpus is a folder like another');
    assert.deepEqual(crowdedFolders([path.join(dir, 'web')], { skip: [path.join(dir, 'web/full/dist')], data: [path.join(dir, 'web/full/part/corpus')] }).map(({ dir: d }) => path.relative(dir, d)).sort(), ['web', 'web/crowded']);
    const generated = GENERATED.map((file) => path.join(root, file));
    assert.deepEqual([
      ...crowdedFolders([path.join(root, 'web'), path.join(root, 'kiosk/server'), path.join(root, 'kiosk/page'), path.join(root, 'scripts')], { skip: generated }),
      ...crowdedFolders([path.join(root, 'tests')], { data: FUZZ_DATA.map((data) => path.join(root, data)) }),
    ], [], 'the checkout: the checked folders hold at most twelve concepts');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

test('a test that drives Chromium is named *.chromium.test.js, and one so named drives it; skipped folders aside', () => {
  const launch = ['launch', 'Chromium'].join(''); // spelled apart: this file drives no Chromium
  const drives = `const browser = await ${launch}();\n`;
  const opens = `const opened = await ${['open', 'PackagePage'].join('')}('page');\n`;
  const dir = tree({
    'tests/package/orders/outbox.test.js': drives,
    'tests/package/engine/page.test.js': opens,
    'tests/package/engine/page2.chromium.test.js': opens,
    'tests/package/orders/outbox.chromium.test.js': drives,
    'tests/kiosk/page/page.chromium.test.js': `import { ${launch} } from '../../support/support.js';\n`,
    'tests/kiosk/server/server.test.js': '',
    'tests/support/support.js': `export async function ${launch}() {}\n`,
    'tests/consumer/browser.test.js': drives,
  });
  try {
    assert.deepEqual(
      chromiumMisnamed(path.join(dir, 'tests'), { skip: [path.join(dir, 'tests/consumer')] })
        .map(({ file, drives: d }) => [path.relative(dir, file), d]).sort(),
      [['tests/kiosk/page/page.chromium.test.js', false], ['tests/package/engine/page.test.js', true], ['tests/package/orders/outbox.test.js', true]],
    );
    assert.deepEqual(chromiumMisnamed(path.join(root, 'tests'), { skip: [path.join(root, 'tests/consumer')] }), [], 'the checkout');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
