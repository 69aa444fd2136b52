// `npm test`: installs what is missing, builds what is stale, then runs every suite:
// native Catch2 tests (ctest; again under ASan + UBSan), short libFuzzer runs of every parser,
// the import-cycle check of web/ and kiosk/ and the house rules a program can check (module
// length, one declaration per type, the kiosk page on the package's entry points), the faces'
// includes of the engine (scripts/check-includes.mjs), JS tests (tests/js/), the local service over HTTP
// (tests/service/), the store hub over HTTP (tests/hub/), its launcher from the checkout (tests/package/), the consumer suite
// (tests/consumer/: the tarballs of `npm run pack` installed outside the checkout, with the
// README's code blocks, Node, esbuild, Vite and jsdom, Chromium, the CLI and serve), the kiosk
// page in Chromium (tests/browser/) and the types (tsc --noEmit).
// Each step prints its wall time and the CPU time of its processes; the summary adds the total.
// Exits non-zero when any step fails.
import { spawn } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { npmPackagesMissing } from './ensure-installed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = [];

/** 83.2s, 4m07s. */
function duration(ms) {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
}

/** bash's `times` ("0m1.250s 0m0.125s", the shell's line, then its children's): user + sys in ms. */
function cpuOf(times) {
  let ms = 0;
  for (const [, m, s] of times.matchAll(/(\d+)m([\d.]+)s/g)) ms += (Number(m) * 60 + Number(s)) * 1000;
  return ms;
}

/**
 * Runs a command from the repository root; resolves with the CPU time (user + sys) of it and
 * every process it waited for, rejects when it cannot start or exits non-zero. bash runs it and
 * reports the children's times on fd 3 (Node has no rusage of a child).
 */
function run(command, args) {
  console.log(`\ntest: ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', command, ...args], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    let times = '';
    child.stdio[3].on('data', (chunk) => {
      times += chunk;
    });
    child.on('error', (e) => reject(new Error(`cannot run ${command}: ${e.message}`)));
    child.on('close', (status, signal) => {
      if (status === 0) resolve(cpuOf(times));
      else reject(new Error(`${command} ${args.join(' ')} exited with ${status ?? signal}`));
    });
  });
}

/** One step: its commands in order; records ok, wall and CPU time. Resolves true when it passed. */
async function step(name, commands) {
  const started = performance.now();
  let cpu = 0;
  let ok = true;
  try {
    for (const [command, args] of commands) cpu += await run(command, args);
  } catch (e) {
    console.error(`test: ${name} failed: ${e.message}`);
    ok = false;
  }
  const wall = performance.now() - started;
  results.push({ name, ok, wall, cpu });
  console.log(`test: ${name}: ${ok ? 'ok' : 'FAILED'} in ${duration(wall)} (cpu ${duration(cpu)})`);
  return ok;
}

function skip(name, why) {
  console.error(`test: ${name} skipped: ${why}`);
  results.push({ name, ok: false, skipped: true, wall: 0, cpu: 0 });
}

const node = (...args) => [process.execPath, args];
const nodeTest = (...dirs) => node('--test', ...dirs);

const started = performance.now();
const systemReady = await step('system packages', [['bash', ['scripts/ensure-system.sh']]]);
const npmReady = await step(
  'npm packages',
  npmPackagesMissing() ? [['npm', ['ci', '--no-audit', '--no-fund']]] : [],
);

await step('imports and the house rules of web/ and kiosk/ (scripts/check-imports.mjs, scripts/check-house.mjs)', [
  node('scripts/check-imports.mjs', 'web'),
  node('scripts/check-imports.mjs', 'kiosk'),
  node('scripts/check-house.mjs'),
]);
await step("the engine's front door: the faces' includes and the C++ folders (scripts/check-includes.mjs)", [
  node('scripts/check-includes.mjs'),
]);

if (!systemReady) {
  skip('native build', 'system packages missing');
  skip('wasm build', 'system packages missing');
}
const nativeBuilt = systemReady && (await step('native build', [node('scripts/build.mjs', '--only', 'native')]));
const wasmBuilt = systemReady && (await step('wasm build', [node('scripts/build.mjs', '--only', 'wasm')]));

if (nativeBuilt) {
  await step('native tests (ctest)', [['ctest', ['--test-dir', 'build/native', '--output-on-failure']]]);
} else {
  skip('native tests (ctest)', 'native build failed');
}
if (nativeBuilt) {
  await step('native tests under ASan + UBSan (scripts/sanitize.sh)', [['bash', ['scripts/sanitize.sh']]]);
  await step('fuzzers, a short run of each (scripts/fuzz.sh)', [['bash', ['scripts/fuzz.sh']]]);
} else {
  skip('native tests under ASan + UBSan (scripts/sanitize.sh)', 'native build failed');
  skip('fuzzers, a short run of each (scripts/fuzz.sh)', 'native build failed');
}
if (wasmBuilt && npmReady) {
  await step('JS tests (node --test)', [nodeTest('tests/js/')]);
} else {
  skip('JS tests (node --test)', 'wasm build or npm packages missing');
}
if (nativeBuilt && wasmBuilt) {
  await step('service tests (node --test tests/service/)', [nodeTest('tests/service/')]);
} else {
  skip('service tests (node --test tests/service/)', 'native or wasm build failed');
}
if (nativeBuilt) {
  await step('store hub tests: claims over HTTP, startStoreHub and the hub CLI (node --test tests/hub/)', [
    nodeTest('tests/hub/'),
  ]);
} else {
  skip('store hub tests (node --test tests/hub/)', 'native build failed');
}
if (nativeBuilt && wasmBuilt) {
  await step('launcher tests: serve and startLocalService from the checkout (node --test tests/package/)', [
    nodeTest('tests/package/'),
  ]);
} else {
  skip(
    'launcher tests: serve and startLocalService from the checkout (node --test tests/package/)',
    'native or wasm build failed',
  );
}
if (nativeBuilt && wasmBuilt && npmReady) {
  await step('consumer tests (node --test tests/consumer/)', [nodeTest('tests/consumer/')]);
} else {
  skip('consumer tests (node --test tests/consumer/)', 'native or wasm build or npm packages missing');
}
if (nativeBuilt && wasmBuilt && npmReady) {
  await step('browser tests (node --test tests/browser/)', [nodeTest('tests/browser/')]);
} else {
  skip('browser tests (node --test tests/browser/)', 'native or wasm build or npm packages missing');
}
if (npmReady) {
  await step('types (tsc --noEmit)', [node('node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tests/js/types')]);
} else {
  skip('types (tsc --noEmit)', 'npm packages missing');
}
const total = performance.now() - started;

console.log('\ntest summary (wall time, then the CPU time of the step\'s processes):');
for (const { name, ok, skipped, wall, cpu } of results) {
  const times = skipped ? 'skipped'.padEnd(19) : `${duration(wall).padStart(7)}  cpu ${duration(cpu).padStart(7)}`;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${times}  ${name}`);
}
const failed = results.filter((r) => !r.ok).length;
const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
console.log(`total: ${duration(total)} wall, cpu ${duration(cpu)}`);
process.exitCode = failed === 0 ? 0 : 1;
