// The supervisor: the local service as a child of the kiosk server, started through the package's
// launcher (startLocalService), stopped and restarted on the commands typed on stdin (`stop`,
// `start`, `quit`) while the page keeps running. One service at a time: a command runs against the
// state it finds (stopped, starting, running, stopping), so a second `start` says that one is
// starting or running and starts nothing, and `quit` ends a start in progress too. The service's
// log goes to stderr, prefixed "service: " (its access log only with --verbose).
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
export async function startService({ db, fixture, processingDelay, now, verbose = false, signal }) {
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
    signal,
  });
  service.exited.then(() => stderr.flush());
  return service;
}

/**
 * The service under supervision: start(), stop(), quit() (ends a start or a stop in progress as
 * well; resolves once no service runs, and start() does nothing after it) and upstream(), the
 * service's base URL while it runs, else null. A stop (or a quit) is SIGTERM, then SIGKILL after
 * 10 s (startLocalService), so it ends even with a service that hangs.
 */
export function createSupervisor(serviceOptions) {
  let state = 'stopped'; // 'starting' | 'running' | 'stopping'
  let service = null;
  let starting = null; // { controller, done } while a start is in progress
  let stopping = null; // settles once the stop in progress is over
  let quitting = false;

  function launch() {
    const attempt = { controller: new AbortController(), done: null };
    state = 'starting';
    starting = attempt;
    log('starting the service (building it when stale)');
    attempt.done = (async () => {
      try {
        const started = await startService({ ...serviceOptions, signal: attempt.controller.signal });
        service = started;
        state = 'running';
        log(`service: ${started.url} (pid ${started.pid})`);
        started.exited.then(({ code, signal }) => {
          if (service !== started) return;
          service = null;
          if (state === 'running') {
            state = 'stopped';
            if (!quitting) log(`the service stopped (${code ?? signal}); type "start" to restart it`);
          }
        });
      } catch (e) {
        state = 'stopped';
        if (!attempt.controller.signal.aborted) throw e;
        log('the start was cancelled: no service runs');
      } finally {
        if (starting === attempt) starting = null;
      }
    })();
    return attempt.done;
  }

  async function start() {
    while (state === 'stopping') await stopping;
    if (quitting) return;
    if (state === 'starting') log('the service is starting already (type "stop" to cancel it)');
    else if (state === 'running') log(`the service is running already: ${service.url}`);
    else await launch();
  }

  async function stop() {
    if (state === 'starting') {
      log('cancelling the start');
      starting.controller.abort();
      await starting.done.catch(() => {});
    } else if (state === 'stopping') {
      if (!quitting) log('the service is stopping already');
      await stopping;
    } else if (state === 'stopped') {
      if (!quitting) log('the service is not running');
    } else {
      state = 'stopping';
      const stopped = service;
      stopping = (async () => {
        await stopped.stop();
        const result = await stopped.exited;
        if (service === stopped) service = null;
        state = 'stopped';
        log(`service stopped (${result.code ?? result.signal})`);
      })();
      await stopping;
    }
  }

  async function quit() {
    quitting = true;
    while (state !== 'stopped') await stop();
  }

  const upstream = () => (state === 'running' && service.running() ? service.url : null);
  return { start, stop, quit, upstream, state: () => state };
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
