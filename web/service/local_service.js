// startLocalService(): the native local service (loyalty_service) as a child process of a test
// harness, from `loyalty-qualifier/service` (Node only; types: web/service/local_service.d.ts). It
// resolves once the service listens, rejects with the service's own error text when it cannot
// start, and never leaves a process behind: stop() ends it, so does the end of this process
// (an 'exit' hook) and, should this process be killed outright, the service itself (it stops when
// the thread that started it ends: LQ_SERVICE_PARENT_PID, see service/main.cpp).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

import { serviceBinaryPath } from './service_binary.js';

export { ServiceBinaryError, serviceBinaryPath } from './service_binary.js';

const MODES = ['sandbox', 'production'];
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

function serviceArguments(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('startLocalService: options must be an object');
  }
  const { fixture, db = ':memory:', mode, processingDelay, port = 0, host, now } = options;
  const args = [];
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError('startLocalService: port must be an integer from 0 to 65535');
  }
  args.push('--port', String(port));
  if (typeof db !== 'string' || db === '') {
    throw new TypeError('startLocalService: db must be a file path or ":memory:"');
  }
  args.push('--db', db);
  if (mode !== undefined) {
    if (!MODES.includes(mode)) {
      throw new TypeError(`startLocalService: mode must be one of: ${MODES.join(', ')}`);
    }
    args.push('--mode', mode);
  }
  if (processingDelay !== undefined) {
    if (typeof processingDelay !== 'number' || !(processingDelay >= 0) || processingDelay > 1e9) {
      throw new TypeError('startLocalService: processingDelay must be a number of seconds, >= 0');
    }
    args.push('--processing-delay', processingDelay.toFixed(3));
  }
  if (host !== undefined) {
    if (typeof host !== 'string' || host === '') {
      throw new TypeError('startLocalService: host must be a non-empty string');
    }
    args.push('--host', host);
  }
  if (now !== undefined) {
    const text = now instanceof Date ? now.toISOString() : now;
    if (typeof text !== 'string') {
      throw new TypeError('startLocalService: now must be a Date or an RFC 3339 string');
    }
    args.push('--now', text);
  }
  if (
    fixture !== undefined &&
    fixture !== null &&
    typeof fixture !== 'string' &&
    typeof fixture !== 'object'
  ) {
    throw new TypeError('startLocalService: fixture must be a file path or a fixture object');
  }
  return { args, fixture };
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
 * service clock), startTimeoutMs (default 30000). Resolves { url, pid, stop() }.
 */
export async function startLocalService(options = {}) {
  const { args, fixture } = serviceArguments(options);
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const binary = serviceBinaryPath();

  let scratch = null;
  if (typeof fixture === 'string') {
    args.push('--fixture', path.resolve(fixture));
  } else if (fixture !== undefined && fixture !== null) {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'loyalty-qualifier-fixture-'));
    const file = path.join(scratch, 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));
    args.push('--fixture', file);
  }
  const removeScratch = () => {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  };

  let child;
  try {
    child = spawn(binary, args, {
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
  });
  const exited = new Promise((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(service);
      removeScratch();
      resolve({ code, signal });
    });
  });
  const service = {
    endNow() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      removeScratch();
    },
  };
  running.add(service);
  installExitHook();

  let stdout = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const waited = `loyalty_service printed no base URL within ${startTimeoutMs} ms`;
      reject(new Error(`${waited}: ${stderr}`));
    }, startTimeoutMs);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(stdout.slice(0, end));
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${binary}: ${e.message}`));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(startFailure(stderr, code, signal));
    });
  });

  // From here on the service must not keep this process alive: a harness that forgets stop()
  // still exits, and the exit hook ends the service.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();

  let stopping = null;
  return {
    url,
    pid: child.pid,
    /** Stops the service (SIGTERM, then SIGKILL after 10 s); resolves once it has exited. */
    stop() {
      if (stopping === null) {
        stopping = (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            await exited;
            clearTimeout(killer);
          }
          await exited;
        })();
      }
      return stopping;
    },
  };
}
