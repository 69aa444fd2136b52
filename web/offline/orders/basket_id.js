// Basket ids: one per order, chosen by the caller or a random UUID; the derived id of a sale billed
// without its refused offer. The service takes ids of at most 200 bytes.
import { QualifyError } from '../../engine/qualify_error.js';
import { serverModule } from '../../engine/server_module.js';
import { sha256Hex } from '../storage/sha256_hex.js';

const MAX_BASKET_ID_BYTES = 200;
const DERIVED_SUFFIX = '~without-offer';

/** A random UUID (RFC 9562 version 4). */
export async function newBasketId() {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  let bytes;
  if (typeof webCrypto?.getRandomValues === 'function') {
    bytes = webCrypto.getRandomValues(new Uint8Array(16));
  } else {
    bytes = new Uint8Array((await serverModule('node:crypto')).randomBytes(16));
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The checkout option `basketId`: null when absent, else a non-empty string of at most 200 bytes. */
export function checkBasketId(basketId) {
  if (basketId === undefined || basketId === null) return null;
  if (typeof basketId !== 'string' || basketId.length === 0 || new TextEncoder().encode(basketId).length > MAX_BASKET_ID_BYTES) {
    throw new QualifyError(400, `basketId must be a non-empty string of at most ${MAX_BASKET_ID_BYTES} bytes`);
  }
  return basketId;
}

/**
 * The basket id of the sale of `basketId` billed without its offer: `<id>~without-offer`, or,
 * when that would pass the service's 200 bytes, `without-offer~<SHA-256 hex of the id>`. The same
 * id gives the same derived id, in every process.
 */
export async function derivedBasketId(basketId) {
  const bytes = new TextEncoder().encode(basketId).length;
  if (bytes + DERIVED_SUFFIX.length <= MAX_BASKET_ID_BYTES) return basketId + DERIVED_SUFFIX;
  return `without-offer~${await sha256Hex(basketId)}`;
}
