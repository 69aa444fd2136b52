// formatMessage: any Unicode MessageFormat 2 message (an application's own catalog entry) formatted
// as formatReason formats the reason catalogs: the same `messageformat` implementation, the same
// functions (:number, :integer, :string and :currency), the guest's locale negotiated the same way.
import { MessageFormat } from 'messageformat';
import { DraftFunctions } from 'messageformat/functions';

import { guestLocale } from './guest_locale.js';

// :currency is in MessageFormat 2's draft function set: given by name, not the whole draft set.
const FUNCTIONS = { currency: DraftFunctions.currency };

// One compiled message per (tag, source): a page formats the same few messages again and again.
const compiled = new Map();
const COMPILED_MAX = 1024;

/** The compiled message of `source` for a BCP 47 tag (for formatReason and formatMessage). */
export function compiledMessage(tag, source) {
  const key = `${tag}\u0000${source}`;
  let message = compiled.get(key);
  if (message === undefined) {
    // The shipped languages are all left-to-right: no bidi isolation marks around figures.
    message = new MessageFormat(tag, source, { functions: FUNCTIONS, bidiIsolation: 'none' });
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, message);
  }
  return message;
}

/** Formats one MessageFormat 2 message with `values`; docs/reference.md, "Messages". */
export function formatMessage(source, values = {}, options = {}) {
  if (typeof source !== 'string') throw new TypeError('source must be a MessageFormat 2 message');
  const { tag } = guestLocale(options?.locale);
  let message;
  try {
    message = compiledMessage(tag, source);
  } catch (cause) {
    throw new SyntaxError(`source: ${cause.message}`, { cause });
  }
  let failure;
  const text = message.format(values, (error) => {
    failure ??= error;
  });
  // The value at fault, as the error names it ("Variable not available: $name").
  if (failure !== undefined) throw new TypeError(`values.${/\$(\w+)/.exec(failure.message)?.[1]}: ${failure.message}`);
  return text;
}
