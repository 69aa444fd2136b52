// `loyalty-qualifier serve`: runs the native local service in the foreground through the one
// launcher, startLocalService (web/service/local_service.js), from the platform package (or a local
// build, see service_binary.js). The first stdout line is the base URL; the service's log goes to
// stderr; SIGINT and SIGTERM stop it, and so does the end of the process that started serve. Exit
// codes as every command's (command_line.js EXIT): 2 and plain text for a bad command line or an
// unreadable fixture file, with serve's own usage (every value is checked here, so the service's
// usage never shows); 1 and the {"code","message"} body when there is no service binary (503) or
// the service refuses to start (422 for its fixture, 503 otherwise); else the service's own exit
// code.
import { constants } from 'node:os';
import process from 'node:process';

import { startLocalService } from '../service/local_service.js';
import { COMMAND_LINE_OPTIONS, serviceOptionsFromText } from '../service/service_options.js';
import { EXIT, UsageError, parseCommandLine, readInputFile, reportUsageError } from './command_line.js';

const USAGE = `usage: loyalty-qualifier serve [--port P] [--host ADDRESS] [--db FILE|:memory:]
                             [--fixture FILE] [--mode sandbox|production]
                             [--processing-delay SECONDS] [--now RFC3339]
                             [--max-connections-per-peer N]

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
                           (default 128); beyond: 503 while other clients are still served`;

const PREFIX = 'loyalty-qualifier serve';

/** serve's options for parseCommandLine: one per launcher option, named by its flag. */
const COMMAND_LINE = Object.fromEntries([
  ['help', { type: 'boolean', short: 'h' }],
  ...COMMAND_LINE_OPTIONS.map((option) => [option.flag.slice(2), { type: 'string' }]),
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
  return options;
}

function printBody(stderr, code, message) {
  stderr.write(`${JSON.stringify({ code, message })}\n`);
  return EXIT.REFUSED;
}

/** The exit code of a process ended by `signal`, as a shell reports it. */
const signalExit = (signal) => 128 + (constants.signals[signal] ?? constants.signals.SIGTERM);

/**
 * The outcome of a start that failed (startLocalService's rejection `e`), given the service's log
 * up to then: serve's usage error, or the body (422 for the fixture, 503 else).
 */
function startFailure(e, log, stderr) {
  if (e?.code === 'LQ_NO_SERVICE_BINARY') return printBody(stderr, 503, e.message);
  if (!(e instanceof Error) || !('exitCode' in e)) throw e;
  if (e.signal) {
    stderr.write(log);
    return signalExit(e.signal);
  }
  const usage = /^loyalty_service: (.*)\nusage: loyalty_service/m.exec(log);
  if (e.exitCode === EXIT.USAGE && usage) return reportUsageError(stderr, PREFIX, new UsageError(usage[1]), USAGE);
  if (e.exitCode === 0) {
    stderr.write(log);
    return EXIT.OK;
  }
  const reason = e.message.replace(/^loyalty_service: /, '');
  return printBody(stderr, reason.startsWith('fixture ') ? 422 : 503, reason);
}

/**
 * Runs `serve` with the arguments after it; resolves the exit code. `io`: { stdout, stderr }
 * (default: this process's).
 */
export async function runServeCli(argv, io = process) {
  const { stdout, stderr } = io;
  if (argv.includes('--help') || argv.includes('-h')) {
    stdout.write(`${USAGE}\n`);
    return EXIT.OK;
  }
  let options;
  try {
    options = await serveOptions(argv);
  } catch (e) {
    if (e instanceof UsageError) return reportUsageError(stderr, PREFIX, e, USAGE);
    throw e;
  }
  // Until the service listens its log is held back: a start it gives up is reported as one body
  // (or, should it reject a value after all, as serve's usage error), not its log.
  let listening = false;
  let held = '';
  const onStderr = (chunk) => {
    if (listening) stderr.write(chunk);
    else held += chunk;
  };
  // A reader that went away (`serve | head -1`) is not this process's failure.
  stdout.on?.('error', () => {});

  // SIGINT and SIGTERM stop the service (while it starts, too). npx runs this under `sh -c`, and a
  // SIGTERM to npx ends that shell without passing it on: when this process is orphaned that way,
  // it stops the service as if the signal had come here.
  const stopping = new AbortController();
  const stop = (signal) => stopping.abort(signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 250);
  try {
    let service;
    try {
      service = await startLocalService({
        ...options,
        onStderr,
        signal: stopping.signal,
        keepAlive: true,
        startTimeoutMs: Infinity,
      });
    } catch (e) {
      if (!stopping.signal.aborted) return startFailure(e, held, stderr);
      // Stopped before it listened: as a process ended by that signal.
      stderr.write(held);
      return signalExit(stopping.signal.reason);
    }
    listening = true;
    stderr.write(held);
    held = '';
    stdout.write(`${service.url}\n`);
    const { code, signal } = await service.exited;
    return code ?? signalExit(signal);
  } finally {
    clearInterval(orphanWatch);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
