// `loyalty-qualifier/msw`: Mock Service Worker (>= 2, an optional peer dependency) request
// handlers that answer from an emulator (loyalty-qualifier/emulator), for setupServer() in Node
// and setupWorker() in a page: every request under a base URL goes to the emulator, with the
// base URL's path taken off, so a test of an ordering page needs no server at all.
import { http } from 'msw';

function baseOf(url, name) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${name} must be an absolute URL such as https://loyalty.example.com`);
  }
  if (parsed.search !== '' || parsed.hash !== '') throw new TypeError(`${name} must have no query or fragment`);
  return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
}

function checkEmulator(emulator, caller) {
  if (emulator === null || typeof emulator !== 'object' || typeof emulator.fetch !== 'function') {
    throw new TypeError(`${caller}: the first argument must be an emulator (createEmulator or createStoreHubEmulator)`);
  }
}

// One handler for everything under `base`: the emulator sees the path below it.
function handlerUnder(emulator, base) {
  return http.all(`${base.origin}${base.path}/*`, async ({ request }) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(base.path.length) || '/';
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer();
    return emulator.fetch(url, { method: request.method, headers: request.headers, body });
  });
}

/**
 * Handlers for the loyalty API (baseUrl: /api/...) and the consumer API's sandbox operations
 * (sandboxUrl, default baseUrl: /rewards/grant, /purchases, /rewards, /emulator/...), answered by
 * an emulator of createEmulator().
 */
export function loyaltyHandlers(emulator, { baseUrl, sandboxUrl = baseUrl } = {}) {
  checkEmulator(emulator, 'loyaltyHandlers');
  const api = baseOf(baseUrl, 'loyaltyHandlers: baseUrl');
  const sandbox = baseOf(sandboxUrl, 'loyaltyHandlers: sandboxUrl');
  const handlers = [handlerUnder(emulator, api)];
  if (sandbox.origin !== api.origin || sandbox.path !== api.path) handlers.push(handlerUnder(emulator, sandbox));
  return handlers;
}

/** Handlers for the store hub's routes under baseUrl (/hub/...), answered by createStoreHubEmulator(). */
export function storeHubHandlers(hubEmulator, { baseUrl } = {}) {
  checkEmulator(hubEmulator, 'storeHubHandlers');
  return [handlerUnder(hubEmulator, baseOf(baseUrl, 'storeHubHandlers: baseUrl'))];
}
