// What `npm start` installs and builds before it serves: the system and npm packages, the wasm module (web/dist) when
// missing or stale, and the local service and the store hub (build/native) when stale. Build output goes to stderr:
// stdout carries only the page URL.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { ensureNpmPackages, ensureSystemPackages } from '../../../scripts/install/ensure-installed.mjs';
import { log } from '../kiosk_log.mjs';
import { root } from '../repository_root.mjs';

const SERVICE_BUILD = 'build/native';

function newestMtime(dir, pattern) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(file, pattern));
    else if (pattern.test(entry.name)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** True when web/dist lacks the wasm module or is older than the engine and binding sources. */
export function wasmIsStale() {
  const wasm = path.join(root, 'web/dist/loyalty_qualifier.wasm');
  const glue = path.join(root, 'web/dist/loyalty_qualifier.mjs');
  if (!existsSync(wasm) || !existsSync(glue)) return true;
  const sources = Math.max(
    newestMtime(path.join(root, 'src'), /\.(cpp|hpp|h)$/),
    newestMtime(path.join(root, 'wasm'), /\.(cpp|hpp|txt|cmake)$/),
  );
  return statSync(wasm).mtimeMs < sources;
}

function runToStderr(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/**
 * Installs what is missing as `npm test` does (system packages, then npm packages: the build needs
 * esbuild) and builds the wasm module when missing or stale; with `emulator` (--runtime wasm), the
 * emulator's module too when missing.
 */
export function buildWhatIsMissing({ emulator = false } = {}) {
  ensureSystemPackages(runToStderr);
  ensureNpmPackages(runToStderr);
  if (wasmIsStale()) {
    log('building the wasm module (web/dist)');
    runToStderr(process.execPath, ['scripts/build.mjs', '--only', 'wasm']);
  }
  if (emulator && !existsSync(path.join(root, 'web/dist/loyalty_emulator.wasm'))) {
    log("building the emulator's module (web/dist/loyalty_emulator.*)");
    runToStderr(process.execPath, ['scripts/build.mjs', '--only', 'emulator']);
  }
}

function buildTarget(target, folder, variable) {
  if (process.env[variable]) return process.env[variable];
  try {
    // Configure when the tree is new or predates the target's folder (no such target yet).
    if (!existsSync(path.join(root, SERVICE_BUILD, folder, 'CMakeFiles'))) {
      runToStderr('cmake', ['-S', '.', '-B', SERVICE_BUILD, '-DCMAKE_BUILD_TYPE=Release']);
    }
    runToStderr('cmake', ['--build', SERVICE_BUILD, '--target', target, '-j2']);
  } catch (e) {
    throw new Error(
      `${e.message}: the ${target} build failed (missing system packages? run: bash scripts/install/ensure-system.sh)`,
    );
  }
  return path.join(root, SERVICE_BUILD, folder, target);
}

/**
 * The loyalty_service binary to run: LQ_SERVICE_BIN as is (the override the service tests honour
 * too), else build/native/service/loyalty_service, built first when stale (cmake decides).
 * Throws when the build fails.
 */
export function buildService() {
  return buildTarget('loyalty_service', 'service', 'LQ_SERVICE_BIN');
}

/** The loyalty_hub binary to run: LQ_HUB_BIN as is, else build/native/hub/loyalty_hub, built first when stale. */
export function buildHub() {
  return buildTarget('loyalty_hub', 'hub', 'LQ_HUB_BIN');
}
