// The page's language: the guest's choice of English, Spanish, French, German or Brazilian
// Portuguese, the page's own texts (texts/<language>.js, Unicode MessageFormat 2), the reasons and the
// offers described, all formatted by the package's `loyalty-qualifier/messages` entry in the
// guest's language as the store writes it (its region: `es` in a US store reads "$4.75"). That
// entry is its own download, loaded once by loadMessages() beside config.json, not part of the
// base page; German and Portuguese (the page's texts and the entry's catalog) only when a guest
// chooses them.
import en from './texts/en.js';
import es from './texts/es.js';
import fr from './texts/fr.js';

const TEXTS = { en, es, fr };

// The languages loaded only when a guest chooses one: [the page's texts, the entry's catalog].
const LATER = {
  de: () => Promise.all([import('./texts/de.js'), import('../../../web/messages/catalogs/de.js')]),
  'pt-BR': () => Promise.all([import('./texts/pt-BR.js'), import('../../../web/messages/catalogs/pt-BR.js')]),
};

/** The switch's languages, each named in its own language. */
export const LANGUAGES = Object.freeze([
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'de', name: 'Deutsch' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
]);

/** The language a new guest starts in. */
export const DEFAULT_LANGUAGE = 'en';

let current = DEFAULT_LANGUAGE;
let store = { region: undefined, currency: 'USD' };
let messages = null; // the loyalty-qualifier/messages module, once loaded

/** Loads the messages entry (its own module graph). */
export async function loadMessages() {
  messages = await import('../../../web/messages/messages.js');
}

/** Whether `code` is a language the page must load before using it (German, Portuguese, until loaded). */
export const needsLoading = (code) => Object.hasOwn(LATER, code) && !Object.hasOwn(TEXTS, code);

/** Loads a language the page does not carry from the start: its texts, and the entry's catalog added. */
export async function loadLanguage(code) {
  if (!needsLoading(code)) return;
  const [texts, catalog] = await LATER[code]();
  messages.addCatalog(code, catalog.default);
  TEXTS[code] = texts.default;
}

/** The page's language: a code of LANGUAGES. */
export const language = () => current;

/** The tag the page formats figures with: its language in the store's region ('es' in a US store: 'es-US'). */
export const formatLocale = () => (store.region ? new Intl.Locale(current, { region: store.region }).toString() : current);

/** The store's currency (ISO 4217). */
export const storeCurrency = () => store.currency;

/** How the current merchant's store writes: its region and currency (config.json). */
export function useStore(merchant) {
  store = { region: merchant?.region, currency: merchant?.currency ?? 'USD' };
}

/** Makes `code` the page's language (loaded) and sets <html lang>; returns whether it changed. */
export function useLanguage(code) {
  const next = Object.hasOwn(TEXTS, code) ? code : DEFAULT_LANGUAGE;
  document.documentElement.lang = next;
  if (next === current) return false;
  current = next;
  return true;
}

const options = () => ({ locale: current, region: store.region });

/** One page text in the page's language ({$name} values as the catalog's message reads them). */
export function t(key, values = {}) {
  const source = TEXTS[current][key] ?? TEXTS.en[key];
  if (source === undefined) throw new Error(`the kiosk page has no text ${key}`);
  return messages.formatMessage(source, values, options());
}

/** A page text, or `fallback` (the merchant's own word) when the page has none for `key`. */
export function textOr(key, fallback, values = {}) {
  return Object.hasOwn(TEXTS[current], key) || Object.hasOwn(TEXTS.en, key) ? t(key, values) : fallback;
}

/** An explain reason in the page's language (the messages entry's formatReason). */
export function reasonText(reason) {
  return messages.formatReason(reason, { ...options(), currency: store.currency });
}

/** An offer described in the page's language (the messages entry's describeOffer); `names`: { productName, categoryName }. */
export function describedOffer(record, names) {
  return messages.describeOffer(record, { ...options(), currency: store.currency, ...names });
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
