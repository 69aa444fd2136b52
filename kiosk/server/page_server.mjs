// The page server: one origin for the kiosk page, its static files, the /api and /hub reverse
// proxies and the kiosk's health check, answered only under the names it is reached by
// (host_allowlist.mjs), forwarding writes only from its own page (request_guard.mjs) and shared
// fairly between its clients (peer_limits.mjs).
import http from 'node:http';
import path from 'node:path';

import { hubRoute, proxy } from './api_proxy.mjs';
import { createHostAllowlist } from './network/host_allowlist.mjs';
import { sendJson } from './json_answer.mjs';
import { log } from './kiosk_log.mjs';
import { capConnectionsPerPeer, createRequestGate, peerOf } from './network/peer_limits.mjs';
import { createWriteGuard } from './request_guard.mjs';
import { root } from './repository_root.mjs';
import { serveStatic } from './files/static_files.mjs';

export const HEALTH_PATH = '/_kiosk/health';

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

/** How long a client may take to send a request's head, and the whole request (body included). */
export const REQUEST_TIMEOUTS = { headersMs: 10_000, requestMs: 15_000 };

// 421 Misdirected Request (RFC 9110 15.5.20): this server does not answer for that name.
function refuseHost(response, hostHeader) {
  const named = hostHeader === undefined ? 'no Host header' : `Host ${JSON.stringify(String(hostHeader).slice(0, 100))}`;
  sendJson(
    response,
    421,
    {
      code: 421,
      message: `${named}: this kiosk server answers only for its own address and localhost (a page of another site cannot read it); start it with --allow-host NAME to add a name`,
    },
    { connection: 'close' },
  );
}

function refuseBusy(response, refused, gate, peer) {
  const [status, message] =
    refused === 'peer'
      ? [429, `${gate.perPeer} /api and /hub requests from ${peer} are in progress already (the most one client may have); retry once one is answered`]
      : [503, `${gate.inAll} /api and /hub requests are in progress already (the most the kiosk server forwards at once); retry shortly`];
  sendJson(response, status, { code: status, message }, { 'retry-after': '1', connection: 'close' });
}

const under = (pathname, prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The page server: SITE_FOLDERS of siteRoot as static files, /api/* proxied to upstream() (a base
 * URL, or null while the service is stopped: 503), with `hub` ({ upstream(), storeKey }) /hub/*
 * proxied to the store hub with its key, and GET /_kiosk/health -> { service: "up" | "down",
 * hub: "up" | "down" (only with a hub) }, always 200, so that the page can check them without a
 * failed request in its console. /api and /hub share one request gate (per client and in all).
 * A request whose Host is not its bound address, `localhost` or one of `allowedHosts` gets 421
 * before anything is served. A write to /api or /hub from another origin than the page's own or
 * one of `allowedOrigins` gets 403, one whose body is not declared JSON 415 (request_guard.mjs).
 * With `pageBundle` (page_bundle.mjs), the page's bundles (and the service worker, which names
 * them) are brought up to date before they are served.
 */
export function createKioskServer({ siteRoot = root, upstream, hub = null, allowedHosts = [], allowedOrigins = [], pageBundle = null }) {
  const resolvedRoot = path.resolve(siteRoot);
  const gate = createRequestGate();
  const writes = createWriteGuard(allowedOrigins);
  const toHub = hub === null ? null : hubRoute(hub.storeKey);
  let hosts = createHostAllowlist('localhost', allowedHosts);
  const server = http.createServer(
    // Timeouts are checked every second (Node's default: every 30 s).
    { connectionsCheckingInterval: 1000 },
    (request, response) => {
      try {
        if (!hosts.allows(request.headers.host)) {
          refuseHost(response, request.headers.host);
          return;
        }
        const target = parseTarget(request.url);
        if (target === null) {
          sendJson(response, 400, {
            code: 400,
            message: 'the request target must be a path (this server is not a proxy)',
          });
        } else if (target.pathname === HEALTH_PATH) {
          const health = { service: upstream() === null ? 'down' : 'up' };
          if (hub !== null) health.hub = hub.upstream() === null ? 'down' : 'up';
          sendJson(response, 200, health);
        } else if (under(target.pathname, '/api') || (toHub !== null && under(target.pathname, '/hub'))) {
          const refused = writes.refusal(request);
          if (refused !== null) {
            // Its body is not read: the connection closes after the answer.
            sendJson(response, refused.status, { code: refused.status, message: refused.message }, { connection: 'close' });
            return;
          }
          const peer = peerOf(request.socket);
          const admitted = gate.enter(peer);
          if (admitted.refused) {
            refuseBusy(response, admitted.refused, gate, peer);
            return;
          }
          response.once('close', admitted.release);
          if (under(target.pathname, '/api')) proxy(request, response, upstream(), target);
          else proxy(request, response, hub.upstream(), target, toHub);
        } else if (pageBundle !== null && (under(target.pathname, '/kiosk/page/dist') || target.pathname === '/kiosk/page/sw.js')) {
          // A source that does not build is said in the log; the bundle on disk is served meanwhile.
          pageBundle.fresh()
            .catch((e) => log(`the page's bundle did not build: ${e.message}`))
            .then(() => serveStatic(request, response, resolvedRoot, target.pathname))
            .catch(() => response.destroy());
        } else {
          serveStatic(request, response, resolvedRoot, target.pathname);
        }
      } catch (e) {
        // A defect, not a request's fault; the server keeps running.
        log(`error on ${JSON.stringify(String(request.url).slice(0, 200))}: ${e.message}`);
        if (!response.headersSent) sendJson(response, 500, { code: 500, message: 'internal error' });
        else response.destroy();
      }
    },
  );
  // The names it answers for follow the address it listens on.
  server.on('listening', () => {
    const bound = server.address();
    hosts = createHostAllowlist(typeof bound === 'object' && bound !== null ? bound.address : 'localhost', allowedHosts);
  });
  capConnectionsPerPeer(server);
  // Slow or stalled clients: a request's head must arrive in 10 s, the whole request in 15 s.
  server.headersTimeout = REQUEST_TIMEOUTS.headersMs;
  server.requestTimeout = REQUEST_TIMEOUTS.requestMs;
  return server;
}
