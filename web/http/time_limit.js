// Every wait of the order path is bounded: a caller's function (a token function, credentialsFor)
// that never settles must not hold a checkout, or the replay lock, for good.

/**
 * Settles as `promise` does, or rejects with `timeoutError()` once `ms` milliseconds passed
 * first.
 */
export function withinTime(promise, ms, timeoutError) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
