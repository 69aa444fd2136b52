// The kiosk page's rendering of the setup bar, the menu and the basket, all from `state`
// (offers_panel.js: the Offers panel; status_panels.js: wallet, status and waiting orders).
import { Basket } from '../basket/basket.js';
import { $, announce, h, handlers, keepFocus } from './elements.js';
import { t, textOr } from '../language/language.js';
import { categoryName, itemDescription, itemName, modifierName } from '../basket/menu_words.js';
import { formatMoney, parseCents } from '../basket/money.js';
import { state } from '../state.js';


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
  // The options again when the locations or the page's language change.
  const current = [...select.options].map((o) => `${o.value}\u0000${o.textContent}`).join('\n');
  if (current !== uids.map((uid) => `${uid}\u0000${locationName(uid, names)}`).join('\n')) {
    select.replaceChildren(...uids.map((uid) => h('option', { value: uid }, locationName(uid, names))));
  }
  select.value = state.locationUid ?? '';
  select.disabled = uids.length === 0;
}

/** A location's name in the page's language (config.json's name for one the page has no text for). */
function locationName(uid, names) {
  return textOr(`location.${uid}`, names[uid] ?? uid);
}

export function renderHandoffs() {
  const options = state.config.handoffs[state.venue] ?? [];
  if (!options.some((o) => o.id === state.handoff)) state.handoff = options[0]?.id ?? null;
  $('handoff-options').replaceChildren(...options.map((o) =>
    h('label', {},
      h('input', { type: 'radio', name: 'handoff', value: o.id, checked: o.id === state.handoff }),
      h('span', {}, handoffLabel(o)))));
}

/** A handoff's name in the page's language (config.json's label for one the page has no text for). */
function handoffLabel(option) {
  try {
    return t(`handoff.${option.id}`);
  } catch {
    return option.label;
  }
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
      h('span', {}, categoryName(c)))));
  const shown = items.filter((item) => (item.categories ?? []).includes(state.category));
  $('items').replaceChildren(...shown.map((item) =>
    h('li', {},
      // The button's name is its visible text (name, description, price) and then what it does,
      // so a spoken command with any of the visible words finds it (WCAG 2.5.3, label in name).
      h('button', {
        type: 'button',
        class: 'item',
        dataset: { id: item.id, focusKey: `item:${item.id}` },
        onclick: () => handlers.chooseItem(item),
      },
      h('span', { class: 'name' }, itemName(item)),
      h('span', { class: 'description' }, itemDescription(item)),
      h('span', { class: 'price' }, formatMoney(parseCents(item.price))),
      h('span', { class: 'visually-hidden' }, `, ${t(hasModifiers(item) ? 'item.customise' : 'item.add')}`),
      h('span', { class: 'add', 'aria-hidden': 'true' }, '+')))));
}

export function renderBasket() {
  const basket = state.basket;
  $('basket-empty').hidden = !basket.isEmpty;
  $('basket-count').textContent = basket.isEmpty ? '' : `(${basket.count})`;
  const lines = $('lines');
  keepFocus(lines, () => {
    lines.replaceChildren(...basket.lines.map((line) => {
      // The guest's words for the line; the basket keeps the merchant's (what the service is sent).
      const modifiers = line.modifiers.map(modifierName).join(', ');
      const name = itemName(line.item);
      const setQuantity = (quantity) => () => {
        basket.setQuantity(line.key, quantity);
        handlers.basketChanged();
        announce(quantity > 0 ? t('line.quantity', { item: name, quantity: String(quantity) })
          : t('line.removed', { item: name }));
      };
      return h('li', { class: 'line', dataset: { key: line.key } },
        h('div', { class: 'what' },
          h('span', { class: 'name' }, name),
          modifiers && h('span', { class: 'modifiers' }, modifiers)),
        h('div', { class: 'stepper', role: 'group', 'aria-label': t('line.quantityOf', { item: name }) },
          h('button', { type: 'button', class: 'round', dataset: { focusKey: `less:${line.key}` },
            'aria-label': t(line.quantity > 1 ? 'line.oneLess' : 'line.remove', { item: name }),
            onclick: setQuantity(line.quantity - 1) }, line.quantity > 1 ? '−' : '×'),
          h('output', { class: 'quantity' }, String(line.quantity)),
          h('button', { type: 'button', class: 'round', dataset: { focusKey: `more:${line.key}` },
            'aria-label': t('line.oneMore', { item: name }), onclick: setQuantity(line.quantity + 1) }, '+')),
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
  $('discount-label').textContent = selected ? selected.label : t('totals.offer');
  $('discount').textContent = formatMoney(-discount);
  $('total').textContent = formatMoney(subtotal - discount);
  const checkout = $('checkout');
  const note = $('checkout-note');
  checkout.textContent = t('checkout.button', { amount: formatMoney(subtotal - discount) });
  checkout.disabled = state.basket.isEmpty;
  if (state.basket.isEmpty) note.textContent = '';
  else if (state.online === false) {
    note.textContent = t('checkout.offlineNote');
  } else note.textContent = '';
  note.hidden = note.textContent === '';
}
