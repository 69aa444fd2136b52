// `loyalty-qualifier hub`: runs the store hub (docs/hub.md) in the foreground through the one
// launcher, startStoreHub (web/service/store_hub.js), from the platform package (or a local build,
// see service_binary.js), with serve's exit codes (foreground_command.js): the first stdout line
// is the base URL; 2 and plain text with hub's usage for a bad command line (a --host beyond
// loopback without --expose-on-network included); 1 and the {"code","message"} body when there
// is no hub binary (503) or the hub refuses to start (503); else the hub's own exit code.
import process from 'node:process';

import { commandLineRuntime } from '../emulator/runtime_choice.js';
import { HUB_OPTIONS, checkStoreKey, startStoreHub } from '../service/store_hub.js';
import { serviceOptionsFromText } from '../service/service_options.js';
import { UsageError, parseCommandLine } from './command_line.js';
import { runForegroundCommand } from './foreground_command.js';

const USAGE = `usage: loyalty-qualifier hub --store-key KEY [--port P] [--db FILE|:memory:]
                           [--host ADDRESS [--expose-on-network]] [--runtime native|wasm|auto]

  --store-key KEY          every call must carry it (header Store-Key); 1 to 512 visible
                           ASCII characters
  --port P                 default 0: a free port; the first line on stdout is the base URL
  --db FILE|:memory:       the SQLite file, created and migrated on start; default :memory:, a
                           throwaway database removed when the hub stops
  --host ADDRESS           bind address (default 127.0.0.1); one beyond this machine needs
                           --expose-on-network, and the hub then warns on stderr
  --expose-on-network      allow a --host beyond loopback (kiosks on the store's network)
  --runtime R              native (the platform package's binary), wasm (the emulator, state in
                           memory: no --db FILE) or auto (default: native where it runs)`;

const PREFIX = 'loyalty-qualifier hub';

const COMMAND_LINE = {
  help: { type: 'boolean', short: 'h' },
  'store-key': { type: 'string' },
  'expose-on-network': { type: 'boolean' },
  runtime: { type: 'string' },
  ...Object.fromEntries(HUB_OPTIONS.map((option) => [option.flag.slice(2), { type: 'string' }])),
};

/** startStoreHub's options for hub's command line; throws UsageError for a bad one. */
function hubOptions(argv) {
  const { values, positionals } = parseCommandLine(argv, COMMAND_LINE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values['store-key'] === undefined) throw new UsageError('--store-key is required');
  try {
    const { port, host, db } = serviceOptionsFromText({ port: values.port, host: values.host, db: values.db });
    const storeKey = checkStoreKey(values['store-key'], '--store-key');
    const { runtime, note } = commandLineRuntime('hub', values.runtime, db);
    return { port, host, db, storeKey, runtime, runtimeNote: note, exposeOnNetwork: values['expose-on-network'] === true };
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(e.message);
    throw e;
  }
}

/** startStoreHub, the runtime's note first in the hub's log. */
function launchNoting({ runtimeNote, ...options }) {
  if (runtimeNote) options.onStderr?.(runtimeNote);
  return startStoreHub(options);
}

/**
 * Runs `hub` with the arguments after it; resolves the exit code. `io`: { stdout, stderr }
 * (default: this process's).
 */
export function runHubCli(argv, io = process) {
  return runForegroundCommand(argv, { optionsOf: hubOptions, launch: launchNoting, program: 'loyalty_hub', prefix: PREFIX, usage: USAGE }, io);
}
