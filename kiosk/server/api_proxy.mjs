// The reverse proxy of /api (to the local service) and of /hub (to the store hub): a request under
// the route's prefix goes upstream as it came (its end-to-end headers, its body; the hub's route
// sets the Store-Key header itself, so the page never holds the key), and the answer comes back
// uncached. Only the configured origin is ever reached; a stopped or unreachable upstream is a 503
// JSON answer. The body is received whole before upstream is asked (at most MAX_BODY_BYTES, as the
// service and the hub themselves take), so that a slow upload holds a connection of the kiosk
// server only, never one of theirs.
import http from 'node:http';

import { sendJson } from './json_answer.mjs';

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

/** The largest request body forwarded: the service's and the hub's own limit (front/http/framing/request_framing.hpp: max_body_bytes). */
export const MAX_BODY_BYTES = 1 << 20;
/** How long the service may take to answer. */
const UPSTREAM_TIMEOUT_MS = 30_000;

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

/** The /api route: to the loyalty service, headers as they came. */
export const SERVICE_ROUTE = Object.freeze({ prefix: '/api/', what: 'the loyalty service', headers: {} });

/** The /hub route: to the store hub, with the store key set here (any Store-Key of the request is replaced). */
export function hubRoute(storeKey) {
  return Object.freeze({ prefix: '/hub/', what: 'the store hub', headers: { 'store-key': storeKey } });
}

/**
 * Forwards `request` (its target already parsed into { pathname, search }) to `upstream`, the
 * base URL of the route's upstream (default: the service's), or answers 503 when it is null
 * (stopped).
 */
export function proxy(request, response, upstream, { pathname, search }, route = SERVICE_ROUTE) {
  if (upstream === null) {
    sendJson(response, 503, { code: 503, message: `${route.what} is not running` });
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
  if (target.origin !== new URL(upstream).origin || !target.pathname.startsWith(route.prefix)) {
    sendJson(response, 400, { code: 400, message: `only ${route.prefix}... paths are forwarded` });
    return;
  }
  receiveBody(request, response, (body) => forward(request, response, target, body, route));
}

function tooLarge(response) {
  sendJson(
    response,
    413,
    { code: 413, message: `the request body is larger than ${MAX_BODY_BYTES} bytes` },
    { connection: 'close' },
  );
}

/** Calls then(body) once the request body has arrived whole; answers 413 past MAX_BODY_BYTES. */
function receiveBody(request, response, then) {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    tooLarge(response);
    return;
  }
  const chunks = [];
  let size = 0;
  let refused = false;
  request.on('data', (chunk) => {
    if (refused) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refused = true;
      tooLarge(response);
    } else {
      chunks.push(chunk);
    }
  });
  request.on('end', () => {
    if (!refused) then(Buffer.concat(chunks));
  });
  // A client gone mid-upload: nothing is forwarded (the server's requestTimeout ends a stalled one).
  request.on('error', () => {});
}

function forward(request, response, target, body, route) {
  const headers = endToEndHeaders(request.headers);
  for (const name of Object.keys(headers)) {
    if (Object.hasOwn(route.headers, name.toLowerCase())) delete headers[name];
  }
  Object.assign(headers, route.headers);
  // The body is here whole (Node answered any 100-continue): it goes with its exact length.
  delete headers.expect;
  if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) {
    headers['content-length'] = String(body.length);
  }
  let outgoing;
  try {
    outgoing = http.request(
      target,
      { method: request.method, headers, timeout: UPSTREAM_TIMEOUT_MS },
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
  outgoing.on('timeout', () => outgoing.destroy(new Error(`${route.what} timed out`)));
  outgoing.on('error', (e) => {
    if (!response.headersSent) {
      sendJson(response, 503, {
        code: 503,
        message: `${route.what} is not reachable (${e.code ?? e.message})`,
      });
    } else {
      response.destroy();
    }
  });
  // The client gone before the answer: the service's answer is not waited for.
  response.once('close', () => {
    if (!response.writableFinished) outgoing.destroy();
  });
  outgoing.end(body);
}
