// Waits between failed attempts: capped exponential with jitter ("equal jitter": half the step
// fixed, half random), so that many clients coming back after an outage do not retry in step.

const DEFAULT_INITIAL_MS = 1_000;
const DEFAULT_MAX_MS = 5 * 60_000;

/** Validated backoff options { initialMs, maxMs } (internal). */
export function backoffOptions(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('backoff must be an object');
  const { initialMs = DEFAULT_INITIAL_MS, random = Math.random } = options;
  const maxMs = options.maxMs ?? Math.max(DEFAULT_MAX_MS, typeof initialMs === 'number' ? initialMs : 0);
  if (typeof initialMs !== 'number' || !(initialMs > 0) || !Number.isFinite(initialMs)) {
    throw new TypeError('backoff.initialMs must be a positive number of milliseconds');
  }
  if (typeof maxMs !== 'number' || !(maxMs >= initialMs) || !Number.isFinite(maxMs)) {
    throw new TypeError('backoff.maxMs must be a number of milliseconds, at least backoff.initialMs');
  }
  if (typeof random !== 'function') throw new TypeError('backoff.random must be a function');
  return { initialMs, maxMs, random };
}

/** One sequence of attempts: failed() gives the wait before the next one, succeeded() resets. */
export class RetryBackoff {
  #options;
  #failures = 0;
  #readyAt = 0;

  constructor(options) {
    this.#options = backoffOptions(options);
  }

  /** Failures in a row so far. */
  get failures() {
    return this.#failures;
  }

  /** Whether an attempt may be made at `now` (epoch ms). */
  ready(now) {
    return now >= this.#readyAt;
  }

  /** Records a failure at `now`; returns the wait (ms) before the next attempt. */
  failed(now) {
    this.#failures += 1;
    const { initialMs, maxMs, random } = this.#options;
    const step = Math.min(maxMs, initialMs * 2 ** Math.min(this.#failures - 1, 40));
    const wait = Math.round(step / 2 + (step / 2) * random());
    this.#readyAt = now + wait;
    return wait;
  }

  succeeded() {
    this.#failures = 0;
    this.#readyAt = 0;
  }
}
