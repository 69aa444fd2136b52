// The error every face of the package throws: the contract's error body (section 5) as an Error.

/** An error body of the contract (section 5): `code` is the HTTP status, `message` the reason. */
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
