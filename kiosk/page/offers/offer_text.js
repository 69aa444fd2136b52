// An offer's label and fine print as the guest reads them. The merchant writes them in one language
// (config.json's `labels_language`): a guest reading it sees them as written; a guest reading
// another sees the offer described by the messages entry's describeOffer in the guest's language,
// from the offer's own structure, its products and categories named from the menu.
import { describedOffer, language } from '../language/language.js';
import { categoryNameOf, productName } from '../basket/menu_words.js';
import { state } from '../state.js';

const languageOf = (tag) => new Intl.Locale(tag).language;

/** { label, finePrint } of a reward or points product record. */
export function offerTexts(record) {
  const own = { label: record.label || record.id, finePrint: record.fine_print ?? '' };
  if (languageOf(language()) === languageOf(state.merchant?.labels_language ?? 'en')) return own;
  try {
    // The page says what a points product costs in its own points' name (the offer's detail): not twice.
    const { title, detail } = describedOffer({ ...record, points: null }, { productName, categoryName: categoryNameOf });
    return { label: title, finePrint: detail };
  } catch {
    return own; // a record the entry cannot describe (a newer type's fields) keeps the merchant's words
  }
}
