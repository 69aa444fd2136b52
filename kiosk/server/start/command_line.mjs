// The kiosk server's command line (docs/kiosk.md lists the options), read by the package's parser
// (loyalty-qualifier/command-line parseCommandLine). The options it passes to the service (--db,
// --fixture, --processing-delay, --now) are read and checked by the launcher's option table
// (loyalty-qualifier/service serviceOptionsFromText), and so are its own --port and --host, which are a port and a
// bind address as the service's are; a --host beyond this machine needs --expose-on-network.
import net from 'node:net';

import { UsageError, parseCommandLine } from 'loyalty-qualifier/command-line';
import { serviceOptionsFromText, wasmDatabaseProblem } from 'loyalty-qualifier/service';
import { isLoopback } from '../network/bind_address.mjs';
import { canonicalName } from '../network/host_allowlist.mjs';
import { canonicalOrigin } from '../request_guard.mjs';

export { UsageError };

export const USAGE = `usage: node kiosk/server/main.mjs [--port N (default 8080, 0 = any)] [--host ADDRESS]
       [--expose-on-network] [--allow-host NAME]... [--allow-origin ORIGIN]... [--db FILE] [--hub-db FILE]
       [--reset] [--fixture FILE]
       [--processing-delay SECONDS] [--now RFC3339] [--runtime native|wasm] [--verbose] [--smoke]`;

/** The options for parseCommandLine. */
const COMMAND_LINE = {
  port: { type: 'string' },
  host: { type: 'string' },
  'expose-on-network': { type: 'boolean' },
  'allow-host': { type: 'string', multiple: true },
  'allow-origin': { type: 'string', multiple: true },
  db: { type: 'string' },
  'hub-db': { type: 'string' },
  reset: { type: 'boolean' },
  fixture: { type: 'string' },
  'processing-delay': { type: 'string' },
  now: { type: 'string' },
  runtime: { type: 'string' },
  verbose: { type: 'boolean' },
  smoke: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** The defaults of the options read by the launcher's table, as command line text. */
const DEFAULTS = {
  port: '8080',
  host: '127.0.0.1',
  db: 'build/demo.db',
  fixture: 'fixtures/demo.json',
  'processing-delay': '5',
};

/** The store hub's SQLite file beside the demo database: build/demo.db -> build/demo-hub.db (':memory:' stays). */
export function hubDbBeside(db) {
  return db === ':memory:' ? db : db.replace(/(\.db)?$/, '-hub.db');
}

/**
 * The command line as options: { port, host, db, hubDb, fixture, processingDelay, now, reset,
 * verbose, smoke, exposeOnNetwork, allowHosts, allowOrigins, runtime, help }; throws a UsageError naming the option for a bad one
 * (main prints `kiosk: <message>`, then the usage, and exits 2).
 */
export function parseArgs(argv) {
  const { values, positionals } = parseCommandLine(argv, COMMAND_LINE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const flags = {
    reset: values.reset === true,
    verbose: values.verbose === true,
    smoke: values.smoke === true,
    exposeOnNetwork: values['expose-on-network'] === true,
    help: values.help === true,
  };
  if (flags.help) return flags;
  let launch;
  try {
    launch = serviceOptionsFromText({ ...DEFAULTS, ...values });
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(e.message);
    throw e;
  }
  const { port, host, fixture, processingDelay, now } = launch;
  // The wasm runtime (docs/emulator.md) keeps the service's and the hub's state in memory.
  const runtime = values.runtime ?? 'native';
  if (!['native', 'wasm'].includes(runtime)) throw new UsageError('--runtime must be native or wasm');
  if (runtime === 'wasm' && values.db !== undefined && wasmDatabaseProblem(values.db) !== null) {
    throw new UsageError(wasmDatabaseProblem(values.db));
  }
  const db = runtime === 'wasm' ? ':memory:' : launch.db;
  const allowHosts = (values['allow-host'] ?? []).map(allowedHost);
  const allowOrigins = (values['allow-origin'] ?? []).map(allowedOrigin);
  let hubDb = hubDbBeside(db);
  if (values['hub-db'] !== undefined && runtime === 'wasm') throw new UsageError(`--hub-db: ${wasmDatabaseProblem(values['hub-db'])}`);
  if (values['hub-db'] !== undefined) {
    try {
      hubDb = serviceOptionsFromText({ db: values['hub-db'] }).db;
    } catch (e) {
      if (e instanceof TypeError) throw new UsageError(e.message.replace(/--db\b/, '--hub-db'));
      throw e;
    }
    if (hubDb === db) throw new UsageError('--hub-db must be another file than --db');
  }
  if (!isLoopback(host) && !flags.exposeOnNetwork) {
    throw new UsageError(
      `--host ${host} is not a loopback address: the page would be served to the network, ` +
        "and with it the demo guests' tokens and merchant keys (config.json) and billing through /api; " +
        'add --expose-on-network to do that anyway',
    );
  }
  return { ...flags, port, host, db, hubDb, fixture, processingDelay, now, allowHosts, allowOrigins, runtime };
}

/** An --allow-host value: a host name or an IP address, without a port. */
function allowedHost(value) {
  const name = canonicalName(value);
  if (name === null || (!net.isIPv6(value) && /:\d+$/.test(value))) {
    throw new UsageError(`--allow-host needs a host name or an IP address without a port (got ${JSON.stringify(value)})`);
  }
  return name;
}

/** An --allow-origin value: an origin (scheme://host[:port], http or https), nothing after it. */
function allowedOrigin(value) {
  const origin = canonicalOrigin(value);
  if (origin === null) {
    throw new UsageError(`--allow-origin needs an origin such as https://kiosk.example or http://192.0.2.2:8080, without a path (got ${JSON.stringify(value)})`);
  }
  return origin;
}
