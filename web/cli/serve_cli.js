// `loyalty-qualifier serve`: runs the native local service in the foreground, from the platform
// package (or a local build, see service_binary.js). The first stdout line is the base URL; the
// service's log goes to stderr; SIGINT and SIGTERM stop it. Exit codes as every command's
// (command_line.js EXIT): 2 and plain text for a bad command line or an unreadable fixture file,
// with serve's own usage (every value is checked here, so the service's usage never shows); 1 and
// the {"code","message"} body when there is no service binary (503) or the service refuses to
// start (422 for its fixture, 503 otherwise); else the service's own exit code.
import { spawn } from 'node:child_process';
import process from 'node:process';

import { serviceBinaryPath } from '../service/service_binary.js';
import { SERVICE_OPTIONS, serviceArguments } from '../service/service_options.js';
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
  ...SERVICE_OPTIONS.map((option) => [option.flag.slice(2), { type: 'string' }]),
]);

/** The service's arguments for serve's command line; throws UsageError for a bad one. */
async function serveArguments(argv) {
  const { values, positionals } = parseCommandLine(argv, COMMAND_LINE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const options = {};
  for (const option of SERVICE_OPTIONS) options[option.key] = values[option.flag.slice(2)];
  let service;
  try {
    service = serviceArguments(options, { text: true });
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(e.message);
    throw e;
  }
  if (service.fixture !== undefined) {
    await readInputFile(service.fixture, 'fixture'); // a missing file is a usage error, as for qualify
    service.args.push('--fixture', service.fixture);
  }
  return service.args;
}

function printBody(stderr, code, message) {
  stderr.write(`${JSON.stringify({ code, message })}\n`);
  return EXIT.REFUSED;
}

/** The service's reason for a start it gave up: its last "loyalty_service: ..." line. */
function startFailure(log) {
  const lines = log.split('\n').filter((line) => line.startsWith('loyalty_service: '));
  const reason = lines.length > 0 ? lines[lines.length - 1].slice('loyalty_service: '.length) : log.trim();
  return { code: reason.startsWith('fixture ') ? 422 : 503, message: reason || 'the local service did not start' };
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
  let args;
  try {
    args = await serveArguments(argv);
  } catch (e) {
    if (e instanceof UsageError) return reportUsageError(stderr, PREFIX, e, USAGE);
    throw e;
  }
  let binary;
  try {
    binary = serviceBinaryPath();
  } catch (e) {
    if (e.code !== 'LQ_NO_SERVICE_BINARY') throw e;
    return printBody(stderr, 503, e.message);
  }
  const child = spawn(binary, args, {
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_PARENT_PID: String(process.pid) },
  });
  // Until the service prints its base URL its log is held back: a start it gives up is reported
  // as one body (or, should it reject a value after all, as serve's usage error), not its log.
  let listening = false;
  let held = '';
  child.stdout.on('data', (chunk) => {
    stdout.write(chunk);
    if (!listening && chunk.includes('\n')) {
      listening = true;
      stderr.write(held);
      held = '';
    }
  });
  child.stderr.on('data', (chunk) => {
    if (listening) stderr.write(chunk);
    else held += chunk;
  });
  // A reader that went away (`serve | head -1`) is not this process's failure.
  stdout.on?.('error', () => {});

  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  // npx runs this under `sh -c`, and a SIGTERM to npx ends that shell without passing it on: when
  // this process is orphaned that way, it stops the service as if the signal had come here.
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent) forward('SIGTERM');
  }, 250);
  const finish = () => {
    clearInterval(orphanWatch);
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  };
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      finish();
      reject(new Error(`cannot run ${binary}: ${e.message}`));
    });
    child.once('close', (code, signal) => {
      finish();
      if (!listening && signal === null) {
        const usage = /^loyalty_service: (.*)\nusage: loyalty_service/m.exec(held);
        if (code === EXIT.USAGE && usage) return resolve(reportUsageError(stderr, PREFIX, new UsageError(usage[1]), USAGE));
        if (code !== 0) {
          const { code: status, message } = startFailure(held);
          return resolve(printBody(stderr, status, message));
        }
      }
      stderr.write(held);
      resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15));
    });
  });
}
