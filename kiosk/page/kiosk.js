// The kiosk page: a menu, a basket and an Offers panel recomputed locally by the wasm engine on
// every change, through the guest's HybridQualifier (snapshots in IndexedDB, so offers keep
// working while the service is down; orders in an IndexedDB outbox, so none is lost). This module
// starts the page and wires the controls; state.js holds the state and the link to the service,
// render.js, offers_panel.js and status_panels.js draw it, checkout.js runs checkout; sw.js lets the page start offline.
import { Basket } from './basket/basket.js';
import { formatMoney, parseCents } from './basket/money.js';
import { $, announce, h, handlers, keepFocus, renderBanner, renderNews, showBanner, showNews } from './views/elements.js';
import {
  applyPageTexts,
  DEFAULT_LANGUAGE,
  language,
  loadLanguage,
  loadMessages,
  needsLoading,
  t,
  useLanguage,
  useStore,
} from './language/language.js';
import { groupName, itemDescription, itemName, modifierName } from './basket/menu_words.js';
import { recompute, relabel, renderOffers, reselect } from './offers/offers_panel.js';
import {
  hasModifiers,
  menu,
  renderBasket,
  renderGuests,
  renderHandoffs,
  renderLocations,
  renderMenu,
  renderTotals,
} from './views/render.js';
import { renderHub, renderOrders, renderStatus, renderWallet, snapshotChanged } from './views/status_panels.js';
import { focusAfterCheckout, startCheckout } from './views/checkout.js';
import { changes, checkHub, params, refreshAccount, setOnline, startGuests, state, useGuest } from './state.js';

// Revalidated at each start all the same (the server says Cache-Control: no-cache); the default
// cache mode lets the fetch take the response index.html's preload has under way.
async function loadJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function onBasketChange() {
  recompute();
  renderBasket();
}

function addToBasket(item, modifiers, quantity) {
  state.basket.add(item, modifiers, quantity);
  onBasketChange();
  const count = state.view?.offers.length ?? 0;
  announce(t('basket.added', { quantity: String(quantity), item: itemName(item),
    subtotal: formatMoney(state.basket.subtotalCents), offers: count }));
}

function chooseItem(item) {
  if (!hasModifiers(item)) {
    addToBasket(item, [], 1);
    return;
  }
  openCustomize(item);
}

/** The AbortController of the customize dialog's current opening (its listeners). */
let customizeOpening = null;

function openCustomize(item) {
  const dialog = $('customize');
  const groups = menu().modifier_groups;
  let quantity = 1;
  $('customize-title').textContent = itemName(item);
  $('customize-description').textContent = itemDescription(item);
  $('customize-groups').replaceChildren(...item.modifiers.map((groupId) =>
    h('fieldset', { class: 'modifiers' },
      h('legend', {}, groupName(groupId)),
      ...(groups[groupId] ?? []).map((m) =>
        h('label', { class: 'check' },
          h('input', { type: 'checkbox', value: m.id, dataset: { group: groupId } }),
          h('span', { class: 'name' }, modifierName(m)),
          h('span', { class: 'price' }, parseCents(m.price) > 0 ? `+${formatMoney(parseCents(m.price))}` : t('item.free')))))));
  const chosen = () => [...$('customize-groups').querySelectorAll('input:checked')]
    .map((input) => groups[input.dataset.group].find((m) => m.id === input.value));
  const update = () => {
    $('customize-quantity').textContent = String(quantity);
    const unit = Basket.unitCents({ item, modifiers: chosen() });
    $('customize-add').textContent = t('customize.add', { quantity: String(quantity), amount: formatMoney(unit * quantity) });
    $('customize-less').disabled = quantity <= 1;
  };
  // One opening's listeners at a time: a new opening ends the previous one's.
  customizeOpening?.abort();
  const controller = new AbortController();
  customizeOpening = controller;
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
    // 'close' is dispatched from a task: the one of an earlier opening (Escape, then Enter on the
    // item at once) may arrive after this one has opened, and must not end this one.
    if (dialog.open) return;
    controller.abort();
    // Focus returns to the item that opened the dialog (docs/kiosk.md), or the menu's heading
    // when that item is no longer shown.
    (document.querySelector(`[data-focus-key="item:${CSS.escape(item.id)}"]`) ?? $('menu-title')).focus();
  }, { signal });
  update();
  dialog.showModal();
  $('customize-add').focus();
}

async function selectGuest(userId) {
  const guest = state.config.guests.find((g) => g.user_id === userId) ?? state.config.guests[0];
  const merchantChanged = guest.merchant_id !== state.guest?.merchant_id;
  // A new guest starts in the default language (the previous guest's choice is theirs).
  if (guest !== state.guest) setLanguage(DEFAULT_LANGUAGE);
  state.choice = null;
  state.pointsDelta = null;
  showNews(null);
  const using = useGuest(guest); // sets state.guest and state.merchant at once
  if (merchantChanged) {
    state.basket.clear();
    state.category = null;
    state.locationUid = null;
    useStore(state.merchant);
  }
  // The guest's reads (the stored snapshot, the outbox, the account) go out before the page
  // renders: the first render takes tens of ms (ICU's number data) they need not wait for.
  await new Promise((resolve) => window.setTimeout(resolve, 0));
  if (merchantChanged) {
    $('merchant-name').textContent = state.merchant.name;
    renderTitle();
    renderMenu();
  }
  renderLocations();
  renderWallet();
  recompute();
  renderBasket();
  const justRead = await using;
  // Where the guest's engine runs: 'worker', or 'thread' (?worker=off, or a worker that could not start).
  if (state.hybrid.engineLocation !== null) document.body.dataset.engine = state.hybrid.engineLocation;
  // A snapshot the service has just sent needs no second read (a stored one does): the page's start.
  if (justRead && state.pending.length === 0) setOnline(true);
  else await refreshAccount();
}

function renderTitle() {
  if (state.merchant) document.title = t('page.title', { merchant: state.merchant.name });
}

let languageWanted = DEFAULT_LANGUAGE; // the last language asked for: a slower load never overrides it

/**
 * The guest's language: every text on the page made again in it, <html lang> set. A language the
 * page does not carry from the start (German, Portuguese) is loaded first: the switch shows the
 * choice at once, the page follows when it is loaded (unless another was chosen meanwhile).
 */
function setLanguage(code) {
  languageWanted = code;
  const radio = document.querySelector(`#language input[value="${CSS.escape(code)}"]`);
  if (radio) radio.checked = true;
  if (!needsLoading(code)) {
    showLanguage(code);
    return;
  }
  loadLanguage(code).catch((e) => console.warn(`the kiosk cannot load the language ${code}: ${e.message}`)).then(() => {
    if (languageWanted === code) showLanguage(code);
  });
}

function showLanguage(code) {
  const changed = useLanguage(code);
  const shown = document.querySelector(`#language input[value="${CSS.escape(language())}"]`);
  if (shown) shown.checked = true;
  if (!changed) return;
  applyPageTexts();
  renderTitle();
  renderBanner();
  renderNews();
  renderHub();
  if (!state.guest) return;
  renderHandoffs();
  renderLocations();
  keepFocus($('items'), renderMenu);
  renderBasket();
  renderWallet();
  renderOrders();
  relabel();
  renderTotals();
}

let refreshTimer = null;

function scheduleRefresh() {
  window.clearTimeout(refreshTimer);
  const seconds = Number(params.get('poll') ?? state.config.refresh_seconds ?? 5);
  const delay = Math.max(0.25, Number.isFinite(seconds) ? seconds : 5) * 1000;
  refreshTimer = window.setTimeout(async () => {
    if (!state.checkout) await Promise.all([refreshAccount(), checkHub()]);
    if (!$('provisional').hidden) renderOffers(undefined, { keepTiming: true }); // the age moves on
    scheduleRefresh();
  }, delay);
}

function wireControls() {
  handlers.chooseItem = chooseItem;
  handlers.basketChanged = onBasketChange;
  changes.addEventListener('snapshot', (event) => snapshotChanged(event.detail.previous));
  changes.addEventListener('status', () => {
    renderStatus();
    renderTotals();
    recompute();
  });
  changes.addEventListener('orders', renderOrders);
  changes.addEventListener('hub', () => {
    renderHub();
    if (state.guest) recompute(); // what other kiosks claim, or nothing promised
  });
  changes.addEventListener('holds', () => {
    if (state.guest) recompute();
  });
  changes.addEventListener('banner', (event) => showBanner(event.detail));
  $('guest').addEventListener('change', (event) => selectGuest(event.target.value));
  $('language').addEventListener('change', (event) => setLanguage(event.target.value));
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
    reselect();
  });
  $('checkout').addEventListener('click', startCheckout);
  $('checkout-dialog').addEventListener('close', focusAfterCheckout);
  $('checkout-dialog').addEventListener('cancel', (event) => {
    // Escape closes the dialog except while a request is in flight.
    if ($('checkout-actions').childElementCount === 0) event.preventDefault();
    else state.checkout = null;
  });
  window.addEventListener('online', () => refreshAccount());
  window.addEventListener('offline', () => setOnline(false));
}

// How long after the page is ready it registers its service worker.
const SERVICE_WORKER_AFTER_READY_MS = 2_000;

// The service worker keeps the page, its scripts, the menu and the wasm module for offline starts.
async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register('sw.js', { scope: './' });
  } catch (e) {
    console.warn(`the kiosk cannot work offline: ${e.message}`);
  }
}

async function main() {
  try {
    [state.config, state.menus] = await Promise.all([loadJson('config.json'), loadJson('menu.json'), loadMessages()]);
  } catch (e) {
    $('banner').textContent = `The kiosk cannot start: ${e.message}`; // the page's texts may be what failed
    $('banner').hidden = false;
    return;
  }
  setLanguage(DEFAULT_LANGUAGE);
  applyPageTexts();
  await checkHub(); // before the guests' qualifiers start: whether they claim at a store hub
  renderHub();
  renderGuests();
  wireControls();
  renderHandoffs();
  startGuests();
  const initial = params.get('guest') ?? state.config.guests[0].user_id;
  $('guest').value = initial;
  await selectGuest(initial);
  scheduleRefresh();
  document.body.dataset.ready = 'true';
  // A while after the page is up: the worker's install fetches everything the page loads again,
  // which on a first visit would compete with the page's start and with the guest's first taps
  // (bench/README.md, "The kiosk page's start").
  window.setTimeout(registerServiceWorker, SERVICE_WORKER_AFTER_READY_MS);
}

main();
