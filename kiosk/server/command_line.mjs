// The kiosk server's command line (docs/kiosk.md lists the options).

const USAGE = `usage: node kiosk/server/main.mjs [--port N (default 8080, 0 = any)] [--host ADDRESS]
       [--db FILE] [--reset] [--fixture FILE] [--processing-delay SECONDS] [--now RFC3339] [--verbose]
       [--smoke]`;

/** The command line as options; throws an Error with a message for a bad one. */
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
    if (arg === '--reset') options.reset = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--smoke') options.smoke = true;
    else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else if (Object.hasOwn(valued, arg)) {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value\n${USAGE}`);
      options[valued[arg]] = argv[++i];
    } else {
      throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535\n${USAGE}`);
  options.port = port;
  if (!/^\d+(\.\d+)?$/.test(options.processingDelay)) {
    throw new Error(`--processing-delay must be a number of seconds\n${USAGE}`);
  }
  return options;
}
