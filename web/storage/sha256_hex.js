// SHA-256 of a text, as 64 hex digits: WebCrypto where there is one, else node:crypto. Used where
// a key must tell apart what it names (never a truncated hash).

/** The SHA-256 of `text` (UTF-8) in lowercase hex. */
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const subtle = globalThis.crypto?.subtle;
  if (typeof subtle?.digest === 'function') {
    const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
    return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  // The specifier is a variable so that bundlers leave this Node-only import alone.
  const cryptoModule = 'node:crypto';
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ cryptoModule)).createHash('sha256').update(bytes).digest('hex');
}
