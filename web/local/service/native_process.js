// The one launcher of the package's native programs (loyalty_service, loyalty_hub) as child
// processes: startLocalService() and startStoreHub() both start theirs here. It resolves once the
// program prints its base URL (its first stdout line), rejects with the program's own error text
// when it cannot start, and never leaves a process behind: stop() ends it, so does the end of
// this process (an 'exit' hook) and, should this process be killed outright, the program itself
// (it stops when the thread that started it ends: LQ_SERVICE_PARENT_PID, which it watches).
import { spawn } from 'node:child_process';
import process from 'node:process';

const STOP_GRACE_MS = 10_000;
const STDERR_KEPT = 64 * 1024;

/** Programs started by this process and not yet exited: ended by the 'exit' hook. */
const running = new Set();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.endNow();
  });
}

/** The options that shape the process rather than the program's flags, checked (`caller` names the function). */
export function processOptions(options, caller) {
  const { binary, wrapper, onStderr, signal, keepAlive = false, startTimeoutMs = 30_000 } = options;
  if (binary !== undefined && (typeof binary !== 'string' || binary === '')) {
    throw new TypeError(`${caller}: binary must be the path of an executable`);
  }
  if (
    wrapper !== undefined &&
    (!Array.isArray(wrapper) || wrapper.length === 0 || !wrapper.every((arg) => typeof arg === 'string'))
  ) {
    throw new TypeError(`${caller}: wrapper must be a command and its arguments (strings)`);
  }
  if (onStderr !== undefined && typeof onStderr !== 'function') {
    throw new TypeError(`${caller}: onStderr must be a function`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`${caller}: signal must be an AbortSignal`);
  }
  if (typeof keepAlive !== 'boolean') throw new TypeError(`${caller}: keepAlive must be a boolean`);
  if (typeof startTimeoutMs !== 'number' || !(startTimeoutMs > 0)) {
    throw new TypeError(`${caller}: startTimeoutMs must be a number of milliseconds above 0 (Infinity: no limit)`);
  }
  return { binary, wrapper, onStderr, signal, keepAlive, startTimeoutMs };
}

/** The program's own reason for a failed start: its last "<program>: ..." line. */
function startFailure(program, stderr, code, signal) {
  const lines = stderr.split('\n').filter((line) => line.startsWith(`${program}: `));
  const reason = lines.length > 0 ? lines[lines.length - 1] : stderr.trim();
  const how = signal ? `was ended by ${signal}` : `exited with ${code}`;
  const error = new Error(reason || `${program} ${how} before it listened`);
  error.exitCode = code;
  error.signal = signal;
  error.stderr = stderr;
  return error;
}

/**
 * Starts `program` (its name, as it prefixes its messages) from `binary` with `args`, `env` added
 * to this process's environment, and the process options of processOptions(); `cleanup` runs once
 * the program has exited (or could not be spawned). Resolves { url, pid, exited, running(),
 * kill(), stop() }.
 */
export async function startNativeProcess({ program, binary, args, env = {}, cleanup = () => {}, options }) {
  const { wrapper, onStderr, signal, keepAlive, startTimeoutMs } = options;
  const [command, commandArgs] = wrapper
    ? [wrapper[0], [...wrapper.slice(1), binary, ...args]]
    : [binary, args];
  let child;
  try {
    child = spawn(command, commandArgs, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, LQ_SERVICE_PARENT_PID: String(process.pid) },
    });
  } catch (e) {
    cleanup();
    throw e;
  }

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
    onStderr?.(chunk);
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const handle = {
    endNow() {
      if (isRunning()) child.kill('SIGTERM');
      cleanup();
    },
  };
  const exited = new Promise((resolve) => {
    child.once('close', (code, ended) => {
      running.delete(handle);
      cleanup();
      resolve({ code, signal: ended });
    });
  });
  running.add(handle);
  installExitHook();

  // A signal sent holds this process until the program has exited, so that `exited` settles (the
  // child is unref'd once it listens, below, unless keepAlive).
  const kill = (sent = 'SIGTERM') => {
    if (!isRunning()) return false;
    child.ref();
    child.stdout.ref?.();
    child.stderr.ref?.();
    return child.kill(sent);
  };
  // SIGTERM, then SIGKILL after STOP_GRACE_MS: a program that does not stop (it takes SIGTERM
  // only once it listens, or it hangs) is still ended in bounded time.
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
          const waited = `${program} printed no base URL within ${startTimeoutMs} ms`;
          reject(new Error(`${waited}: ${stderr}`));
        }, startTimeoutMs)
      : undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      // Aborted: the program is stopping, and its exit rejects the start.
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
      reject(signal?.aborted ? signal.reason : startFailure(program, stderr, code, ended));
    });
  });

  // From here on the program must not keep this process alive: a harness that forgets stop()
  // still exits, and the exit hook ends the program. A foreground command (keepAlive) runs as
  // long as its program does.
  if (!keepAlive) {
    child.unref();
    child.stdout.unref?.();
    child.stderr.unref?.();
  }

  return {
    url,
    pid: child.pid,
    /** Settles with { code, signal } once the program has exited (its stderr all delivered). */
    exited,
    /** True until the program has exited. */
    running: isRunning,
    /** Sends the program a signal (default SIGTERM); false when it has exited already. */
    kill,
    /** Stops the program (SIGTERM, then SIGKILL after 10 s); resolves once it has exited. */
    stop,
  };
}
