// The kiosk's service worker: the page, its scripts and styles, the menu, the configuration,
// the qualifier worker's script and the wasm module are precached at install, so that a reload
// with the network off still shows the page and (from the snapshot in IndexedDB) the guest's
// offers, computed in the engine's worker: it is started from ./engine_worker.js, inside this
// worker's scope, so its requests come here too (a worker whose URL is outside the scope, such as
// /web/worker/qualifier_worker.js, would be no client of this service worker). Same-origin GETs go to the
// network first (the server answers 304 to the browser's validators, so this costs little) and
// refresh the cache; without a network they are answered from the cache. The loyalty API and the
// kiosk server's health endpoint are never cached. A new VERSION is a new worker, which precaches
// into a new cache and deletes the old ones when it takes over. The kiosk server (kiosk/server/main.mjs)
// serves this file with VERSION suffixed by a digest of everything PRECACHE names, so no deploy has
// to bump it by hand; another static server serves it as written (docs/kiosk.md).
const VERSION = 'kiosk-v4';
const CACHE = `loyalty-kiosk-${VERSION}`;
const PRECACHE = [
  './',
  './index.html',
  './kiosk.css',
  './kiosk.js',
  './state.js',
  './render.js',
  './elements.js',
  './offers_panel.js',
  './status_panels.js',
  './checkout.js',
  './basket.js',
  './offers.js',
  './money.js',
  './service_client.js',
  './store_hub.js',
  './language.js',
  './texts/en.js',
  './texts/es.js',
  './texts/fr.js',
  './texts/de.js',
  './texts/pt-BR.js',
  './menu_words.js',
  './offer_text.js',
  './engine_worker.js',
  './config.json',
  './menu.json',
  '../../web/engine/qualifier.js',
  '../../web/engine/engine_module.js',
  '../../web/engine/engine_input.js',
  '../../web/engine/engine_status.js',
  '../../web/engine/qualify_error.js',
  '../../web/engine/disposed_error.js',
  '../../web/events/qualifier_events.js',
  '../../web/lifecycle/abortable.js',
  '../../web/lifecycle/disposal.js',
  '../../web/engine/json_text.js',
  '../../web/engine/wasm_source.js',
  '../../web/engine/wire.js',
  '../../web/index.js',
  '../../web/account/snapshot_from_account.js',
  '../../web/account/intl_tz_rule.js',
  '../../web/account/money_text.js',
  '../../web/http/loyalty_client.js',
  '../../web/http/sandbox_client.js',
  '../../web/http/retry_backoff.js',
  '../../web/http/time_limit.js',
  '../../web/snapshots/snapshot_store.js',
  '../../web/storage/platform_storage.js',
  '../../web/storage/durable_file.js',
  '../../web/storage/indexed_db_store.js',
  '../../web/storage/sha256_hex.js',
  '../../web/storage/json_equality.js',
  '../../web/orders/basket_id.js',
  '../../web/orders/order_record.js',
  '../../web/orders/order_outcome.js',
  '../../web/orders/offline_policy.js',
  '../../web/orders/order_guest.js',
  '../../web/orders/order_replay.js',
  '../../web/orders/order_checkout.js',
  '../../web/orders/order_outbox.js',
  '../../web/orders/outbox_entry.js',
  '../../web/orders/memory_outbox.js',
  '../../web/orders/indexed_db_outbox.js',
  '../../web/orders/file_outbox.js',
  '../../web/orders/file_outbox_entry.js',
  '../../web/orders/order_attempt.js',
  '../../web/orders/outbox_lock.js',
  '../../web/hybrid/hybrid_qualifier.js',
  '../../web/hybrid/hybrid_options.js',
  '../../web/hybrid/local_snapshot.js',
  '../../web/hybrid/describe_age.js',
  '../../web/worker/engine_factory.js',
  '../../web/holds/pending_holds.js',
  '../../web/hub/hub_client.js',
  '../../web/holds/store_claims.js',
  '../../web/holds/kept_settlements.js',
  '../../web/holds/held_snapshot.js',
  '../../web/holds/guest_holds.js',
  '../../web/worker/worker.js',
  '../../web/worker/worker_qualifier.js',
  '../../web/worker/worker_connection.js',
  '../../web/worker/worker_messages.js',
  '../../web/worker/qualifier_worker.js',
  '../../web/worker/qualifier_host.js',
  '../../web/messages/messages.js',
  '../../web/messages/format_reason.js',
  '../../web/messages/format_message.js',
  '../../web/messages/describe_offer.js',
  '../../web/messages/add_catalog.js',
  '../../web/messages/guest_locale.js',
  '../../web/messages/catalogs.js',
  '../../web/messages/figures.js',
  '../../web/messages/messageformat/messageformat.js',
  '../../web/messages/catalogs/en.js',
  '../../web/messages/catalogs/es.js',
  '../../web/messages/catalogs/fr.js',
  '../../web/messages/catalogs/de.js',
  '../../web/messages/catalogs/pt-BR.js',
  '../../web/dist/loyalty_qualifier.mjs',
  '../../web/dist/loyalty_qualifier.browser.mjs',
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
