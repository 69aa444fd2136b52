// Which shipped language answers a guest's locale, negotiated as Intl's lookup does (ECMA-402
// LookupMatcher): the first requested tag whose language is shipped wins; none gives English.

/** The languages with a catalog, in the order a language switch would list them. */
export const supportedLocales = Object.freeze(['en', 'es', 'fr']);

const DEFAULT_LOCALE = 'en';

/**
 * The catalog's language and the tag to format figures with (the guest's own tag, extensions
 * kept: `es-MX` reads Spanish with Mexican numbers), for `locale` as Intl takes it: a tag, an
 * array of tags, or undefined for the runtime's default locale.
 */
export function guestLocale(locale) {
  const key = Array.isArray(locale) ? locale.join('\u0000') : locale === undefined ? '\u0000default' : locale;
  let found = typeof key === 'string' ? negotiated.get(key) : undefined;
  if (found === undefined) {
    found = negotiate(locale);
    if (typeof key === 'string' && negotiated.size < NEGOTIATED_MAX) negotiated.set(key, found);
  }
  return found;
}

// A page asks with the same few locales again and again; Intl.Locale costs tens of µs.
const negotiated = new Map();
const NEGOTIATED_MAX = 64;

function negotiate(locale) {
  let tags;
  try {
    tags = locale === undefined ? [new Intl.NumberFormat().resolvedOptions().locale] : Intl.getCanonicalLocales(locale);
  } catch (cause) {
    throw new RangeError(`locale must be a BCP 47 language tag or an array of them: ${cause.message}`, { cause });
  }
  for (const tag of tags) {
    const { language } = new Intl.Locale(tag);
    if (supportedLocales.includes(language)) return { language, tag };
  }
  return { language: DEFAULT_LOCALE, tag: DEFAULT_LOCALE };
}
