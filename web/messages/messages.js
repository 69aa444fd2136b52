// loyalty-qualifier/messages: explain reasons and offers in the guest's language (docs/reference.md, "Messages").
export { formatReason } from './format_reason.js';
export { formatMessage } from './format_message.js';
export { describeOffer } from './describe_offer.js';
export { addCatalog } from './add_catalog.js';
export { negotiateLocale } from './guest_locale.js';
export { supportedLocales } from './catalogs.js';
