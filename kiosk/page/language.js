// The page's language: the guest's choice of English, Spanish or French, the page's own texts
// (texts/*.js, Unicode MessageFormat 2) and the reasons, both formatted by the package's
// `loyalty-qualifier/messages` entry. That entry (and messageformat behind it) is its own
// download, loaded once by loadMessages() beside config.json, not part of the base page.
import en from './texts/en.js';
import es from './texts/es.js';
import fr from './texts/fr.js';

const TEXTS = { en, es, fr };

/** The switch's languages, each named in its own language. */
export const LANGUAGES = Object.freeze([
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
]);

/** The language a new guest starts in. */
export const DEFAULT_LANGUAGE = 'en';

let current = DEFAULT_LANGUAGE;
let messages = null; // the loyalty-qualifier/messages module, once loaded

/** Loads the messages entry (its own module graph: the entry and messageformat). */
export async function loadMessages() {
  messages = await import('../../web/messages/messages.js');
}

/** The page's language: 'en', 'es' or 'fr'. */
export const language = () => current;

/** Makes `code` the page's language and sets <html lang>; returns whether it changed. */
export function useLanguage(code) {
  const next = Object.hasOwn(TEXTS, code) ? code : DEFAULT_LANGUAGE;
  document.documentElement.lang = next;
  if (next === current) return false;
  current = next;
  return true;
}

/** One page text in the page's language ({$name} values as the catalog's message reads them). */
export function t(key, values = {}) {
  const source = TEXTS[current][key] ?? TEXTS.en[key];
  if (source === undefined) throw new Error(`the kiosk page has no text ${key}`);
  return messages.formatMessage(source, values, { locale: current });
}

/** An explain reason in the page's language (the messages entry's formatReason). */
export function reasonText(reason) {
  return messages.formatReason(reason, { locale: current });
}

/**
 * A text whose `strong` values are emphasised: [text, <strong>value</strong>, text, …] for h(),
 * from one catalog message (translators keep the whole sentence and its word order).
 */
export function emphasised(key, values, strong, h) {
  const marks = Object.fromEntries(Object.keys(values).map((name, i) => [name, `\uE000${i}\uE001`]));
  const names = Object.keys(values);
  return t(key, marks).split(/\uE000(\d+)\uE001/).map((part, i) => {
    if (i % 2 === 0) return part;
    const name = names[Number(part)];
    return strong.includes(name) ? h('strong', {}, values[name]) : String(values[name]);
  });
}

/** An age as the page's language reads it: "45 s", "2 h 5 min", "1 day 3 h". */
export function ageText(ms) {
  const total = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  const minutes = Math.floor(total / 60_000);
  if (minutes < 1) return t('age.seconds', { count: Math.floor(total / 1000) });
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const parts = [];
  if (days > 0) parts.push(t('age.days', { count: days }));
  if (hours > 0) parts.push(t('age.hours', { count: hours }));
  if (minutes % 60 > 0 && days === 0) parts.push(t('age.minutes', { count: minutes % 60 }));
  return parts.join(' ');
}

/** The page's fixed texts: elements with data-text (their text) and data-label (their aria-label). */
export function applyPageTexts(root = document) {
  for (const element of root.querySelectorAll('[data-text]')) element.textContent = t(element.dataset.text);
  for (const element of root.querySelectorAll('[data-label]')) element.setAttribute('aria-label', t(element.dataset.label));
}
