// `loyalty-qualifier serve`: runs the native local service in the foreground, from the platform
// package (or a local build, see service_binary.js). The first stdout line is the base URL; the
// service's log goes to stderr; SIGINT and SIGTERM stop it; the exit code is the service's.
import { spawn } from 'node:child_process';
import process from 'node:process';

import { serviceBinaryPath } from '../service/service_binary.js';
import {
  ServiceOptionError,
  optionsFromCommandLine,
  serviceArguments,
} from '../service/service_options.js';

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

const EXIT_USAGE = 2;

/** The service's arguments for `serve`'s command line; throws ServiceOptionError for a bad one. */
function serveArguments(argv) {
  const { args, fixture } = serviceArguments(optionsFromCommandLine(argv), {
    caller: 'serve',
    text: true,
  });
  if (fixture !== undefined) args.push('--fixture', fixture);
  return args;
}

function printError(code, message) {
  process.stderr.write(`${JSON.stringify({ code, message })}\n`);
}

/** Runs `serve` with the arguments after it; resolves the exit code. */
export async function runServeCli(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let args;
  try {
    args = serveArguments(argv);
  } catch (e) {
    if (!(e instanceof ServiceOptionError)) throw e;
    printError(400, `${e.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  let binary;
  try {
    binary = serviceBinaryPath();
  } catch (e) {
    if (e.code !== 'LQ_NO_SERVICE_BINARY') throw e;
    printError(500, e.message);
    return 1;
  }
  const child = spawn(binary, args, {
    stdio: 'inherit',
    env: { ...process.env, LQ_SERVICE_PARENT_PID: String(process.pid) },
  });
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
    child.once('exit', (code, signal) => {
      finish();
      resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15));
    });
  });
}
