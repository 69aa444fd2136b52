// Which catalog answers a guest's locale, and the tag its figures are formatted with. Negotiated as
// Intl's lookup does (ECMA-402 LookupMatcher: the tag without extensions, then shorter prefixes),
// then by language alone ('pt-PT' reads the 'pt-BR' catalog); the first requested tag that finds a
// catalog wins, and none gives English. Figures take the guest's own tag (`es-MX` reads Spanish
// words with Mexican numbers), in the store's region when one is given (`es` + `US`: es-US).
import { catalogGeneration, supportedLocales } from './catalogs.js';

// A page asks with the same few locales again and again; Intl.Locale costs tens of µs. The key
// tells a tag from a list ('es\u0000fr' is no tag; ['es', 'fr'] is a list), so a malformed tag is
// refused on every call, whatever was asked before.
const negotiated = new Map();

/**
 * { language, tag }: the language of the catalog that answers `locale` (a tag, an array of tags,
 * or undefined for the runtime's default locale, as Intl takes them) and the BCP 47 tag to format
 * figures with, in `region` when given. A RangeError for a malformed tag or region.
 */
export function guestLocale(locale, region) {
  if (region !== undefined && !(typeof region === 'string' && /^([A-Za-z]{2}|\d{3})$/.test(region))) {
    throw new RangeError('region must be a region code such as \'US\'');
  }
  const key = typeof locale === 'string' || locale === undefined || Array.isArray(locale) && locale.every((tag) => typeof tag === 'string')
    ? JSON.stringify([catalogGeneration(), region, locale]) : null; // Intl.Locale objects are asked each time
  let found = negotiated.get(key);
  if (!found) {
    found = negotiate(locale, region);
    if (negotiated.size >= 64) negotiated.clear();
    if (key) negotiated.set(key, found);
  }
  return found;
}

/** The language of the catalog that answers `requested` ('es-MX' -> 'es'; 'de' -> 'en' until a German catalog is added). */
export const negotiateLocale = (requested) => guestLocale(requested).language;

function negotiate(locale, region) {
  let tags;
  try {
    tags = Intl.getCanonicalLocales(locale);
  } catch (cause) {
    throw new RangeError(`locale must be a BCP 47 language tag or an array of them: ${cause.message}`, { cause });
  }
  for (const tag of tags.length > 0 ? tags : [new Intl.NumberFormat().resolvedOptions().locale]) {
    const { baseName, language } = new Intl.Locale(tag);
    const subtags = baseName.split('-');
    let match;
    for (let n = subtags.length; n > 0 && !match; n -= 1) match = supportedLocales.find((l) => l === subtags.slice(0, n).join('-'));
    match ??= supportedLocales.find((l) => l.split('-')[0] === language);
    if (match) return { language: match, tag: inRegion(tag, region) };
  }
  return { language: 'en', tag: inRegion('en', region) };
}

const inRegion = (tag, region) => (region ? new Intl.Locale(tag, { region }).toString() : tag);
