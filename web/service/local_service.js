// startLocalService(): the native local service (loyalty_service) as a child process, from
// `loyalty-qualifier/service` (Node only; types: web/service/local_service.d.ts). The one launcher
// of the service: test harnesses, the kiosk server and `loyalty-qualifier serve` (keepAlive) all
// start it here. It resolves once the service listens, rejects with the service's own error text
// when it cannot start, and never leaves a process behind: stop() ends it, so does the end of
// this process (an 'exit' hook) and, should this process be killed outright, the service itself
// (it stops when the thread that started it ends: LQ_SERVICE_PARENT_PID, which the service watches).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

import { serviceBinaryPath } from './service_binary.js';
import { serviceArguments } from './service_options.js';

export { ServiceBinaryError, serviceBinaryPath } from './service_binary.js';

const STOP_GRACE_MS = 10_000;
const STDERR_KEPT = 64 * 1024;

/** Services started by this process and not yet exited: ended by the 'exit' hook. */
const running = new Set();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const service of running) service.endNow();
  });
}

/** The options that shape the process rather than the service's flags, checked. */
function processOptions(options) {
  const { binary, wrapper, onStderr, signal, keepAlive = false, startTimeoutMs = 30_000 } = options;
  if (binary !== undefined && (typeof binary !== 'string' || binary === '')) {
    throw new TypeError('startLocalService: binary must be the path of a loyalty_service executable');
  }
  if (
    wrapper !== undefined &&
    (!Array.isArray(wrapper) || wrapper.length === 0 || !wrapper.every((arg) => typeof arg === 'string'))
  ) {
    throw new TypeError('startLocalService: wrapper must be a command and its arguments (strings)');
  }
  if (onStderr !== undefined && typeof onStderr !== 'function') {
    throw new TypeError('startLocalService: onStderr must be a function');
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('startLocalService: signal must be an AbortSignal');
  }
  if (typeof keepAlive !== 'boolean') throw new TypeError('startLocalService: keepAlive must be a boolean');
  if (typeof startTimeoutMs !== 'number' || !(startTimeoutMs > 0)) {
    throw new TypeError('startLocalService: startTimeoutMs must be a number of milliseconds above 0 (Infinity: no limit)');
  }
  return { binary, wrapper, onStderr, signal, keepAlive, startTimeoutMs };
}

/** The service's own reason for a failed start: its last "loyalty_service: ..." line. */
function startFailure(stderr, code, signal) {
  const lines = stderr.split('\n').filter((line) => line.startsWith('loyalty_service: '));
  const reason = lines.length > 0 ? lines[lines.length - 1] : stderr.trim();
  const how = signal ? `was ended by ${signal}` : `exited with ${code}`;
  const error = new Error(reason || `loyalty_service ${how} before it listened`);
  error.exitCode = code;
  error.signal = signal;
  error.stderr = stderr;
  return error;
}

/**
 * Starts the local service. options: fixture (a fixture object or a file path), db (a SQLite
 * file, default ':memory:': a throwaway database), mode ('sandbox' | 'production'),
 * processingDelay (seconds), port (default 0: a free one), host (default 127.0.0.1), now (a fixed
 * service clock), maxConnectionsPerPeer, workers, accessLog (a file, '-' or 'off'), startTimeoutMs (default 30000; Infinity: no limit); for
 * harnesses: binary (the loyalty_service to run, default serviceBinaryPath()), args (more
 * loyalty_service arguments, passed as given), wrapper (a command and its arguments that runs the
 * binary, e.g. in a namespace), onStderr (gets the service's stderr as it arrives), signal (an
 * AbortSignal: aborting it stops the service as stop() does, also while it starts, and the start
 * then rejects with the signal's reason), keepAlive (true: the running service keeps this process
 * alive until it exits, as a foreground command wants; default false).
 * Resolves { url, pid, exited, running(), kill(), stop() }.
 */
export async function startLocalService(options = {}) {
  const { args, fixture } = serviceArguments(options, { extra: options?.args ?? [] });
  const { binary: given, wrapper, onStderr, signal, keepAlive, startTimeoutMs } = processOptions(options);
  const binary = given ?? serviceBinaryPath();
  signal?.throwIfAborted();

  let scratch = null;
  // A path goes as given (the service runs in this process's directory), so that the service's
  // messages name it as the caller did.
  if (typeof fixture === 'string') {
    args.push('--fixture', fixture);
  } else if (fixture !== undefined) {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'loyalty-qualifier-fixture-'));
    const file = path.join(scratch, 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));
    args.push('--fixture', file);
  }
  const removeScratch = () => {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  };

  const [command, commandArgs] = wrapper
    ? [wrapper[0], [...wrapper.slice(1), binary, ...args]]
    : [binary, args];
  let child;
  try {
    child = spawn(command, commandArgs, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LQ_SERVICE_PARENT_PID: String(process.pid) },
    });
  } catch (e) {
    removeScratch();
    throw e;
  }

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
    onStderr?.(chunk);
  });
  const exited = new Promise((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(service);
      removeScratch();
      resolve({ code, signal });
    });
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const service = {
    endNow() {
      if (isRunning()) child.kill('SIGTERM');
      removeScratch();
    },
  };
  running.add(service);
  installExitHook();

  // A signal sent holds this process until the service has exited, so that `exited` settles (the
  // child is unref'd once it listens, below, unless keepAlive).
  const kill = (signal = 'SIGTERM') => {
    if (!isRunning()) return false;
    child.ref();
    child.stdout.ref?.();
    child.stderr.ref?.();
    return child.kill(signal);
  };
  // SIGTERM, then SIGKILL after STOP_GRACE_MS: a service that does not stop (it takes SIGTERM only
  // once it listens, or it hangs) is still ended in bounded time.
  let stopping = null;
  const stop = () => {
    if (stopping === null) {
      stopping = (async () => {
        if (isRunning()) {
          kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(killer);
        }
        await exited;
      })();
    }
    return stopping;
  };
  const onAbort = () => stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  exited.then(() => signal?.removeEventListener('abort', onAbort));

  let stdout = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    const timer = Number.isFinite(startTimeoutMs)
      ? setTimeout(() => {
          child.kill('SIGKILL');
          const waited = `loyalty_service printed no base URL within ${startTimeoutMs} ms`;
          reject(new Error(`${waited}: ${stderr}`));
        }, startTimeoutMs)
      : undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      // Aborted: the service is stopping, and its exit rejects the start.
      if (end >= 0 && !signal?.aborted) {
        clearTimeout(timer);
        resolve(stdout.slice(0, end));
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${e.message}`));
    });
    exited.then(({ code, signal: ended }) => {
      clearTimeout(timer);
      reject(signal?.aborted ? signal.reason : startFailure(stderr, code, ended));
    });
  });

  // From here on the service must not keep this process alive: a harness that forgets stop()
  // still exits, and the exit hook ends the service. A signal sent through kill() or stop()
  // holds this process until the service has exited, so that `exited` settles. A foreground
  // command (keepAlive) runs as long as its service does.
  if (!keepAlive) {
    child.unref();
    child.stdout.unref?.();
    child.stderr.unref?.();
  }

  return {
    url,
    pid: child.pid,
    /** Settles with { code, signal } once the service has exited (its stderr all delivered). */
    exited,
    /** True until the service has exited. */
    running: isRunning,
    /** Sends the service a signal (default SIGTERM); false when it has exited already. */
    kill,
    /** Stops the service (SIGTERM, then SIGKILL after 10 s); resolves once it has exited. */
    stop,
  };
}
