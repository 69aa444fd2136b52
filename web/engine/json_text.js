// A request or snapshot argument as JSON text: the one check shared by the qualifier and the HTTP
// clients. A string is taken as it is (the engine or the service judges it); an object is
// serialised; anything else is a QualifyError with the caller's code.
import { QualifyError } from './qualify_error.js';

/** `value` as JSON text, or a QualifyError (`code`) naming `what`. */
export function toJsonText(value, what, code) {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new QualifyError(code, `${what} must be a JSON object or a JSON string`);
  }
  try {
    return JSON.stringify(value);
  } catch (e) {
    throw new QualifyError(code, `${what} cannot be serialised to JSON: ${e.message}`);
  }
}
