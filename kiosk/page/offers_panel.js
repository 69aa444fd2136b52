// The kiosk page's Offers panel: offers are recomputed by the guest's HybridQualifier (the wasm
// engine in this page) on every change, and shown with what each would save.
import { describeAge } from '../../web/index.js';
import { $, h, keepFocus, localDate, pointsName, showBanner, time } from './elements.js';
import { formatMoney } from './money.js';
import { offerView } from './offers.js';
import { renderTotals } from './render.js';
import { orderRequest, state } from './state.js';


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
