// `npm test`: installs what is missing, builds what is stale, then runs every suite:
// native Catch2 tests (ctest; again under ASan + UBSan), short libFuzzer runs of every parser,
// the import-cycle check of web/ and kiosk/ and the house rules a program can check (module
// length, one declaration per type, the kiosk page on the package's entry points), the faces'
// includes of the engine (scripts/check-includes.mjs), and the tests of each part of the house,
// sorted by the part they test (tests/<part>/, docs/development.md): the checks' own tests
// (tests/house/), the package in Node (tests/package/, the launchers from the checkout among them),
// the local service over HTTP (tests/service/), the store hub over HTTP (tests/hub/), the kiosk
// server (tests/kiosk/), the emulator (tests/emulator/, then the service's and hub's suites that
// need no database file again on the wasm runtime), every test that drives Chromium
// (*.chromium.test.js, wherever its part is), the consumer suite (tests/consumer/: the tarballs of
// `npm run pack` installed outside the checkout, with the README's code blocks, Node, esbuild,
// Vite and jsdom, Chromium, the CLI and serve) and the types (tsc --noEmit).
// Each step prints its wall time and the CPU time of its processes; the summary adds the total.
// Exits non-zero when any step fails.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { npmPackagesMissing } from './install/ensure-installed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The suites' default stores (XDG folders) in a folder of this run, never the developer's; the
// service harness gives each test process folders of its own below that.
const testHome = mkdtempSync(path.join(os.tmpdir(), 'lq-npm-test-'));
process.env.XDG_STATE_HOME = path.join(testHome, 'state');
process.env.XDG_CACHE_HOME = path.join(testHome, 'cache');
process.on('exit', () => rmSync(testHome, { recursive: true, force: true }));
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
 * Runs a command from the repository root, its output to `out` (an open file, or 'inherit');
 * resolves with the CPU time (user + sys) of it and every process it waited for, rejects when it
 * cannot start or exits non-zero. bash runs it and reports the children's times on fd 3 (Node
 * has no rusage of a child).
 */
function run(command, args, out) {
  const header = `\ntest: ${command} ${args.join(' ')}\n`;
  if (out === 'inherit') process.stdout.write(header);
  else writeSync(out, header);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', command, ...args], {
      cwd: root,
      stdio: ['ignore', out, out, 'pipe'],
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

const started = performance.now();
const logDir = path.join(root, 'build/test-logs');

/**
 * One step: its commands in order; records ok, wall and CPU time, and resolves true when it
 * passed. A step that runs beside another (`beside`) writes its output to build/test-logs/ and
 * prints it whole when it ends, so that two steps' lines never interleave.
 */
async function step(name, commands, { beside = false } = {}) {
  const result = { name, ok: true, start: performance.now() - started, wall: 0, cpu: 0 };
  results.push(result);
  let out = 'inherit';
  let log;
  if (beside) {
    mkdirSync(logDir, { recursive: true });
    log = path.join(logDir, `${name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60).replace(/^-|-$/g, '')}.log`);
    out = openSync(log, 'w');
    console.log(`\ntest: ${name}: started beside another step (its output: ${path.relative(root, log)})`);
  }
  let failure = null;
  try {
    for (const [command, args] of commands) result.cpu += await run(command, args, out);
  } catch (e) {
    failure = e;
    result.ok = false;
  }
  result.wall = performance.now() - started - result.start;
  if (log) {
    closeSync(out);
    process.stdout.write(`\ntest: ${name}: its output\n${readFileSync(log, 'utf8')}`);
  }
  if (failure) console.error(`test: ${name} failed: ${failure.message}`);
  console.log(`test: ${name}: ${result.ok ? 'ok' : 'FAILED'} in ${duration(result.wall)} (cpu ${duration(result.cpu)})`);
  return result.ok;
}

function skip(name, why) {
  console.error(`test: ${name} skipped: ${why}`);
  results.push({ name, ok: false, skipped: true, start: performance.now() - started, wall: 0, cpu: 0 });
}

const node = (...args) => [process.execPath, args];

const systemReady = await step('system packages', [['bash', ['scripts/install/ensure-system.sh']]]);
const npmReady = await step(
  'npm packages',
  npmPackagesMissing() ? [['npm', ['ci', '--no-audit', '--no-fund']]] : [],
);

await step('imports and the house rules: web/, kiosk/, tests/, docs/architecture.md (scripts/check-imports.mjs, scripts/check-house.mjs)', [
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

// Then four lanes at once, one step of each at a time. The native lane compiles the sanitizer and
// fuzzer trees and fuzzes: it keeps the two cores of CI's machine busy. The JS suites mostly wait
// (on services, Chromium, timers, staleness and retry deadlines), so they run beside it, in three
// lanes (Node's suites; the emulator's build and suites; Chromium's and the consumer's), each
// suite two files at a time. `ready` is true, or why the step cannot run.
const FILES_AT_ONCE = 2;
const EMULATOR_BUILD = "emulator build (the service's and the hub's C++ in wasm)";
// A test that drives Chromium is named *.chromium.test.js, in the folder of the part it tests: the
// browser lane runs them all (the consumer suite's own aside), the other lanes the rest.
const CHROMIUM_TEST = /\.chromium\.test\.m?js$/;
/** The test files below `dir` (sorted), those that drive Chromium (`chromium`) or the others. */
function testFiles(dir, { chromium = false, skip = [] } = {}) {
  const files = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (skip.includes(file)) continue;
    if (entry.isDirectory()) files.push(...testFiles(file, { chromium, skip }));
    else if (/\.test\.m?js$/.test(entry.name) && CHROMIUM_TEST.test(entry.name) === chromium) files.push(file);
  }
  return files.sort();
}
const nodeTest = (files) => node('--test', `--test-concurrency=${FILES_AT_ONCE}`, ...files);
const suite = (dir) => nodeTest(testFiles(dir));
const builtForJs = (wasmBuilt && npmReady) || 'wasm build or npm packages missing';
const builtForService = (nativeBuilt && wasmBuilt) || 'native or wasm build failed';
const builtForConsumer = (nativeBuilt && wasmBuilt && npmReady) || 'native or wasm build or npm packages missing';
const nativeLane = [
  {
    name: 'native tests (ctest)',
    commands: [['ctest', ['--test-dir', 'build/native', '--output-on-failure']]],
    ready: nativeBuilt || 'native build failed',
  },
  {
    name: 'native tests under ASan + UBSan (scripts/sanitize.sh)',
    commands: [['bash', ['scripts/sanitize.sh']]],
    ready: nativeBuilt || 'native build failed',
  },
  {
    name: 'fuzzers, a short run of each (scripts/fuzz.sh)',
    commands: [['bash', ['scripts/fuzz.sh']]],
    ready: nativeBuilt || 'native build failed',
  },
];
// The package's suite reads the emulator's build too (the root export's import graph reaches the
// emulator's module): it comes last in its lane, when that build is long done.
const nodeLane = [
  { name: 'service tests (node --test tests/service/)', commands: [suite('tests/service')], ready: builtForService },
  { name: 'house tests: the checks of scripts/ (node --test tests/house/)', commands: [suite('tests/house')], ready: builtForJs },
  {
    name: 'store hub tests: claims over HTTP, startStoreHub and the hub CLI (node --test tests/hub/)',
    commands: [suite('tests/hub')],
    ready: nativeBuilt || 'native build failed',
  },
  {
    name: 'package tests: web/ in Node, the launchers from the checkout (node --test tests/package/)',
    commands: [suite('tests/package')],
    ready: builtForConsumer,
    after: EMULATOR_BUILD,
  },
];
// One conformance suite, two runtimes: the emulator's own tests (the 1,000-request differential
// against the native service among them), then the service's and the hub's suites that need no
// database file, again on the wasm runtime (LQ_SERVICE_RUNTIME, LQ_HUB_RUNTIME: their harnesses).
const WASM_CONFORMANCE = [
  'tests/service/accounts/account_etag.test.js',
  'tests/service/accounts/account_read.test.js',
  'tests/service/baskets/baskets.test.js',
  'tests/service/baskets/endpoint_agreement.test.js',
  'tests/service/baskets/parity.test.js',
  'tests/service/sandbox/fraud_rule.test.js',
  'tests/service/sandbox/sandbox.test.js',
  'tests/hub/claims.test.js',
  'tests/hub/launcher.test.js',
];
// The emulator's lane: its build (the service's and the hub's C++ in wasm), then its suites.
const emulatorLane = [
  {
    name: EMULATOR_BUILD,
    commands: [node('scripts/build.mjs', '--only', 'emulator')],
    ready: wasmBuilt || 'wasm build failed',
  },
  {
    name: 'emulator tests: createEmulator, MSW, the wasm runtime, the differential test (node --test tests/emulator/)',
    commands: [suite('tests/emulator')],
    ready: builtForConsumer,
    after: EMULATOR_BUILD,
  },
  {
    name: 'service and hub suites on the wasm runtime (LQ_SERVICE_RUNTIME=wasm LQ_HUB_RUNTIME=wasm node --test ...)',
    commands: [['env', ['LQ_SERVICE_RUNTIME=wasm', 'LQ_HUB_RUNTIME=wasm', ...nodeTest(WASM_CONFORMANCE).flat()]]],
    ready: builtForConsumer,
    after: EMULATOR_BUILD,
  },
];
// The Chromium tests and the consumer's suite read the emulator's build (the package's files, the
// tarballs): they start once it is done (`after`), the types and the kiosk server's tests meanwhile.
const browserLane = [
  {
    name: 'types (tsc --noEmit)',
    commands: ['tsconfig.json', 'tsconfig.es2022.json', 'tsconfig.webworker.json'].map((config) =>
      node('node_modules/typescript/bin/tsc', '--noEmit', '-p', `tests/package/types/${config}`)),
    ready: npmReady || 'npm packages missing',
  },
  {
    name: 'kiosk tests in Node: the kiosk server, its page bundle (node --test tests/kiosk/)',
    commands: [suite('tests/kiosk')],
    ready: builtForConsumer,
  },
  {
    name: 'Chromium tests: the package, the kiosk page, the service and the emulator in a browser (tests/**/*.chromium.test.js)',
    commands: [nodeTest(testFiles('tests', { chromium: true, skip: ['tests/consumer'] }))],
    ready: builtForConsumer,
    after: EMULATOR_BUILD,
  },
  { name: 'consumer tests (node --test tests/consumer/)', commands: [suite('tests/consumer')], ready: builtForConsumer, after: EMULATOR_BUILD },
];

// Each step's outcome (true: passed), for the steps of other lanes that come `after` it.
const outcomes = new Map();
function outcomeOf(name) {
  if (!outcomes.has(name)) {
    let settle;
    outcomes.set(name, Object.assign(new Promise((resolve) => (settle = resolve)), { settle }));
  }
  return outcomes.get(name);
}

// A lane runs its steps in order; a step `after` another (of any lane) runs once that one passed.
async function lane(steps) {
  for (const { name, commands, ready, after } of steps) {
    let why = ready;
    if (why === true && after && !(await outcomeOf(after))) why = `${after} failed`;
    const ok = why === true ? await step(name, commands, { beside: true }) : (skip(name, why), false);
    outcomeOf(name).settle(ok);
  }
}
await Promise.all([lane(nativeLane), lane(nodeLane), lane(browserLane), lane(emulatorLane)]);
const total = performance.now() - started;

console.log("\ntest summary (when each step started, its wall time, the CPU time of its processes):");
for (const { name, ok, skipped, start, wall, cpu } of results) {
  const times = skipped
    ? 'skipped'.padEnd(32)
    : `+${duration(start).padEnd(7)} ${duration(wall).padStart(7)}  cpu ${duration(cpu).padStart(7)}`;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${times}  ${name}`);
}
const failed = results.filter((r) => !r.ok).length;
const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
console.log(`total: ${duration(total)} wall, cpu ${duration(cpu)}`);
process.exitCode = failed === 0 ? 0 : 1;
