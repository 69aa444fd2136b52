// The kiosk server's command line (docs/kiosk.md lists the options).
import net from 'node:net';

import { isLoopback } from './bind_address.mjs';
import { canonicalName } from './host_allowlist.mjs';

export const USAGE = `usage: node kiosk/server/main.mjs [--port N (default 8080, 0 = any)] [--host ADDRESS]
       [--expose-on-network] [--allow-host NAME]... [--db FILE] [--reset] [--fixture FILE]
       [--processing-delay SECONDS] [--now RFC3339] [--verbose] [--smoke]`;

/** A bad command line: main prints `kiosk: <message>`, then the usage, and exits 2. */
export class UsageError extends Error {}

/** The command line as options; throws a UsageError naming the option for a bad one. */
export function parseArgs(argv) {
  const options = {
    port: 8080,
    host: '127.0.0.1',
    db: 'build/demo.db',
    fixture: 'fixtures/demo.json',
    processingDelay: '5',
    now: null,
    reset: false,
    verbose: false,
    smoke: false,
    exposeOnNetwork: false,
    allowHosts: [],
    help: false,
  };
  const flags = {
    '--reset': 'reset',
    '--verbose': 'verbose',
    '--smoke': 'smoke',
    '--expose-on-network': 'exposeOnNetwork',
    '--help': 'help',
    '-h': 'help',
  };
  const valued = {
    '--port': 'port',
    '--host': 'host',
    '--db': 'db',
    '--fixture': 'fixture',
    '--processing-delay': 'processingDelay',
    '--now': 'now',
  };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (Object.hasOwn(flags, arg)) options[flags[arg]] = true;
    else if (arg === '--allow-host' || Object.hasOwn(valued, arg)) {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      const value = argv[++i];
      if (arg === '--allow-host') options.allowHosts.push(allowedHost(value));
      else options[valued[arg]] = value;
    } else {
      throw new UsageError(`unknown argument ${arg}`);
    }
  }
  if (options.help) return options;
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0..65535');
  options.port = port;
  if (!/^\d+(\.\d+)?$/.test(options.processingDelay)) {
    throw new UsageError('--processing-delay must be a number of seconds');
  }
  if (!isLoopback(options.host) && !options.exposeOnNetwork) {
    throw new UsageError(
      `--host ${options.host} is not a loopback address: the page would be served to the network, ` +
        "and with it the demo guests' tokens and merchant keys (config.json) and billing through /api; " +
        'add --expose-on-network to do that anyway',
    );
  }
  return options;
}

/** An --allow-host value: a host name or an IP address, without a port. */
function allowedHost(value) {
  const name = canonicalName(value);
  if (name === null || (!net.isIPv6(value) && /:\d+$/.test(value))) {
    throw new UsageError(`--allow-host needs a host name or an IP address without a port (got ${JSON.stringify(value)})`);
  }
  return name;
}
