// The error of a call on a disposed object, or of a call in flight when it was disposed: a
// QualifyError 410 as before (instanceof QualifyError, code, toJSON() unchanged), with a class
// and a name of its own, so that a caller tells "this object is gone" from a failure.
import { QualifyError } from './qualify_error.js';

/** QualifyError 410 of a call on (or in flight at the disposal of) a disposed object; name 'DisposedError'. */
export class DisposedError extends QualifyError {
  constructor(message) {
    super(410, message);
    this.name = 'DisposedError';
  }
}
