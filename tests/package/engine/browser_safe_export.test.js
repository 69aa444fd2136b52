// The root export stays browser-safe: no Node-only module is reachable from web/index.js. The
// Node-only faces (the local service, the CLIs) live behind their own entry points.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from '../../support/support.js';

const NODE_ONLY = [
  'web/local/service/local_service.js',
  'web/local/service/service_binary.js',
  'web/local/cli/serve_cli.js',
  'web/local/cli/cli.js',
];
const builtins = new Set(builtinModules);
const isBuiltin = (specifier) =>
  specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]);

// Every module specifier written as a string literal: static imports and re-exports, and dynamic
// import('...') calls (a computed import(variable), as the wasm loader's Node branch uses, is
// not followed: bundlers leave it alone).
function specifiersOf(source) {
  const found = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*(?:\/\*[^]*?\*\/\s*)*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

function reachableFrom(entry) {
  const seen = new Set();
  const builtinImports = [];
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(readFileSync(path.join(root, file), 'utf8'))) {
      if (isBuiltin(specifier)) {
        builtinImports.push(`${file} -> ${specifier}`);
      } else if (specifier.startsWith('.')) {
        pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
      } else {
        builtinImports.push(`${file} -> ${specifier} (a bare package)`);
      }
    }
  }
  return { modules: [...seen].sort(), builtinImports };
}

test('nothing Node-only is reachable from the root export', () => {
  const { modules, builtinImports } = reachableFrom('web/index.js');
  assert.ok(modules.includes('web/engine/qualifier.js') && modules.includes('web/offline/hybrid/hybrid_qualifier.js'));
  assert.deepEqual(builtinImports, []);
  for (const nodeOnly of NODE_ONLY) assert.ok(!modules.includes(nodeOnly), nodeOnly);
});

test('the check itself sees the Node-only imports of loyalty-qualifier/service', () => {
  const { modules, builtinImports } = reachableFrom('web/local/service/local_service.js');
  assert.ok(modules.includes('web/local/service/service_binary.js'));
  assert.ok(builtinImports.includes('web/local/service/native_process.js -> node:child_process'));
});

test('package.json: the service subpath resolves under Node only; the root has a default', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(manifest.exports['./service']).sort(), ['node', 'types']);
  assert.equal(manifest.exports['.'].default, './web/index.js');
});
