// `npm start`: the kiosk demo. Installs and builds what is missing (system and npm packages, the
// wasm module, the service), starts the local service with the demo fixture on 127.0.0.1, serves kiosk/page/ and web/
// statically at their repository paths (/kiosk/page/, /web/: the page imports the package by
// relative URLs that are also its relative file paths)
// with /api/* proxied to the service (one origin, so no CORS), and prints the page URL as the
// first stdout line. Everything else goes to stderr.
//
//   node kiosk/server/main.mjs [--port 8080] [--host 127.0.0.1] [--db build/demo.db] [--reset]
//                          [--fixture fixtures/demo.json] [--processing-delay 5] [--now RFC3339]
//                          [--verbose] [--smoke]
//
// --smoke starts everything, checks the page, the wasm module and the proxied API once, then
// stops (exit 0 when all is well): the quick start, runnable by CI.
// Type `stop`, `start` or `quit` (then Enter) on stdin to stop or restart the service while the
// page keeps running (to try the offline mode). SIGINT/SIGTERM stop the service, then exit.
//
// This file wires the parts: command_line.mjs, build_step.mjs (what is built first),
// supervisor.mjs (the service and the stdin commands), page_server.mjs (static_files.mjs,
// service_worker.mjs, api_proxy.mjs) and smoke_check.mjs (--smoke).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { buildWhatIsMissing } from './build_step.mjs';
import { parseArgs } from './command_line.mjs';
import { log } from './kiosk_log.mjs';
import { createKioskServer } from './page_server.mjs';
import { root } from './repository_root.mjs';
import { smokeCheck } from './smoke_check.mjs';
import { createSupervisor, listenForCommands } from './supervisor.mjs';

async function main(argv) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  try {
    buildWhatIsMissing();
  } catch (e) {
    log(
      `${e.message}\nkiosk: the build failed (missing system packages? run: bash scripts/ensure-system.sh)`,
    );
    return 1;
  }
  const db = path.resolve(root, options.db);
  mkdirSync(path.dirname(db), { recursive: true });
  if (options.reset) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    log(`reset ${db}`);
  }

  const supervisor = createSupervisor({
    db,
    fixture: path.resolve(root, options.fixture),
    processingDelay: options.processingDelay,
    now: options.now,
    verbose: options.verbose,
  });
  try {
    await supervisor.start();
  } catch (e) {
    log(e.message);
    return 1;
  }

  const server = createKioskServer({ upstream: supervisor.upstream });
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, resolve);
    });
  } catch (e) {
    log(`cannot listen on ${options.host}:${options.port}: ${e.message} (try --port 0 for any free port)`);
    await supervisor.quit();
    return 1;
  }
  const { port } = server.address();
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const pageUrl = `http://${host}:${port}/kiosk/page/${options.now ? `?now=${encodeURIComponent(options.now)}` : ''}`;
  process.stdout.write(`${pageUrl}\n`);
  log(`open ${pageUrl}`);
  log(`demo data: ${db.startsWith(root + path.sep) ? path.relative(root, db) : db} (npm start -- --reset starts over)`);
  log('type "stop" or "start" (then Enter) to stop or restart the service; Ctrl+C quits');

  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  let stopping = false;
  async function shutdown(why) {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping`);
    server.close();
    server.closeAllConnections?.();
    await supervisor.quit();
    done(0);
  }
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // The launcher ends the service should this process exit without a shutdown.

  if (options.smoke) {
    let code = 0;
    try {
      log(`smoke check passed: ${await smokeCheck(`http://${host}:${port}`)}`);
    } catch (e) {
      log(`smoke check failed: ${e.message}`);
      code = 1;
    }
    await shutdown('smoke check done');
    return code;
  }

  const commands = listenForCommands(process.stdin, supervisor, () => shutdown('quit'));
  // Without a terminal (stdin at EOF) the kiosk keeps running until a signal.
  const code = await finished;
  commands.close();
  process.stdin.destroy();
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
