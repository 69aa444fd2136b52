// The kiosk page's rendering: the setup bar, menu, basket, Offers panel, wallet, status and the
// orders waiting for the service, all from `state`. Offers are recomputed by the guest's
// HybridQualifier (the wasm engine in this page) on every change.
import { describeAge } from '../../web/hybrid/hybrid_qualifier.js';
import { Basket } from './basket.js';
import { formatMoney, parseCents } from './money.js';
import { offerView, walletOf } from './offers.js';
import { clock, guestOfOrder, offerLabel, orderRequest, state } from './state.js';

export const $ = (id) => document.getElementById(id);

/** What the page's interactions do (set by kiosk.js): chooseItem(item), basketChanged(). */
export const handlers = { chooseItem: () => {}, basketChanged: () => {} };

/** h('p', { class: 'x', onclick }, 'text', child): a DOM element. */
export function h(tag, attributes = {}, ...children) {
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
export function keepFocus(container, render) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.focusKey : undefined;
  render();
  if (key === undefined) return;
  const again = container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (again) again.focus();
  else container.closest('section, aside')?.querySelector('h2')?.focus();
}

export function announce(text) {
  const region = $('announce');
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

export function showBanner(text) {
  const banner = $('banner');
  banner.textContent = text ?? '';
  banner.hidden = !text;
}

let newsTimer = null;

/** A short-lived notice in the Offers panel (a reward earned, e.g. by a campaign). */
export function showNews(text) {
  const news = $('news');
  window.clearTimeout(newsTimer);
  news.textContent = text ?? '';
  news.hidden = !text;
  if (text) {
    announce(text);
    newsTimer = window.setTimeout(() => showNews(null), 60_000);
  }
}

export function plural(count, noun) {
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

export function pointsName() {
  return state.merchant?.points_name ?? 'points';
}

// ------------------------------------------------------------------------------ the setup

export function renderGuests() {
  const select = $('guest');
  select.replaceChildren(...state.config.guests.map((g) => {
    const merchant = state.config.merchants[g.merchant_id];
    return h('option', { value: g.user_id }, `${g.name} · ${merchant?.name ?? g.merchant_id}`);
  }));
}

export function renderLocations() {
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

export function renderHandoffs() {
  const options = state.config.handoffs[state.venue] ?? [];
  if (!options.some((o) => o.id === state.handoff)) state.handoff = options[0]?.id ?? null;
  $('handoff-options').replaceChildren(...options.map((o) =>
    h('label', {},
      h('input', { type: 'radio', name: 'handoff', value: o.id, checked: o.id === state.handoff }),
      h('span', {}, o.label))));
}

// -------------------------------------------------------------------------- menu, basket

export function menu() {
  return state.menus[state.merchant.menu] ?? { categories: [], items: [], modifier_groups: {} };
}

export function hasModifiers(item) {
  return (item.modifiers ?? []).some((group) => (menu().modifier_groups[group] ?? []).length > 0);
}

export function renderMenu() {
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
        onclick: () => handlers.chooseItem(item),
      },
      h('span', { class: 'name' }, item.name),
      h('span', { class: 'description' }, item.description ?? ''),
      h('span', { class: 'price' }, formatMoney(parseCents(item.price))),
      h('span', { class: 'add', 'aria-hidden': 'true' }, '+')))));
}

export function renderBasket() {
  const basket = state.basket;
  $('basket-empty').hidden = !basket.isEmpty;
  $('basket-count').textContent = basket.isEmpty ? '' : `(${basket.count})`;
  const lines = $('lines');
  keepFocus(lines, () => {
    lines.replaceChildren(...basket.lines.map((line) => {
      const modifiers = line.modifiers.map((m) => m.name).join(', ');
      const setQuantity = (quantity) => () => {
        basket.setQuantity(line.key, quantity);
        handlers.basketChanged();
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

export function renderTotals() {
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
  checkout.disabled = state.basket.isEmpty;
  if (state.basket.isEmpty) note.textContent = '';
  else if (state.online === false) {
    note.textContent = 'Offline: the loyalty service is not reachable. Orders are kept on this kiosk and ' +
      'sent when it is back; offers are not redeemed until then.';
  } else note.textContent = '';
  note.hidden = note.textContent === '';
}

// ------------------------------------------------------------------------------- offers

let computing = 0;
let lastAnswers = null; // { snapshot, qualified, explained }: the offers of the basket as computed

/** Runs the engine on the basket (every change) and renders the Offers panel. */
export async function recompute() {
  const run = ++computing;
  const hybrid = state.hybrid;
  if (!state.snapshot || !hybrid) {
    lastAnswers = null;
    state.view = null;
    renderOffers(undefined);
    renderTotals();
    return;
  }
  const request = orderRequest();
  let elapsed;
  let answers = null;
  let failure = null;
  try {
    const started = performance.now();
    const [qualified, explained] = await Promise.all([hybrid.qualify(request), hybrid.explain(request)]);
    elapsed = performance.now() - started;
    answers = { snapshot: hybrid.currentSnapshot(), qualified, explained };
  } catch (e) {
    failure = e;
  }
  if (run !== computing) return; // a newer change has been computed meanwhile
  lastAnswers = answers;
  if (failure) {
    state.view = null;
    showBanner(failure.code === 503
      ? `Offers are unavailable: ${failure.message}.`
      : `Offers cannot be computed: ${failure.message}`);
  } else {
    if (failure === null && $('banner').textContent.startsWith('Offers ')) showBanner(null);
    reselect();
  }
  renderOffers(elapsed);
  renderTotals();
}

/** Applies the guest's offer choice to the offers in hand (no new computation). */
export function reselect() {
  if (lastAnswers === null) return;
  const { snapshot, qualified, explained } = lastAnswers;
  state.view = offerView(snapshot, qualified, explained, state.choice);
  state.view.provisional = qualified.provisional === true;
  state.view.snapshotAgeMs = qualified.snapshotAgeMs ?? state.hybrid?.snapshotInfo()?.ageMs ?? null;
  renderOffers(undefined, { keepTiming: true });
  renderTotals();
}

function offerDetail(offer) {
  const parts = [`Saves ${formatMoney(offer.discountCents)}`];
  if (offer.points !== null) parts.push(`uses ${offer.points} ${pointsName()}`);
  if (offer.retireAt) parts.push(`until ${localDate(offer.retireAt)}`);
  return parts.join(' · ');
}

export function renderOffers(elapsed, { keepTiming = false } = {}) {
  const view = state.view;
  const info = state.hybrid?.snapshotInfo() ?? null;
  const provisional = state.snapshot !== null && (state.online !== true || view?.provisional === true);
  $('provisional').hidden = !provisional;
  document.querySelector('.offers').classList.toggle('provisional', provisional);
  const note = $('provisional-note');
  note.hidden = !provisional;
  if (provisional && info) {
    const asOf = `your account as of ${time(info.savedAt)} (${describeAge(info.ageMs)} old)`;
    note.dataset.snapshotAgeMs = String(info.ageMs);
    if (state.online === false) {
      note.textContent = `Offline: computed from ${asOf}. The service confirms them at checkout.`;
    } else if (view?.provisional) {
      note.textContent = `Provisional: computed from ${asOf}; the service could not confirm it since.`;
    } else {
      note.textContent = `From ${asOf}; checking with the service…`;
    }
  }

  const empty = $('offers-empty');
  const list = $('offer-list');
  if (!view) {
    empty.textContent = state.online === false
      ? 'Offers are unavailable: the loyalty service is offline and this guest has no saved account.'
      : 'Loading your account…';
    if (state.snapshot && !$('banner').hidden) empty.textContent = 'Offers are unavailable right now.';
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
  $('offer-choice').hidden = view.offers.length + view.unavailable.length === 0;
  const age = provisional && info ? `Provisional · account ${describeAge(info.ageMs)} old` : null;
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
            age && h('span', { class: 'age' }, age),
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
    // Points products the service will not bill (their state is not `redeemable`): shown greyed,
    // with their state, and not selectable.
    for (const offer of view.unavailable) {
      options.push(h('li', { class: 'offer unavailable', dataset: { id: offer.id, kind: offer.kind, state: offer.state } },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: offer.id, disabled: true,
            dataset: { focusKey: `${offer.kind}:${offer.id}` } }),
          h('span', { class: 'body' },
            h('span', { class: 'badge unavailable' }, `Not redeemable (${offer.state})`),
            h('span', { class: 'label' }, offer.label),
            h('span', { class: 'detail' }, `Not redeemable now · would save ${formatMoney(offer.discountCents)}`)),
          h('span', { class: 'saving' }, '—'))));
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

  if (!keepTiming) {
    $('timing').textContent = elapsed === undefined
      ? ''
      : `Computed on this device in ${elapsed < 0.1 ? '< 0.1' : elapsed.toFixed(1)} ms`;
  }
}

// ----------------------------------------------------------------- wallet, status, orders

export function renderWallet() {
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

/** The points and new rewards a changed snapshot brings, then everything that depends on it. */
export function snapshotChanged(previous) {
  const snapshot = state.snapshot;
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
}

export function renderStatus() {
  const status = $('status');
  const text = $('status-text');
  const waiting = state.pending.length > 0 ? ` · ${plural(state.pending.length, 'order')} waiting` : '';
  if (state.online === true) {
    status.dataset.state = 'online';
    text.textContent = `Online${waiting}`;
  } else if (state.online === false) {
    status.dataset.state = 'offline';
    text.textContent = `Offline · offers provisional${waiting}`;
  } else {
    status.dataset.state = 'connecting';
    text.textContent = 'Connecting…';
  }
}

function orderAmount(order) {
  try {
    return formatMoney(parseCents(order.body.subtotal ?? '0'));
  } catch {
    return '';
  }
}

/** The orders on this device waiting for the service, the orders settled during this session, and
 * the outbox entries that need a person. */
export function renderOrders() {
  // An order without owner fields (an older package) is listed only for its own guest.
  const whose = (order) => guestOfOrder(order)?.name ?? (order.userId === undefined ? state.guest?.name : null);
  const pending = state.pending.map((order) => {
    const name = whose(order);
    return h('li', { class: 'order queued', dataset: { basketId: order.basketId, status: 'queued' } },
      h('span', { class: 'state' }, 'Waiting for the loyalty service'),
      h('span', { class: 'what' }, `${name ? `${name} · ` : ''}${orderAmount(order)} · order ${order.basketId.slice(0, 8)}`,
        order.offer ? ` · with ${order.offer.id} (provisional)` : ''));
  });
  const settled = state.settled.slice(0, 5).map(({ guest, order, outcome }) =>
    h('li', { class: `order ${outcome.status}`, dataset: {
      basketId: outcome.originalBasketId ?? order.basketId,
      billedAs: outcome.status === 'billed' ? outcome.basketId : undefined,
      status: outcome.status,
      offerRefused: outcome.offerRefused ? 'true' : undefined,
    } },
    h('span', { class: 'state' }, settledText(outcome)),
    outcome.offerRefused && h('span', { class: 'note' }, offerRefusedText(outcome, offerLabel(guest, outcome.offerRefused))),
    h('span', { class: 'what' }, `${guest.name} · ${orderAmount(order)} · order ${order.basketId.slice(0, 8)}`)));
  const attention = state.damaged.length === 0 ? [] : [h('p', { class: 'attention', id: 'orders-attention', role: 'status' },
    `${state.damaged.length} ${state.damaged.length === 1 ? 'order needs' : 'orders need'} attention`,
    h('span', { class: 'what' }, ': this kiosk kept an order it cannot read. Staff can check it; other orders are not affected.'))];
  $('orders-section').hidden = pending.length + settled.length + attention.length === 0;
  $('orders-attention')?.remove();
  $('orders').before(...attention);
  $('orders').replaceChildren(...pending, ...settled);
  renderStatus();
}

// A billed order says what it saved only when the service said so (a null discount is unknown).
function settledText(outcome) {
  if (outcome.status !== 'billed') return `Refused by the loyalty service: ${outcome.message}`;
  const saved = typeof outcome.discount === 'string' && parseCents(outcome.discount) > 0 && !outcome.offerRefused
    ? `, saved ${formatMoney(parseCents(outcome.discount))}` : '';
  return `Confirmed: billed${saved}`;
}

function offerRefusedText(outcome, label) {
  let shortfall = '';
  try {
    if (typeof outcome.shortfall === 'string') shortfall = `; ${formatMoney(parseCents(outcome.shortfall))} not applied`;
  } catch {
    // an unreadable amount is not shown
  }
  return `Billed without ${label}: the offer was no longer available${shortfall}`;
}
