// What crosses between a page and its qualifier worker (web/worker/): errors as plain bodies made
// into the same QualifyError (code, message, toJSON()) or TypeError on the other side, and
// snapshots as the UTF-8 of their JSON text in an ArrayBuffer that is transferred, not copied.
import { QualifyError } from '../engine/qualify_error.js';
import { toJsonText } from '../engine/json_text.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Checked by tag rather than instanceof: a buffer from another realm counts.
function isBytes(value) {
  return ArrayBuffer.isView(value) || Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/**
 * `error` as the QualifyError class the caller's entry exports (Node's entry, web/index.node.mjs,
 * is a bundle with a class of its own); any other error as it is.
 */
export function asErrorOf(QualifyErrorClass, error) {
  if (!(error instanceof QualifyError) || QualifyErrorClass === QualifyError) return error;
  const adopted = new QualifyErrorClass(error.code, error.message);
  if (error.cause !== undefined) adopted.cause = error.cause;
  return adopted;
}

/** The error of a call on a disposed qualifier (410), as createQualifier's qualifiers throw it. */
export function disposedError() {
  return new QualifyError(410, 'this qualifier has been disposed');
}

/** An error as it crosses: { name, message, code? } (a QualifyError keeps its code). */
export function errorBody(error) {
  // By name and code: the worker's engine (the browser bundle) has a QualifyError class of its own.
  if (error instanceof QualifyError || (error?.name === 'QualifyError' && typeof error.code === 'number')) {
    return { name: 'QualifyError', code: error.code, message: error.message };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error a body stands for: a QualifyError, a TypeError or RangeError, else an Error. */
export function errorFromBody(body) {
  if (body.name === 'QualifyError') return new QualifyError(body.code, body.message);
  if (body.name === 'TypeError') return new TypeError(body.message);
  if (body.name === 'RangeError') return new RangeError(body.message);
  const error = new Error(body.message);
  error.name = body.name;
  return error;
}

/**
 * A snapshot argument as the UTF-8 of its JSON text, in an ArrayBuffer to transfer: a string is
 * encoded once; bytes (UTF-8 JSON) are copied once, so the caller's buffer stays usable; an
 * object is serialised once here (JSON.stringify, on the calling thread), with createQualifier's
 * errors (422).
 */
export function snapshotBuffer(snapshot) {
  if (isBytes(snapshot)) {
    const view = ArrayBuffer.isView(snapshot)
      ? new Uint8Array(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength)
      : new Uint8Array(snapshot);
    return view.slice().buffer;
  }
  return encoder.encode(toJsonText(snapshot, 'snapshot', 422)).buffer;
}

/** The JSON text of a snapshot buffer (in the worker). */
export function snapshotText(buffer) {
  return decoder.decode(buffer);
}
