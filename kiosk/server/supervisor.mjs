// The supervisor: the local service as a child of the kiosk server, started through the package's
// launcher (startLocalService), stopped and restarted on the commands typed on stdin (`stop`,
// `start`, `quit`) while the page keeps running. The service's log goes to stderr, prefixed
// "service: " (its access log only with --verbose).
import process from 'node:process';
import readline from 'node:readline';

import { startLocalService } from '../../web/service/local_service.js';
import { buildService } from './build_step.mjs';
import { log } from './kiosk_log.mjs';

const ACCESS_LOG_LINE = /^\S+ \S+ "[A-Z]+ \S+" \d{3} \d+ /;

/** A stderr sink that writes whole lines through `line`; flush() writes what is left. */
function lineWriter(line) {
  let pending = '';
  return {
    write(chunk) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const each of lines) line(each);
    },
    flush() {
      if (pending !== '') line(pending);
      pending = '';
    },
  };
}

/**
 * Starts the service on 127.0.0.1 (a free port), building it first when stale (or running
 * LQ_SERVICE_BIN as is), and resolves the running service once it prints its base URL
 * (startLocalService's { url, pid, exited, running(), stop() }).
 */
export async function startService({ db, fixture, processingDelay, now, verbose = false }) {
  const binary = buildService();
  const stderr = lineWriter((line) => {
    if (verbose || !ACCESS_LOG_LINE.test(line)) process.stderr.write(`service: ${line}\n`);
  });
  const service = await startLocalService({
    binary,
    port: 0,
    host: '127.0.0.1',
    db,
    fixture: fixture || undefined,
    processingDelay: Number(processingDelay),
    now: now || undefined,
    onStderr: (chunk) => stderr.write(chunk),
  });
  service.exited.then(() => stderr.flush());
  return service;
}

/**
 * The service under supervision: start() (a no-op while it runs), stop(), quit() (a stop after
 * which an exit is expected, not reported) and upstream(), its base URL while it runs, else null.
 */
export function createSupervisor(serviceOptions) {
  let service = null;
  let quitting = false;
  const running = () => service?.running() ?? false;
  async function start() {
    if (running()) return;
    log('starting the service (building it when stale)');
    service = await startService(serviceOptions);
    const started = service;
    log(`service: ${started.url} (pid ${started.pid})`);
    started.exited.then(({ code, signal }) => {
      if (!quitting && service === started)
        log(`the service stopped (${code ?? signal}); type "start" to restart it`);
    });
  }
  async function stop() {
    if (!running()) return;
    const stopped = service;
    await stopped.stop();
    const result = await stopped.exited;
    log(`service stopped (${result.code ?? result.signal})`);
  }
  async function quit() {
    quitting = true;
    await stop();
  }
  return { start, stop, quit, upstream: () => (running() ? service.url : null) };
}

/**
 * The command loop on `input` (stdin): `stop`, `start`, `quit` (or `q`), one per line; anything
 * else lists them. Returns the readline interface (close() ends the loop).
 */
export function listenForCommands(input, supervisor, quit) {
  const commands = readline.createInterface({ input });
  commands.on('line', (line) => {
    const command = line.trim().toLowerCase();
    if (command === 'stop') supervisor.stop().catch((e) => log(e.message));
    else if (command === 'start') supervisor.start().catch((e) => log(e.message));
    else if (command === 'quit' || command === 'q') quit();
    else if (command !== '') log('commands: stop, start, quit');
  });
  return commands;
}
