// The error every face of the package throws: the error body (docs/reference.md#errors) as an Error.

/** An error body (docs/reference.md#errors): `code` is the HTTP status, `message` the reason. */
export class QualifyError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'QualifyError';
    this.code = code;
  }

  toJSON() {
    return { code: this.code, message: this.message };
  }
}
