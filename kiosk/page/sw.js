// The kiosk's service worker: the page, its scripts and styles, the menu, the configuration,
// the engine worker's script and the wasm module are precached at install, so that a reload
// with the network off still shows the page and (from the snapshot in IndexedDB) the guest's
// offers, computed in the engine's worker: it is started from ./dist/engine_worker.js, inside this
// worker's scope, so its requests come here too (a worker whose URL is outside the scope, such as
// /web/worker/qualifier_worker.js, would be no client of this service worker). Same-origin GETs go to the
// network first (the server answers 304 to the browser's validators, so this costs little) and
// refresh the cache; without a network they are answered from the cache. The loyalty API and the
// kiosk server's health endpoint are never cached. A new VERSION is a new worker, which precaches
// into a new cache and deletes the old ones when it takes over. The kiosk server (kiosk/server/main.mjs)
// serves this file with VERSION suffixed by a digest of everything PRECACHE names, so no deploy has
// to bump it by hand; another static server serves it as written (docs/kiosk.md).
const VERSION = 'kiosk-v5';
const CACHE = `loyalty-kiosk-${VERSION}`;
// What the page loads: the build's bundles of the page and of its engine worker (dist/, made from
// kiosk.js and engine_worker.js with every module they import: kiosk/server/page_bundle.mjs), and
// what those load by URL from the package, the module glue (when the engine runs in the page) and
// the wasm module. tests/kiosk/page/kiosk_precache.test.js checks that nothing loaded is missing.
const PRECACHE = [
  './',
  './index.html',
  './kiosk.css',
  './dist/kiosk.js',
  './dist/engine_worker.js',
  './config.json',
  './menu.json',
  '../../web/dist/loyalty_qualifier.mjs',
  '../../web/dist/loyalty_qualifier.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((path) => new Request(path, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('loyalty-kiosk-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function cacheable(request) {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  // The service's and the store hub's answers are never kept: a cached claim list would be a lie.
  return !['/api', '/hub'].some((route) => url.pathname === route || url.pathname.startsWith(`${route}/`)) &&
    !url.pathname.startsWith('/_kiosk/');
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (e) {
    // Offline: the cached copy. A page URL with a query (?now=…) is the page itself.
    const cached = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
    if (cached) return cached;
    throw e;
  }
}

self.addEventListener('fetch', (event) => {
  if (!cacheable(event.request)) return; // the browser fetches it as usual
  event.respondWith(networkFirst(event.request));
});
