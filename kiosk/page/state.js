// The kiosk's state and its link to the loyalty service, without any DOM: the page setup, the
// basket, and per guest a HybridQualifier (the package's own) over the IndexedDB snapshot store
// and the IndexedDB order outbox. It tells the page what changed through `changes` events:
// 'snapshot' (a new account snapshot is in use), 'status' (online/offline), 'orders' (the
// pending orders or a settled one), 'hub' (the store hub's state).
//
// Query parameters: now=RFC3339 (a fixed clock for order times), poll=SECONDS (account refresh
// period), guest=USER_ID (the initial guest), max_age=SECONDS (age
// after which offers are provisional; default 900), retry=SECONDS (first wait before replaying
// pending orders; default 2), offline=provisional (redeem offers offline, up to $5), worker=off
// (run the engine on the page's thread; by default it runs in a Web Worker, so that loading a big
// account never freezes the page), kiosk=N (which kiosk of the store this is; default 1:
// store_hub.js). Where the service and the hub are is never a query parameter: a link could point
// them, and every guest's token and merchant key with them, anywhere. The service is config.json's
// api_base (the page's server's configuration; empty: the page's own origin), the hub the page's
// own origin.
import { HybridQualifier, indexedDbOrderOutbox, indexedDbSnapshotStore, initQualifier, isServiceUnavailable } from '../../web/index.js';
import { startQualifierWorker } from '../../web/worker/worker.js';
import { Basket } from './basket/basket.js';
import { createServiceClient } from './service/service_client.js';
import { hubInUse, hubOptionFor, hubState, kioskHealth, kioskNumber } from './service/store_hub.js';

export const params = new URLSearchParams(globalThis.location?.search ?? '');

// The guests' HybridQualifiers share one Web Worker running the engine, unless ?worker=off. It is
// started now, with the page, rather than once the configuration has named the guests (the worker
// then starts sooner: bench/README.md, "Off the main thread"), from engine_worker.js, whose URL is
// inside the service worker's scope, so that it starts offline too. Where the engine runs: each
// hybrid's engineLocation (the page shows it as <body data-engine="worker|thread">).
// startQualifierWorker connects to it at once (a script that cannot load is not missed) and starts
// its engine loading.
const engineWorker = params.get('worker') === 'off'
  ? false
  : startQualifierWorker({ worker: new Worker(new URL('./engine_worker.js', import.meta.url), { type: 'module' }) });
// In this page's thread, the engine's module starts loading now too, beside the guest's first reads
// (it would otherwise start once a snapshot is in hand); a module that cannot load is the
// qualifier's error to report, when one is made.
if (engineWorker === false) initQualifier().catch(() => {});

const fixedNow = (() => {
  const text = params.get('now');
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
})();

/** The page clock: order times and the engine's "now" (a fixed one with ?now=). */
export const clock = () => (fixedNow === null ? new Date() : new Date(fixedNow));

function secondsParam(name, fallback) {
  const value = Number(params.get(name) ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export const changes = new EventTarget();
const emit = (type, detail = null) => changes.dispatchEvent(new CustomEvent(type, { detail }));

// One store and one outbox for every guest: entries and orders are keyed by the guest's client.
const snapshotStore = indexedDbSnapshotStore({ databaseName: 'loyalty-kiosk' });
const outbox = indexedDbOrderOutbox({ databaseName: 'loyalty-kiosk-orders' });

export const state = {
  config: null,
  menus: null,
  guest: null,
  merchant: null,
  hybrid: null,
  snapshot: null, // the snapshot the page shows (the hybrid's, once applied)
  online: null, // null: not known yet
  venue: 'instore',
  locationUid: null,
  handoff: null,
  category: null,
  basket: new Basket(),
  choice: null, // null: the best offer; 'none'; or an offer id
  view: null,
  pointsDelta: null, // { value, until }: the last balance change, shown for a while
  pending: [], // the orders on this device not decided yet (every guest's, when the package can list them)
  damaged: [], // outbox entries that could not be read as orders (hybrid.damagedOrders()), for staff
  settled: [], // { guest, order, outcome } of this page's session, newest first
  order: null, // { key, basketId }: the order the basket stands for, kept until billed or refused
  refreshing: null,
  checkout: null,
  kiosk: kioskNumber(params), // which kiosk of the store (?kiosk=N)
  hub: null, // null: no store hub; 'reachable' | 'unreachable'
};

function setHub(hub) {
  if (state.hub === hub) return;
  state.hub = hub;
  emit('hub');
}

/**
 * Asks the kiosk server whether it runs a store hub and whether the hub is up: the first call
 * decides whether this kiosk claims at a hub (before the guests' qualifiers start); later calls
 * only follow its state.
 */
export async function checkHub() {
  const health = await kioskHealth(state.config.health_url);
  if (hubs === null) hubs = hubInUse(health);
  if (hubs) setHub(hubState(health));
}

let hubs = null; // whether this kiosk works with a store hub: decided once, by the first checkHub()

/** A withheld offer of a checkout: a hub that could not be reached (or refused the kiosk) is shown unreachable. */
export function noteWithheld(withheld) {
  if (state.hub !== null && (withheld?.code === 'HUB_UNREACHABLE' || withheld?.code === 'HUB_REFUSED')) setHub('unreachable');
}

export function setOnline(online) {
  if (state.online === online) return;
  state.online = online;
  emit('status');
}

/** The kiosk's offline policy: config.json's `offline`, or ?offline=provisional (up to $5). */
export function offlinePolicy() {
  if (params.get('offline') === 'provisional') return { redeem: 'provisional', maxDiscount: '5.00' };
  return state.config.offline ?? { redeem: 'never' };
}

const hybrids = new Map(); // user id -> HybridQualifier: every guest's pending orders keep replaying
const clients = new WeakMap(); // HybridQualifier -> its service client

function hybridFor(guest) {
  if (hybrids.has(guest.user_id)) return hybrids.get(guest.user_id);
  const merchant = state.config.merchants[guest.merchant_id];
  const client = createServiceClient({
    apiBase: state.config.api_base ?? '',
    healthUrl: state.config.health_url,
    accessToken: guest.access_token,
    merchantKey: merchant.merchant_key,
  });
  const hybrid = new HybridQualifier({
    client,
    store: snapshotStore,
    outbox,
    maxAgeMs: secondsParam('max_age', 900) * 1000,
    qualifierOptions: { now: clock },
    worker: engineWorker,
    offline: offlinePolicy(),
    backoff: { initialMs: secondsParam('retry', 2) * 1000, maxMs: 60_000 },
    ...(hubs ? { hub: hubOptionFor(state.kiosk, state.config.health_url) } : {}),
    onOrderSettled: (order, outcome) => {
      // With device-wide replay any guest's HybridQualifier may settle any order: whose it is
      // comes from the order.
      const owner = guestOfOrder(order) ?? guest;
      state.settled.unshift({ guest: owner, order, outcome });
      if (state.order?.basketId === (outcome.originalBasketId ?? order.basketId)) state.order = null;
      if (outcome.status === 'billed') setOnline(true);
      updateOrders();
      if (state.guest === owner) refreshAccount();
    },
  });
  // What the guest's engine answers from changed without a new snapshot (another kiosk's claim,
  // a spend the service has since billed): the offers in view are computed again.
  hybrid.addEventListener('snapshotchange', (event) => {
    if (event.reason === 'holds' && state.hybrid === hybrid) emit('holds');
  });
  hybrids.set(guest.user_id, hybrid);
  clients.set(hybrid, client);
  return hybrid;
}

/** The configured guest an order belongs to (its userId and merchantId), or null when unknown. */
export function guestOfOrder(order) {
  if (typeof order?.userId !== 'string') return null;
  return state.config.guests.find((g) => g.user_id === order.userId &&
    (typeof order.merchantId !== 'string' || g.merchant_id === order.merchantId)) ?? null;
}

/** The label of an offer ({ kind, id }) in the guest's account snapshot (`labelOf` its record), else its id. */
export function offerLabel(guest, offer, labelOf = (record) => record.label) {
  const snapshot = hybrids.get(guest.user_id)?.currentSnapshot() ?? null;
  const records = offer.kind === 'points_product' ? snapshot?.points_products : snapshot?.rewards;
  const record = records?.find((r) => r.id === offer.id);
  return (record && labelOf(record)) || offer.id;
}

/** Starts every configured guest's HybridQualifier: each replays what an earlier run left. */
export function startGuests() {
  for (const guest of state.config.guests) hybridFor(guest);
}

/**
 * Makes the guest current; resolves once a snapshot is in use (or none can be): true when the
 * service answered an account read meanwhile (the snapshot in hand is fresh), else false.
 */
export async function useGuest(guest) {
  state.guest = guest;
  state.merchant = state.config.merchants[guest.merchant_id];
  state.snapshot = null;
  state.pending = [];
  const hybrid = hybridFor(guest);
  state.hybrid = hybrid;
  const readsBefore = clients.get(hybrid).accountReads;
  try {
    await hybrid.ready();
  } catch {
    // No usable snapshot (a first visit while the service is down): the page says so.
  }
  if (state.hybrid !== hybrid) return false;
  applyCurrentSnapshot();
  await updateOrders();
  return clients.get(hybrid).accountReads > readsBefore;
}

function applyCurrentSnapshot() {
  const snapshot = state.hybrid?.currentSnapshot() ?? null;
  if (snapshot === null || snapshot === state.snapshot) return;
  const previous = state.snapshot;
  state.snapshot = snapshot;
  emit('snapshot', { previous });
}

/**
 * The pending orders of every guest on this device (`pendingOrders({ all: true })`; a package
 * without it gives this guest's), and the outbox entries that need a person (`damagedOrders()`,
 * when the package has it). Neither ever blocks checkout.
 */
export async function updateOrders() {
  const hybrid = state.hybrid;
  try {
    const pending = await hybrid.pendingOrders({ all: true });
    if (state.hybrid !== hybrid) return;
    state.pending = pending;
  } catch {
    // an unreadable outbox: shown as it was
  }
  if (typeof hybrid.damagedOrders === 'function') {
    try {
      const damaged = await hybrid.damagedOrders();
      if (state.hybrid !== hybrid) return;
      state.damaged = Array.isArray(damaged) ? damaged : [];
    } catch {
      // shown as it was
    }
  }
  emit('orders');
}

/**
 * What identifies the order the basket stands for: the guest and the request without its time.
 * The same key is the same order (the same basket id); a changed basket is a new order.
 */
export function orderKey(request) {
  const { order_timestamp: time, ...contents } = request;
  return JSON.stringify([state.guest?.user_id ?? null, contents]);
}

/**
 * Refreshes the guest's account (a conditional GET: unchanged costs a 304) and replays pending
 * orders; the service being down only marks the page offline.
 */
export function refreshAccount() {
  if (state.refreshing?.hybrid === state.hybrid) return state.refreshing.done;
  const hybrid = state.hybrid;
  const refresh = { hybrid, done: null };
  state.refreshing = refresh;
  refresh.done = (async () => {
    try {
      await hybrid.refresh();
      if (state.hybrid !== hybrid) return;
      applyCurrentSnapshot();
      emit('banner', null);
      setOnline(true);
      if (state.pending.length > 0) {
        await hybrid.flush();
        await updateOrders();
      }
    } catch (e) {
      if (state.hybrid !== hybrid) return;
      if (isServiceUnavailable(e)) setOnline(false);
      else if (e?.code !== 410) emit('banner', { key: 'banner.guestRefused', values: { error: e.message } });
      await updateOrders();
    }
  })().finally(() => {
    if (state.refreshing === refresh) state.refreshing = null;
  });
  return refresh.done;
}

/** The qualifying request of the basket and the setup, at the page clock. */
export function orderRequest() {
  return state.basket.request({
    venue: state.venue,
    locationUid: state.locationUid,
    handoff: state.handoff,
    orderTimestamp: clock().toISOString(),
  });
}
