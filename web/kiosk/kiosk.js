// The kiosk page: a menu, a basket and an Offers panel recomputed locally by the wasm engine on
// every change, from the guest's account snapshot (fetched from the service, cached in
// localStorage so that offers keep working while the service is down). Checkout asks the
// service: the authoritative qualifying call, then POST /api/baskets with state "billed".
//
// Query parameters: now=RFC3339 (a fixed clock, for demos and tests), poll=SECONDS (account
// refresh period), api=BASE (the API base URL), guest=USER_ID (the initial guest).
import { createQualifier } from '../qualifier.js';
import { Basket } from './basket.js';
import { formatMoney, parseCents } from './money.js';
import { offerView, walletOf } from './offers.js';
import { isServiceUnavailable as isUnreachable } from '../loyalty_client.js';
import { createServiceClient, serviceIsUp } from './service_client.js';

const CACHE_PREFIX = 'loyalty-kiosk:v1:account:';
const params = new URLSearchParams(window.location.search);
const $ = (id) => document.getElementById(id);

const fixedNow = (() => {
  const text = params.get('now');
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
})();
const clock = () => (fixedNow === null ? new Date() : new Date(fixedNow));

const state = {
  config: null,
  menus: null,
  guest: null,
  merchant: null,
  client: null,
  snapshot: null,
  snapshotAt: null,  // when the snapshot was fetched (ms)
  qualifier: null,
  online: null,  // null: not known yet
  venue: 'instore',
  locationUid: null,
  handoff: null,
  category: null,
  basket: new Basket(),
  choice: null,  // null: the best offer; 'none'; or an offer id
  view: null,
  refreshTimer: null,
  pointsDelta: null,  // { value, until }: the last balance change, shown for a while
  newsTimer: null,
  refreshing: null,
  checkout: null,
};

// ---------------------------------------------------------------------------------- helpers

/** h('p', { class: 'x', onclick }, 'text', child): a DOM element. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Re-renders a container without losing the keyboard focus (by data-focus-key). */
function keepFocus(container, render) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.focusKey : undefined;
  render();
  if (key === undefined) return;
  const again = container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (again) again.focus();
  else container.closest('section, aside')?.querySelector('h2')?.focus();
}

function announce(text) {
  const region = $('announce');
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

function showBanner(text) {
  const banner = $('banner');
  banner.textContent = text ?? '';
  banner.hidden = !text;
}

/** A short-lived notice in the Offers panel (a reward earned, e.g. by a campaign). */
function showNews(text) {
  const news = $('news');
  window.clearTimeout(state.newsTimer);
  news.textContent = text ?? '';
  news.hidden = !text;
  if (text) {
    announce(text);
    state.newsTimer = window.setTimeout(() => showNews(null), 60_000);
  }
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** A date as the merchant's guests read it (in the merchant's time zone when the browser knows it). */
function localDate(iso) {
  const options = { month: 'short', day: 'numeric' };
  try {
    return new Date(iso).toLocaleDateString([], { ...options, timeZone: state.snapshot?.merchant?.time_zone });
  } catch {
    return new Date(iso).toLocaleDateString([], options);
  }
}

function pointsName() {
  return state.merchant?.points_name ?? 'points';
}

async function loadJson(url) {
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// ----------------------------------------------------------------------------- the account

function cacheKey(guest) {
  return `${CACHE_PREFIX}${guest.merchant_id}:${guest.user_id}`;
}

function readCache(guest) {
  try {
    const entry = JSON.parse(window.localStorage.getItem(cacheKey(guest)) ?? 'null');
    return entry && entry.snapshot ? entry : null;
  } catch {
    return null;
  }
}

function writeCache(guest, snapshot, at) {
  try {
    window.localStorage.setItem(cacheKey(guest), JSON.stringify({ at, snapshot }));
  } catch {
    // Storage full or disabled: the page still works online.
  }
}

/** Loads a snapshot into the engine; false (and a banner) when the engine refuses it. */
async function applySnapshot(snapshot, at) {
  const previous = state.snapshot;
  try {
    if (state.qualifier === null) state.qualifier = await createQualifier(snapshot, { now: clock });
    else state.qualifier.setSnapshot(snapshot);
  } catch (e) {
    showBanner(`Offers cannot be computed for this account: ${e.message}`);
    return false;
  }
  state.snapshot = snapshot;
  state.snapshotAt = at;
  if (previous && previous.user?.id === snapshot.user?.id) {
    const delta = walletOf(snapshot).balance - walletOf(previous).balance;
    if (delta !== 0) state.pointsDelta = { value: delta, until: Date.now() + 30_000 };
    const known = new Set((previous.rewards ?? []).map((r) => r.id));
    const added = (snapshot.rewards ?? [])
      .filter((r) => !known.has(r.id) && (r.state ?? 'redeemable') === 'redeemable');
    if (added.length > 0) showNews(`New reward: ${added.map((r) => r.label || r.id).join(', ')}`);
  } else {
    state.pointsDelta = null;
    showNews(null);
  }
  renderLocations();
  renderWallet();
  recompute();
  return true;
}

function setOnline(online) {
  if (state.online === online) return;
  state.online = online;
  renderStatus();
  recompute();
}

/** Fetches the guest's account; the service being down only marks the page offline. */
function refreshAccount() {
  // One refresh at a time per guest; a guest change starts its own at once.
  if (state.refreshing?.guest === state.guest) return state.refreshing.done;
  const guest = state.guest;
  const client = state.client;
  const refresh = { guest, done: null };
  state.refreshing = refresh;
  refresh.done = (async () => {
    const up = await serviceIsUp(state.config.health_url);
    if (guest !== state.guest) return;
    if (up === false) {
      setOnline(false);
      return;
    }
    try {
      const snapshot = await client.account();
      if (guest !== state.guest) return;
      const at = Date.now();
      if (await applySnapshot(snapshot, at)) {
        writeCache(guest, snapshot, at);
        showBanner(null);
      }
      setOnline(true);
    } catch (e) {
      if (guest !== state.guest) return;
      if (isUnreachable(e)) setOnline(false);
      else showBanner(`The loyalty service refused this guest: ${e.message}`);
    }
  })().finally(() => {
    if (state.refreshing === refresh) state.refreshing = null;
  });
  return refresh.done;
}

function scheduleRefresh() {
  window.clearTimeout(state.refreshTimer);
  const seconds = Number(params.get('poll') ?? state.config.refresh_seconds ?? 5);
  const delay = Math.max(0.25, Number.isFinite(seconds) ? seconds : 5) * 1000;
  state.refreshTimer = window.setTimeout(async () => {
    if (!state.checkout) await refreshAccount();
    scheduleRefresh();
  }, delay);
}

// ------------------------------------------------------------------------------ the setup

async function selectGuest(userId) {
  const guest = state.config.guests.find((g) => g.user_id === userId) ?? state.config.guests[0];
  const merchantChanged = guest.merchant_id !== state.guest?.merchant_id;
  state.guest = guest;
  state.merchant = state.config.merchants[guest.merchant_id];
  state.client = createServiceClient({
    apiBase: params.get('api') ?? state.config.api_base ?? '',
    accessToken: guest.access_token,
    merchantKey: state.merchant.merchant_key,
  });
  state.choice = null;
  if (merchantChanged) {
    state.basket.clear();
    state.category = null;
    state.locationUid = null;
    $('merchant-name').textContent = state.merchant.name;
    document.title = `Order — ${state.merchant.name}`;
    renderMenu();
  }
  state.snapshot = null;
  const cached = readCache(guest);
  if (cached) await applySnapshot(cached.snapshot, cached.at);
  else {
    state.pointsDelta = null;
    renderLocations();
    renderWallet();
    recompute();
  }
  renderBasket();
  await refreshAccount();
}

function renderGuests() {
  const select = $('guest');
  select.replaceChildren(...state.config.guests.map((g) => {
    const merchant = state.config.merchants[g.merchant_id];
    return h('option', { value: g.user_id }, `${g.name} · ${merchant?.name ?? g.merchant_id}`);
  }));
}

function renderLocations() {
  const select = $('location');
  const names = state.merchant.locations ?? {};
  const configured = Object.keys(names);
  let uids = configured;
  if (state.snapshot) {
    const merchantId = state.snapshot.merchant?.id;
    const known = (state.snapshot.locations ?? [])
      .filter((l) => (l.merchant_id ?? merchantId) === merchantId)
      .map((l) => l.uid);
    // The configured order first (the kiosk's own location leads), then any others.
    uids = [...configured.filter((uid) => known.includes(uid)), ...known.filter((uid) => !configured.includes(uid))];
  }
  if (!uids.includes(state.locationUid)) state.locationUid = uids[0] ?? null;
  const current = [...select.options].map((o) => o.value).join('\n');
  if (current !== uids.join('\n')) {
    select.replaceChildren(...uids.map((uid) => h('option', { value: uid }, names[uid] ?? uid)));
  }
  select.value = state.locationUid ?? '';
  select.disabled = uids.length === 0;
}

function renderHandoffs() {
  const options = state.config.handoffs[state.venue] ?? [];
  if (!options.some((o) => o.id === state.handoff)) state.handoff = options[0]?.id ?? null;
  $('handoff-options').replaceChildren(...options.map((o) =>
    h('label', {},
      h('input', { type: 'radio', name: 'handoff', value: o.id, checked: o.id === state.handoff }),
      h('span', {}, o.label))));
}

// -------------------------------------------------------------------------- menu, basket

function menu() {
  return state.menus[state.merchant.menu] ?? { categories: [], items: [], modifier_groups: {} };
}

function renderMenu() {
  const { categories, items } = menu();
  state.category ??= categories[0]?.id ?? null;
  $('categories').replaceChildren(...categories.map((c) =>
    h('label', {},
      h('input', { type: 'radio', name: 'category', value: c.id, checked: c.id === state.category }),
      h('span', {}, c.name))));
  const shown = items.filter((item) => (item.categories ?? []).includes(state.category));
  $('items').replaceChildren(...shown.map((item) =>
    h('li', {},
      h('button', {
        type: 'button',
        class: 'item',
        dataset: { id: item.id, focusKey: `item:${item.id}` },
        'aria-label': `${item.name}, ${formatMoney(parseCents(item.price))}, ${
          hasModifiers(item) ? 'customise and add' : 'add to order'}`,
        onclick: () => chooseItem(item),
      },
      h('span', { class: 'name' }, item.name),
      h('span', { class: 'description' }, item.description ?? ''),
      h('span', { class: 'price' }, formatMoney(parseCents(item.price))),
      h('span', { class: 'add', 'aria-hidden': 'true' }, '+')))));
}

function hasModifiers(item) {
  return (item.modifiers ?? []).some((group) => (menu().modifier_groups[group] ?? []).length > 0);
}

function addToBasket(item, modifiers, quantity) {
  state.basket.add(item, modifiers, quantity);
  onBasketChange();
  const count = state.view?.offers.length ?? 0;
  announce(`${quantity} × ${item.name} added. Subtotal ${formatMoney(state.basket.subtotalCents)}. ` +
    `${plural(count, 'offer')} available.`);
}

function chooseItem(item) {
  if (!hasModifiers(item)) {
    addToBasket(item, [], 1);
    return;
  }
  openCustomize(item);
}

function openCustomize(item) {
  const dialog = $('customize');
  const groups = menu().modifier_groups;
  let quantity = 1;
  $('customize-title').textContent = item.name;
  $('customize-description').textContent = item.description ?? '';
  $('customize-groups').replaceChildren(...item.modifiers.map((groupId) =>
    h('fieldset', { class: 'modifiers' },
      h('legend', {}, groupId.replace(/_/g, ' ')),
      ...(groups[groupId] ?? []).map((m) =>
        h('label', { class: 'check' },
          h('input', { type: 'checkbox', value: m.id, dataset: { group: groupId } }),
          h('span', { class: 'name' }, m.name),
          h('span', { class: 'price' }, parseCents(m.price) > 0 ? `+${formatMoney(parseCents(m.price))}` : 'free'))))));
  const chosen = () => [...$('customize-groups').querySelectorAll('input:checked')]
    .map((input) => groups[input.dataset.group].find((m) => m.id === input.value));
  const update = () => {
    $('customize-quantity').textContent = String(quantity);
    const unit = Basket.unitCents({ item, modifiers: chosen() });
    $('customize-add').textContent = `Add ${quantity} to order · ${formatMoney(unit * quantity)}`;
    $('customize-less').disabled = quantity <= 1;
  };
  const controller = new AbortController();
  const { signal } = controller;
  $('customize-groups').addEventListener('change', update, { signal });
  $('customize-less').addEventListener('click', () => {
    quantity = Math.max(1, quantity - 1);
    update();
  }, { signal });
  $('customize-more').addEventListener('click', () => {
    quantity = Math.min(99, quantity + 1);
    update();
  }, { signal });
  $('customize-cancel').addEventListener('click', () => dialog.close(), { signal });
  $('customize-form').addEventListener('submit', (event) => {
    event.preventDefault();
    addToBasket(item, chosen(), quantity);
    dialog.close();
  }, { signal });
  dialog.addEventListener('close', () => {
    controller.abort();
    document.querySelector(`[data-focus-key="item:${CSS.escape(item.id)}"]`)?.focus();
  }, { signal });
  update();
  dialog.showModal();
  $('customize-add').focus();
}

function onBasketChange() {
  recompute();
  renderBasket();
}

function renderBasket() {
  const basket = state.basket;
  $('basket-empty').hidden = !basket.isEmpty;
  $('basket-count').textContent = basket.isEmpty ? '' : `(${basket.count})`;
  const lines = $('lines');
  keepFocus(lines, () => {
    lines.replaceChildren(...basket.lines.map((line) => {
      const modifiers = line.modifiers.map((m) => m.name).join(', ');
      const setQuantity = (quantity) => () => {
        basket.setQuantity(line.key, quantity);
        onBasketChange();
        announce(quantity > 0 ? `${line.item.name}: ${quantity}` : `${line.item.name} removed`);
      };
      return h('li', { class: 'line', dataset: { key: line.key } },
        h('div', { class: 'what' },
          h('span', { class: 'name' }, line.item.name),
          modifiers && h('span', { class: 'modifiers' }, modifiers)),
        h('div', { class: 'stepper', role: 'group', 'aria-label': `Quantity of ${line.item.name}` },
          h('button', { type: 'button', class: 'round', dataset: { focusKey: `less:${line.key}` },
            'aria-label': line.quantity > 1 ? `One less ${line.item.name}` : `Remove ${line.item.name}`,
            onclick: setQuantity(line.quantity - 1) }, line.quantity > 1 ? '−' : '×'),
          h('output', { class: 'quantity' }, String(line.quantity)),
          h('button', { type: 'button', class: 'round', dataset: { focusKey: `more:${line.key}` },
            'aria-label': `One more ${line.item.name}`, onclick: setQuantity(line.quantity + 1) }, '+')),
        h('span', { class: 'amount' }, formatMoney(Basket.lineCents(line))));
    }));
  });
  renderTotals();
}

function renderTotals() {
  const subtotal = state.basket.subtotalCents;
  const selected = state.basket.isEmpty ? null : state.view?.selected ?? null;
  const discount = selected ? Math.min(selected.discountCents, subtotal) : 0;
  $('subtotal').textContent = formatMoney(subtotal);
  $('discount-row').hidden = !selected;
  $('discount-label').textContent = selected ? selected.label : 'Offer';
  $('discount').textContent = formatMoney(-discount);
  $('total').textContent = formatMoney(subtotal - discount);
  const checkout = $('checkout');
  const note = $('checkout-note');
  checkout.textContent = `Checkout · ${formatMoney(subtotal - discount)}`;
  if (state.basket.isEmpty) {
    checkout.disabled = true;
    note.textContent = '';
  } else if (state.online !== true) {
    checkout.disabled = true;
    note.textContent = state.online === false
      ? 'Checkout needs the loyalty service, which is not reachable right now. Your offers are provisional.'
      : 'Connecting to the loyalty service…';
  } else {
    checkout.disabled = false;
    note.textContent = '';
  }
  note.hidden = note.textContent === '';
}

// ------------------------------------------------------------------------------- offers

function orderRequest() {
  return state.basket.request({
    venue: state.venue,
    locationUid: state.locationUid,
    handoff: state.handoff,
    orderTimestamp: clock().toISOString(),
  });
}

/** Runs the engine on the basket (every change) and renders the Offers panel. */
function recompute() {
  if (!state.snapshot || !state.qualifier) {
    state.view = null;
    renderOffers(null);
    renderTotals();
    return;
  }
  const request = orderRequest();
  let elapsed;
  try {
    const started = performance.now();
    const qualified = state.qualifier.qualify(request);
    const explained = state.qualifier.explain(request);
    elapsed = performance.now() - started;
    state.view = offerView(state.snapshot, qualified, explained, state.choice);
  } catch (e) {
    state.view = null;
    showBanner(`Offers cannot be computed: ${e.message}`);
  }
  renderOffers(elapsed);
  renderTotals();
}

function offerDetail(offer) {
  const parts = [`Saves ${formatMoney(offer.discountCents)}`];
  if (offer.points !== null) parts.push(`uses ${offer.points} ${pointsName()}`);
  if (offer.retireAt) parts.push(`until ${localDate(offer.retireAt)}`);
  return parts.join(' · ');
}

function renderOffers(elapsed) {
  const view = state.view;
  const provisional = state.online !== true && state.snapshot !== null;
  $('provisional').hidden = !provisional;
  document.querySelector('.offers').classList.toggle('provisional', provisional);
  const note = $('provisional-note');
  note.hidden = !provisional;
  if (provisional) {
    note.textContent = state.online === false
      ? `Offline: computed from your account as of ${time(state.snapshotAt)}. The service confirms them at checkout.`
      : `From your account as of ${time(state.snapshotAt)}; checking with the service…`;
  }

  const empty = $('offers-empty');
  const list = $('offer-list');
  if (!view) {
    empty.textContent = state.online === false
      ? 'Offers are unavailable: the loyalty service is offline and this guest has no saved account.'
      : 'Loading your account…';
    empty.hidden = false;
    $('offer-choice').hidden = true;
    $('hints-section').hidden = true;
    $('others-section').hidden = true;
    $('timing').textContent = '';
    return;
  }

  empty.hidden = view.offers.length > 0;
  empty.textContent = state.basket.isEmpty
    ? 'Add items to see your offers.'
    : 'No offers apply to this order yet.';
  $('offer-choice').hidden = view.offers.length === 0;
  keepFocus(list, () => {
    const options = view.offers.map((offer) => {
      const key = `${offer.kind}:${offer.id}`;
      return h('li', { class: `offer${offer.best ? ' best' : ''}`, dataset: { id: offer.id, kind: offer.kind } },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: offer.id, checked: view.selected?.id === offer.id,
            dataset: { focusKey: key } }),
          h('span', { class: 'body' },
            offer.best && h('span', { class: 'badge best' }, 'Best offer'),
            h('span', { class: 'label' }, offer.label),
            h('span', { class: 'detail' }, offerDetail(offer)),
            offer.finePrint && h('span', { class: 'fine-print' }, offer.finePrint)),
          h('span', { class: 'saving' }, formatMoney(-offer.discountCents))));
    });
    if (view.offers.length > 0) {
      options.push(h('li', { class: 'offer none' },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: '', checked: view.selected === null,
            dataset: { focusKey: 'none' } }),
          h('span', { class: 'body' }, h('span', { class: 'label' }, 'No offer this time')))));
    }
    list.replaceChildren(...options);
  });

  $('hints-section').hidden = view.hints.length === 0;
  $('hints').replaceChildren(...view.hints.map((hint) =>
    h('li', { class: 'hint', dataset: { id: hint.id } },
      'Spend ', h('strong', {}, formatMoney(hint.remainingCents)), ' more to unlock ',
      h('strong', {}, hint.label))));

  $('others-section').hidden = view.others.length === 0;
  $('others').replaceChildren(...view.others.map((other) =>
    h('li', { dataset: { id: other.id } }, h('strong', {}, other.label), ': ', other.reasons.join(' '))));

  $('timing').textContent = elapsed === undefined
    ? ''
    : `Computed on this device in ${elapsed < 0.1 ? '< 0.1' : elapsed.toFixed(1)} ms`;
}

function renderWallet() {
  const pointsDelta = state.pointsDelta && state.pointsDelta.until > Date.now() ? state.pointsDelta.value : 0;
  const wallet = $('wallet');
  if (!state.guest) return;
  const parts = [h('span', { class: 'guest' }, `Hi, ${state.guest.name}`)];
  if (state.snapshot) {
    const { rewardCount, balance } = walletOf(state.snapshot, clock().getTime());
    parts.push(h('span', { class: 'points', id: 'points-balance', dataset: { balance } },
      `${balance.toLocaleString()} ${pointsName()}`));
    if (pointsDelta !== 0) {
      parts.push(h('span', { class: `delta ${pointsDelta > 0 ? 'up' : 'down'}` },
        `${pointsDelta > 0 ? '+' : '−'}${Math.abs(pointsDelta)}`));
    }
    parts.push(h('span', { class: 'rewards', id: 'reward-count' }, plural(rewardCount, 'reward')));
  }
  wallet.replaceChildren(...parts);
}

function renderStatus() {
  const status = $('status');
  const text = $('status-text');
  if (state.online === true) {
    status.dataset.state = 'online';
    text.textContent = 'Online';
  } else if (state.online === false) {
    status.dataset.state = 'offline';
    text.textContent = 'Offline · offers provisional';
  } else {
    status.dataset.state = 'connecting';
    text.textContent = 'Connecting…';
  }
}

// ----------------------------------------------------------------------------- checkout

function newBasketId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return `kiosk-${Date.now().toString(36)}-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function checkoutStep(body, actions) {
  $('checkout-body').replaceChildren(...[body].flat().filter(Boolean));
  $('checkout-actions').replaceChildren(...actions);
  (actions.find((a) => a.classList.contains('primary')) ?? actions[0])?.focus();
}

function button(label, onclick, kind = 'secondary', id = undefined) {
  return h('button', { type: 'button', class: kind, id, onclick }, label);
}

function summary(subtotal, offer, discount) {
  return h('dl', { class: 'totals' },
    h('div', {}, h('dt', {}, 'Subtotal'), h('dd', {}, formatMoney(subtotal))),
    offer && h('div', { class: 'discount' }, h('dt', {}, offer.label), h('dd', {}, formatMoney(-discount))),
    h('div', { class: 'total' }, h('dt', {}, 'Total'), h('dd', {}, formatMoney(subtotal - discount))));
}

function closeCheckout() {
  state.checkout = null;
  $('checkout-dialog').close();
}

async function startCheckout() {
  if (state.basket.isEmpty || state.online !== true) return;
  const dialog = $('checkout-dialog');
  const request = orderRequest();
  const offer = state.view?.selected ?? null;
  const subtotal = state.basket.subtotalCents;
  const session = { request, offer, subtotal };
  state.checkout = session;
  checkoutStep(h('p', { class: 'progress' }, 'Confirming your offer with the loyalty service…'), []);
  dialog.showModal();

  let confirmed;
  try {
    confirmed = await state.client.qualify(request);
  } catch (e) {
    if (state.checkout !== session) return;
    if (isUnreachable(e)) setOnline(false);
    checkoutStep(h('p', { class: 'error' }, isUnreachable(e)
      ? 'The loyalty service is not reachable, so the order cannot be checked out now. Your basket is kept.'
      : `The loyalty service refused the order: ${e.message}`), [button('Back to the order', closeCheckout)]);
    return;
  }
  if (state.checkout !== session) return;
  const confirmedIds = new Set([
    ...confirmed.rewards.map((r) => `reward:${r.id}`),
    ...confirmed.points_products.map((p) => `points_product:${p.id}`),
  ]);
  const localIds = new Set(state.view?.offers.map((o) => `${o.kind}:${o.id}`) ?? []);
  const agrees = confirmedIds.size === localIds.size && [...localIds].every((id) => confirmedIds.has(id));
  if (!agrees) refreshAccount();
  if (offer && !confirmedIds.has(`${offer.kind}:${offer.id}`)) {
    checkoutStep(h('p', { class: 'error' },
      `The loyalty service no longer offers “${offer.label}” for this order. ` +
      'Your offers have been refreshed: please choose again.'),
    [button('Back to the order', closeCheckout, 'primary')]);
    return;
  }
  const discount = offer ? Math.min(offer.discountCents, subtotal) : 0;
  checkoutStep([
    h('p', { class: 'confirmed' }, offer
      ? `Confirmed by the loyalty service: “${offer.label}”.`
      : 'Confirmed by the loyalty service. No offer is used on this order.'),
    summary(subtotal, offer, discount),
    !agrees && h('p', { class: 'note' },
      'The service’s offers differed from this device’s; they have been refreshed.'),
  ], [
    button('Back', closeCheckout),
    button(`Pay ${formatMoney(subtotal - discount)}`, () => pay(session), 'primary', 'pay'),
  ]);
}

async function pay(session) {
  const { request, offer, subtotal } = session;
  const body = { ...request, id: newBasketId(), state: 'billed' };
  if (offer) body[offer.kind === 'reward' ? 'rewards' : 'points_products'] = [offer.id];
  checkoutStep(h('p', { class: 'progress' }, 'Paying…'), []);
  let result;
  try {
    result = await state.client.saveBasket(body);
  } catch (e) {
    if (state.checkout !== session) return;
    if (isUnreachable(e)) setOnline(false);
    checkoutStep(h('p', { class: 'error' }, isUnreachable(e)
      ? 'The loyalty service is not reachable: nothing was charged. Your basket is kept.'
      : `The payment was refused: ${e.message}`), [button('Back to the order', closeCheckout, 'primary')]);
    if (!isUnreachable(e)) refreshAccount();
    return;
  }
  const discount = parseCents(result.discount ?? '0');
  state.basket.clear();
  state.choice = null;
  onBasketChange();
  checkoutStep([
    h('p', { class: 'paid' }, `Paid ${formatMoney(subtotal - discount)}. Thank you!`),
    offer
      ? h('p', {}, `You saved ${formatMoney(discount)} with “${offer.label}”` +
        `${offer.points !== null ? ` (${offer.points} ${pointsName()})` : ''}.`)
      : h('p', {}, 'No offer was used.'),
    h('p', { class: 'note' },
      `${pointsName()[0].toUpperCase()}${pointsName().slice(1)} for this order will appear on your account shortly.`),
    h('p', { class: 'receipt-id' }, `Order ${result.id}`),
  ], [button('Start a new order', closeCheckout, 'primary', 'new-order')]);
  announce(`Paid. ${offer ? `${offer.label} redeemed.` : ''}`);
  await refreshAccount();
}

// --------------------------------------------------------------------------------- start

function wireControls() {
  $('guest').addEventListener('change', (event) => selectGuest(event.target.value));
  $('venue').addEventListener('change', (event) => {
    state.venue = event.target.value;
    renderHandoffs();
    recompute();
  });
  $('handoff').addEventListener('change', (event) => {
    state.handoff = event.target.value;
    recompute();
  });
  $('location').addEventListener('change', (event) => {
    state.locationUid = event.target.value || null;
    recompute();
  });
  $('categories').addEventListener('change', (event) => {
    state.category = event.target.value;
    keepFocus($('items'), renderMenu);
  });
  $('offer-list').addEventListener('change', (event) => {
    state.choice = event.target.value === '' ? 'none' : event.target.value;
    recompute();
  });
  $('checkout').addEventListener('click', startCheckout);
  $('checkout-dialog').addEventListener('cancel', (event) => {
    // Escape closes the dialog except while a request is in flight.
    if ($('checkout-actions').childElementCount === 0) event.preventDefault();
    else state.checkout = null;
  });
  window.addEventListener('online', () => refreshAccount());
  window.addEventListener('offline', () => setOnline(false));
}

async function main() {
  try {
    [state.config, state.menus] = await Promise.all([loadJson('config.json'), loadJson('menu.json')]);
  } catch (e) {
    showBanner(`The kiosk cannot start: ${e.message}`);
    return;
  }
  renderGuests();
  wireControls();
  renderHandoffs();
  const initial = params.get('guest') ?? state.config.guests[0].user_id;
  $('guest').value = initial;
  await selectGuest(initial);
  scheduleRefresh();
  document.body.dataset.ready = 'true';
}

main();
