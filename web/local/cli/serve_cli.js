// `loyalty-qualifier serve`: runs the native local service in the foreground through the one
// launcher, startLocalService (web/local/service/local_service.js), from the platform package (or a local
// build, see service_binary.js), in the foreground (foreground_command.js: the first stdout line
// is the base URL, the exit codes). 2 and plain text for a bad command line or an unreadable
// fixture file, with serve's own usage (every value is checked here, so the service's usage never
// shows); 1 and the {"code","message"} body when there is no service binary (503) or the service
// refuses to start (422 for its fixture, 503 otherwise); else the service's own exit code.
import process from 'node:process';

import { commandLineRuntime } from '../service/runtime_choice.js';
import { startLocalService } from '../service/local_service.js';
import { COMMAND_LINE_OPTIONS, serviceOptionsFromText } from '../emulator/service_options.js';
import { UsageError, parseCommandLine, readInputFile } from './command_line.js';
import { runForegroundCommand } from './foreground_command.js';

const USAGE = `usage: loyalty-qualifier serve [--port P] [--host ADDRESS] [--db FILE|:memory:]
                             [--fixture FILE] [--mode sandbox|production]
                             [--processing-delay SECONDS] [--now RFC3339]
                             [--max-connections-per-peer N] [--runtime native|wasm|auto]
                             [--cors-origin ORIGIN]...

  --port P                 default 0: a free port; the first line on stdout is the base URL
  --host ADDRESS           bind address (default 127.0.0.1)
  --db FILE|:memory:       the SQLite file, created and migrated on start; default :memory:, a
                           throwaway database removed when the service stops
  --fixture FILE           seeds the users, rewards and campaigns missing from the database
  --mode                   sandbox (default; sandbox operations on) or production
  --processing-delay S     seconds until a billed basket or purchase lands (default 900 in
                           sandbox mode, 0 in production)
  --now RFC3339            a fixed service clock (tests)
  --max-connections-per-peer N
                           open connections one client (remote address) may hold, 1-1000
                           (default 128); beyond: 503 while other clients are still served
  --runtime R              native (the platform package's binary), wasm (the emulator, state in
                           memory: no --db FILE) or auto (default: native where it runs)
  --cors-origin ORIGIN     pages of ORIGIN (e.g. http://localhost:5173, a dev server) may call
                           the service from a browser; repeatable; an exact origin, never *`;

const PREFIX = 'loyalty-qualifier serve';

/** serve's options for parseCommandLine: one per launcher option, named by its flag. */
const COMMAND_LINE = Object.fromEntries([
  ['help', { type: 'boolean', short: 'h' }],
  ['runtime', { type: 'string' }],
  ...COMMAND_LINE_OPTIONS.map((option) => [option.flag.slice(2), { type: 'string', multiple: option.multiple === true }]),
]);

/** startLocalService's options for serve's command line; throws UsageError for a bad one. */
async function serveOptions(argv) {
  const { values, positionals } = parseCommandLine(argv, COMMAND_LINE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  let options;
  try {
    options = serviceOptionsFromText(values);
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(e.message);
    throw e;
  }
  // A missing file is a usage error, as for qualify.
  if (options.fixture !== undefined) await readInputFile(options.fixture, 'fixture');
  // Last: which runtime ('auto' says which it chose in the service's log, once it listens).
  try {
    ({ runtime: options.runtime, note: options.runtimeNote } = commandLineRuntime('service', values.runtime, options.db));
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(e.message);
    throw e;
  }
  return options;
}

/** startLocalService, the runtime's note first in the service's log. */
function launchNoting({ runtimeNote, ...options }) {
  if (runtimeNote) options.onStderr?.(runtimeNote);
  return startLocalService(options);
}

/**
 * Runs `serve` with the arguments after it; resolves the exit code. `io`: { stdout, stderr }
 * (default: this process's).
 */
export function runServeCli(argv, io = process) {
  return runForegroundCommand(argv, { optionsOf: serveOptions, launch: launchNoting, program: 'loyalty_service', prefix: PREFIX, usage: USAGE }, io);
}
