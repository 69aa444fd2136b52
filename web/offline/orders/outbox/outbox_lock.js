// The order outbox's locks: while one holder has the lock of a guest's orders, no other sends,
// settles or decides the promise of that guest's orders (another guest's orders have locks of
// their own). Three holders: this JavaScript realm only (in_process_lock.js: the memory outbox,
// and any outbox when nothing better exists), navigator.locks across the tabs and workers of an
// origin (the IndexedDB outbox, below), and a lock directory beside the order files across the
// processes of a machine (directory_lock.js: the file outbox). Each is a lease where it can be
// lost: exclusive(fn) gives fn a lease whose held() says whether the lock is still its own, which
// the replay asks before each send, settle and write, and checkout after it writes its order (a
// lost lock is safe: the service bills a basket id once, with the same body). Everywhere a holder
// in the background (a replay's turn) lets a waiter in the foreground (a checkout) go first.
// Browser-safe to import.
import { DEFAULT_STALE_MS, directoryLock } from './directory_lock.js';
import { KEPT_LEASE, STEPPED_BACK, inProcessLock, queuedExclusive } from './in_process_lock.js';

export { DEFAULT_STALE_MS, KEPT_LEASE, directoryLock, inProcessLock };

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `{ exclusive(fn, { background }) }` through `navigator.locks.request(name)` when the platform
 * has it (every tab and worker of the origin waits for the same name), else in this realm only.
 * The lock is a lease too: a waiter waits `staleMs` at most, then takes the lock over (`steal`: a
 * tab frozen or hung while holding it holds back no other), and the holder it was taken from
 * finds lease.held() false from then on, as a lock directory's does. navigator.locks serves its
 * waiters in order, so a `background` caller never waits in its queue: it takes the lock only
 * when it is free (for one lease at most, then as any waiter), and this realm's checkouts go
 * before its replay turns (in_process_lock.js).
 */
export function webLock(name, { staleMs = DEFAULT_STALE_MS } = {}) {
  const local = inProcessLock();
  return {
    exclusive(fn, { background = false } = {}) {
      const locks = globalThis.navigator?.locks;
      if (typeof locks?.request !== 'function') return local.exclusive(fn, { background });
      return queuedExclusive(local, (inBackground, stepBack) => takeWebLock(locks, name, staleMs, inBackground, stepBack), fn, { background, waitMs: staleMs });
    },
  };
}

async function takeWebLock(locks, name, staleMs, background, stepBack) {
  if (background) {
    const until = performance.now() + staleMs;
    for (let wait = 5; performance.now() < until; wait = Math.min(wait * 2, 25)) {
      if (stepBack()) return STEPPED_BACK;
      const taken = await requestLock(locks, name, { ifAvailable: true });
      if (taken !== null) return taken;
      await pause(wait);
    }
  }
  const signal = AbortSignal.timeout(staleMs);
  try {
    return await requestLock(locks, name, { signal });
  } catch (e) {
    if (!signal.aborted) throw e;
    return requestLock(locks, name, { steal: true });
  }
}

// navigator.locks' lock `name` as { lease, release() } (null: asked ifAvailable and held by
// another). Held until release(); when another takes it over (steal), lease.held() turns false.
function requestLock(locks, name, options) {
  return new Promise((resolve, reject) => {
    let granted = false;
    let lost = false;
    let release;
    const released = new Promise((done) => {
      release = done;
    });
    const lease = Object.freeze({ held: async () => !lost });
    locks
      .request(name, options, (lock) => {
        if (lock === null) {
          resolve(null);
          return undefined;
        }
        granted = true;
        resolve({ lease, release });
        return released;
      })
      .catch((e) => {
        if (granted) lost = true; // taken over (steal) while held
        else reject(e);
      });
  });
}

// Outboxes without exclusive() (a caller's own): locks per outbox object and guest.
const lockOfOutbox = new WeakMap();

/**
 * The lock of `outbox` for the orders of `owner`: its own exclusive(fn, { owner }) (an outbox
 * that takes no owner locks all its orders at once, which is correct, only less concurrent); for
 * an outbox without exclusive(), navigator.locks' "loyalty-qualifier-outbox:<owner>" (across
 * tabs) or, without it, one lock per outbox and guest in this realm. Its exclusive(owner, fn)
 * always returns a Promise. exclusive(owner, fn, { background: true }) passes `background` on (the
 * replay's turns: a checkout waiting for the same guest goes first where the outbox can tell).
 */
export function replayLock(outbox) {
  if (typeof outbox.exclusive === 'function') {
    return { exclusive: (owner, fn, { background = false } = {}) => Promise.resolve(outbox.exclusive(fn, background ? { owner, background } : { owner })) };
  }
  let locks = lockOfOutbox.get(outbox);
  if (locks === undefined) {
    locks = new Map();
    lockOfOutbox.set(outbox, locks);
  }
  return {
    exclusive: (owner, fn, { background = false } = {}) => {
      if (!locks.has(owner)) locks.set(owner, webLock(`loyalty-qualifier-outbox:${owner}`));
      return locks.get(owner).exclusive(fn, { background });
    },
  };
}
