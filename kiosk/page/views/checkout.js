// Checkout: the service confirms the offer (POST /api/baskets/qualifying through the guest's
// HybridQualifier), then Pay bills the order through hybrid.checkout(): one basket id per order,
// written to the outbox before it is sent. The outcome is 'billed', 'refused' (the service said
// no, with its message) or 'queued' (not decided yet: kept and sent again with the same id).
// With the service unreachable the order can still be placed: queued, at full price unless the
// kiosk's offline policy allows the offer (and, with a store hub, the hub can be reached and grants
// the claim: an offer it withholds is said, with why). Nothing here ever claims that nothing was charged,
// except after checkout() rejects: then the order was not placed and nothing was sent.
//
// One basket, one order: the page keeps the basket id (state.order) for every retry of the same
// basket until the service bills or refuses it, so a retry can never become a second order; a
// changed basket (items, setup or guest) is a new order with a new id.
import { formatMoney, parseCents } from '../basket/money.js';
import { $, announce, h, pointsName } from './elements.js';
import { reasonText, t } from '../language/language.js';
import { recompute } from '../offers/offers_panel.js';
import { renderBasket } from './render.js';
import { isServiceUnavailable, newBasketId } from '../../../web/index.js';
import { noteWithheld, offlinePolicy, orderKey, orderRequest, refreshAccount, setOnline, state, updateOrders } from '../state.js';

function step(body, actions) {
  $('checkout-body').replaceChildren(...[body].flat().filter(Boolean));
  $('checkout-actions').replaceChildren(...actions);
  (actions.find((a) => a.classList.contains('primary')) ?? actions[0])?.focus();
}

function button(label, onclick, kind = 'secondary', id = undefined) {
  return h('button', { type: 'button', class: kind, id, onclick }, label);
}

function summary(subtotal, offer, discount) {
  return h('dl', { class: 'totals' },
    h('div', {}, h('dt', {}, t('totals.subtotal')), h('dd', {}, formatMoney(subtotal))),
    offer && h('div', { class: 'discount' }, h('dt', {}, offer.label), h('dd', {}, formatMoney(-discount))),
    h('div', { class: 'total' }, h('dt', {}, t('totals.total')), h('dd', {}, formatMoney(subtotal - discount))));
}

export function closeCheckout() {
  state.checkout = null;
  $('checkout-dialog').close();
}

/**
 * Where focus goes when the checkout dialog closes (docs/kiosk.md): the Checkout button while the
 * basket is kept (Back, Escape), the menu's heading once the order is placed and the basket empty
 * ("Start a new order"): the button the dialog came from is disabled then, and focus would fall to <body>.
 */
export function focusAfterCheckout() {
  (state.basket.isEmpty ? $('menu-title') : $('checkout')).focus();
}

export async function startCheckout() {
  if (state.basket.isEmpty || state.checkout) return;
  const dialog = $('checkout-dialog');
  const request = orderRequest();
  const offer = state.view?.selected ?? null;
  const subtotal = state.basket.subtotalCents;
  const session = { request, offer, subtotal, basketId: null };
  state.checkout = session;
  const key = orderKey(request);
  if (state.order?.key !== key) state.order = { key, basketId: await newBasketId() };
  session.basketId = state.order.basketId;
  step(h('p', { class: 'progress' }, t('checkout.confirming')), []);
  dialog.showModal();

  let confirmed;
  try {
    confirmed = await state.hybrid.confirm(request);
  } catch (e) {
    if (state.checkout !== session) return;
    if (isServiceUnavailable(e)) {
      setOnline(false);
      offlineStep(session);
      return;
    }
    step(h('p', { class: 'error' }, t('checkout.refusedError', { error: e.message })),
      [button(t('checkout.backToOrder'), closeCheckout, 'primary')]);
    return;
  }
  if (state.checkout !== session) return;
  if (confirmed.source === 'local') {
    setOnline(false);
    offlineStep(session);
    return;
  }
  setOnline(true);
  const result = confirmed.result;
  const confirmedIds = new Set([
    ...result.rewards.map((r) => `reward:${r.id}`),
    // A points product that is not redeemable is never offered (offers.js), so it is no disagreement.
    ...result.points_products.filter((p) => (p.state ?? 'redeemable') === 'redeemable')
      .map((p) => `points_product:${p.id}`),
  ]);
  // Whether the service agreed with the local answer is the hybrid's one comparison (it has
  // refreshed the snapshot already): the page re-reads it and says the offers changed.
  const agrees = !confirmed.diverged;
  if (!agrees) refreshAccount();
  if (offer && !confirmedIds.has(`${offer.kind}:${offer.id}`)) {
    step(h('p', { class: 'error' }, t('checkout.noLongerOffered', { offer: offer.label })),
      [button(t('checkout.backToOrder'), closeCheckout, 'primary')]);
    return;
  }
  const discount = offer ? Math.min(offer.discountCents, subtotal) : 0;
  session.payOffer = offer;
  step([
    h('p', { class: 'confirmed' }, offer
      ? t('checkout.confirmedOffer', { offer: offer.label })
      : t('checkout.confirmedNoOffer')),
    summary(subtotal, offer, discount),
    !agrees && h('p', { class: 'note' }, t('checkout.differed')),
  ], [
    button(t('checkout.back'), closeCheckout),
    button(t('checkout.pay', { amount: formatMoney(subtotal - discount) }), () => pay(session), 'primary', 'pay'),
  ]);
}

// The service cannot be asked: the order may still be placed, on the kiosk's offline policy.
function offlineStep(session) {
  const { offer, subtotal } = session;
  const policy = offlinePolicy();
  const maxCents = policy.maxDiscount === undefined ? Infinity : parseCents(policy.maxDiscount);
  // A store hub that cannot be reached: nothing is promised offline (the hybrid would withhold it).
  const hubDown = state.hub === 'unreachable';
  const keep = policy.redeem === 'provisional' && offer !== null && offer.discountCents <= maxCents && !hubDown;
  const discount = keep ? Math.min(offer.discountCents, subtotal) : 0;
  session.payOffer = keep ? offer : null;
  step([
    h('p', { class: 'offline' }, t('checkout.offline')),
    offer && !keep && h('p', { class: 'note', dataset: { hub: hubDown ? 'unreachable' : undefined } },
      t(hubDown ? 'checkout.hubUnreachable' : 'checkout.notRedeemedOffline', { offer: offer.label })),
    keep && h('p', { class: 'note' }, t('checkout.appliedProvisionally', { offer: offer.label })),
    summary(subtotal, keep ? offer : null, discount),
  ], [
    button(t('checkout.back'), closeCheckout),
    button(t('checkout.placeOrder', { amount: formatMoney(subtotal - discount) }), () => pay(session), 'primary', 'pay'),
  ]);
}

async function pay(session) {
  const { request } = session;
  const offer = session.payOffer ?? null;
  step(h('p', { class: 'progress' }, t('checkout.paying')), []);
  let outcome;
  try {
    outcome = await state.hybrid.checkout(request, {
      offer: offer && { kind: offer.kind, id: offer.id },
      basketId: session.basketId,
    });
  } catch (e) {
    // Not placed: checkout() rejects only before the order is durably queued, so nothing was
    // sent. The basket and its id stay: a retry is the same order. (A package that could reject
    // after queueing leaves the order in the outbox: then it is placed and waits like any other.)
    const queued = await queuedOrder(session.basketId);
    await updateOrders();
    if (state.checkout !== session) return;
    if (queued) {
      placed(session, { status: 'queued', basketId: session.basketId, discount: queued.promisedDiscount ?? null,
        message: t('checkout.notConfirmedYet', { error: e.message }) });
      return;
    }
    step([
      h('p', { class: 'error', dataset: { status: 'not-placed' } }, t('checkout.notPlaced')),
      h('p', { class: 'note' }, t('checkout.couldNotKeep', { error: e.message })),
      h('p', { class: 'note' }, t('checkout.basketKept')),
      h('p', { class: 'receipt-id' }, t('checkout.orderId', { id: session.basketId })),
    ], [
      button(t('checkout.backToOrder'), closeCheckout),
      button(t('checkout.tryAgain'), () => pay(session), 'primary', 'retry'),
    ]);
    return;
  }
  await updateOrders();
  if (outcome.status === 'billed' || outcome.status === 'refused') {
    if (state.order?.basketId === session.basketId) state.order = null; // decided: the next order is new
  }
  if (state.checkout !== session) return;
  placed(session, outcome);
}

/** The order with this basket id when it waits in the outbox, else null. */
async function queuedOrder(basketId) {
  try {
    return (await state.hybrid.pendingOrders({ all: true })).find((o) => o.basketId === basketId) ?? null;
  } catch {
    return null;
  }
}

/** Why an offer was not redeemed on an order (checkout's `withheld`), in the page's language. */
function withheldText(withheld, offer) {
  let reason;
  if (withheld.code === 'HUB_UNREACHABLE' || withheld.code === 'HUB_REFUSED') reason = t('hub.unreachable');
  else {
    try {
      reason = reasonText({ code: withheld.code, message: withheld.message });
    } catch {
      reason = withheld.message; // a reason whose catalog text needs figures the outcome lacks
    }
  }
  return h('p', { class: 'note withheld', dataset: { withheld: withheld.code } },
    t('checkout.withheld', { offer: offer?.label ?? withheld.id, reason }));
}

// Shows an outcome of checkout(); an unknown discount (null) is never shown as an amount.
async function placed(session, outcome) {
  const { subtotal } = session;
  noteWithheld(outcome.withheld);
  // An offer withheld at checkout (held here, claimed at another kiosk, no store hub) is not used.
  const withheld = outcome.withheld ? withheldText(outcome.withheld, session.payOffer) : null;
  const offer = outcome.withheld ? null : session.payOffer ?? null;
  if (outcome.status === 'refused') {
    step(h('p', { class: 'error', dataset: { status: 'refused' } }, t('checkout.refusedOrder', { message: outcome.message })),
      [button(t('checkout.backToOrder'), closeCheckout, 'primary')]);
    refreshAccount();
    return;
  }
  const known = typeof outcome.discount === 'string';
  const discount = known ? parseCents(outcome.discount) : null;
  state.basket.clear();
  state.order = null; // placed: the outbox keeps it (and its id) from now on
  state.choice = null;
  recompute();
  renderBasket();
  if (outcome.status === 'billed') {
    setOnline(true);
    let saved;
    if (outcome.offerRefused) {
      saved = h('p', { class: 'note' }, t('checkout.billedWithout', { offer: offer?.label ?? outcome.offerRefused.id }));
    } else if (!known) {
      saved = h('p', {}, t('checkout.discountUnknown'));
    } else if (offer) {
      saved = h('p', {}, offer.points !== null
        ? t('checkout.savedPoints', { amount: formatMoney(discount), offer: offer.label, points: offer.points, pointsName: pointsName() })
        : t('checkout.saved', { amount: formatMoney(discount), offer: offer.label }));
    } else saved = h('p', {}, t('checkout.noOfferUsed'));
    const points = pointsName();
    step([
      h('p', { class: 'paid', dataset: { status: 'billed' } },
        known ? t('checkout.paidAmount', { amount: formatMoney(subtotal - discount) }) : t('checkout.paid')),
      withheld ?? saved,
      h('p', { class: 'note' }, t('checkout.pointsSoon', { pointsName: points, PointsName: `${points[0].toUpperCase()}${points.slice(1)}` })),
      h('p', { class: 'receipt-id' }, t('checkout.orderId', { id: outcome.basketId })),
    ], [button(t('checkout.newOrder'), closeCheckout, 'primary', 'new-order')]);
    announce(offer ? t('checkout.announcePaidOffer', { offer: offer.label }) : t('checkout.announcePaid'));
    await refreshAccount();
    return;
  }
  // 'queued': not decided yet. The order is kept and sent again with the same basket id.
  step([
    h('p', { class: 'queued', dataset: { status: 'queued' } },
      known ? t('checkout.placedAmount', { amount: formatMoney(subtotal - discount) }) : t('checkout.placed')),
    withheld,
    h('p', { class: 'note' }, outcome.message),
    h('p', { class: 'receipt-id' }, t('checkout.orderId', { id: outcome.basketId })),
  ], [button(t('checkout.newOrder'), closeCheckout, 'primary', 'new-order')]);
  announce(t('checkout.announceQueued'));
}
