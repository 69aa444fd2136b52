// The static files of the page server: SITE_FOLDERS at their repository paths, with validators
// (ETag, Last-Modified) and 304s, "/" redirected to the page, the service worker versioned. A file
// is served only when its real path (every symbolic link resolved) is inside a folder's.
import { createReadStream, realpathSync } from 'node:fs';
import path from 'node:path';

import { SERVICE_WORKER, versionedServiceWorker } from './service_worker.mjs';
import { statOrNothing } from './stat_or_nothing.mjs';

/** The folders the page server serves, under the site root, at their repository paths. */
// node_modules/messageformat: the formatter of loyalty-qualifier/messages (the page's import map names it).
export const SITE_FOLDERS = ['kiosk/page', 'web', 'node_modules/messageformat'];

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

// The real path of `file` (every symbolic link on the way resolved), or undefined when there is none.
function realPathOrNothing(file) {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

// `file`'s real path when it is inside the real path of one of SITE_FOLDERS (resolved now, at
// every request: a link made or changed while the server runs counts), 403 when a symbolic link
// (the file, or a folder on the way) leads out of them, 404 when there is no such file.
function realServedPath(file, siteRoot) {
  const real = realPathOrNothing(file);
  if (real === undefined) return 404;
  const inside = SITE_FOLDERS.some((folder) => {
    const dir = realPathOrNothing(path.join(siteRoot, folder));
    return dir !== undefined && (real === dir || real.startsWith(dir + path.sep));
  });
  return inside ? real : 403;
}

const STATUS_TEXT = { 400: 'bad path\n', 403: 'forbidden\n', 404: 'not found\n' };

/** Answers a GET or HEAD for `pathname` (raw, still percent-encoded) from the files under siteRoot. */
export function serveStatic(request, response, siteRoot, pathname) {
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
  // Read from the real path checked here, never through the links again.
  let real = typeof file === 'number' ? file : realServedPath(file, siteRoot);
  let stat = typeof real === 'number' ? undefined : statOrNothing(real);
  if (stat?.isDirectory()) {
    if (!pathname.endsWith('/')) {
      response.writeHead(301, { location: `${pathname}/` }).end();
      return;
    }
    file = path.join(file, 'index.html');
    real = realServedPath(file, siteRoot);
    stat = typeof real === 'number' ? undefined : statOrNothing(real);
  }
  if (!stat?.isFile()) {
    const status = typeof real === 'number' ? real : 404;
    response.writeHead(status, { 'content-type': 'text/plain' }).end(STATUS_TEXT[status]);
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
  else createReadStream(real).on('error', () => response.destroy()).pipe(response);
}
