// What crosses between a page and its qualifier worker (web/worker/): errors as plain bodies made
// into the same QualifyError (code, message, toJSON()) or TypeError on the other side, and
// snapshots as the UTF-8 of their JSON text in an ArrayBuffer that is transferred, not copied.
import { QualifyError } from '../engine/qualify_error.js';
import { DisposedError } from '../engine/disposed_error.js';
import { toJsonText } from '../engine/json_text.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Checked by tag rather than instanceof: a buffer from another realm counts.
function isBytes(value) {
  return ArrayBuffer.isView(value) || Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/**
 * `error` as the QualifyError (or DisposedError) class the caller's entry exports (Node's entry,
 * web/index.node.mjs, is a bundle with classes of its own: `runtime` { QualifyError,
 * DisposedError }); any other error as it is.
 */
export function asErrorOf(runtime, error) {
  if (!(error instanceof QualifyError)) return error;
  const disposed = error instanceof DisposedError;
  const Class = disposed ? runtime.DisposedError : runtime.QualifyError;
  if (Class === undefined || error instanceof Class) return error;
  const adopted = disposed ? new Class(error.message) : new Class(error.code, error.message);
  if (error.cause !== undefined) adopted.cause = error.cause;
  return adopted;
}

/** The error of a call on a disposed qualifier (410), as createQualifier's qualifiers throw it. */
export function disposedError() {
  return new DisposedError('this qualifier has been disposed');
}

/** An error as it crosses: { name, message, code? } (a QualifyError keeps its code, a DisposedError its name). */
export function errorBody(error) {
  // By name and code: the worker's engine (the browser bundle) has a QualifyError class of its own.
  if (error instanceof DisposedError || (error?.name === 'DisposedError' && error.code === 410)) {
    return { name: 'DisposedError', code: 410, message: error.message };
  }
  if (error instanceof QualifyError || (error?.name === 'QualifyError' && typeof error.code === 'number')) {
    return { name: 'QualifyError', code: error.code, message: error.message };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error a body stands for: a QualifyError, a TypeError or RangeError, else an Error. */
export function errorFromBody(body) {
  if (body.name === 'DisposedError') return new DisposedError(body.message);
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
