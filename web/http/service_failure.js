// What a failed call says about the request, written once for every caller (the clients, the
// order path, the kiosk page through isServiceUnavailable): the codes of a call without an
// answer, whether the service is unavailable, whether it may have acted, whether it never saw it.
import { QualifyError } from '../engine/qualify_error.js';

/** QualifyError code of a request that reached no service (refused, DNS, offline, CORS). */
export const NETWORK_ERROR = 0;
/** QualifyError code of a request that got no complete answer within `timeoutMs`. */
export const TIMEOUT = 599;

/** True for a failure that says nothing about the request: no answer, a timeout, or a 5xx. */
export function isServiceUnavailable(error) {
  return (
    error instanceof QualifyError &&
    (error.code === NETWORK_ERROR || error.code === TIMEOUT || (error.code >= 500 && error.code <= 599))
  );
}

/**
 * True when a call got no answer (not a QualifyError at all, NETWORK_ERROR or TIMEOUT): unlike a
 * 5xx, the service may have acted on it without saying so.
 */
export function isNoAnswer(error) {
  return !(error instanceof QualifyError) || error.code === NETWORK_ERROR || error.code === TIMEOUT;
}

// Failures of a request that provably never reached a server: the connection was never made.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * True when the failed request provably never reached a service: no access token
 * could be had, or (Node) the connection was refused or its address not found. A browser does
 * not say why a fetch failed: there it is false, as for a timeout or a lost answer.
 */
export function wasNotSent(error) {
  if (error?.notSent === true) return true;
  for (let cause = error, depth = 0; cause && depth < 5; cause = cause.cause, ++depth) {
    if (NOT_SENT_CODES.has(cause.code)) return true;
  }
  return false;
}
