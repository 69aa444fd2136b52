// The kiosk page's elements and words: building elements, keeping focus through a re-render,
// announcing to screen readers, the banner and news line, and how times, dates and counts read.
import { state } from './state.js';

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

export function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** A date as the merchant's guests read it (in the merchant's time zone when the browser knows it). */
export function localDate(iso) {
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
