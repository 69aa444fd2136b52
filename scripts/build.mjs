// Incremental build: native engine + tests into build/native, the wasm module into build/wasm,
// then its artifacts into web/dist/: the .wasm, the Embind glue minified, and the browser bundle
// (web/engine/qualifier.js with the glue, minified), and the emulator's module (emulator/: the
// service's and the hub's C++ with SQLite, web/dist/loyalty_emulator.*). Usage: node
// scripts/build.mjs [--only native|wasm|emulator|platform-package] (platform-package: only the
// static service of npm/<platform>-<arch>/, for `npm run pack`)
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jobs = String(
  typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
);
const GLUE = 'loyalty_qualifier.mjs';
const WASM = 'loyalty_qualifier.wasm';
/** One file a page imports: createQualifier, diagnostics, QualifyError, the glue inside. */
const BROWSER_BUNDLE = 'loyalty_qualifier.browser.mjs';
const NODE_ENTRY = 'index.node.mjs';
const EMULATOR_NODE_ENTRY = 'local/emulator/emulator.node.mjs';

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

/** The native tree, configured (cpp-httplib's source fetched first, see below). */
function configureNative(dir) {
  // cpp-httplib's full header for loyalty_service_portable; without it CMake skips that target.
  // The first configure fetches it too (service/CMakeLists.txt); this retries for a tree
  // configured while deb.debian.org could not be reached.
  const httplib = spawnSync('bash', ['scripts/httplib-source.sh'], { cwd: root, stdio: 'inherit' });
  if (httplib.status !== 0) console.warn('build: scripts/httplib-source.sh failed (see above)');
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  }
}

export function buildNative() {
  const dir = path.join(root, 'build/native');
  configureNative(dir);
  run('cmake', ['--build', 'build/native', '--parallel', jobs]);
  copyPortableService(dir);
}

/**
 * Only what the platform package ships (`npm run pack`): the static service, built and copied
 * into npm/<platform>-<arch>/bin/. Throws when it cannot be built.
 */
export function buildPlatformPackage() {
  const dir = path.join(root, 'build/native');
  configureNative(dir);
  run('cmake', ['--build', 'build/native', '--parallel', jobs, '--target', 'loyalty_service_portable',
    'loyalty_hub_portable']);
  if (!copyPortableService(dir)) {
    throw new Error(`no ${platformPackageDir()}/package.json: no platform package for this platform`);
  }
}

/** The platform package's folder for this machine (npm/linux-x64). */
export function platformPackageDir() {
  return path.join(root, `npm/${process.platform}-${process.arch}`);
}

/** The static programs the platform package ships: build/native/<from> -> npm/<platform>-<arch>/bin/<to>. */
const PORTABLE_PROGRAMS = [
  ['service/loyalty_service_portable', 'loyalty_service'],
  ['hub/loyalty_hub_portable', 'loyalty_hub'],
];

/**
 * The static service and store hub binaries into the platform package npm/<platform>-<arch>/bin/
 * (linux-x64). False when there is no such package or one of the binaries is missing.
 */
function copyPortableService(dir) {
  const platformPackage = platformPackageDir();
  if (!existsSync(path.join(platformPackage, 'package.json'))) return false;
  let all = true;
  for (const [built, shipped] of PORTABLE_PROGRAMS) {
    const from = path.join(dir, built);
    if (!existsSync(from)) {
      all = false;
      continue;
    }
    const to = path.join(platformPackage, 'bin', shipped);
    if (existsSync(to) && readFileSync(from).equals(readFileSync(to))) continue;
    mkdirSync(path.dirname(to), { recursive: true });
    rmSync(to, { force: true }); // never write into a binary that may be running
    copyFileSync(from, to);
    chmodSync(to, 0o755);
    console.log(`build: ${path.relative(root, to)}`);
  }
  return all;
}

function configureWasm(env) {
  if (!existsSync(path.join(root, 'build/wasm', 'CMakeCache.txt'))) {
    run('emcmake', ['cmake', '-S', '.', '-B', 'build/wasm', '-DCMAKE_BUILD_TYPE=Release'], env);
  }
}

export function buildWasm() {
  const env = emscriptenEnv();
  const dir = path.join(root, 'build/wasm');
  configureWasm(env);
  // The shipped module, then the bench build (build/wasm/loyalty_qualifier_bench.*, never
  // shipped: the entry points that measure the boundary, for bench/ and tests/package/engine/explain_typed),
  // one call each: a first call may configure again, and make knows only the targets it read.
  for (const target of ['loyalty_qualifier', 'loyalty_qualifier_bench']) {
    run('cmake', ['--build', 'build/wasm', '--parallel', jobs, '--target', target], env);
  }
  const dist = path.join(root, 'web/dist');
  mkdirSync(dist, { recursive: true });
  writeIfChanged(path.join(dist, WASM), readFileSync(path.join(dir, WASM)));
  minifyScripts(path.join(dir, GLUE), dist);
  bundleNodeEntry();
  // The kiosk page's bundles (kiosk/page/dist/), so that any static server can serve the page.
  run(process.execPath, ['kiosk/server/page_bundle.mjs']);
}

/**
 * The emulator's module (emulator/CMakeLists.txt) into web/dist/: loyalty_emulator.wasm and its
 * glue, minified, then the seeded image it makes of the demo fixture (emulator/seeded_image.mjs). Its sources from Debian's source packages first: SQLite's amalgamation
 * (scripts/sqlite-source.sh) and cpp-httplib's full header (scripts/httplib-source.sh).
 */
export function buildEmulator() {
  for (const script of ['scripts/sqlite-source.sh', 'scripts/httplib-source.sh']) run('bash', [script]);
  const env = emscriptenEnv();
  configureWasm(env);
  // The wasm tree was configured before the sources were there: configure again to add the target.
  run('cmake', ['-S', '.', '-B', 'build/wasm'], env);
  run('cmake', ['--build', 'build/wasm', '--parallel', jobs, '--target', 'loyalty_emulator'], env);
  const dir = path.join(root, 'build/wasm/emulator');
  const dist = path.join(root, 'web/dist');
  mkdirSync(dist, { recursive: true });
  writeIfChanged(path.join(dist, 'loyalty_emulator.wasm'), readFileSync(path.join(dir, 'loyalty_emulator.wasm')));
  const esbuild = createRequire(import.meta.url)('esbuild');
  const glue = esbuild.transformSync(readFileSync(path.join(dir, 'loyalty_emulator.mjs'), 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'es2020',
    legalComments: 'none',
  });
  writeIfChanged(path.join(dist, 'loyalty_emulator.mjs'), Buffer.from(glue.code));
  // The demo fixture's database as this module seeds it (web/dist/loyalty_emulator_seed.mjs).
  run(process.execPath, ['emulator/seeded_image.mjs']);
  // Node's one-file entries, the emulator's among them, as the wasm build writes them.
  bundleNodeEntry();
}

function writeIfChanged(to, bytes) {
  if (!existsSync(to) || !readFileSync(to).equals(bytes)) {
    writeFileSync(to, bytes);
    console.log(`build: ${path.relative(root, to)}`);
  }
}

/**
 * The download a page pays for, made smaller (bench/README.md, "browser download"): esbuild
 * minifies the Embind glue (Emscripten's closure compiler is unavailable here) into
 * web/dist/loyalty_qualifier.mjs, and bundles web/engine/qualifier.js with it into one minified browser
 * module, web/dist/loyalty_qualifier.browser.mjs, which finds the .wasm beside itself.
 * bench/design/build_options.mjs does the same for a variant's glue beside a copy of the face (`web`).
 */
export function minifyScripts(glueFile, dist, web = path.join(root, 'web')) {
  const esbuild = createRequire(import.meta.url)('esbuild'); // a devDependency, loaded on use
  const glue = esbuild.transformSync(readFileSync(glueFile, 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'es2020',
    legalComments: 'none',
  });
  writeIfChanged(path.join(dist, GLUE), Buffer.from(glue.code));
  const bundle = esbuild.buildSync({
    stdin: {
      contents:
        "export { createQualifier, diagnostics, initQualifier } from './engine/qualifier.js';\n" +
        "export { QualifyError } from './engine/qualify_error.js';\n",
      resolveDir: web,
      sourcefile: 'browser-entry.js',
      loader: 'js',
    },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    // The supported browsers (README: Chrome/Edge 85+, Firefox 90+, Safari 15+) all have class
    // fields and private methods, which es2022 keeps as written: 296 B gzip less than es2020's
    // lowering (bench/design/wasm-build-options.md). Nothing newer is used (no static blocks, `#x in`).
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'silent',
  });
  // The bundle lives in web/dist/ beside the .wasm, while web/engine/engine_module.js names it ../dist/...
  const code = bundle.outputFiles[0].text;
  const named = code.split('"../dist/loyalty_qualifier.wasm"');
  if (named.length !== 2) throw new Error('the browser bundle must name ../dist/loyalty_qualifier.wasm once');
  writeIfChanged(path.join(dist, BROWSER_BUNDLE), Buffer.from(named.join('"./loyalty_qualifier.wasm"')));
}

/**
 * The package's Node entries, each its modules bundled into one file beside the entry module, so
 * that every relative URL (`./dist/...`, `import.meta.url`) means what it means there. Node's ESM
 * loader costs about a millisecond per module at the first import of a process: 16 modules took
 * 23-27 ms, one file 11 ms (bench/README.md, "Snapshot load and cold start"); the emulator's 12
 * modules 8-10 ms, one file 2-3 ms ("The emulator's Node entry"). The glue and the .wasm (dist/)
 * stay apart, loaded when the first qualifier or emulator is created. Rebuilt with every wasm and
 * emulator build, so `npm test` and `npm run build` never leave them behind the sources.
 * - `exports["."].node`, web/index.node.mjs: web/index.js and every module it re-exports;
 * - `exports["./emulator"].node`, web/local/emulator/emulator.node.mjs: web/local/emulator/emulator.js.
 */
export function bundleNodeEntry(web = path.join(root, 'web')) {
  writeIfChanged(path.join(web, NODE_ENTRY), Buffer.from(nodeEntryText(web)));
  writeIfChanged(path.join(web, EMULATOR_NODE_ENTRY), Buffer.from(emulatorNodeEntryText(web)));
}

// `entry` (relative to web/) and its modules in one ESM file for Node; `dist` is how its modules
// name web/dist/, left to Node's loader.
function nodeBundle(web, entry, dist) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const bundle = esbuild.buildSync({
    entryPoints: [path.join(web, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node18',
    external: [`${dist}*`],
    banner: { js: `// Generated by the repository's build from web/${entry} and its modules: edit those.` },
    legalComments: 'none',
    logLevel: 'silent',
  });
  return bundle.outputFiles[0].text;
}

/** The text of web/index.node.mjs (tests/package/engine/node_entry.test.js checks the file is current). */
export function nodeEntryText(web = path.join(root, 'web')) {
  // The bundle lives at web/, while web/engine/engine_module.js names the glue and the .wasm
  // ../dist/...: here they are ./dist/... (the glue's import and the .wasm's URL).
  const parts = nodeBundle(web, 'index.js', '../dist/').split('"../dist/');
  if (parts.length < 3) throw new Error('the Node entry must name ../dist/loyalty_qualifier.mjs and .wasm');
  return parts.join('"./dist/');
}

/**
 * The text of web/local/emulator/emulator.node.mjs (tests/emulator/node_entry.test.js checks the
 * file is current): beside web/local/emulator/emulator.js, its modules' ../../dist/... and
 * ../../../fixtures/... mean the same files.
 */
export function emulatorNodeEntryText(web = path.join(root, 'web')) {
  const text = nodeBundle(web, 'local/emulator/emulator.js', '../../dist/');
  for (const file of ['loyalty_emulator.wasm', 'loyalty_emulator.mjs', 'loyalty_emulator_seed.mjs']) {
    if (!text.includes(`"../../dist/${file}"`)) throw new Error(`the emulator's Node entry must name ../../dist/${file}`);
  }
  return text;
}

function main(argv) {
  const only = argv[0] === '--only' ? argv[1] : null;
  if (argv.length > 0 && !['native', 'wasm', 'emulator', 'platform-package'].includes(only)) {
    console.error('usage: node scripts/build.mjs [--only native|wasm|emulator|platform-package]');
    return 2;
  }
  try {
    if (only === 'platform-package') buildPlatformPackage();
    if (only === null || only === 'native') buildNative();
    if (only === null || only === 'wasm') buildWasm();
    if (only === null || only === 'emulator') buildEmulator();
  } catch (e) {
    console.error(`build: ${e.message}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
