// The wasm runtime of startLocalService and startStoreHub ({ runtime: 'wasm' }, or 'auto' without
// a native binary): the emulator behind node:http, on 127.0.0.1 by default, with the native
// front's limits that apply to one process: a request body of at most 1 MiB (413), a request
// deadline of 10 s (408), at most 256 connections, the error bodies of the API. The requests'
// bytes go to the module whole, so its framing checks (request_framing) and routes answer them
// as the native front does. Resolves what the native launcher resolves. Node only.
import http from 'node:http';
import process from 'node:process';

import { serviceArguments } from '../emulator/service_options.js';
import { EmulatedRuntime } from '../emulator/emulated_runtime.js';
import { fixtureText } from '../emulator/fixture_text.js';
import { parseResponseBytes } from '../emulator/http_bytes.js';
import { wasmDatabaseProblem } from './runtime_choice.js';

const MAX_BODY_BYTES = 1 << 20;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 256;
// Framing belongs to node:http here; the module gets the body framed by Content-Length.
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'te', 'upgrade', 'expect']);

function errorBody(code, message) {
  return JSON.stringify({ code, message });
}

function requestHead(req, bodyLength) {
  let head = `${req.method} ${req.url} HTTP/1.1\r\n`;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!TRANSPORT_HEADERS.has(req.rawHeaders[i].toLowerCase())) head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
  }
  return Buffer.from(`${head}Content-Length: ${bodyLength}\r\n\r\n`, 'latin1');
}

function sendBytes(res, bytes) {
  const { status, statusText, headers, body } = parseResponseBytes(bytes);
  res.writeHead(status, statusText, headers.flat());
  res.end(body);
}

function sendError(res, code, message) {
  const body = errorBody(code, message);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

// One request: its body read under the size limit and the deadline, then answered by the module.
function serveRequest(runtime, req, res) {
  const declared = Number(req.headers['content-length'] ?? 0);
  // A declared body over the limit is refused by the module's own framing check, unread.
  const peer = req.socket.remoteAddress ?? '127.0.0.1';
  if (declared > MAX_BODY_BYTES) return sendBytes(res, runtime.answer(requestHead(req, declared), peer));
  const chunks = [];
  let received = 0;
  // Past the deadline: 408 with the error body, then the connection closes (Connection: close).
  const deadline = setTimeout(() => sendError(res, 408, 'the request body did not arrive in time'), REQUEST_TIMEOUT_MS);
  req.on('data', (chunk) => {
    received += chunk.length;
    if (received <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    clearTimeout(deadline);
    if (res.headersSent) return;
    // Over the limit (a chunked body): the module answers 413 for the size it was sent.
    const body = received > MAX_BODY_BYTES ? Buffer.alloc(0) : Buffer.concat(chunks);
    const head = requestHead(req, received);
    try {
      sendBytes(res, runtime.answer(received > MAX_BODY_BYTES ? head : Buffer.concat([head, body]), peer));
    } catch (e) {
      sendError(res, 500, 'internal error');
      process.stderr.write(`${e.message}\n`);
    }
  });
  req.on('error', () => clearTimeout(deadline));
}

/**
 * Serves `runtime` on host:port; resolves the launcher's handle { url, pid (this process's),
 * exited, running(), kill(), stop() }. `program` prefixes its log lines.
 */
async function serve(runtime, { host, port, program, log, signal, keepAlive, describe, exposed = false }) {
  const server = http.createServer({ maxHeaderSize: 64 * 1024, requestTimeout: 0, headersTimeout: REQUEST_TIMEOUT_MS });
  server.maxConnections = MAX_CONNECTIONS;
  server.on('request', (req, res) => serveRequest(runtime, req, res));
  server.on('clientError', (error, socket) => {
    if (!socket.writable) return socket.destroy();
    const [code, message] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request head is larger than 65536 bytes'] : [400, 'malformed request'];
    const body = errorBody(code, message);
    socket.end(`HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  if (!keepAlive) server.unref();
  const address = server.address();
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}`;
  if (exposed) {
    // The native hub's warning (the repository's hub/main.cpp), word for word.
    log(`${program}: WARNING: --expose-on-network: the hub is reachable from the network at ${url}; anyone who knows the store key can claim and release offers, over plain HTTP (no TLS)\n`);
  }
  log(`${program}: listening on ${url} (wasm runtime, ${describe}; state in memory, gone when it stops)\n`);

  let running = true;
  let resolveExit;
  const exited = new Promise((resolve) => {
    resolveExit = resolve;
  });
  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
      await runtime.close();
      running = false;
      log(`${program}: stopped\n`);
      resolveExit({ code: 0, signal: null });
      await exited;
    })();
    return stopping;
  };
  signal?.addEventListener('abort', () => stop(), { once: true });
  return {
    url,
    pid: process.pid,
    exited,
    running: () => running,
    kill: () => {
      if (!running || stopping !== null) return false;
      stop();
      return true;
    },
    stop,
  };
}

function logOf(options) {
  return options.onStderr ?? ((text) => process.stderr.write(text));
}

function refuseDatabase(db, program) {
  const problem = wasmDatabaseProblem(db);
  if (problem === null) return;
  const error = new Error(`${program}: ${problem}`);
  error.code = 'LQ_WASM_NO_DATABASE';
  throw error;
}

/** startLocalService({ runtime: 'wasm' }): the local service's emulator over HTTP. */
export async function startWasmService(options) {
  const caller = 'startLocalService';
  refuseDatabase(options.db, 'loyalty_service');
  const { args, fixture } = serviceArguments({ ...options, db: undefined }, { caller, extra: options.args ?? [] });
  const log = logOf(options);
  const files = fixture === undefined ? {} : { '/fixture.json': await fixtureText(fixture, caller) };
  const runtime = await EmulatedRuntime.start({
    kind: 'service',
    args: [...args, ...(fixture === undefined ? [] : ['--fixture', '/fixture.json'])],
    files,
    nowMs: Date.now,
    onLog: (line) => log(`${line}\n`),
  });
  const delay = options.processingDelay ?? ((options.mode ?? 'sandbox') === 'sandbox' ? 900 : 0);
  return serve(runtime, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    program: 'loyalty_service',
    log,
    signal: options.signal,
    keepAlive: options.keepAlive,
    describe: `${options.mode ?? 'sandbox'} mode, processing delay ${delay.toFixed(3)} s`,
  });
}

/** startStoreHub({ runtime: 'wasm' }): the store hub's emulator over HTTP. */
export async function startWasmHub(options, args) {
  refuseDatabase(options.db, 'loyalty_hub');
  const log = logOf(options);
  const hostIndex = args.indexOf('--host');
  const portIndex = args.indexOf('--port');
  const runtime = await EmulatedRuntime.start({
    kind: 'hub',
    args,
    secret: options.storeKey,
    nowMs: Date.now,
    onLog: (line) => log(`${line}\n`),
  });
  return serve(runtime, {
    host: hostIndex >= 0 ? args[hostIndex + 1] : '127.0.0.1',
    port: portIndex >= 0 ? Number(args[portIndex + 1]) : 0,
    program: 'loyalty_hub',
    log,
    signal: options.signal,
    keepAlive: options.keepAlive,
    describe: 'store hub',
    exposed: options.exposeOnNetwork === true,
  });
}
