// `npm test`: installs what is missing, builds what is stale, then runs every suite:
// native Catch2 tests (ctest; again under ASan + UBSan), short libFuzzer runs of every parser,
// the import-cycle check of web/ and kiosk/ and the house rules a program can check (module
// length, one declaration per type, the kiosk page on the package's entry points), the faces'
// includes of the engine (scripts/check-includes.mjs), JS tests (tests/js/), the local service over HTTP
// (tests/service/), the store hub over HTTP (tests/hub/), the emulator (tests/emulator/, then the service's and hub's
// suites that need no database file again on the wasm runtime), its launcher from the checkout (tests/package/), the consumer suite
// (tests/consumer/: the tarballs of `npm run pack` installed outside the checkout, with the
// README's code blocks, Node, esbuild, Vite and jsdom, Chromium, the CLI and serve), the kiosk
// page in Chromium (tests/browser/) and the types (tsc --noEmit).
// Exits non-zero when any step fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { buildEmulator, buildNative, buildWasm } from './build.mjs';
import { ensureNpmPackages, ensureSystemPackages } from './ensure-installed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = [];

function run(command, args) {
  console.log(`\ntest: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

function step(name, fn) {
  try {
    fn();
    results.push({ name, ok: true });
    return true;
  } catch (e) {
    console.error(`test: ${name} failed: ${e.message}`);
    results.push({ name, ok: false });
    return false;
  }
}

function skip(name, why) {
  console.error(`test: ${name} skipped: ${why}`);
  results.push({ name, ok: false });
}

const systemReady = step('system packages', () => ensureSystemPackages(run));
const npmReady = step('npm packages', () => ensureNpmPackages(run));

step('imports and the house rules of web/ and kiosk/ (scripts/check-imports.mjs, scripts/check-house.mjs)', () => {
  run(process.execPath, ['scripts/check-imports.mjs', 'web']);
  run(process.execPath, ['scripts/check-imports.mjs', 'kiosk']);
  run(process.execPath, ['scripts/check-house.mjs']);
});
step("the engine's front door: the faces' includes and the C++ folders (scripts/check-includes.mjs)", () => {
  run(process.execPath, ['scripts/check-includes.mjs']);
});

if (!systemReady) {
  skip('native build', 'system packages missing');
  skip('wasm build', 'system packages missing');
}
const nativeBuilt = systemReady && step('native build', buildNative);
const wasmBuilt = systemReady && step('wasm build', buildWasm);
const emulatorBuilt = wasmBuilt && step("emulator build (the service's and the hub's C++ in wasm)", buildEmulator);

if (nativeBuilt) {
  step('native tests (ctest)', () =>
    run('ctest', ['--test-dir', 'build/native', '--output-on-failure']),
  );
} else {
  skip('native tests (ctest)', 'native build failed');
}
if (nativeBuilt) {
  step('native tests under ASan + UBSan (scripts/sanitize.sh)', () =>
    run('bash', ['scripts/sanitize.sh']),
  );
  step('fuzzers, a short run of each (scripts/fuzz.sh)', () => run('bash', ['scripts/fuzz.sh']));
} else {
  skip('native tests under ASan + UBSan (scripts/sanitize.sh)', 'native build failed');
  skip('fuzzers, a short run of each (scripts/fuzz.sh)', 'native build failed');
}
if (wasmBuilt && npmReady) {
  step('JS tests (node --test)', () => run(process.execPath, ['--test', 'tests/js/']));
} else {
  skip('JS tests (node --test)', 'wasm build or npm packages missing');
}
if (nativeBuilt && wasmBuilt) {
  step('service tests (node --test tests/service/)', () =>
    run(process.execPath, ['--test', 'tests/service/']),
  );
} else {
  skip('service tests (node --test tests/service/)', 'native or wasm build failed');
}
// One conformance suite, two runtimes: the emulator's own tests (the 1,000-request differential
// against the native service among them), then the service's and the hub's suites that need no
// database file, again on the wasm runtime (LQ_SERVICE_RUNTIME, LQ_HUB_RUNTIME: their harnesses).
const WASM_CONFORMANCE = [
  'tests/service/account_etag.test.js',
  'tests/service/account_read.test.js',
  'tests/service/baskets.test.js',
  'tests/service/endpoint_agreement.test.js',
  'tests/service/fraud_rule.test.js',
  'tests/service/parity.test.js',
  'tests/service/sandbox.test.js',
  'tests/hub/claims.test.js',
  'tests/hub/launcher.test.js',
];
if (nativeBuilt && emulatorBuilt && npmReady) {
  step('emulator tests: createEmulator, MSW, the wasm runtime, the differential test, Chromium (node --test tests/emulator/)', () =>
    run(process.execPath, ['--test', 'tests/emulator/']),
  );
  step('service and hub suites on the wasm runtime (LQ_SERVICE_RUNTIME=wasm LQ_HUB_RUNTIME=wasm node --test ...)', () =>
    run('env', ['LQ_SERVICE_RUNTIME=wasm', 'LQ_HUB_RUNTIME=wasm', process.execPath, '--test', ...WASM_CONFORMANCE]),
  );
} else {
  skip('emulator tests (node --test tests/emulator/)', 'native or emulator build or npm packages missing');
  skip('service and hub suites on the wasm runtime', 'native or emulator build or npm packages missing');
}
if (nativeBuilt) {
  step('store hub tests: claims over HTTP, startStoreHub and the hub CLI (node --test tests/hub/)', () =>
    run(process.execPath, ['--test', 'tests/hub/']),
  );
} else {
  skip('store hub tests (node --test tests/hub/)', 'native build failed');
}
if (nativeBuilt && wasmBuilt) {
  step('launcher tests: serve and startLocalService from the checkout (node --test tests/package/)', () =>
    run(process.execPath, ['--test', 'tests/package/']),
  );
} else {
  skip(
    'launcher tests: serve and startLocalService from the checkout (node --test tests/package/)',
    'native or wasm build failed',
  );
}
if (nativeBuilt && wasmBuilt && npmReady) {
  step('consumer tests (node --test tests/consumer/)', () => run(process.execPath, ['--test', 'tests/consumer/']));
} else {
  skip('consumer tests (node --test tests/consumer/)', 'native or wasm build or npm packages missing');
}
if (nativeBuilt && wasmBuilt && npmReady) {
  step('browser tests (node --test tests/browser/)', () =>
    run(process.execPath, ['--test', 'tests/browser/']),
  );
} else {
  skip('browser tests (node --test tests/browser/)', 'native or wasm build or npm packages missing');
}
if (npmReady) {
  step('types (tsc --noEmit)', () =>
    run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tests/js/types']),
  );
  step('types under lib ES2022 with Node\'s types, and under WebWorker (tsc --noEmit)', () => {
    for (const config of ['tsconfig.es2022.json', 'tsconfig.webworker.json']) {
      run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', `tests/js/types/${config}`]);
    }
  });
} else {
  skip('types (tsc --noEmit)', 'npm packages missing');
  skip('types under lib ES2022 with Node\'s types, and under WebWorker (tsc --noEmit)', 'npm packages missing');
}

console.log('\ntest summary:');
for (const { name, ok } of results) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}`);
const failed = results.filter((r) => !r.ok).length;
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
