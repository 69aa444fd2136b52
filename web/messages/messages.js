// loyalty-qualifier/messages: explain reasons in the guest's language (docs/reference.md, "Messages").
export { formatReason } from './format_reason.js';
export { formatMessage } from './format_message.js';
export { supportedLocales } from './guest_locale.js';
