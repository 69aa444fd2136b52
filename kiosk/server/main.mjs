// `npm start`: the kiosk demo. Builds what is missing (system packages, the wasm module, the
// service), starts the local service with the demo fixture on 127.0.0.1, serves kiosk/page/ and web/
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
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import process from 'node:process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HEALTH_PATH = '/_kiosk/health';
/** The folders the page server serves, under the site root, at their repository paths. */
export const SITE_FOLDERS = ['kiosk/page', 'web'];

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};
// Headers that belong to one connection and must not be forwarded by a proxy (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** Headers without the hop-by-hop ones, including those the Connection header names. */
export function endToEndHeaders(headers) {
  const named = new Set(HOP_BY_HOP);
  for (const token of String(headers.connection ?? '').split(',')) {
    if (token.trim() !== '') named.add(token.trim().toLowerCase());
  }
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!named.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * The request target as { pathname, search } (both raw, still percent-encoded), or null when it
 * is not a plain path: the kiosk server is an origin server, never a proxy, so the absolute
 * form (`http://host/...`), the protocol-relative `//host/...`, `*` and anything with a space,
 * control character, backslash or fragment are refused. Never throws.
 */
export function parseTarget(target) {
  if (typeof target !== 'string' || target.length === 0 || target.length > 8192) return null;
  if (target[0] !== '/' || target.startsWith('//')) return null;
  if (/[\x00-\x20\x7f-\uffff\\#]/.test(target)) return null;
  const query = target.indexOf('?');
  const pathname = query < 0 ? target : target.slice(0, query);
  const search = query < 0 ? '' : target.slice(query);
  return { pathname, search };
}
const ACCESS_LOG_LINE = /^\S+ \S+ "[A-Z]+ \S+" \d{3} \d+ /;

const USAGE = `usage: node kiosk/server/main.mjs [--port N (default 8080, 0 = any)] [--host ADDRESS]
       [--db FILE] [--reset] [--fixture FILE] [--processing-delay SECONDS] [--now RFC3339] [--verbose]
       [--smoke]`;

/** The command line as options; throws an Error with a message for a bad one. */
export function parseArgs(argv) {
  const options = {
    port: 8080,
    host: '127.0.0.1',
    db: 'build/demo.db',
    fixture: 'fixtures/demo.json',
    processingDelay: '5',
    now: null,
    reset: false,
    verbose: false,
    smoke: false,
  };
  const valued = {
    '--port': 'port',
    '--host': 'host',
    '--db': 'db',
    '--fixture': 'fixture',
    '--processing-delay': 'processingDelay',
    '--now': 'now',
  };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '--reset') options.reset = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--smoke') options.smoke = true;
    else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else if (Object.hasOwn(valued, arg)) {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value\n${USAGE}`);
      options[valued[arg]] = argv[++i];
    } else {
      throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535\n${USAGE}`);
  options.port = port;
  if (!/^\d+(\.\d+)?$/.test(options.processingDelay)) {
    throw new Error(`--processing-delay must be a number of seconds\n${USAGE}`);
  }
  return options;
}

function log(message) {
  process.stderr.write(`kiosk: ${message}\n`);
}

function newestMtime(dir, pattern) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(file, pattern));
    else if (pattern.test(entry.name)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** True when web/dist lacks the wasm module or is older than the engine and binding sources. */
export function wasmIsStale() {
  const wasm = path.join(root, 'web/dist/loyalty_qualifier.wasm');
  const glue = path.join(root, 'web/dist/loyalty_qualifier.mjs');
  if (!existsSync(wasm) || !existsSync(glue)) return true;
  const sources = Math.max(
    newestMtime(path.join(root, 'src'), /\.(cpp|hpp|h)$/),
    newestMtime(path.join(root, 'wasm'), /\.(cpp|hpp|txt|cmake)$/),
  );
  return statSync(wasm).mtimeMs < sources;
}

function runToStderr(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** Installs missing system packages and builds the wasm module when missing or stale. */
export function buildWhatIsMissing() {
  runToStderr('bash', ['scripts/ensure-system.sh']);
  if (wasmIsStale()) {
    log('building the wasm module (web/dist)');
    runToStderr(process.execPath, ['scripts/build.mjs', '--only', 'wasm']);
  }
}

/**
 * Starts the service through service/serve.mjs (which rebuilds the binary when stale), or the
 * binary named by LQ_SERVICE_BIN as is (the override the service tests honour too), and resolves
 * once it prints its base URL. Returns { url, pid, exited, running(), stop() }.
 */
export function startService({ db, fixture, processingDelay, now, verbose = false }) {
  const args = ['--port', '0', '--host', '127.0.0.1', '--db', db];
  args.push('--processing-delay', String(processingDelay));
  if (fixture) args.push('--fixture', fixture);
  if (now) args.push('--now', now);
  const stdio = ['ignore', 'pipe', 'pipe'];
  const binary = process.env.LQ_SERVICE_BIN;
  const child = binary
    ? spawn(binary, args, { cwd: root, stdio })
    : spawn(process.execPath, ['service/serve.mjs', ...args], { cwd: root, stdio });
  // 'close' also follows a failed spawn (after 'error'), so `exited` always settles.
  child.once('error', () => {});
  const exited = new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const lines = readline.createInterface({ input: child.stderr });
  lines.on('line', (line) => {
    if (verbose || !ACCESS_LOG_LINE.test(line)) process.stderr.write(`service: ${line}\n`);
  });
  const service = {
    url: null,
    pid: child.pid,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    /** SIGTERM (passed on to the binary by serve.mjs), SIGKILL after 10 s. */
    async stop() {
      if (!service.running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (service.url !== null) return;
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end >= 0) {
        service.url = stdout.slice(0, end).trim();
        resolve(service);
      }
    });
    exited.then(({ code, signal }) => {
      if (service.url === null)
        reject(new Error(`the service exited (${code ?? signal}) before printing its URL`));
    });
  });
}

function sendJson(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}

function proxy(request, response, upstream, { pathname, search }) {
  if (upstream === null) {
    sendJson(response, 503, { code: 503, message: 'the loyalty service is not running' });
    return;
  }
  // Built from the configured origin plus the path and query: never from the raw target, so no
  // request can reach another host or port.
  let target;
  try {
    target = new URL(`${new URL(upstream).origin}${pathname}${search}`);
  } catch {
    sendJson(response, 400, { code: 400, message: 'the request target is not a valid path' });
    return;
  }
  if (target.origin !== new URL(upstream).origin || !target.pathname.startsWith('/api/')) {
    sendJson(response, 400, { code: 400, message: 'only /api/... paths are forwarded' });
    return;
  }
  const headers = endToEndHeaders(request.headers);
  let outgoing;
  try {
    outgoing = http.request(
      target,
      { method: request.method, headers, timeout: 30_000 },
      (answer) => {
        const back = endToEndHeaders(answer.headers);
        back['cache-control'] = 'no-store';
        response.writeHead(answer.statusCode ?? 502, back);
        answer.on('error', () => response.destroy());
        answer.pipe(response);
      },
    );
  } catch (e) {
    sendJson(response, 400, { code: 400, message: `the request cannot be forwarded (${e.code ?? e.message})` });
    return;
  }
  outgoing.on('timeout', () => outgoing.destroy(new Error('the loyalty service timed out')));
  outgoing.on('error', (e) => {
    if (!response.headersSent) {
      sendJson(response, 503, {
        code: 503,
        message: `the loyalty service is not reachable (${e.code ?? e.message})`,
      });
    } else {
      response.destroy();
    }
  });
  request.on('error', () => outgoing.destroy());
  request.pipe(outgoing);
}

/** A static file's validators: a weak ETag from its size and modification time, and Last-Modified. */
export function staticValidators(stat) {
  return {
    etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
    lastModified: new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString(),
  };
}

// RFC 9110 13.1.2 / 13.1.3: If-None-Match (weak comparison) wins over If-Modified-Since.
function isNotModified(request, validators, stat) {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) {
    if (noneMatch.trim() === '*') return true;
    const opaque = (tag) => tag.trim().replace(/^W\//, '');
    return noneMatch.split(',').some((tag) => opaque(tag) === opaque(validators.etag));
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(stat.mtimeMs / 1000) * 1000 <= since;
}

// A file-system path for a request path under siteRoot, or an HTTP status when there is none:
// 400 for an undecodable path or a NUL byte, 403 outside SITE_FOLDERS, 404 for what cannot exist.
function resolveStatic(pathname, siteRoot) {
  let relative;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    return 400;
  }
  if (relative.includes('\0')) return 400;
  const file = path.resolve(siteRoot, `.${relative}`);
  const served = SITE_FOLDERS.map((folder) => path.join(siteRoot, folder));
  if (!served.some((dir) => file === dir || file.startsWith(dir + path.sep))) return 403;
  if (path.basename(file).length > 255 || file.length > 4000) return 404;
  return file;
}

// statSync that answers undefined for every way a path can fail to name a file (ENOENT, ENOTDIR,
// ENAMETOOLONG, ELOOP, EACCES, ...): never throws.
function statOrNothing(file) {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const STATUS_TEXT = { 400: 'bad path\n', 403: 'forbidden\n', 404: 'not found\n' };

const SERVICE_WORKER = 'sw.js';
const VERSION_LINE = /^const VERSION = '([^'\n]*)';$/m;

/**
 * The kiosk's service worker as served: its `VERSION` gets a digest of the worker and of every file
 * its PRECACHE list names, so any change to what it precaches is a new worker (the browser compares
 * the worker's bytes on each navigation) that installs a new cache, with no hand-bumped constant.
 * Files the list names that are missing count as missing (the worker's install then fails, as it
 * would anyway). Returns null when the file is not one with a PRECACHE list and a VERSION line.
 */
export function versionedServiceWorker(file) {
  const text = readFileSync(file, 'utf8');
  const list = /const PRECACHE = \[([^\]]*)\]/.exec(text);
  const version = VERSION_LINE.exec(text);
  if (!list || !version) return null;
  const digest = createHash('sha256').update(text);
  let newest = statSync(file).mtimeMs;
  for (const [, entry] of list[1].matchAll(/'([^'\n]*)'/g)) {
    const target = path.resolve(path.dirname(file), entry.endsWith('/') ? `${entry}index.html` : entry);
    const stat = statOrNothing(target);
    digest.update(`\0${entry}\0`);
    if (!stat?.isFile()) continue;
    newest = Math.max(newest, stat.mtimeMs);
    digest.update(readFileSync(target));
  }
  const hash = digest.digest('hex').slice(0, 16);
  const body = Buffer.from(text.replace(VERSION_LINE, `const VERSION = '${version[1]}-${hash}';`));
  return { body, etag: `"${hash}"`, mtimeMs: newest };
}

function serveStatic(request, response, siteRoot, pathname) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
      .end('method not allowed\n');
    return;
  }
  if (pathname === '/') {
    response.writeHead(302, { location: '/kiosk/page/' }).end();
    return;
  }
  let file = resolveStatic(pathname, siteRoot);
  if (typeof file === 'number') {
    response.writeHead(file, { 'content-type': 'text/plain' }).end(STATUS_TEXT[file]);
    return;
  }
  let stat = statOrNothing(file);
  if (stat?.isDirectory()) {
    if (!pathname.endsWith('/')) {
      response.writeHead(301, { location: `${pathname}/` }).end();
      return;
    }
    file = path.join(file, 'index.html');
    stat = statOrNothing(file);
  }
  if (!stat?.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  const worker = path.basename(file) === SERVICE_WORKER ? versionedServiceWorker(file) : null;
  if (worker) {
    stat = { mtimeMs: worker.mtimeMs, size: worker.body.length };
  }
  // Validators: the browser (and the page's service worker) revalidate with them and get a 304.
  const validators = worker
    ? { etag: worker.etag, lastModified: staticValidators(stat).lastModified }
    : staticValidators(stat);
  const common = {
    'cache-control': 'no-cache',
    etag: validators.etag,
    'last-modified': validators.lastModified,
    'x-content-type-options': 'nosniff',
  };
  if (isNotModified(request, validators, stat)) {
    response.writeHead(304, common).end();
    return;
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': stat.size,
    ...common,
  });
  if (request.method === 'HEAD') response.end();
  else if (worker) response.end(worker.body);
  else createReadStream(file).on('error', () => response.destroy()).pipe(response);
}

/**
 * The page server: SITE_FOLDERS of siteRoot as static files, /api/* proxied to upstream() (a base
 * URL, or null while the service is stopped: 503), and GET /_kiosk/health -> { service: "up" | "down" }, always 200,
 * so that the page can check the service without a failed request in its console.
 */
export function createKioskServer({ siteRoot = root, upstream }) {
  const resolvedRoot = path.resolve(siteRoot);
  const server = http.createServer((request, response) => {
    try {
      const target = parseTarget(request.url);
      if (target === null) {
        sendJson(response, 400, {
          code: 400,
          message: 'the request target must be a path (this server is not a proxy)',
        });
      } else if (target.pathname === HEALTH_PATH) {
        sendJson(response, 200, { service: upstream() === null ? 'down' : 'up' });
      } else if (target.pathname === '/api' || target.pathname.startsWith('/api/')) {
        proxy(request, response, upstream(), target);
      } else {
        serveStatic(request, response, resolvedRoot, target.pathname);
      }
    } catch (e) {
      // A defect, not a request's fault; the server keeps running.
      log(`error on ${JSON.stringify(String(request.url).slice(0, 200))}: ${e.message}`);
      if (!response.headersSent) sendJson(response, 500, { code: 500, message: 'internal error' });
      else response.destroy();
    }
  });
  // Slow or stalled clients: a request must arrive whole in 30 s (its head in 10 s).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

/** Fetches what the page needs through the kiosk server, as a browser would; throws on a failure. */
export async function smokeCheck(origin) {
  const get = async (route, headers = {}) => {
    const response = await fetch(`${origin}${route}`, { headers, signal: AbortSignal.timeout(15_000) });
    if (response.status !== 200) throw new Error(`GET ${route}: HTTP ${response.status}`);
    return response;
  };
  for (const route of ['/kiosk/page/', '/kiosk/page/kiosk.js', '/kiosk/page/kiosk.css', '/kiosk/page/menu.json', '/web/engine/qualifier.js',
    '/web/engine/qualify_error.js',
    '/web/clients/loyalty_client.js',
    '/web/dist/loyalty_qualifier.mjs', '/web/dist/loyalty_qualifier.wasm']) {
    await get(route);
  }
  const config = await (await get('/kiosk/page/config.json')).json();
  const guest = config.guests[0];
  const snapshot = await (await get('/api/account', {
    Authorization: `Bearer ${guest.access_token}`,
    'Merchant-Key': config.merchants[guest.merchant_id].merchant_key,
    Accept: 'application/vnd.service-v1+json',
  })).json();
  if (snapshot?.user?.id !== guest.user_id) throw new Error(`GET /api/account answered for ${snapshot?.user?.id}`);
  const { createQualifier } = await import('../../web/index.js');
  const qualifier = await createQualifier(snapshot);
  const offers = qualifier.qualify({ subtotal: '100.00', items: [{ id: 'latte', price: '4.75' }] });
  qualifier.dispose();
  const counts = `${offers.rewards.length} rewards, ${offers.points_products.length} points products`;
  return `${guest.user_id}: ${counts} on a $100 basket`;
}

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

  let service = null;
  let stopping = false;
  const serviceOptions = {
    db,
    fixture: path.resolve(root, options.fixture),
    processingDelay: options.processingDelay,
    now: options.now,
    verbose: options.verbose,
  };
  async function startTheService() {
    if (service?.running()) return;
    log('starting the service (building it when stale)');
    service = await startService(serviceOptions);
    const started = service;
    log(`service: ${started.url} (pid ${started.pid})`);
    started.exited.then(({ code, signal }) => {
      if (!stopping && service === started)
        log(`the service stopped (${code ?? signal}); type "start" to restart it`);
    });
  }
  async function stopTheService() {
    if (!service?.running()) return;
    const stopped = service;
    const result = await stopped.stop();
    log(`service stopped (${result.code ?? result.signal})`);
  }

  try {
    await startTheService();
  } catch (e) {
    log(e.message);
    return 1;
  }

  const server = createKioskServer({ upstream: () => (service?.running() ? service.url : null) });
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, resolve);
    });
  } catch (e) {
    log(`cannot listen on ${options.host}:${options.port}: ${e.message} (try --port 0 for any free port)`);
    await stopTheService();
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
  async function shutdown(why) {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping`);
    server.close();
    server.closeAllConnections?.();
    await stopTheService();
    done(0);
  }
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('exit', () => service?.running() && process.kill(service.pid, 'SIGTERM'));

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

  const commands = readline.createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    const command = line.trim().toLowerCase();
    if (command === 'stop') stopTheService().catch((e) => log(e.message));
    else if (command === 'start') startTheService().catch((e) => log(e.message));
    else if (command === 'quit' || command === 'q') shutdown('quit');
    else if (command !== '') log('commands: stop, start, quit');
  });
  // Without a terminal (stdin at EOF) the kiosk keeps running until a signal.
  const code = await finished;
  commands.close();
  process.stdin.destroy();
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
