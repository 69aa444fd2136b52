// Runs the real service for the tests: builds it when missing, starts it on 127.0.0.1 with a
// temporary SQLite file, talks to it over real HTTP and always stops what it started.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startLocalService } from '../../web/local/service/local_service.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The package's default stores (the order outbox, its billing records, snapshots) live under the
// user's XDG folders: each test process gets folders of its own, so that no test reads what
// another left there (a billed reward held) and none writes into the developer's.
const stateHome = mkdtempSync(path.join(os.tmpdir(), 'lq-test-home-'));
process.env.XDG_STATE_HOME = path.join(stateHome, 'state');
process.env.XDG_CACHE_HOME = path.join(stateHome, 'cache');
process.on('exit', () => rmSync(stateHome, { recursive: true, force: true }));
export const fixturePath = path.join(root, 'fixtures/demo.json');
export const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
export const MEDIA_TYPE = 'application/vnd.service-v1+json';
/// The service clock of servers started with `now: true` (and the JS clock of parity checks).
export const FIXED_NOW = '2026-11-24T13:15:00Z';

/** A demo guest's basket at harbor-downtown at FIXED_NOW: a latte and two croissants, $19.00. */
export const HARBOR_BASKET = Object.freeze({
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  location_uid: 'harbor-downtown',
  subtotal: '19.00',
  items: [
    { id: 'latte', price: '5.25', categories: ['coffee'] },
    { id: 'croissant', price: '3.25', categories: ['pastry'], quantity: 2 },
  ],
});

const binary = process.env.LQ_SERVICE_BIN ?? path.join(root, 'build/native/service/loyalty_service');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2], timeout: 900_000 });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

// The newest modification time of the sources the binary is built from (include/, src/, front/
// and service/ with their subfolders).
function newestSource() {
  let newest = statSync(path.join(root, 'CMakeLists.txt')).mtimeMs;
  for (const dir of ['include', 'src', 'front', 'service']) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(cpp|hpp)$|^CMakeLists\.txt$/.test(entry.name)) {
        newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

const isFresh = () => existsSync(binary) && statSync(binary).mtimeMs >= newestSource();

// Test files may run in parallel: one build at a time, under a lock directory.
function withBuildLock(fn) {
  const lock = path.join(root, 'build/.loyalty_service.build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 900_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 900_000) {
        rmSync(lock, { recursive: true, force: true });  // left by a killed run
      } else if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the build lock ${lock}`);
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The service binary, (re)built into build/native first when missing or older than its sources. */
export function serviceBinary() {
  if (process.env.LQ_SERVICE_BIN || isFresh()) return binary;
  withBuildLock(() => {
    if (isFresh()) return;
    // A tree configured before service/ existed has no loyalty_service target yet.
    if (!existsSync(path.join(root, 'build/native/service/CMakeFiles'))) {
      run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
    }
    run('cmake', ['--build', 'build/native', '--target', 'loyalty_service', '-j2']);
  });
  return binary;
}

/** The JS package's wasm module, built into web/dist when missing. */
export function ensureWasm() {
  if (!existsSync(path.join(root, 'web/dist/loyalty_qualifier.wasm'))) {
    run(process.execPath, ['scripts/build.mjs', '--only', 'wasm']);
  }
}

/** A scratch directory removed by the returned cleanup function. */
export function scratchDir(prefix = 'lq-service-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * One test file's services, in a scratch folder of its own: the service is built before the file's
 * tests (before()), and after them (after()) every one still running is killed and the folder
 * removed. start(options) starts one with `defaults(scratch, started)` under `options` (started:
 * how many this file has started); `running` holds those not stopped yet (a test that stops one
 * deletes it); fixtureFile(name, mutate) writes the demo fixture as `mutate` changes it.
 */
export function useServices({ prefix, defaults = () => ({}) } = {}) {
  const scratch = scratchDir(prefix);
  const running = new Set();
  let started = 0;
  before(() => serviceBinary(), { timeout: 900_000 });
  after(async () => {
    for (const service of running) await service.crash();
    scratch.cleanup();
  });
  async function start(options) {
    const service = await startService({ ...defaults(scratch, started++), ...options });
    running.add(service);
    return service;
  }
  function fixtureFile(name, mutate) {
    const copy = structuredClone(fixture);
    mutate(copy);
    const file = path.join(scratch.dir, name);
    writeFileSync(file, JSON.stringify(copy));
    return file;
  }
  return { scratch, running, start, fixtureFile };
}

/** Credentials of a fixture user: its token and its merchant's key. */
export function credentialsOf(userId) {
  const user = fixture.users.find((u) => u.id === userId);
  const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
  return { token: user.access_token, key: merchant.merchant_key, user, merchant };
}

/**
 * Starts the service through the package's launcher (startLocalService) and resolves once its
 * first stdout line (the base URL) is read and its start-up report is on stderr.
 * options: db (required), fixture (default the demo fixture; null for none), delay (seconds),
 * now (true = FIXED_NOW, or an RFC 3339 string), mode, port (default 0: any free one; a restart
 * can reuse the port of a stopped service), corsOrigin (startLocalService's), args (extra
 * arguments), launcher (a command and its arguments that runs the service binary with its
 * arguments), runtime ('native', or 'wasm': the emulator over node:http, its state in memory,
 * `db` unused; default LQ_SERVICE_RUNTIME, else native: the conformance step of npm test runs
 * suites of this folder on both).
 */
export async function startService(options) {
  const runtime = options.runtime ?? process.env.LQ_SERVICE_RUNTIME ?? 'native';
  const harness = {
    url: null,
    stderr: '',
    exited: null,
    /** True until the service has exited. */
    running: () => launched.running(),
    /** Stops with SIGTERM and resolves with the exit { code, signal }. */
    async stop() {
      launched.kill('SIGTERM');
      return withTimeout(launched.exited, 10_000, 'the service did not stop on SIGTERM');
    },
    /** kill -9: no chance to flush or clean up. */
    async crash() {
      launched.kill('SIGKILL');
      return launched.exited;
    },
    accessLogLines() {
      return harness.stderr.split('\n').filter((line) => /^\S+ \S+ "[A-Z]+ \S+" \d{3} \d+ /.test(line));
    },
  };
  const fixtureFile = options.fixture === undefined ? fixturePath : options.fixture;
  const launched = await startLocalService({
    ...(runtime === 'wasm' ? { runtime } : { binary: serviceBinary(), db: options.db }),
    port: Number(options.port ?? 0),
    fixture: fixtureFile,
    processingDelay: options.delay,
    now: options.now === true ? FIXED_NOW : options.now || undefined,
    mode: options.mode || undefined,
    corsOrigin: options.corsOrigin,
    args: options.args,
    wrapper: options.launcher,
    startTimeoutMs: 15_000,
    onStderr: (chunk) => {
      harness.stderr += chunk;
    },
  });
  harness.url = launched.url;
  harness.pid = launched.pid;
  harness.exited = launched.exited;
  // Its start-up report goes to stderr just before; pipes may deliver it a little later.
  const reported = await waitFor(() => harness.stderr.includes('loyalty_service: listening on'), 5_000, 10);
  if (!reported) {
    launched.kill('SIGKILL');
    throw new Error('no start-up report on stderr');
  }
  return harness;
}

/** Runs the binary to completion (for command line and start-up errors). */
export function runServiceSync(args) {
  return spawnSync(serviceBinary(), args, { cwd: root, encoding: 'utf8', timeout: 15_000 });
}

export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One loyalty API call. `as`: a fixture user id (its token and merchant key), or explicit
 * `token` / `key`; `accept` defaults to the v1 media type (null: no Accept header).
 * Resolves { status, body (parsed JSON), text, headers }.
 */
export async function call(service, method, route, { as, token, key, accept, body, raw, headers } = {}) {
  const h = { ...(headers ?? {}) };
  const creds = as && (token === undefined || key === undefined) ? credentialsOf(as) : {};
  const bearer = token !== undefined ? token : creds.token;
  const merchantKey = key !== undefined ? key : creds.key;
  if (bearer !== undefined && bearer !== null) h.Authorization = `Bearer ${bearer}`;
  if (merchantKey !== undefined && merchantKey !== null) h['Merchant-Key'] = merchantKey;
  if (accept !== null) h.Accept = accept ?? MEDIA_TYPE;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) h['Content-Type'] = 'application/json';
  const res = await fetch(service.url + route, {
    method,
    headers: h,
    body: payload,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const qualifying = (service, as, body, extra = {}) =>
  call(service, 'POST', '/api/baskets/qualifying', { as, body, ...extra });
export const account = (service, as, extra = {}) => call(service, 'GET', '/api/account', { as, ...extra });
export const basket = (service, as, body, extra = {}) =>
  call(service, 'POST', '/api/baskets', { as, body, ...extra });

/** The fixture client of a user's merchant (the X-ClientId of the sandbox operations). */
export function clientIdOf(userId) {
  const user = fixture.users.find((u) => u.id === userId);
  return fixture.clients.find((c) => c.merchant_id === user.merchant_id).client_id;
}

/**
 * One consumer API sandbox call (API spec 4.2-4.5, 5, 9). `as`: a fixture user id (its token and
 * its merchant's client); `token`, `clientId`, `version` (Accept-Version, default v4.0) and
 * `accept` (default application/json) override, null leaving the header out.
 * Resolves { status, body, text, headers } as call() does.
 */
export async function consumer(service, method, route, { as, token, clientId, version, accept, body, raw, headers } = {}) {
  const h = { ...(headers ?? {}) };
  const bearer = token !== undefined ? token : as && credentialsOf(as).token;
  const client = clientId !== undefined ? clientId : as && clientIdOf(as);
  if (bearer !== undefined && bearer !== null) h.Authorization = `Bearer ${bearer}`;
  if (client !== undefined && client !== null) h['X-ClientId'] = client;
  if (version !== null) h['Accept-Version'] = version ?? 'v4.0';
  if (accept !== null) h.Accept = accept ?? 'application/json';
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) h['Content-Type'] = 'application/json';
  const res = await fetch(service.url + route, { method, headers: h, body: payload, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a truthy value or `ms` pass; resolves that value or null. */
export async function waitFor(probe, ms, every = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) return null;
    await sleep(every);
  }
}

/** A small deterministic PRNG (mulberry32), so generated baskets are reproducible. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}
