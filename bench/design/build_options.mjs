// Wasm build options, measured: each variant of LQ_WASM_OPT x LQ_WASM_LTO is built into
// build/wasm-options/<variant>; then its size (gzip -9: the .wasm, the minified glue, and the
// download a page pays for, .wasm + browser bundle, as `npm run bench` counts it) and the time per
// qualify call through the JS API (a copy of web/*.js beside the variant's artifacts, bundled as
// scripts/build.mjs does), the variants taking turns so that each sees the same machine load.
// Usage: node bench/design/build_options.mjs [variant...]   variants: O2 O2-lto O3 O3-lto Oz Oz-lto
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { emscriptenEnv, minifyScripts } from '../../scripts/build.mjs';
import { compareTimes, large, small } from './workload.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const all = ['O2', 'O2-lto', 'O3', 'O3-lto', 'Oz', 'Oz-lto'];
const variants = process.argv.length > 2 ? process.argv.slice(2) : all;

function run(command, args) {
  const options = { cwd: root, env: emscriptenEnv(), stdio: ['ignore', 'ignore', 'inherit'] };
  const result = spawnSync(command, args, options);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

async function build(variant) {
  const [level, lto] = variant.split('-');
  const dir = path.join(root, 'build/wasm-options', variant);
  run('emcmake', [
    'cmake',
    '-S',
    '.',
    '-B',
    dir,
    '-DCMAKE_BUILD_TYPE=Release',
    `-DLQ_WASM_OPT=-${level}`,
    `-DLQ_WASM_LTO=${lto ? 'ON' : 'OFF'}`,
  ]);
  run('cmake', ['--build', dir, '--parallel', '2']);
  const face = path.join(dir, 'face');
  const dist = path.join(face, 'dist');
  mkdirSync(dist, { recursive: true });
  // web/'s modules with their folders (engine/, http/, orders/, ...), so that every relative import holds.
  cpSync(path.join(root, 'web'), face, {
    recursive: true,
    filter: (from) => statSync(from).isDirectory() ? path.basename(from) !== 'dist' : from.endsWith('.js'),
  });
  copyFileSync(path.join(dir, 'loyalty_qualifier.wasm'), path.join(dist, 'loyalty_qualifier.wasm'));
  minifyScripts(path.join(dir, 'loyalty_qualifier.mjs'), dist, face);
  const gzip = (name) => gzipSync(readFileSync(path.join(dist, name)), { level: 9 }).length;
  const sizes = {
    wasm: readFileSync(path.join(dist, 'loyalty_qualifier.wasm')).length,
    wasmGzip: gzip('loyalty_qualifier.wasm'),
    glueGzip: gzip('loyalty_qualifier.mjs'),
    bundleGzip: gzip('loyalty_qualifier.browser.mjs'),
  };
  const { createQualifier } = await import(pathToFileURL(path.join(face, 'qualifier.js')).href);
  return { variant, sizes, createQualifier };
}

const built = [];
for (const variant of variants) built.push(await build(variant));

const times = {};
for (const [load, calls, key] of [
  [small, 5_000, 'small'],
  [large, 100, 'large'],
]) {
  const { snapshot, request, now } = load();
  const fns = {};
  const qualifiers = [];
  for (const { variant, createQualifier } of built) {
    const q = await createQualifier(snapshot, { now: () => now });
    qualifiers.push(q);
    fns[variant] = () => q.qualify(request);
  }
  times[key] = compareTimes(fns, { calls });
  for (const q of qualifiers) q.dispose();
}

const us = (t) => `${t < 100 ? t.toFixed(1) : t.toFixed(0)} µs`;
console.log(
  '| flags | .wasm bytes | gzip -9: .wasm | glue | download (.wasm + browser bundle) | ' +
    'qualify, small | qualify, large |',
);
console.log('|---|---|---|---|---|---|---|');
for (const { variant, sizes } of built) {
  const flags = `-${variant.replace('-lto', ' -flto')}`;
  console.log(
    `| ${flags} | ${sizes.wasm} | ${sizes.wasmGzip} | ${sizes.glueGzip} | ` +
      `${sizes.wasmGzip + sizes.bundleGzip} | ` +
      `${us(times.small[variant])} | ${us(times.large[variant])} |`,
  );
}
