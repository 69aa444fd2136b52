// The kiosk as `npm start` runs it, for the browser tests: kiosk/server/main.mjs on port 0 with a
// temporary database (the store hub's beside it) and a fixed service clock, the service binary from
// the service tests' harness (and the hub's from the hub tests' harness, when given).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

import { hubBinary } from '../../hub/harness.js';
import { ensureWasm, serviceBinary } from '../../service/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Starts the kiosk; resolves { proc, pageUrl, origin, stderr, exited } once it prints its URL. */
export function startKiosk({ db, serviceBin, hubBin, now }) {
  const proc = spawn(process.execPath, ['kiosk/server/main.mjs', '--port', '0', '--db', db,
    '--processing-delay', '1', '--now', now], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_BIN: serviceBin, ...(hubBin ? { LQ_HUB_BIN: hubBin } : {}) },
  });
  const started = { proc, pageUrl: null, origin: null, stderr: '' };
  started.exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  readline.createInterface({ input: proc.stderr }).on('line', (line) => {
    started.stderr += `${line}\n`;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the kiosk printed no URL:\n${started.stderr}`)), 600_000);
    readline.createInterface({ input: proc.stdout }).once('line', (line) => {
      clearTimeout(timer);
      started.pageUrl = line.trim();
      started.origin = new URL(started.pageUrl).origin;
      resolve(started);
    });
    started.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the kiosk exited (${code ?? signal}):\n${started.stderr}`));
    });
  });
}

/** Stops a kiosk started by startKiosk (SIGTERM, SIGKILL after 15 s). */
export async function stopKiosk(kiosk) {
  if (!kiosk || kiosk.proc.exitCode !== null || kiosk.proc.signalCode !== null) return;
  kiosk.proc.kill('SIGTERM');
  const timer = setTimeout(() => kiosk.proc.kill('SIGKILL'), 15_000);
  await kiosk.exited;
  clearTimeout(timer);
}

/** Types a command on the kiosk's stdin and waits (bounded) for the stderr line that confirms it. */
export async function kioskCommand(kiosk, command, confirmation) {
  const from = kiosk.stderr.length;
  kiosk.proc.stdin.write(`${command}\n`);
  const deadline = Date.now() + 60_000;
  while (!confirmation.test(kiosk.stderr.slice(from))) {
    if (Date.now() > deadline) throw new Error(`no confirmation of "${command}":\n${kiosk.stderr.slice(from)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A browser test's kiosk: the wasm module and the service's and the hub's binaries built, and the
 * kiosk started on a database in a temporary folder named after `name`. Resolves { kiosk, db,
 * rows(query), close() }: rows() reads the service's SQLite file (the sqlite3 tool's JSON output),
 * close() stops the kiosk and removes the folder. A kiosk that does not start leaves nothing.
 */
export async function startTestKiosk({ name, now }) {
  ensureWasm();
  const serviceBin = serviceBinary();
  const hubBin = hubBinary();
  const scratch = mkdtempSync(path.join(os.tmpdir(), `lq-${name}-`));
  const db = path.join(scratch, 'demo.db');
  let kiosk;
  try {
    kiosk = await startKiosk({ db, serviceBin, hubBin, now });
  } catch (e) {
    rmSync(scratch, { recursive: true, force: true });
    throw e;
  }
  return {
    kiosk,
    db,
    rows(query) {
      const run = spawnSync('sqlite3', ['-json', db, query], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout.trim() === '' ? [] : JSON.parse(run.stdout);
    },
    async close() {
      await stopKiosk(kiosk);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
