// The kiosk page's wallet, status line and the orders waiting for the service.
import { $, h, plural, pointsName, showNews } from './elements.js';
import { formatMoney, parseCents } from './money.js';
import { walletOf } from './offers.js';
import { renderLocations } from './render.js';
import { recompute } from './offers_panel.js';
import { clock, guestOfOrder, offerLabel, state } from './state.js';


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
