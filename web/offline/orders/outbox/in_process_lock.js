// A lock of this JavaScript realm (the memory outbox's, and the queue in front of every shared lock):
// one holder at a time, a caller in the foreground (a checkout) served before every caller in the
// background (a replay's turn), so that a checkout waits for at most the turn in progress, never
// for the turns other hybrids of the same page or process queued before it.

/** The lease of a lock that cannot be lost (in-process). */
export const KEPT_LEASE = Object.freeze({ held: async () => true });

/**
 * `{ exclusive(fn, { background, waitMs, beside }), foregroundWaiting() }`: runs fn(KEPT_LEASE)
 * once every earlier holder is done, foreground callers first, each kind in the order it came. A
 * caller that waited `waitMs` (default: no bound) stops waiting and resolves beside() instead: a
 * holder of this realm that never ends holds back no other caller longer than that.
 */
export function inProcessLock() {
  let busy = false;
  const waiting = { foreground: [], background: [] };
  const next = () => {
    const turn = waiting.foreground.shift() ?? waiting.background.shift();
    if (turn === undefined) busy = false;
    else turn(true);
  };
  return {
    /** Whether a caller in the foreground waits for this lock now. */
    foregroundWaiting: () => waiting.foreground.length > 0,
    async exclusive(fn, { background = false, waitMs = Infinity, beside = null } = {}) {
      if (busy) {
        const list = waiting[background ? 'background' : 'foreground'];
        let timer = null;
        const given = await new Promise((resolve) => {
          list.push(resolve);
          if (Number.isFinite(waitMs)) {
            timer = setTimeout(() => {
              const at = list.indexOf(resolve);
              if (at < 0) return;
              list.splice(at, 1);
              resolve(false);
            }, waitMs);
          }
        });
        clearTimeout(timer);
        if (!given) return beside();
      }
      busy = true;
      try {
        return await fn(KEPT_LEASE);
      } finally {
        next();
      }
    },
  };
}

/** Steps back from the realm's lock (a background turn that let a foreground caller go first). */
export const STEPPED_BACK = Symbol('stepped back');

/**
 * fn(lease) under a lock shared beyond this realm, taken by `take(background, stepBack)` (resolves
 * { lease, release() }, or STEPPED_BACK when a background taker saw stepBack() true while it
 * waited), after this realm's earlier callers through `queue` (an inProcessLock): a background
 * turn still waiting for the shared lock lets a foreground caller of this realm go first, then
 * queues again. With `waitMs`, a caller that waited that long in the realm's queue (its holder
 * hung) goes to the shared lock beside it, whose own lease then decides.
 */
export async function queuedExclusive(queue, take, fn, { background = false, waitMs = Infinity } = {}) {
  const underShared = async (inBackground, stepBack) => {
    const taken = await take(inBackground, stepBack);
    if (taken === STEPPED_BACK) return STEPPED_BACK;
    try {
      return { value: await fn(taken.lease) };
    } finally {
      // A release that fails leaves the lock to its lease.
      await Promise.resolve()
        .then(() => taken.release())
        .catch(() => {});
    }
  };
  for (;;) {
    const turn = await queue.exclusive(() => underShared(background, queue.foregroundWaiting), {
      background,
      waitMs,
      beside: () => underShared(false, () => false),
    });
    if (turn !== STEPPED_BACK) return turn.value;
  }
}
