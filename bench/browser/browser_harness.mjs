// What the browser benches share: Chromium's launch (the system's chromium, headless) and their
// page server on 127.0.0.1: an empty page at `/`, the repository's web/ under /web/ and the
// workload folder under /workloads/, nothing else; never cached.
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { root } from '../workloads.mjs';

/** Headless Chromium as every browser bench runs it. */
export function launchBenchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.jsonl': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Resolves the listening server; `workloads` is the workload folder, `title` the page's. */
export function serveBenchPage(workloads, title) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    if (url.pathname === '/') {
      response.writeHead(200, { 'Content-Type': TYPES['.html'], 'Cache-Control': 'no-store' });
      response.end(`<!doctype html><meta charset="utf-8"><title>${title}</title>`);
      return;
    }
    let file = null;
    if (url.pathname.startsWith('/workloads/')) {
      file = path.join(workloads, path.basename(url.pathname));
    } else if (url.pathname.startsWith('/web/')) {
      file = path.join(root, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
    }
    const inside =
      file !== null &&
      (file.startsWith(path.join(root, 'web') + path.sep) || file.startsWith(workloads + path.sep));
    if (!inside || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    const body = readFileSync(file);
    response.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': 'no-store',
    });
    response.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
