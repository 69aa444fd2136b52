// The catalogs in use, by language tag: the shipped English, Spanish and French ones, and those a
// page gives to addCatalog (checked there). English is also the reference every catalog is checked
// against and the text when no catalog answers a guest's locale.
import en from './catalogs/en.js';
import es from './catalogs/es.js';
import fr from './catalogs/fr.js';

const catalogs = { en, es, fr };
let generation = 0;

/** The languages with a catalog, in the order they came (frozen; a new array after addCatalog). */
export let supportedLocales = Object.freeze(Object.keys(catalogs));

/** The catalog of a language of supportedLocales. */
export const catalogOf = (language) => catalogs[language];

/** Changes with every catalog added: what was negotiated or formatted before may read otherwise now. */
export const catalogGeneration = () => generation;

/** Puts a checked catalog in use for `language` (replacing the one it had). */
export function useCatalog(language, catalog) {
  catalogs[language] = catalog;
  supportedLocales = Object.freeze(Object.keys(catalogs));
  generation += 1;
}
