// formatMessage: any Unicode MessageFormat 2 message (an application's own catalog entry) formatted
// as formatReason formats the reason catalogs: the same `messageformat` implementation, the same
// functions (:number, :integer, :string and :currency), the guest's locale negotiated the same way.
import { guestLocale } from './guest_locale.js';
// messageformat's own code, trimmed to what the entry uses (by a script in the repository's scripts/).
import { MessageFormat, currency, parseMessage, visit } from './messageformat/messageformat.js';

// :currency is in MessageFormat 2's draft function set: given by name, not the whole draft set.
const FUNCTIONS = { currency };

// One compiled message per (tag, source): a page formats the same few messages again and again.
const compiled = new Map();

/**
 * { message, inputs }: `source` compiled for a BCP 47 tag, and the names of the values it reads
 * (its variables but those it declares with .local). Throws the parser's error for a malformed one.
 */
export function compiledMessage(tag, source) {
  const key = `${tag}\u0000${source}`;
  let found = compiled.get(key);
  if (!found) {
    const model = parseMessage(source);
    const read = new Set();
    const local = new Set();
    visit(model, {
      declaration(d) {
        if (d.type === 'local') local.add(d.name);
      },
      value(v) {
        if (v.type === 'variable') read.add(v.name);
      },
    });
    // The shipped languages are all left-to-right: no bidi isolation marks around figures.
    found = {
      message: new MessageFormat(tag, model, { functions: FUNCTIONS, bidiIsolation: 'none' }),
      inputs: [...read].filter((name) => !local.has(name)),
    };
    if (compiled.size >= 1024) compiled.clear();
    compiled.set(key, found);
  }
  return found;
}

/** [text, the first error] of a compiled message with `values` (an object of the caller's making). */
export function formatted({ message }, values) {
  let failure;
  const text = message.format(values, (error) => {
    failure ??= error;
  });
  return [text, failure];
}

/** Formats one MessageFormat 2 message with `values`; docs/reference.md, "Messages". */
export function formatMessage(source, values = {}, options = {}) {
  if (typeof source !== 'string') throw new TypeError('source must be a MessageFormat 2 message');
  if (values === null || typeof values !== 'object') throw new TypeError('values must be an object');
  const { tag } = guestLocale(options?.locale, options?.region);
  let found;
  try {
    found = compiledMessage(tag, source);
  } catch (cause) {
    throw new SyntaxError(`source: ${cause.message}`, { cause });
  }
  // Only the values' own properties, each read once: never what an object inherits ({$toString}).
  // Every name the message reads is a key, absent ones undefined: messageformat copies this scope
  // into a plain object, where an absent `toString` would be found.
  const scope = Object.create(null);
  for (const name of found.inputs) scope[name] = Object.hasOwn(values, name) ? values[name] : undefined;
  const [text, failure] = formatted(found, scope);
  // The value at fault, as the error names it ("Variable not available: $name").
  if (failure) throw new TypeError(`values.${/\$([\w.-]+)/.exec(`${failure.source} ${failure.message}`)?.[1]}: ${failure.message}`);
  return text;
}
