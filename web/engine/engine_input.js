// Arguments on their way into the engine: JSON text, a snapshot object written in pieces, or UTF-8
// bytes, encoded straight into the handle's wasm input buffer.
import { toJsonText } from './json_text.js';

const encoder = new TextEncoder();

// Writes JSON text as UTF-8 straight into the handle's wasm input buffer; returns its size in
// bytes. Far cheaper than encoding a JS string into wasm memory in JS (the repository's benchmarks).
// JSON is mostly ASCII (one byte per UTF-16 unit), so the buffer is first asked for that much;
// text that does not fit is written again into room for the worst case, 3 bytes per unit. (Asking
// 3x for a 1.4 MB snapshot made a fresh instance touch, and page in, 4.2 MB, as measured.)
export function writeInput(module, handle, text) {
  if (text instanceof Uint8Array) return writeBytes(module, handle, text);
  if (typeof text !== 'string') return writePieces(module, handle, text);
  const length = text.length;
  let address = handle.input_buffer(length);
  const { read, written } = encoder.encodeInto(text, module.HEAPU8.subarray(address, address + length));
  if (read === length) return written;
  const capacity = length * 3;
  address = handle.input_buffer(capacity);
  return encoder.encodeInto(text, module.HEAPU8.subarray(address, address + capacity)).written;
}

// The same for UTF-8 bytes, copied as they are: the engine judges every byte, as the service's
// engine judges the bytes of a request body.
function writeBytes(module, handle, bytes) {
  const address = handle.input_buffer(bytes.length);
  module.HEAPU8.set(bytes, address);
  return bytes.length;
}

// The same for JSON text in pieces (snapshotJson), written one after the other.
function writePieces(module, handle, pieces) {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  for (const capacity of [length, length * 3]) {
    const address = handle.input_buffer(capacity);
    const heap = module.HEAPU8;
    const end = address + capacity;
    let at = address;
    let fits = true;
    for (const piece of pieces) {
      const { read, written } = encoder.encodeInto(piece, heap.subarray(at, end));
      at += written;
      if (read < piece.length) {
        fits = false;
        break;
      }
    }
    if (fits) return at - address;
  }
  throw new Error('unreachable: 3 bytes per UTF-16 unit always fit');
}

// ---- Snapshots as JSON text: an account's offers written one by one. ---------------------------

// An array member of a snapshot this long or longer (its offer lists) is written element by
// element; JSON pieces are cut at about this many UTF-16 units.
const PIECEWISE_MIN_ELEMENTS = 64;
const PIECE_UNITS = 16384;

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** JSON.stringify(element) as it reads at `index` of an array (toJSON gets the index as key). */
function elementJson(element, index) {
  if (element !== null && typeof element === 'object' && typeof element.toJSON !== 'function') {
    return JSON.stringify(element);
  }
  const text = JSON.stringify({ [index]: element });
  return text.length === 2 ? 'null' : text.slice(String(index).length + 4, -1);
}

/**
 * JSON.stringify(snapshot) as a list of pieces of about PIECE_UNITS each, the same text: every
 * member, and every element of a long array member, stringified on its own with the key
 * JSON.stringify would give its toJSON. V8 returns a large JSON.stringify result as a tree of
 * parts that encodeInto must first flatten into a new string: for 5,000 rewards 1.4 MB twice,
 * in fresh pages of V8's large-object space every time, about as long as the stringify itself
 * (as measured by the repository's benchmarks). Small pieces stay in the young generation.
 */
function jsonPieces(snapshot) {
  const pieces = [];
  let piece = '{';
  let separator = '';
  for (const key of Object.keys(snapshot)) {
    const value = snapshot[key];
    if (
      Array.isArray(value) &&
      value.length >= PIECEWISE_MIN_ELEMENTS &&
      typeof value.toJSON !== 'function'
    ) {
      piece += `${separator}${JSON.stringify(key)}:[`;
      for (let i = 0; i < value.length; ++i) {
        piece += i === 0 ? elementJson(value[i], i) : `,${elementJson(value[i], i)}`;
        if (piece.length >= PIECE_UNITS) {
          pieces.push(piece);
          piece = '';
        }
      }
      piece += ']';
    } else {
      // `"key":value`, or nothing when JSON.stringify leaves the member out (undefined, a function).
      const member = JSON.stringify({ [key]: value });
      if (member.length === 2) continue;
      piece += separator + member.slice(1, -1);
    }
    separator = ',';
  }
  pieces.push(`${piece}}`);
  return pieces;
}

/**
 * A request or snapshot argument given as UTF-8 bytes (a Uint8Array, e.g. a Buffer read from a
 * file) goes to the engine as it is; anything else through toJsonText.
 */
export function engineInput(value, what, code) {
  return value instanceof Uint8Array ? value : toJsonText(value, what, code);
}

/**
 * A snapshot argument as JSON text: a string or UTF-8 bytes as they are, a plain object (the
 * usual: parsed from an API response) in pieces, anything else through toJsonText. Errors are
 * toJsonText's (422).
 */
export function snapshotJson(snapshot) {
  if (isPlainObject(snapshot) && typeof snapshot.toJSON !== 'function') {
    try {
      return jsonPieces(snapshot);
    } catch {
      // Serialised whole again, so that the error (a cycle, a BigInt) reads as JSON.stringify's.
    }
  }
  return engineInput(snapshot, 'snapshot', 422);
}

