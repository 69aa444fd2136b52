// The kiosk page's Offers panel: offers are recomputed by the guest's HybridQualifier (the wasm
// engine in this page) on every change, and shown with what each would save.
import { $, bannerKey, h, keepFocus, localDate, pointsName, showBanner, time } from '../views/elements.js';
import { ageText, emphasised, formatLocale, reasonText, t, textOr } from '../language/language.js';
import { formatMoney } from '../basket/money.js';
import { offerView } from './offers.js';
import { offerTexts } from './offer_text.js';
import { renderTotals } from '../views/render.js';
import { orderRequest, state } from '../state.js';


let computing = 0;
let lastAnswers = null; // { snapshot, qualified, explained }: the offers of the basket as computed
let lastElapsed; // ms of the last computation shown, made again in each language

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
      ? { key: 'offers.unavailableError', values: { error: failure.message } }
      : { key: 'offers.cannotCompute', values: { error: failure.message } });
  } else {
    if (bannerKey()?.startsWith('offers.')) showBanner(null);
    reselect();
  }
  renderOffers(elapsed);
  renderTotals();
}

/** Applies the guest's offer choice to the offers in hand (no new computation). */
export function reselect() {
  if (lastAnswers === null) return;
  const { snapshot, qualified, explained } = lastAnswers;
  state.view = offerView(snapshot, qualified, explained, state.choice, offerTexts);
  state.view.provisional = qualified.provisional === true;
  state.view.snapshotAgeMs = qualified.snapshotAgeMs ?? state.hybrid?.snapshotInfo()?.ageMs ?? null;
  renderOffers(undefined, { keepTiming: true });
  renderTotals();
}

/** An offer's detail line: what it saves (the second half of its radio's name), then its cost and end. */
function offerDetail(offer, id) {
  const rest = [];
  if (offer.points !== null) rest.push(t('offer.uses', { points: offer.points, pointsName: pointsName() }));
  if (offer.retireAt) rest.push(t('offer.until', { date: localDate(offer.retireAt) }));
  return h('span', { class: 'detail' },
    h('span', { id: `${id}-saves` }, t('offer.saves', { amount: formatMoney(offer.discountCents) })),
    rest.length > 0 && [' · ', h('span', { id: `${id}-more` }, rest.join(' · '))]);
}

// A radio is named by the offer's label and its saving in the page's language ("Free latte, Saves
// $4.75"), not by all of its card ("✓", "−$4.75", the fine print): the rest describes it.
const ids = (...list) => list.filter(Boolean).join(' ');

export function renderOffers(elapsed, { keepTiming = false } = {}) {
  const view = state.view;
  const info = state.hybrid?.snapshotInfo() ?? null;
  const provisional = state.snapshot !== null && (state.online !== true || view?.provisional === true);
  $('provisional').hidden = !provisional;
  document.querySelector('.offers').classList.toggle('provisional', provisional);
  const note = $('provisional-note');
  note.hidden = !provisional;
  if (provisional && info) {
    const asOf = { time: time(info.savedAt), age: ageText(info.ageMs) };
    note.dataset.snapshotAgeMs = String(info.ageMs);
    if (state.online === false) note.textContent = t('offers.noteOffline', asOf);
    else if (view?.provisional) note.textContent = t('offers.noteProvisional', asOf);
    else note.textContent = t('offers.noteChecking', asOf);
  }

  const empty = $('offers-empty');
  const list = $('offer-list');
  if (!view) {
    empty.textContent = t(state.online === false ? 'offers.noAccountOffline' : 'offers.loading');
    if (state.snapshot && !$('banner').hidden) empty.textContent = t('offers.unavailable');
    empty.hidden = false;
    $('offer-choice').hidden = true;
    $('hints-section').hidden = true;
    $('others-section').hidden = true;
    lastElapsed = undefined;
    $('timing').textContent = '';
    return;
  }

  empty.hidden = view.offers.length > 0;
  empty.textContent = t(state.basket.isEmpty ? 'offers.addItems' : 'offers.none');
  $('offer-choice').hidden = view.offers.length + view.unavailable.length === 0;
  const age = provisional && info ? t('offer.age', { age: ageText(info.ageMs) }) : null;
  keepFocus(list, () => {
    const options = view.offers.map((offer, index) => {
      const key = `${offer.kind}:${offer.id}`;
      const id = `offer-${index}`;
      return h('li', { class: `offer${offer.best ? ' best' : ''}`, dataset: { id: offer.id, kind: offer.kind } },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: offer.id, checked: view.selected?.id === offer.id,
            dataset: { focusKey: key }, 'aria-labelledby': ids(`${id}-label`, `${id}-saves`),
            'aria-describedby': ids(offer.best && `${id}-best`, (offer.points !== null || offer.retireAt) && `${id}-more`,
              age && `${id}-age`, offer.finePrint && `${id}-fine-print`) || undefined }),
          h('span', { class: 'body' },
            offer.best && h('span', { class: 'badge best', id: `${id}-best` }, t('offer.best')),
            h('span', { class: 'label', id: `${id}-label` }, offer.label),
            offerDetail(offer, id),
            age && h('span', { class: 'age', id: `${id}-age` }, age),
            offer.finePrint && h('span', { class: 'fine-print', id: `${id}-fine-print` }, offer.finePrint)),
          h('span', { class: 'saving' }, formatMoney(-offer.discountCents))));
    });
    if (view.offers.length > 0) {
      options.push(h('li', { class: 'offer none' },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: '', checked: view.selected === null,
            dataset: { focusKey: 'none' } }),
          h('span', { class: 'body' }, h('span', { class: 'label' }, t('offer.noOffer'))))));
    }
    // Points products the service will not bill (their state is not `redeemable`): shown greyed,
    // with their state, and not selectable.
    for (const [index, offer] of view.unavailable.entries()) {
      const id = `unavailable-${index}`;
      options.push(h('li', { class: 'offer unavailable', dataset: { id: offer.id, kind: offer.kind, state: offer.state } },
        h('label', {},
          h('input', { type: 'radio', name: 'offer', value: offer.id, disabled: true,
            dataset: { focusKey: `${offer.kind}:${offer.id}` },
            'aria-labelledby': ids(`${id}-label`, `${id}-detail`), 'aria-describedby': `${id}-state` }),
          h('span', { class: 'body' },
            h('span', { class: 'badge unavailable', id: `${id}-state` }, t('offer.notRedeemable', { state: textOr(`state.${offer.state}`, offer.state) })),
            h('span', { class: 'label', id: `${id}-label` }, offer.label),
            h('span', { class: 'detail', id: `${id}-detail` }, t('offer.notRedeemableDetail', { amount: formatMoney(offer.discountCents) }))),
          h('span', { class: 'saving' }, '—'))));
    }
    list.replaceChildren(...options);
  });

  $('hints-section').hidden = view.hints.length === 0;
  $('hints').replaceChildren(...view.hints.map((hint) =>
    h('li', { class: 'hint', dataset: { id: hint.id } },
      ...emphasised('offer.hint', { amount: formatMoney(hint.remainingCents), offer: hint.label }, ['amount', 'offer'], h))));

  $('others-section').hidden = view.others.length === 0;
  $('others').replaceChildren(...view.others.map((other) =>
    h('li', { dataset: { id: other.id } }, h('strong', {}, other.label), ': ', other.reasons.map(reasonText).join(' '))));

  if (!keepTiming) lastElapsed = elapsed;
  $('timing').textContent = lastElapsed === undefined ? '' : t('offers.timing', { ms: milliseconds(lastElapsed) });
}

/** The Offers panel again in the page's language (a new language: labels, texts and figures). */
export function relabel() {
  if (lastAnswers === null) renderOffers(undefined, { keepTiming: true });
  else reselect();
}

// "< 0.1" or one decimal, in the page's language ("2,5" in Spanish and French).
function milliseconds(ms) {
  const format = new Intl.NumberFormat(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return ms < 0.1 ? `< ${format.format(0.1)}` : format.format(ms);
}
