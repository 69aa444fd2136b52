// The page server: one origin for the kiosk page, its static files, the /api reverse proxy and the
// kiosk's health check.
import http from 'node:http';
import path from 'node:path';

import { proxy } from './api_proxy.mjs';
import { sendJson } from './json_answer.mjs';
import { log } from './kiosk_log.mjs';
import { root } from './repository_root.mjs';
import { serveStatic } from './static_files.mjs';

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
