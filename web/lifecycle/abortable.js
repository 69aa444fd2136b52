// A call that its caller can stop waiting for: the caller's `signal` option, and the owner's
// lifetime (a signal aborted by dispose()). The work itself is not interrupted unless it watches
// the signal it is handed; what it does after an abort is the owner's to document.

/** The `signal` of a call's options (undefined or null: none); a TypeError for anything else. */
export function signalOption(options, what) {
  if (options === undefined || options === null) return null;
  if (typeof options !== 'object') throw new TypeError(`${what} options must be an object`);
  const { signal } = options;
  if (signal === undefined || signal === null) return null;
  if (typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function') {
    throw new TypeError(`${what}: options.signal must be an AbortSignal`);
  }
  return signal;
}

// An abort's reason: what the signal was aborted with (a DOMException 'AbortError' by default).
const reasonOf = (signal) => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * work(signal)'s result, `signal` aborting as soon as one of `signals` (null entries ignored)
 * does; the returned promise then rejects at once with that signal's reason, whatever the work
 * does next. A signal aborted already rejects before the work starts.
 */
export function abortable(signals, work) {
  const given = signals.filter((s) => s !== null && s !== undefined);
  const aborted = given.find((s) => s.aborted);
  if (aborted !== undefined) return Promise.reject(reasonOf(aborted));
  if (given.length === 0) return (async () => work(null))();
  const controller = new AbortController();
  const stop = (event) => controller.abort(reasonOf(event.target));
  for (const s of given) s.addEventListener('abort', stop, { once: true });
  const stopped = new Promise((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const running = (async () => work(controller.signal))();
  return Promise.race([running, stopped]).finally(() => {
    for (const s of given) s.removeEventListener('abort', stop);
  });
}
