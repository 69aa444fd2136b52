// Which runtime runs the local service or the store hub for a launcher (startLocalService,
// startStoreHub, `serve`, `hub`): 'native' (the platform package's binary), 'wasm' (the emulator
// over node:http, wasm_front.js) or 'auto' (the default): native where the binary is installed
// and runs, the wasm runtime otherwise, saying which on stderr. Node only.
import { spawnSync } from 'node:child_process';
import process from 'node:process';

import { hubBinaryPath, serviceBinaryPath } from './service_binary.js';

/** The runtimes a launcher takes. */
export const RUNTIMES = Object.freeze(['native', 'wasm', 'auto']);

const PROGRAMS = {
  service: { binaryPath: serviceBinaryPath, name: 'loyalty_service', what: 'the local service', variable: 'LQ_SERVICE_BIN' },
  hub: { binaryPath: hubBinaryPath, name: 'loyalty_hub', what: 'the store hub', variable: 'LQ_HUB_BIN' },
};

/** `runtime` checked (default 'auto'); a TypeError "<name> must be one of ..." otherwise. */
export function checkRuntime(runtime, name) {
  if (runtime === undefined) return 'auto';
  if (!RUNTIMES.includes(runtime)) throw new TypeError(`${name} must be one of: ${RUNTIMES.join(', ')}`);
  return runtime;
}

const probed = new Map();

// Why the native program cannot run here, or null when it can: its path, then `--help` exits 0.
function nativeProblem(program) {
  let binary;
  try {
    binary = PROGRAMS[program].binaryPath();
  } catch (e) {
    return e.message.split('\n')[0];
  }
  if (!probed.has(binary)) {
    const run = spawnSync(binary, ['--help'], { stdio: 'ignore', timeout: 10_000 });
    probed.set(binary, run.status === 0 ? null : `${binary} does not run here (${run.error?.code ?? `exit ${run.status ?? run.signal}`})`);
  }
  return probed.get(binary);
}

/**
 * The runtime that runs `program` ('service' | 'hub') for the launcher options `options`
 * (runtime, binary, onStderr): 'native' when asked for, or given a binary (the option, or
 * LQ_SERVICE_BIN / LQ_HUB_BIN); 'wasm' when asked for; for 'auto' the native one if it runs here,
 * else 'wasm', said on stderr (onStderr or this process's) in one line.
 */
export function chooseRuntime(program, options, caller) {
  const runtime = checkRuntime(options.runtime, `${caller}: runtime`);
  if (runtime !== 'auto') return runtime;
  if (options.binary !== undefined || process.env[PROGRAMS[program].variable]) return 'native';
  const problem = nativeProblem(program);
  const { name, what } = PROGRAMS[program];
  const line = problem === null
    ? `loyalty-qualifier: ${what} runs natively (${name}; runtime 'auto')\n`
    : `loyalty-qualifier: ${what} runs on the wasm runtime, its state in memory (runtime 'auto': ${problem})\n`;
  (options.onStderr ?? ((text) => process.stderr.write(text)))(line);
  return problem === null ? 'native' : 'wasm';
}

/**
 * The wasm runtime keeps its state in memory: a database file is refused (db ':memory:' or none
 * is fine). The message says what to do instead.
 */
export function wasmDatabaseProblem(db) {
  if (db === undefined || db === ':memory:') return null;
  return `--db ${db}: the wasm runtime keeps its state in memory and writes no database file; use the native runtime (--runtime native) for a durable database, or --db :memory:`;
}

/**
 * The runtime of a command line (`serve`, `hub`): its --runtime text (default auto) decided now,
 * with its --db: { runtime: 'native' | 'wasm', note }, `note` the line that says which runtime
 * 'auto' chose (null otherwise), for the program's log once it listens; a TypeError for a bad
 * value or a database file on the wasm runtime (the command's usage error, exit 2).
 */
export function commandLineRuntime(program, runtimeText, db) {
  let note = null;
  const options = { runtime: checkRuntime(runtimeText, '--runtime'), onStderr: (line) => { note = line; } };
  const runtime = chooseRuntime(program, options, 'loyalty-qualifier');
  const problem = runtime === 'wasm' ? wasmDatabaseProblem(db) : null;
  if (problem !== null) throw new TypeError(problem);
  return { runtime, note };
}
