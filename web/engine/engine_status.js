// The one place an engine status becomes an error: 0 is success; any other status is thrown as a
// QualifyError with the engine's own message (sql.js's handleError, for this engine).
import { QualifyError } from './qualify_error.js';

/** Throws QualifyError(status, the handle's error message) unless status is 0. */
export function checkStatus(status, handle) {
  if (status !== 0) throw new QualifyError(status, handle.error_message());
}
