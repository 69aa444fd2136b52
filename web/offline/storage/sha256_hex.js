// SHA-256 of a text, as 64 hex digits: WebCrypto where there is one, else node:crypto. Used where
// a key must tell apart what it names (never a truncated hash).

import { serverModule } from '../../engine/server_module.js';

/** The SHA-256 of `text` (UTF-8) in lowercase hex. */
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const subtle = globalThis.crypto?.subtle;
  if (typeof subtle?.digest === 'function') {
    const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
    return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  return (await serverModule('node:crypto')).createHash('sha256').update(bytes).digest('hex');
}
