// The kiosk's place in the store (docs/kiosk.md, "One store, many kiosks"): which kiosk this page
// is (?kiosk=N, default 1; its kiosk id "kiosk-N"), whether the kiosk server runs a store hub, and
// whether the hub can be reached now. The page reaches the hub only through its own origin's
// /hub/, where the kiosk server adds the store key: the page never holds the key, so the
// HybridQualifier's storeKey is a placeholder the server replaces.
//
// A hub is in use when the kiosk server's health answer names one ({ hub: "up" | "down" }); this
// device remembers it, so that a page started while the server cannot be asked still claims at the
// hub (and promises nothing while it cannot) rather than promising on its own.

const REMEMBERED = 'loyalty-kiosk-store-hub';
const PLACEHOLDER_KEY = 'added-by-the-kiosk-server';

/** The kiosk's number from ?kiosk=N (1 to 999; anything else is 1). */
export function kioskNumber(params) {
  const text = params.get('kiosk') ?? '1';
  return /^[1-9]\d{0,2}$/.test(text) ? Number(text) : 1;
}

/** The kiosk id the hub shows to the other kiosks: "kiosk-N". */
export const kioskIdOf = (number) => `kiosk-${number}`;

function remember(inUse) {
  try {
    if (inUse) globalThis.localStorage?.setItem(REMEMBERED, 'yes');
    else globalThis.localStorage?.removeItem(REMEMBERED);
  } catch {
    // no storage: the next start asks the server again
  }
}

function remembered() {
  try {
    return globalThis.localStorage?.getItem(REMEMBERED) === 'yes';
  } catch {
    return false;
  }
}

/**
 * The kiosk server's health answer ({ service, hub? }), or null when it cannot be asked (offline,
 * no health endpoint, a server that is down). Always 200 when it answers: no failed request in
 * the console.
 */
export async function kioskHealth(healthUrl) {
  if (!healthUrl || globalThis.navigator?.onLine === false) return null;
  try {
    const response = await fetch(healthUrl, { cache: 'no-store', signal: AbortSignal.timeout(5_000) });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/**
 * Whether this kiosk works with a store hub: the health answer says so (and is remembered), or,
 * without one, what was remembered.
 */
export function hubInUse(health) {
  if (health === null) return remembered();
  const inUse = typeof health?.hub === 'string';
  remember(inUse);
  return inUse;
}

/** The hub's state from a health answer: 'reachable', or 'unreachable' (down, or not asked). */
export const hubState = (health) => (health?.hub === 'up' ? 'reachable' : 'unreachable');

/**
 * A fetch for the hub's calls that asks the kiosk server's health first, as the service client
 * does: Chromium logs every failed or non-2xx fetch as a console error, so a stopped hub or a cut
 * network fails the call at once, without a request (the hybrid takes it as unreachable).
 */
function whenHubIsUp(healthUrl) {
  return async (resource, init) => {
    if ((await kioskHealth(healthUrl))?.hub !== 'up') throw new TypeError('the store hub is not reachable (offline or stopped)');
    return globalThis.fetch(resource, init);
  };
}

/** HybridQualifier's `hub` option for this page: the page's own origin (the kiosk server's /hub/). */
export function hubOptionFor(number, healthUrl) {
  return { url: globalThis.location.origin, storeKey: PLACEHOLDER_KEY, kioskId: kioskIdOf(number), fetch: whenHubIsUp(healthUrl) };
}
