// Incremental build: native engine + tests into build/native, the wasm module into build/wasm,
// then its artifacts into web/dist/. Usage: node scripts/build.mjs [--only native|wasm]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jobs = String(
  typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
);
const artifacts = ['loyalty_qualifier.mjs', 'loyalty_qualifier.wasm'];

/** The environment emcc needs on Debian (toolchain traps 1 and 2). */
export function emscriptenEnv() {
  const env = { ...process.env };
  const nodePath = (env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean);
  if (!nodePath.includes('/usr/share/nodejs')) nodePath.push('/usr/share/nodejs');
  env.NODE_PATH = nodePath.join(path.delimiter);
  delete env.EM_CACHE;
  return env;
}

function run(command, args, env = process.env) {
  console.log(`build: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

export function buildNative() {
  const dir = path.join(root, 'build/native');
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  }
  run('cmake', ['--build', 'build/native', '--parallel', jobs]);
}

export function buildWasm() {
  const env = emscriptenEnv();
  const dir = path.join(root, 'build/wasm');
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    run('emcmake', ['cmake', '-S', '.', '-B', 'build/wasm', '-DCMAKE_BUILD_TYPE=Release'], env);
  }
  run('cmake', ['--build', 'build/wasm', '--parallel', jobs], env);
  const dist = path.join(root, 'web/dist');
  mkdirSync(dist, { recursive: true });
  for (const name of artifacts) {
    const from = path.join(dir, name);
    const to = path.join(dist, name);
    if (!existsSync(to) || !readFileSync(from).equals(readFileSync(to))) {
      copyFileSync(from, to);
      console.log(`build: ${path.relative(root, to)}`);
    }
  }
}

function main(argv) {
  const only = argv[0] === '--only' ? argv[1] : null;
  if (argv.length > 0 && !(only === 'native' || only === 'wasm')) {
    console.error('usage: node scripts/build.mjs [--only native|wasm]');
    return 2;
  }
  try {
    if (only !== 'wasm') buildNative();
    if (only !== 'native') buildWasm();
  } catch (e) {
    console.error(`build: ${e.message}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
