// `npm start`: the kiosk demo. Installs and builds what is missing (system and npm packages, the
// wasm module, the service, the store hub), starts the store hub (its SQLite file beside the demo
// database: build/demo-hub.db) and the local service with the demo fixture on 127.0.0.1, serves
// kiosk/page/ and web/ statically at their repository paths (/kiosk/page/, /web/: the page imports
// the package by relative URLs that are also its relative file paths) with /api/* proxied to the
// service and /hub/* to the hub, the store key added by the proxy (one origin, so no CORS, and the
// page never holds the key), and prints the page URL as the first stdout line. Everything else
// goes to stderr. The store key is LQ_STORE_KEY from the environment, else a random one per start.
//
//   node kiosk/server/main.mjs [--port 8080] [--host 127.0.0.1] [--expose-on-network]
//                          [--allow-host NAME]... [--allow-origin ORIGIN]...
//                          [--db build/demo.db] [--hub-db FILE] [--reset]
//                          [--fixture fixtures/demo.json] [--processing-delay 5] [--now RFC3339]
//                          [--verbose] [--smoke]
//
// --smoke starts everything, checks the page, the wasm module, the proxied API and the proxied
// hub once, then stops (exit 0 when all is well): the quick start, runnable by CI.
// Type `stop`, `start`, `stop hub`, `start hub` or `quit` (then Enter) on stdin to stop or restart
// the service or the hub while the page keeps running (to try the offline mode). SIGINT/SIGTERM
// stop both, then exit.
// A --host that is not a loopback address needs --expose-on-network (else exit 2), and then a
// warning says that the demo credentials are served to the network.
//
// This file wires the parts: command_line.mjs, build_step.mjs and page_bundle.mjs (what is built first),
// supervisor.mjs (the service, the hub and the stdin commands), page_server.mjs (host_allowlist.mjs,
// peer_limits.mjs, static_files.mjs, service_worker.mjs, api_proxy.mjs) and smoke_check.mjs
// (--smoke).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { checkStoreKey } from 'loyalty-qualifier/service';

import { isLoopback, isWildcard, reachableAddresses } from './network/bind_address.mjs';
import { buildWhatIsMissing } from './start/build_step.mjs';
import { USAGE, UsageError, parseArgs } from './start/command_line.mjs';
import { log } from './kiosk_log.mjs';
import { pageBundle } from './page_bundle.mjs';
import { createKioskServer } from './page_server.mjs';
import { root } from './repository_root.mjs';
import { smokeCheck } from './start/smoke_check.mjs';
import { createSupervisor, listenForCommands, startHub } from './supervisor.mjs';

// A quit ends the service and the hub in at most 10 s (SIGTERM, then SIGKILL); past this, the kiosk server
// exits anyway, so that `quit` and Ctrl+C always end it.
const QUIT_DEADLINE_MS = 20_000;

/** A URL part for an address: an IPv6 literal in brackets. */
function urlHost(address) {
  return address.includes(':') ? `[${address}]` : address;
}

async function main(argv) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`kiosk: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // The store key: LQ_STORE_KEY (at least 128 bits, checked before anything is built or started),
  // else 192 random bits per start.
  let storeKey;
  try {
    storeKey = process.env.LQ_STORE_KEY ? checkStoreKey(process.env.LQ_STORE_KEY, 'LQ_STORE_KEY') : randomBytes(24).toString('base64url');
  } catch (e) {
    process.stderr.write(`kiosk: ${e.message}\n`);
    return 2;
  }
  const bundle = pageBundle();
  try {
    buildWhatIsMissing({ emulator: options.runtime === 'wasm' });
    await bundle.fresh();
  } catch (e) {
    log(
      `${e.message}\nkiosk: the build failed (missing system packages? run: bash scripts/install/ensure-system.sh)`,
    );
    return 1;
  }
  // ':memory:' is the throwaway database of the service and the hub, never a file of that name.
  const inRoot = (file) => (file === ':memory:' ? file : path.resolve(root, file));
  const db = inRoot(options.db);
  const hubDb = inRoot(options.hubDb);
  for (const file of [db, hubDb]) {
    if (file === ':memory:') continue;
    mkdirSync(path.dirname(file), { recursive: true });
    if (options.reset) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      log(`reset ${file}`);
    }
  }

  const supervisor = createSupervisor({
    db,
    fixture: path.resolve(root, options.fixture),
    processingDelay: options.processingDelay,
    now: options.now,
    verbose: options.verbose,
    runtime: options.runtime,
  });
  const hub = createSupervisor({ db: hubDb, storeKey, verbose: options.verbose, runtime: options.runtime }, { name: 'store hub', launch: startHub });
  const server = createKioskServer({
    upstream: supervisor.upstream,
    hub: { upstream: hub.upstream, storeKey },
    allowedHosts: options.allowHosts,
    allowedOrigins: options.allowOrigins,
    pageBundle: bundle,
  });

  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  let stopping = false;
  async function shutdown(why, code = 0) {
    if (stopping) {
      log(`${why}: stopping already (at most ${QUIT_DEADLINE_MS / 1000} s)`);
      return;
    }
    stopping = true;
    log(`${why}: stopping`);
    setTimeout(() => {
      log(`the service or the hub did not stop within ${QUIT_DEADLINE_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, QUIT_DEADLINE_MS).unref();
    if (server.listening) {
      server.close();
      server.closeAllConnections?.();
    }
    await Promise.all([supervisor.quit(), hub.quit()]);
    done(code);
  }
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Commands are taken from the first start on: `quit` ends a start that hangs.
  // Without a terminal (stdin at EOF) the kiosk keeps running until a signal.
  const commands = options.smoke ? null : listenForCommands(process.stdin, supervisor, () => shutdown('quit'), hub);
  const end = async (code) => {
    commands?.close();
    process.stdin.destroy();
    return code;
  };

  // The hub first: a kiosk without it promises nothing offline (the page says it is unreachable),
  // so its failure is told, not fatal; `start hub` tries again.
  try {
    await hub.start();
  } catch (e) {
    log(`${e.message}\nkiosk: the store hub did not start: the page shows it as unreachable (type "start hub" to try again)`);
  }
  if (stopping) return end(await finished);
  try {
    await supervisor.start();
  } catch (e) {
    log(e.message);
    await shutdown('the service did not start', 1);
  }
  if (stopping) return end(await finished);

  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, resolve);
    });
  } catch (e) {
    log(`cannot listen on ${options.host}:${options.port}: ${e.message} (try --port 0 for any free port)`);
    await shutdown('no page server', 1);
    return end(await finished);
  }
  if (stopping) return end(await finished);
  const { port } = server.address();
  // Bound to every address: the printed URL is this machine's own.
  const local = isWildcard(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host;
  const origin = `http://${urlHost(local)}:${port}`;
  const pageUrl = `${origin}/kiosk/page/${options.now ? `?now=${encodeURIComponent(options.now)}` : ''}`;
  process.stdout.write(`${pageUrl}\n`);
  log(`open ${pageUrl}`);
  if (!isLoopback(options.host)) {
    const addresses = reachableAddresses(options.host).filter((address) => !isLoopback(address) && !isWildcard(address));
    log(
      `WARNING: --expose-on-network: the page is served to the network (${addresses.map((a) => `http://${urlHost(a)}:${port}/`).join(', ') || options.host}), ` +
        "and with it the demo guests' tokens and merchant keys (config.json); anyone who can reach it can bill through /api",
    );
  }
  const shown = (file) =>
    file === ':memory:' ? 'in memory (:memory:, gone when it stops)' : file.startsWith(root + path.sep) ? path.relative(root, file) : file;
  const files = [db, hubDb].some((file) => file !== ':memory:');
  log(`demo data: ${shown(db)}, store hub: ${shown(hubDb)}${files ? ' (npm start -- --reset starts over)' : ''}`);
  log(`store key: ${process.env.LQ_STORE_KEY ? 'LQ_STORE_KEY' : 'a random one for this run (set LQ_STORE_KEY to choose it)'}; the kiosk server adds it to /hub requests`);
  log('type "stop" or "start" (then Enter) to stop or restart the service, "stop hub" or "start hub" for the store hub; "quit" or Ctrl+C quits');
  // The launcher ends the service should this process exit without a shutdown.

  if (options.smoke) {
    let code = 0;
    try {
      log(`smoke check passed: ${await smokeCheck(origin)}`);
    } catch (e) {
      log(`smoke check failed: ${e.message}`);
      code = 1;
    }
    await shutdown('smoke check done', code);
  }
  return end(await finished);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
