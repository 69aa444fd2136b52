// The kiosk page's wallet, status line, store hub line and the orders waiting for the service.
import { $, h, pointsName, showNews } from './elements.js';
import { t } from '../language/language.js';
import { formatMoney, parseCents } from '../basket/money.js';
import { walletOf } from '../offers/offers.js';
import { offerTexts } from '../offers/offer_text.js';
import { renderLocations } from './render.js';
import { recompute } from '../offers/offers_panel.js';
import { clock, guestOfOrder, offerLabel, state } from '../state.js';


export function renderWallet() {
  const pointsDelta = state.pointsDelta && state.pointsDelta.until > Date.now() ? state.pointsDelta.value : 0;
  const wallet = $('wallet');
  if (!state.guest) return;
  const parts = [h('span', { class: 'guest' }, t('wallet.hi', { name: state.guest.name }))];
  if (state.snapshot) {
    const { rewardCount, balance } = walletOf(state.snapshot, clock().getTime());
    parts.push(h('span', { class: 'points', id: 'points-balance', dataset: { balance } },
      t('wallet.points', { balance, pointsName: pointsName() })));
    if (pointsDelta !== 0) {
      parts.push(h('span', { class: `delta ${pointsDelta > 0 ? 'up' : 'down'}` },
        `${pointsDelta > 0 ? '+' : '−'}${Math.abs(pointsDelta)}`));
    }
    parts.push(h('span', { class: 'rewards', id: 'reward-count' }, t('wallet.rewards', { count: rewardCount })));
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
    if (added.length > 0) showNews({ key: 'news.reward', values: { rewards: added.map((r) => offerTexts(r).label).join(', ') } });
  } else {
    state.pointsDelta = null;
    showNews(null);
  }
  renderLocations();
  renderWallet();
  recompute();
}

/** Which kiosk this is and, with a store hub, whether the hub is reachable. */
export function renderHub() {
  $('store').dataset.hub = state.hub ?? 'none';
  $('kiosk-name').textContent = t('kiosk.name', { number: String(state.kiosk) });
  $('hub-text').textContent = state.hub === null ? '' : ` · ${t(state.hub === 'reachable' ? 'hub.reachable' : 'hub.unreachable')}`;
}

export function renderStatus() {
  const status = $('status');
  const text = $('status-text');
  const waiting = state.pending.length > 0 ? ` · ${t('status.waiting', { count: state.pending.length })}` : '';
  if (state.online === true) {
    status.dataset.state = 'online';
    text.textContent = `${t('status.online')}${waiting}`;
  } else if (state.online === false) {
    status.dataset.state = 'offline';
    text.textContent = `${t('status.offline')}${waiting}`;
  } else {
    status.dataset.state = 'connecting';
    text.textContent = t('status.connecting');
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
      h('span', { class: 'state' }, t('order.waiting')),
      h('span', { class: 'what' }, `${name ? `${name} · ` : ''}${orderAmount(order)} · ${t('order.short', { id: order.basketId.slice(0, 8) })}`,
        order.offer ? ` · ${t('order.withOffer', { offer: order.offer.id })}` : ''));
  });
  const settled = state.settled.slice(0, 5).map(({ guest, order, outcome }) =>
    h('li', { class: `order ${outcome.status}`, dataset: {
      basketId: outcome.originalBasketId ?? order.basketId,
      billedAs: outcome.status === 'billed' ? outcome.basketId : undefined,
      status: outcome.status,
      offerRefused: outcome.offerRefused ? 'true' : undefined,
    } },
    h('span', { class: 'state' }, settledText(outcome)),
    outcome.offerRefused && h('span', { class: 'note' }, offerRefusedText(outcome, offerLabel(guest, outcome.offerRefused, (r) => offerTexts(r).label))),
    h('span', { class: 'what' }, `${guest.name} · ${orderAmount(order)} · ${t('order.short', { id: order.basketId.slice(0, 8) })}`)));
  const attention = state.damaged.length === 0 ? [] : [h('p', { class: 'attention', id: 'orders-attention', role: 'status' },
    t('orders.attention', { count: state.damaged.length }),
    h('span', { class: 'what' }, t('orders.attentionWhat')))];
  $('orders-section').hidden = pending.length + settled.length + attention.length === 0;
  $('orders-attention')?.remove();
  $('orders').before(...attention);
  $('orders').replaceChildren(...pending, ...settled);
  renderStatus();
}

// A billed order says what it saved only when the service said so (a null discount is unknown).
function settledText(outcome) {
  if (outcome.status !== 'billed') return t('order.refused', { message: outcome.message });
  return typeof outcome.discount === 'string' && parseCents(outcome.discount) > 0 && !outcome.offerRefused
    ? t('order.billedSaved', { amount: formatMoney(parseCents(outcome.discount)) })
    : t('order.billed');
}

function offerRefusedText(outcome, label) {
  let shortfall = null;
  try {
    if (typeof outcome.shortfall === 'string') shortfall = formatMoney(parseCents(outcome.shortfall));
  } catch {
    // an unreadable amount is not shown
  }
  return shortfall === null
    ? t('order.billedWithout', { offer: label })
    : t('order.billedWithoutShortfall', { offer: label, amount: shortfall });
}
