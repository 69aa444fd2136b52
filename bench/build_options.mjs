// Wasm build options, measured: each variant of LQ_WASM_OPT x LQ_WASM_LTO is built into
// build/wasm-options/<variant>; then its size (.wasm + .mjs, gzip -9) and the time per qualify call
// through the public JS API (a copy of web/index.js beside the variant's artifacts), the variants
// taking turns so that each sees the same machine load.
// Usage: node bench/build_options.mjs [variant...]   variants: O2 O2-lto O3 O3-lto Oz Oz-lto
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { emscriptenEnv } from '../scripts/build.mjs';
import { compareTimes, large, small } from './workload.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const all = ['O2', 'O2-lto', 'O3', 'O3-lto', 'Oz', 'Oz-lto'];
const variants = process.argv.length > 2 ? process.argv.slice(2) : all;
const artifacts = ['loyalty_qualifier.wasm', 'loyalty_qualifier.mjs'];

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
  mkdirSync(path.join(face, 'dist'), { recursive: true });
  copyFileSync(path.join(root, 'web/index.js'), path.join(face, 'index.js'));
  const sizes = { wasm: 0, raw: 0, gzip: 0 };
  for (const name of artifacts) {
    const bytes = readFileSync(path.join(dir, name));
    copyFileSync(path.join(dir, name), path.join(face, 'dist', name));
    if (name.endsWith('.wasm')) sizes.wasm = bytes.length;
    sizes.raw += bytes.length;
    sizes.gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const { createQualifier } = await import(pathToFileURL(path.join(face, 'index.js')).href);
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
  '| flags | .wasm bytes | .wasm + .mjs bytes | gzip -9 | qualify, small | qualify, large |',
);
console.log('|---|---|---|---|---|---|');
for (const { variant, sizes } of built) {
  const flags = `-${variant.replace('-lto', ' -flto')}`;
  console.log(
    `| ${flags} | ${sizes.wasm} | ${sizes.raw} | ${sizes.gzip} | ` +
      `${us(times.small[variant])} | ${us(times.large[variant])} |`,
  );
}
