// Paths and fixtures shared by the JS tests.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The conformance cases: ../shared/cases/public.json beside the repo, else the bundled copy. */
export function publicCasesPath() {
  const shared = path.resolve(root, '../shared/cases/public.json');
  return existsSync(shared) ? shared : path.join(root, 'tests/engine/cases/public.json');
}

export function loadPublicCases() {
  return JSON.parse(readFileSync(publicCasesPath(), 'utf8'));
}

export function readJson(relativePath) {
  return JSON.parse(readFileSync(path.join(root, relativePath), 'utf8'));
}

/**
 * The example request (examples/basket.json) on the example snapshot (the demo guest's account,
 * examples/snapshot.json) expects these, in this order.
 */
export const exampleRewards = [
  'rw_bogo_croissant',
  'rw_free_latte',
  'rw_welcome5',
  'rw_downtown_pastry',
  'rw_breakfast_20',
  'rw_oat_milk',
];
export const examplePointsProducts = ['pp_two_off', 'pp_pastry'];

/** Debian's Chromium, which every browser test drives through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** A headless Chromium (playwright-core's Browser); close it when done. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 60_000 });
}

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** The Content-Type the test servers send for a file name (by its extension). */
export function contentType(name) {
  return CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
}

/** Answers a test server's request with a file's bytes and content type, or 404 when unreadable. */
export function sendFile(response, file) {
  readFile(file).then(
    (bytes) => {
      response.writeHead(200, { 'content-type': contentType(file) });
      response.end(bytes);
    },
    () => response.writeHead(404).end(),
  );
}

/**
 * A test server on 127.0.0.1 for a blank page at /page.html (titled `title`) and, at their paths,
 * the repository's web/ files (`files: 'repository'`: any file of the checkout, for a page that
 * imports the tests' own modules; 403 for any other path); `route(url, response, request)` answers
 * a request first when it returns true. Resolves { server, origin }; close the server when done.
 */
export async function servePackagePage(title, route = () => false, { files = 'web' } = {}) {
  const served = files === 'repository' ? root : path.join(root, 'web');
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    if (route(url, response, request)) return;
    if (url.pathname === '/page.html') {
      response.writeHead(200, { 'content-type': contentType('page.html') }).end(`<!doctype html><title>${title}</title>`);
      return;
    }
    const file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(served + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    sendFile(response, file);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/**
 * servePackagePage(title, route, options), and Debian's Chromium with that page open (60 s per
 * step): resolves { server, origin, browser, page, close() }; close() ends both.
 */
export async function openPackagePage(title, route = () => false, options = {}) {
  const { server, origin } = await servePackagePage(title, route, options);
  let browser = null;
  const close = async () => {
    await browser?.close();
    server.closeAllConnections(); // a proxied connection kept alive, say
    await new Promise((resolve) => server.close(resolve));
  };
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${origin}/page.html`);
    return { server, origin, browser, page, close };
  } catch (e) {
    await close(); // a page that does not open leaves no server or browser behind
    throw e;
  }
}
