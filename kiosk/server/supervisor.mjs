// The supervisor: the local service and the store hub as children of the kiosk server, started
// through the package's launcher (startLocalService, startStoreHub), stopped and restarted on the
// commands typed on stdin (`stop`, `start` for the service, `stop hub`, `start hub` for the hub,
// `quit`) while the page keeps running. One process of each at a time: a command runs against the
// state it finds (stopped, starting, running, stopping), so a second `start` says that one is
// starting or running and starts nothing, and `quit` ends a start in progress too. Their logs go
// to stderr, prefixed "service: " and "hub: " (their access logs only with --verbose).
import process from 'node:process';
import readline from 'node:readline';

import { startLocalService, startStoreHub } from 'loyalty-qualifier/service';
import { buildHub, buildService } from './start/build_step.mjs';
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

// Starts `binary` through `launcher` (startLocalService or startStoreHub) on 127.0.0.1, a free
// port, its log on stderr line by line behind `prefix` (access-log lines only when `verbose`).
async function launchLogged(launcher, binary, prefix, { verbose = false, ...options }) {
  const stderr = lineWriter((line) => {
    if (verbose || !ACCESS_LOG_LINE.test(line)) process.stderr.write(`${prefix}: ${line}\n`);
  });
  const started = await launcher({ ...options, binary, port: 0, host: '127.0.0.1', onStderr: (chunk) => stderr.write(chunk) });
  started.exited.then(() => stderr.flush());
  return started;
}

/**
 * Starts the service on 127.0.0.1 (a free port), building it first when stale (or running
 * LQ_SERVICE_BIN as is), and resolves the running service once it prints its base URL
 * (startLocalService's { url, pid, exited, running(), stop() }).
 */
export async function startService({ db, fixture, processingDelay, now, verbose, signal, runtime = 'native' }) {
  const options = { db, fixture: fixture || undefined, processingDelay: Number(processingDelay), now: now || undefined, verbose, signal, runtime };
  return launchLogged(startLocalService, runtime === 'wasm' ? undefined : buildService(), 'service', options);
}

/**
 * Starts the store hub on 127.0.0.1 (a free port) with its SQLite file `db` and the store key,
 * building it first when stale (or running LQ_HUB_BIN as is); resolves the running hub
 * (startStoreHub's { url, pid, exited, running(), stop() }).
 */
export async function startHub({ db, storeKey, verbose, signal, runtime = 'native' }) {
  return launchLogged(startStoreHub, runtime === 'wasm' ? undefined : buildHub(), 'hub', { db, storeKey, verbose, signal, runtime });
}

/**
 * A process under supervision (by default the service; `{ name: 'store hub', launch: startHub }`
 * for the hub): start(), stop(), quit() (ends a start or a stop in progress as well; resolves once
 * none runs, and start() does nothing after it) and upstream(), its base URL while it runs, else
 * null. A stop (or a quit) is SIGTERM, then SIGKILL after 10 s (the launcher), so it ends even
 * with a process that hangs.
 */
export function createSupervisor(launchOptions, { name = 'service', launch: launchProcess = startService } = {}) {
  let state = 'stopped'; // 'starting' | 'running' | 'stopping'
  let service = null;
  let starting = null; // { controller, done } while a start is in progress
  let stopping = null; // settles once the stop in progress is over
  let quitting = false;
  const [startCommand, stopCommand] = name === 'service' ? ['start', 'stop'] : ['start hub', 'stop hub'];

  function launch() {
    const attempt = { controller: new AbortController(), done: null };
    state = 'starting';
    starting = attempt;
    log(`starting the ${name} (building it when stale)`);
    attempt.done = (async () => {
      try {
        const started = await launchProcess({ ...launchOptions, signal: attempt.controller.signal });
        service = started;
        state = 'running';
        // The wasm runtime runs in this process: no pid of its own.
        log(`${name}: ${started.url} (${started.pid === null ? 'in this process' : `pid ${started.pid}`})`);
        started.exited.then(({ code, signal }) => {
          if (service !== started) return;
          service = null;
          if (state === 'running') {
            state = 'stopped';
            if (!quitting) log(`the ${name} stopped (${code ?? signal}); type "${startCommand}" to restart it`);
          }
        });
      } catch (e) {
        state = 'stopped';
        if (!attempt.controller.signal.aborted) throw e;
        log(`the start was cancelled: no ${name} runs`);
      } finally {
        if (starting === attempt) starting = null;
      }
    })();
    return attempt.done;
  }

  async function start() {
    while (state === 'stopping') await stopping;
    if (quitting) return;
    if (state === 'starting') log(`the ${name} is starting already (type "${stopCommand}" to cancel it)`);
    else if (state === 'running') log(`the ${name} is running already: ${service.url}`);
    else await launch();
  }

  async function stop() {
    if (state === 'starting') {
      log('cancelling the start');
      starting.controller.abort();
      await starting.done.catch(() => {});
    } else if (state === 'stopping') {
      if (!quitting) log(`the ${name} is stopping already`);
      await stopping;
    } else if (state === 'stopped') {
      if (!quitting) log(`the ${name} is not running`);
    } else {
      state = 'stopping';
      const stopped = service;
      stopping = (async () => {
        await stopped.stop();
        const result = await stopped.exited;
        if (service === stopped) service = null;
        state = 'stopped';
        log(`${name} stopped (${result.code ?? result.signal})`);
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
 * The command loop on `input` (stdin): `stop`, `start` (the service), `stop hub`, `start hub`
 * (the store hub, when `hub` is given), `quit` (or `q`), one per line; anything else lists them.
 * Returns the readline interface (close() ends the loop).
 */
export function listenForCommands(input, supervisor, quit, hub = null) {
  const commands = readline.createInterface({ input });
  commands.on('line', (line) => {
    const command = line.trim().toLowerCase().replace(/\s+/g, ' ');
    if (command === 'stop') supervisor.stop().catch((e) => log(e.message));
    else if (command === 'start') supervisor.start().catch((e) => log(e.message));
    else if (hub && command === 'stop hub') hub.stop().catch((e) => log(e.message));
    else if (hub && command === 'start hub') hub.start().catch((e) => log(e.message));
    else if (command === 'quit' || command === 'q') quit();
    else if (command !== '') log(`commands: stop, start, ${hub ? 'stop hub, start hub, ' : ''}quit`);
  });
  return commands;
}
