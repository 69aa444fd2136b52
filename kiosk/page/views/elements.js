// The kiosk page's elements and words: building elements, keeping focus through a re-render,
// announcing to screen readers, the banner and news line, and how times, dates and counts read.
import { formatLocale, t, textOr } from '../language/language.js';
import { state } from '../state.js';

export const $ = (id) => document.getElementById(id);

/** What the page's interactions do (set by kiosk.js): chooseItem(item), basketChanged(). */
export const handlers = { chooseItem: () => {}, basketChanged: () => {} };

/** h('p', { class: 'x', onclick }, 'text', child): a DOM element. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') {
      // An absent value is no attribute (not data-x="undefined"), as for the other attributes.
      for (const [key, data] of Object.entries(value)) if (data !== null && data !== undefined) element.dataset[key] = data;
    }
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

let banner = null; // { key, values }: the banner's text, made again in each language

/** The banner (role=alert): a page text ({ key, values }), or null to hide it. */
export function showBanner(text) {
  banner = text ?? null;
  renderBanner();
}

/** The key of the banner's text, or null when none is shown. */
export const bannerKey = () => banner?.key ?? null;

export function renderBanner() {
  const element = $('banner');
  element.textContent = banner ? t(banner.key, banner.values) : '';
  element.hidden = !banner;
}

let newsTimer = null;
let news = null; // { key, values }

/** A short-lived notice in the Offers panel (a reward earned, e.g. by a campaign): a page text. */
export function showNews(text) {
  window.clearTimeout(newsTimer);
  news = text ?? null;
  renderNews();
  if (news) {
    announce($('news').textContent);
    newsTimer = window.setTimeout(() => showNews(null), 60_000);
  }
}

export function renderNews() {
  const element = $('news');
  element.textContent = news ? t(news.key, news.values) : '';
  element.hidden = !news;
}

export function time(ms) {
  return new Date(ms).toLocaleTimeString(formatLocale(), { hour: '2-digit', minute: '2-digit' });
}

/** A date as the merchant's guests read it (in the merchant's time zone when the browser knows it). */
export function localDate(iso) {
  const options = { month: 'short', day: 'numeric' };
  try {
    return new Date(iso).toLocaleDateString(formatLocale(), { ...options, timeZone: state.snapshot?.merchant?.time_zone });
  } catch {
    return new Date(iso).toLocaleDateString(formatLocale(), options);
  }
}

/** The merchant's points' name in the page's language (the merchant's own word for one the page has no text for). */
export function pointsName() {
  const name = state.merchant?.points_name ?? 'points';
  return textOr(`points.${name}`, name);
}
