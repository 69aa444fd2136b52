// The wasm runtime of startLocalService and startStoreHub ({ runtime: 'wasm' }, or 'auto' without
// a native binary): the emulator behind node:http, on 127.0.0.1 by default, with the native
// front's limits that apply to one process (docs/service.md, "Hardening"): a request body of at
// most 1 MiB (413), a request deadline of 10 s for head and body (408), at most 256 connections
// (503 with Retry-After: 1 beyond), the error bodies of the API, Connection: close after an error
// of the front. The requests' bytes go to the module whole, so its framing checks
// (request_framing) and routes answer them as the native front does. It starts and fails as the
// native launcher does (the same rejections, exit codes and messages). Node only.
import http from 'node:http';
import { constants } from 'node:os';
import process from 'node:process';

import { serviceArguments } from '../emulator/service_options.js';
import { EmulatedRuntime } from '../emulator/emulated_runtime.js';
import { fixtureText } from '../emulator/fixture_text.js';
import { parseResponseBytes } from '../emulator/http_bytes.js';
import { wasmDatabaseProblem } from './runtime_choice.js';

const MAX_BODY_BYTES = 1 << 20;
const REQUEST_TIMEOUT_MS = 10_000;
// A kept-alive connection: closed after 5 s idle or 1000 requests, said in Keep-Alive as natively.
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const KEEP_ALIVE_MAX_REQUESTS = 1000;
// How often Node looks for requests past their deadline (its default, 30 s, would answer a
// stalled head at up to 40 s).
const DEADLINE_CHECK_MS = 250;
const MAX_CONNECTIONS = 256;
// Connections one client (remote address) may hold by default: the native front's share.
const DEFAULT_PER_PEER = 128;
// A refused connection is closed once the client has read its 503, or after this long.
const REFUSED_LINGER_MS = 1_000;
// The name under which the launcher writes a fixture into the module's memory.
const FIXTURE_FILE = '/fixture.json';
// Framing belongs to node:http here; the module gets the body framed by Content-Length.
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'te', 'upgrade', 'expect']);
// The socket's request whose answer has not started yet (the deadline's 408 says which part was late).
const pending = new WeakMap();

function errorBody(code, message) {
  return JSON.stringify({ code, message });
}

// The bytes the native front writes for an error it answers itself
// (the repository's front/http/guarded_server.cpp).
function frontErrorBytes(code, message) {
  const body = errorBody(code, message);
  return `HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${code === 503 ? 'Retry-After: 1\r\n' : ''}\r\n${body}`;
}

function requestHead(req, bodyLength) {
  // The version as sent: the module refuses any but HTTP/1.1 and 1.0, as the native front does.
  let head = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!TRANSPORT_HEADERS.has(req.rawHeaders[i].toLowerCase())) head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
  }
  return Buffer.from(`${head}Content-Length: ${bodyLength}\r\n\r\n`, 'latin1');
}

// The module's response as node:http writes it: its status, headers in order and body, no Date of
// Node's own (the service's Date is the service clock's, on the account read only), and
// Connection: close where the module's bytes say it (an error of the framing layer), after which
// Node closes the connection.
function sendBytes(res, bytes) {
  const { status, statusText, headers, body } = parseResponseBytes(bytes);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length - body.length).toString('latin1');
  if (/\r\nconnection:[ \t]*close\r\n/i.test(head)) headers.push(['Connection', 'close']);
  res.writeHead(status, statusText, headers.flat());
  res.end(body);
}

function sendError(res, code, message) {
  const body = errorBody(code, message);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

// One request: its body read under the size limit, then answered by the module. The deadline
// (head and body together) is node:http's requestTimeout, answered in clientError.
function serveRequest(runtime, req, res) {
  res.sendDate = false;
  const socket = req.socket;
  pending.set(socket, req);
  res.once('finish', () => pending.delete(socket));
  const declared = Number(req.headers['content-length'] ?? 0);
  const peer = socket.remoteAddress ?? '127.0.0.1';
  const answer = (bytes) => {
    pending.delete(socket);
    try {
      sendBytes(res, runtime.answer(bytes, peer));
    } catch (e) {
      sendError(res, 500, 'internal error');
      process.stderr.write(`${e.message}\n`);
    }
  };
  // A declared body over the limit is refused by the module's own framing check, unread.
  if (declared > MAX_BODY_BYTES) return answer(requestHead(req, declared));
  const chunks = [];
  let received = 0;
  req.on('data', (chunk) => {
    if (res.headersSent) return;
    received += chunk.length;
    chunks.push(chunk);
    // A chunked body over the limit: 413 as soon as it passes, for the size received; the rest
    // is never read into memory, and the connection closes.
    if (received > MAX_BODY_BYTES) {
      chunks.length = 0;
      answer(requestHead(req, received));
    }
  });
  req.on('end', () => {
    if (res.headersSent) return;
    answer(Buffer.concat([requestHead(req, received), ...chunks]));
  });
}

// The module's own answer to the head node:http's parser refused, when its framing checks refuse
// it too (the native front's status and message, Connection: close); else null. Only the head
// goes (so no write can happen), and only a refusal of the head itself counts: one saying that
// the head or the body is incomplete speaks of the packet Node was parsing, not of the request.
const CUT_SHORT = /the request head is incomplete|the body ends after|the chunked body ends before/;
function framingError(runtime, packet, peer) {
  if (!(packet instanceof Uint8Array) || packet.length === 0) return null;
  const end = Buffer.from(packet.buffer, packet.byteOffset, packet.length).indexOf('\r\n\r\n');
  const head = end < 0 ? packet : packet.subarray(0, end + 4);
  try {
    const answer = runtime.answer(head, peer ?? '127.0.0.1');
    const { status, body } = parseResponseBytes(answer);
    const fields = Buffer.from(answer.buffer, answer.byteOffset, answer.length - body.length).toString('latin1');
    const refused = status >= 400 && /\r\nConnection: close\r\n/.test(fields) && !CUT_SHORT.test(Buffer.from(body).toString('utf8'));
    return refused ? Buffer.from(answer) : null;
  } catch {
    return null;
  }
}

// node:http's refusal of a connection's bytes, answered as the native front answers it, once: a
// request past its deadline 408 (a connection that never sent a byte is closed unanswered), a head
// over 64 KiB 431; anything else its parser refuses goes to the module's framing checks, which
// name the problem as natively ("malformed request" when they find none). Then the connection
// closes, after a moment for the client to read the answer.
const answered = new WeakSet();
function answerClientError(runtime, error, socket) {
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = pending.get(socket);
  if (!socket.writable || socket.bytesRead === 0) return socket.destroy();
  let bytes;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    bytes = frontErrorBytes(408, inFlight === undefined ? 'the request did not arrive in time' : 'the request body did not arrive in time');
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    bytes = frontErrorBytes(431, 'the request head is larger than 65536 bytes');
  } else {
    bytes = framingError(runtime, error.rawPacket, socket.remoteAddress) ?? frontErrorBytes(400, 'malformed request');
  }
  pending.delete(socket);
  socket.end(bytes);
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}

// A connection beyond the limit: 503 with Retry-After: 1 (the native front's words), then closed
// once the client has read it; it takes no slot, and no request of it reaches the module.
const refused = new WeakSet();
function refuseConnection(socket, message) {
  refused.add(socket);
  socket.on('error', () => {});
  socket.end(frontErrorBytes(503, message));
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}

// The client a connection counts for, as the native front keys it: an IPv4 address written as
// IPv6 (::ffff:127.0.0.1) is that IPv4 address (the repository's front/http/peer_address.cpp).
function clientOf(address) {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

// The connections one client may hold: the program's --max-connections-per-peer, else its default.
function perPeerLimit(args) {
  const at = args.lastIndexOf('--max-connections-per-peer');
  return at >= 0 ? Number(args[at + 1]) : DEFAULT_PER_PEER;
}

/** A start that failed, as the native launcher rejects it (native_process.js): its reason as the program's last line, its exit code. */
function startError(program, reason, exitCode, log) {
  const line = `${program}: ${reason}`;
  // A command-line problem: the program's usage follows, as natively (the CLI shows its own).
  const stderr = exitCode === 2 ? `${line}\nusage: ${program} (the launcher's options)\n` : `${line}\n`;
  log(stderr);
  const error = new Error(line);
  error.exitCode = exitCode;
  error.signal = null;
  error.stderr = stderr;
  return error;
}

/**
 * The runtime, started as `EmulatedRuntime.start(settings)`; a start it refuses rejects as the
 * native program's would, its fixture named as the caller named it (`fixtureName`).
 */
async function startRuntime(settings, { program, fixtureName, log }) {
  try {
    return await EmulatedRuntime.start(settings);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (message.startsWith(`fixture ${FIXTURE_FILE}: `)) {
      throw startError(program, `fixture ${fixtureName}: ${message.slice(`fixture ${FIXTURE_FILE}: `.length)}`, 1, log);
    }
    // The module says which exit code the native program gives (2: its command line).
    throw startError(program, message, e?.exitCode === 2 ? 2 : 1, log);
  }
}

const SIGNALS = Object.keys(constants.signals);

/**
 * Serves `runtime` on host:port; resolves the launcher's handle { url, pid (null: it runs in this
 * process), exited, running(), kill(), stop() }. `program` prefixes its log lines.
 */
async function serve(runtime, { host, port, program, log, signal, keepAlive, describe, exposed = false, perPeer = DEFAULT_PER_PEER }) {
  const server = http.createServer({
    maxHeaderSize: 64 * 1024,
    headersTimeout: REQUEST_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: DEADLINE_CHECK_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // The native front takes a request without Host (the Host allowlist is the module's).
    requireHostHeader: false,
  });
  server.maxRequestsPerSocket = KEEP_ALIVE_MAX_REQUESTS;
  let connections = 0;
  const held = new Map(); // client -> connections it holds
  server.on('connection', (socket) => {
    // As the native front admits: a client past its share first, then the service's limit.
    const client = clientOf(socket.remoteAddress ?? '127.0.0.1');
    if ((held.get(client) ?? 0) >= perPeer) {
      return refuseConnection(socket, `this client (${client}) already holds ${perPeer} open connections, the most one client may hold (--max-connections-per-peer); close one or retry shortly`);
    }
    if (connections >= MAX_CONNECTIONS) return refuseConnection(socket, `the service is at its connection limit (${MAX_CONNECTIONS}); retry shortly`);
    connections += 1;
    held.set(client, (held.get(client) ?? 0) + 1);
    // A connection that sends nothing is closed unanswered after the idle time, as natively
    // (Node would wait for its request deadline, 10 s).
    const silent = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), KEEP_ALIVE_TIMEOUT_MS).unref();
    socket.once('close', () => {
      clearTimeout(silent);
      connections -= 1;
      const left = held.get(client) - 1;
      if (left === 0) held.delete(client);
      else held.set(client, left);
    });
  });
  server.on('request', (req, res) => {
    if (refused.has(req.socket)) return;
    serveRequest(runtime, req, res);
  });
  server.on('clientError', (error, socket) => answerClientError(runtime, error, socket));
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
  } catch {
    await runtime.close();
    throw startError(program, `cannot listen on ${host}:${port}`, 1, log);
  }
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
  // How it ended, as for the native program: { code: 0 } stopped (stop(), SIGTERM, SIGINT, which
  // the native program takes as a stop), else { signal }. Either way its connections are cut.
  const end = (ending) => {
    stopping ??= (async () => {
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
      await runtime.close();
      running = false;
      if (ending.signal === null) log(`${program}: stopped\n`);
      resolveExit(ending);
      await exited;
    })();
    return stopping;
  };
  const stop = () => end({ code: 0, signal: null });
  signal?.addEventListener('abort', () => stop(), { once: true });
  return {
    url,
    pid: null,
    exited,
    running: () => running,
    kill: (sent = 'SIGTERM') => {
      if (typeof sent !== 'string' || !SIGNALS.includes(sent)) {
        throw new TypeError(`kill: unknown signal ${String(sent)} (one of ${SIGNALS.join(', ')})`);
      }
      if (!running || stopping !== null) return false;
      end(sent === 'SIGTERM' || sent === 'SIGINT' ? { code: 0, signal: null } : { code: null, signal: sent });
      return true;
    },
    stop,
  };
}

// The runtime's log (its start-up report, access lines) goes to onStderr when given, else
// nowhere, as the native launcher treats its child's stderr.
function logOf(options) {
  return options.onStderr ?? (() => {});
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
  const program = 'loyalty_service';
  // The fixture as the caller named it, in the messages that name it.
  const fixtureName = typeof fixture === 'string' ? fixture : fixture instanceof URL ? fixture.href : '(the fixture object)';
  let files = {};
  if (fixture !== undefined) {
    try {
      files = { [FIXTURE_FILE]: await fixtureText(fixture, caller) };
    } catch (e) {
      if (e instanceof TypeError) throw e;
      throw startError(program, `fixture ${fixtureName}: cannot read fixture ${fixtureName}`, 1, log);
    }
  }
  const runtime = await startRuntime({
    kind: 'service',
    args: [...args, ...(fixture === undefined ? [] : ['--fixture', FIXTURE_FILE])],
    files,
    nowMs: Date.now,
    onLog: (line) => log(`${line}\n`),
  }, { program, fixtureName, log });
  const delay = options.processingDelay ?? ((options.mode ?? 'sandbox') === 'sandbox' ? 900 : 0);
  return serve(runtime, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    program,
    log,
    signal: options.signal,
    keepAlive: options.keepAlive,
    describe: `${options.mode ?? 'sandbox'} mode, processing delay ${delay.toFixed(3)} s`,
    perPeer: perPeerLimit(args),
  });
}

/** startStoreHub({ runtime: 'wasm' }): the store hub's emulator over HTTP. */
export async function startWasmHub(options, args) {
  refuseDatabase(options.db, 'loyalty_hub');
  const log = logOf(options);
  const hostIndex = args.indexOf('--host');
  const portIndex = args.indexOf('--port');
  const runtime = await startRuntime({
    kind: 'hub',
    args,
    secret: options.storeKey,
    nowMs: Date.now,
    onLog: (line) => log(`${line}\n`),
  }, { program: 'loyalty_hub', fixtureName: null, log });
  return serve(runtime, {
    host: hostIndex >= 0 ? args[hostIndex + 1] : '127.0.0.1',
    port: portIndex >= 0 ? Number(args[portIndex + 1]) : 0,
    program: 'loyalty_hub',
    log,
    signal: options.signal,
    keepAlive: options.keepAlive,
    describe: 'store hub',
    exposed: options.exposeOnNetwork === true,
    perPeer: perPeerLimit(args),
  });
}
