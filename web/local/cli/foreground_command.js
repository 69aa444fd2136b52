// A native program run in the foreground by a command (`serve`, `hub`) through the one launcher:
// the first stdout line is its base URL; its log goes to stderr; SIGINT and SIGTERM stop it, and
// so does the end of the process that started the command. Exit codes as every command's
// (command_line.js EXIT): 2 and the command's usage for a usage error of the program (every value
// the command can check is checked before, so the program's usage never shows); 1 and the
// {"code","message"} body when there is no binary (503) or the program refuses to start (422 for
// a fixture, 503 otherwise); else the program's own exit code, or 128 + the signal that ended it.
import { constants } from 'node:os';
import process from 'node:process';

import { EXIT, UsageError, reportUsageError } from './command_line.js';

function printBody(stderr, code, message) {
  stderr.write(`${JSON.stringify({ code, message })}\n`);
  return EXIT.REFUSED;
}

/** The exit code of a process ended by `signal`, as a shell reports it. */
const signalExit = (signal) => 128 + (constants.signals[signal] ?? constants.signals.SIGTERM);

/**
 * The outcome of a start that failed (the launcher's rejection `e`), given the program's log up
 * to then: the command's usage error, or the body (422 for the fixture, 503 else).
 */
function startFailure(e, log, stderr, { program, prefix, usage }) {
  if (e?.code === 'LQ_NO_SERVICE_BINARY') return printBody(stderr, 503, e.message);
  if (!(e instanceof Error) || !('exitCode' in e)) throw e;
  if (e.signal) {
    stderr.write(log);
    return signalExit(e.signal);
  }
  const usageLine = new RegExp(`^${program}: (.*)\\nusage: ${program}`, 'm').exec(log);
  if (e.exitCode === EXIT.USAGE && usageLine) {
    return reportUsageError(stderr, prefix, new UsageError(usageLine[1]), usage);
  }
  if (e.exitCode === 0) {
    stderr.write(log);
    return EXIT.OK;
  }
  const reason = e.message.replace(new RegExp(`^${program}: `), '');
  return printBody(stderr, reason.startsWith('fixture ') ? 422 : 503, reason);
}

/**
 * Runs a program in the foreground until it exits; resolves the exit code. `start(extra)`: the
 * launcher's start with `extra` ({ onStderr, signal, keepAlive, startTimeoutMs }) added to the
 * command's options. `program`: its name in its messages; `prefix` and `usage`: the command's.
 */
export async function runInForeground({ start, program, prefix, usage }, io = process) {
  const { stdout, stderr } = io;
  // Until the program listens its log is held back: a start it gives up is reported as one body
  // (or, should it reject a value after all, as the command's usage error), not its log.
  let listening = false;
  let held = '';
  const onStderr = (chunk) => {
    if (listening) stderr.write(chunk);
    else held += chunk;
  };
  // A reader that went away (`serve | head -1`) is not this process's failure.
  stdout.on?.('error', () => {});

  // SIGINT and SIGTERM stop the program (while it starts, too). npx runs this under `sh -c`, and
  // a SIGTERM to npx ends that shell without passing it on: when this process is orphaned that
  // way, it stops the program as if the signal had come here.
  const stopping = new AbortController();
  const stop = (signal) => stopping.abort(signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 250);
  try {
    let running;
    try {
      running = await start({ onStderr, signal: stopping.signal, keepAlive: true, startTimeoutMs: Infinity });
    } catch (e) {
      if (!stopping.signal.aborted) return startFailure(e, held, stderr, { program, prefix, usage });
      // Stopped before it listened: as a process ended by that signal.
      stderr.write(held);
      return signalExit(stopping.signal.reason);
    }
    listening = true;
    stderr.write(held);
    held = '';
    stdout.write(`${running.url}\n`);
    const { code, signal } = await running.exited;
    return code ?? signalExit(signal);
  } finally {
    clearInterval(orphanWatch);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/**
 * A foreground command (`serve`, `hub`) from the arguments after its name; resolves the exit code.
 * `--help` prints `usage`; `optionsOf(argv)` (sync or async) reads the command line and throws
 * UsageError for a bad one (exit 2 with the usage); then `launch(options)` (the launcher, given
 * the command's options and runInForeground's own) runs until the program exits.
 */
export async function runForegroundCommand(argv, { optionsOf, launch, program, prefix, usage }, io = process) {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${usage}\n`);
    return EXIT.OK;
  }
  let options;
  try {
    options = await optionsOf(argv);
  } catch (e) {
    if (e instanceof UsageError) return reportUsageError(io.stderr, prefix, e, usage);
    throw e;
  }
  return runInForeground({ start: (extra) => launch({ ...options, ...extra }), program, prefix, usage }, io);
}
