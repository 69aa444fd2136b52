// `loyalty-qualifier hub`: runs the store hub (docs/hub.md) in the foreground through the one
// launcher, startStoreHub (web/local/service/store_hub.js), from the platform package (or a local build,
// see service_binary.js), with serve's exit codes (foreground_command.js): the first stdout line
// is the base URL; 2 and plain text with hub's usage for a bad command line (a missing or weak
// store key, a --host beyond loopback without --expose-on-network included); 1 and the
// {"code","message"} body when there is no hub binary (503) or the hub refuses to start (503); else
// the hub's own exit code. The store key comes from LQ_HUB_STORE_KEY or --store-key-file FILE, and
// reaches the hub in its environment: never on a command line another user can read.
// `--store-key KEY` is still taken, with a warning on stderr.
import process from 'node:process';

import { commandLineRuntime } from '../service/runtime_choice.js';
import { HUB_OPTIONS, startStoreHub } from '../service/store_hub.js';
import { MAKE_A_STORE_KEY, checkStoreKey, readStoreKeyFile } from '../service/store_key.js';
import { CLAIM_TTL_OPTION, checked, serviceOptionsFromText } from '../emulator/service_options.js';
import { UsageError, parseCommandLine } from './command_line.js';
import { runForegroundCommand } from './foreground_command.js';

const USAGE = `usage: loyalty-qualifier hub [--store-key-file FILE] [--port P] [--db FILE|:memory:]
                           [--host ADDRESS [--expose-on-network]] [--runtime native|wasm|auto]
                           [--cors-origin ORIGIN]... [--claim-ttl DURATION]

  The store key, which every call must carry (header Store-Key), from one of:
  LQ_HUB_STORE_KEY         in the environment
  --store-key-file FILE    the file's text (trailing white space aside), e.g. made with
                           ${MAKE_A_STORE_KEY} > FILE; chmod 600 FILE
  --store-key KEY          still taken, with a warning: any user of the machine can read a
                           command line (ps, /proc/PID/cmdline)
  A key has at least 128 bits: 32 hex digits, 22 base64 characters or 20 other visible ASCII
  characters (at most 512, no spaces); make one with: ${MAKE_A_STORE_KEY}

  --port P                 default 0: a free port; the first line on stdout is the base URL
  --db FILE|:memory:       the SQLite file, created and migrated on start; default :memory:, a
                           throwaway database removed when the hub stops
  --host ADDRESS           bind address (default 127.0.0.1); one beyond this machine needs
                           --expose-on-network, and the hub then warns on stderr
  --expose-on-network      allow a --host beyond loopback (kiosks on the store's network)
  --runtime R              native (the platform package's binary), wasm (the emulator, state in
                           memory: no --db FILE) or auto (default: native where it runs)
  --cors-origin ORIGIN     pages of ORIGIN (e.g. http://localhost:5173) may call the hub from a
                           browser (such a page holds the store key); repeatable; never *
  --claim-ttl DURATION     a claim that asks for no ttl_ms expires after it: 7d (the default),
                           36h, 90m or 600s, from 1 s to 366 d`;

const PREFIX = 'loyalty-qualifier hub';

const COMMAND_LINE = {
  help: { type: 'boolean', short: 'h' },
  'store-key': { type: 'string' },
  'store-key-file': { type: 'string' },
  'expose-on-network': { type: 'boolean' },
  runtime: { type: 'string' },
  ...Object.fromEntries(HUB_OPTIONS.map((option) => [option.flag.slice(2), { type: 'string', multiple: option.multiple === true }])),
};

/** The store key of the command line or the environment, and what to warn about it. */
function storeKeyOf(values, env) {
  const given = ['store-key', 'store-key-file'].filter((name) => values[name] !== undefined);
  if (given.length > 1) throw new UsageError('give the store key once: --store-key-file FILE or LQ_HUB_STORE_KEY');
  if (values['store-key-file'] !== undefined) {
    const { key, othersMayRead } = readStoreKeyFile(values['store-key-file']);
    const warnings = othersMayRead
      ? [`WARNING: ${values['store-key-file']} (--store-key-file) is readable by every user of this machine: chmod 600 it`]
      : [];
    return { storeKey: key, warnings };
  }
  if (values['store-key'] !== undefined) {
    return {
      storeKey: checkStoreKey(values['store-key'], '--store-key'),
      warnings: ['WARNING: --store-key puts the store key on the command line, where every user of this machine can read it (ps, /proc/PID/cmdline); give it in LQ_HUB_STORE_KEY or with --store-key-file FILE instead'],
    };
  }
  if (env.LQ_HUB_STORE_KEY) return { storeKey: checkStoreKey(env.LQ_HUB_STORE_KEY, 'LQ_HUB_STORE_KEY'), warnings: [] };
  throw new UsageError(`the store key is required: LQ_HUB_STORE_KEY in the environment or --store-key-file FILE (make one with: ${MAKE_A_STORE_KEY})`);
}

/** startStoreHub's options for hub's command line, and its warnings; throws UsageError for a bad one. */
function hubOptions(argv, env) {
  const { values, positionals } = parseCommandLine(argv, COMMAND_LINE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  try {
    const { port, host, db, corsOrigin } = serviceOptionsFromText({
      port: values.port, host: values.host, db: values.db, 'cors-origin': values['cors-origin'],
    });
    const { storeKey, warnings } = storeKeyOf(values, env);
    const { runtime, note } = commandLineRuntime('hub', values.runtime, db);
    const exposeOnNetwork = values['expose-on-network'] === true;
    const claimTtl = values['claim-ttl'];
    if (claimTtl !== undefined) checked(CLAIM_TTL_OPTION, claimTtl, CLAIM_TTL_OPTION.flag);
    return { options: { port, host, db, corsOrigin, claimTtl, storeKey, runtime, runtimeNote: note, exposeOnNetwork }, warnings };
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
 * (default: this process's); `env`: where LQ_HUB_STORE_KEY is read (default: this process's).
 */
export function runHubCli(argv, io = process, env = process.env) {
  const optionsOf = (args) => {
    const { options, warnings } = hubOptions(args, env);
    for (const warning of warnings) io.stderr.write(`${PREFIX}: ${warning}\n`);
    return options;
  };
  return runForegroundCommand(argv, { optionsOf, launch: launchNoting, program: 'loyalty_hub', prefix: PREFIX, usage: USAGE }, io);
}
