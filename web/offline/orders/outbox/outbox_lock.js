// The order outbox's locks: while one holder has the lock of a guest's orders, no other sends,
// settles or decides the promise of that guest's orders (another guest's orders have locks of
// their own). Three holders: this JavaScript realm only (the memory outbox, and any outbox when
// nothing better exists), navigator.locks across the tabs and workers of an origin (the IndexedDB
// outbox), and a lock directory beside the order files across the processes of a machine (the
// file outbox). A lock directory is a lease: its holder touches it every third of `staleMs`; one
// untouched for `staleMs` is taken over (its holder stopped, SIGSTOP, a frozen VM, or another host
// gone silent), and one whose holder ran on this host and is gone, at once. So a lock can be lost:
// exclusive(fn) gives fn a lease whose held() says whether the lock is still its own, which the
// replay asks before each send, settle and write (a lost lock is safe: the service bills a basket
// id once, with the same body). Waiters on a lock directory poll, so they are not served in
// order: a waiter in the foreground (a checkout) leaves a waiting mark beside the lock, and a
// holder in the background (a replay turn) lets it go first. Browser-safe to import: node:fs,
// node:os and node:crypto are loaded only when a lock directory is used. navigator.locks' lock is
// a lease as well: a waiter takes it over after `staleMs`, and its holder's held() turns false.

import { serverModule } from '../../../engine/server_module.js';

/** The lease of a lock that cannot be lost (in-process). */
export const KEPT_LEASE = Object.freeze({ held: async () => true });

/** `{ exclusive(fn) }`: runs fn() after every earlier caller's fn() settled, one at a time. */
export function inProcessLock() {
  let tail = Promise.resolve();
  return {
    exclusive(fn) {
      const result = tail.then(() => fn(KEPT_LEASE));
      tail = result.then(
        () => {},
        () => {},
      );
      return result;
    },
  };
}

/**
 * `{ exclusive(fn) }` through `navigator.locks.request(name)` when the platform has it (every tab
 * and worker of the origin waits for the same name), else in this realm only. The lock is a lease
 * too: a waiter waits `staleMs` at most, then takes the lock over (`steal`: a tab frozen or hung
 * while holding it holds back no other), and the holder it was taken from finds lease.held()
 * false from then on, as a lock directory's does.
 */
export function webLock(name, { staleMs = DEFAULT_STALE_MS } = {}) {
  const local = inProcessLock();
  return {
    async exclusive(fn) {
      const locks = globalThis.navigator?.locks;
      if (typeof locks?.request !== 'function') return local.exclusive(fn);
      try {
        return await heldWebLock(locks, name, { signal: AbortSignal.timeout(staleMs) }, fn);
      } catch (e) {
        if (e !== WAITED_A_LEASE) throw e;
        return heldWebLock(locks, name, { steal: true }, fn);
      }
    },
  };
}

const WAITED_A_LEASE = Symbol('waited a lease');

// fn(lease) under navigator.locks' lock `name`; when another takes the lock over, fn goes on with
// lease.held() false and its outcome is this call's. Rejects with WAITED_A_LEASE when
// options.signal ended the wait before the lock was granted.
async function heldWebLock(locks, name, options, fn) {
  let lost = false;
  let outcome = null;
  const lease = Object.freeze({ held: async () => !lost });
  try {
    return await locks.request(name, options, () => {
      outcome = Promise.resolve().then(() => fn(lease));
      return outcome;
    });
  } catch (e) {
    if (outcome === null && options.signal?.aborted) throw WAITED_A_LEASE;
    if (outcome === null || e?.name !== 'AbortError') throw e;
    lost = true; // taken over (steal) while fn ran
    return outcome;
  }
}

const HOLDER = 'holder.json';
/** The lease of a lock directory: untouched this long, it is taken over. */
export const DEFAULT_STALE_MS = 10_000;
// Several outboxes on one directory in one process queue here first instead of polling the directory.
const queues = new Map();

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// This boot of this machine (Linux), so that a holder of an earlier boot whose pid is now
// another process's is known to be gone; null elsewhere. Read once.
let thisBoot = null;
function bootId(fs) {
  thisBoot ??= fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((text) => text.trim(), () => null);
  return thisBoot;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM'; // alive, another user's
  }
}

/**
 * Why the lock directory at `path` is stale, or null while it is held (or gone already). A
 * holder recorded as running on this host (this boot) whose process is dead is stale at once.
 * Any other holder (alive on this host, or on another host) is stale when nobody touched the
 * directory for `staleMs`: a live holder touches it every staleMs / 3, so one that did not for
 * that long is stopped (SIGSTOP), frozen or gone, and loses its lease.
 */
async function staleness(fs, path, staleMs, host, boot) {
  let info;
  try {
    info = await fs.stat(path);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
  let holder = null;
  try {
    holder = JSON.parse(await fs.readFile(`${path}/${HOLDER}`, 'utf8'));
  } catch {
    holder = null; // not written yet (its holder is between mkdir and writeFile), or garbled
  }
  if (holder?.host === host && Number.isInteger(holder.pid) && holder.pid > 0) {
    if (holder.boot != null && boot !== null && holder.boot !== boot) return 'its holder ran before this host restarted';
    if (!isAlive(holder.pid)) return `its holder, process ${holder.pid} on this host, is gone`;
  }
  const idle = Date.now() - info.mtimeMs;
  if (idle > staleMs) return `not touched for ${Math.round(idle)} ms, past its lease of ${staleMs} ms`;
  return null;
}

// Removes the lock directory at `path`: renamed aside first (`path.<suffix>`), so that a new lock can
// be taken at once, then deleted; nothing to do when it is gone already.
async function removeLock(fs, path, suffix) {
  const remains = `${path}.${suffix}`;
  try {
    await fs.rename(path, remains);
  } catch (e) {
    if (e.code === 'ENOENT') return;
    throw e;
  }
  await fs.rm(remains, { recursive: true, force: true });
}

// Leaves the waiting mark `mark` and touches it every staleMs / 3 (an unref'd timer); a mark that
// cannot be written is no mark (this waiter then polls like any other).
async function markWaiting(fs, mark, waiter, staleMs) {
  try {
    await fs.writeFile(mark, JSON.stringify(waiter));
  } catch {
    return null;
  }
  const touch = () => {
    const now = new Date();
    fs.utimes(mark, now, now).catch(() => {});
  };
  const timer = setInterval(touch, Math.max(10, Math.floor(staleMs / 3)));
  timer.unref?.();
  return { path: mark, timer };
}

/**
 * Removes the stale lock directory at `path`. Breakers take turns through a second directory
 * (`path`.break) and look again once they hold it, so a lock that a breaker just took over is
 * never removed by another that judged its predecessor stale.
 */
async function breakStale(fs, path, staleMs, host, boot, unique) {
  const breaker = `${path}.break`;
  try {
    await fs.mkdir(breaker);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    const info = await fs.stat(breaker).catch(() => null);
    // A breaker that died between its mkdir and its rm (a breaker holds it for milliseconds).
    if (info !== null && Date.now() - info.mtimeMs > staleMs) await fs.rm(breaker, { recursive: true, force: true });
    return;
  }
  try {
    if ((await staleness(fs, path, staleMs, host, boot)) === null) return;
    await removeLock(fs, path, `${unique()}.stale`);
  } finally {
    await fs.rm(breaker, { recursive: true, force: true });
  }
}

const WAITING = '.waiting-';

/**
 * Whether a waiter in the foreground waits for the lock directory at `path`: a waiting mark
 * `path`.waiting-<token> ({ pid, host, boot }) that its waiter touches every staleMs / 3. A mark
 * nobody touched for staleMs, or whose waiter ran on this host and is gone, is removed.
 */
async function foregroundWaiting(fs, path, staleMs, host, boot) {
  const slash = path.lastIndexOf('/');
  const [parent, prefix] = [path.slice(0, slash), `${path.slice(slash + 1)}${WAITING}`];
  const names = await fs.readdir(parent).catch(() => []);
  for (const name of names.filter((n) => n.startsWith(prefix))) {
    const mark = `${parent}/${name}`;
    const info = await fs.stat(mark).catch(() => null);
    if (info === null) continue;
    let waiter = null;
    try {
      waiter = JSON.parse(await fs.readFile(mark, 'utf8'));
    } catch {
      waiter = null; // being written
    }
    const gone = waiter?.host === host && Number.isInteger(waiter.pid) && ((waiter.boot != null && boot !== null && waiter.boot !== boot) || !isAlive(waiter.pid));
    if (gone || Date.now() - info.mtimeMs > staleMs) {
      await fs.rm(mark, { force: true }).catch(() => {});
      continue;
    }
    return true;
  }
  return false;
}

/**
 * Takes the lock directory at `path` (waiting while another holder has it) and returns
 * { held(), release() }. The directory holds `holder.json` ({ pid, host, boot, token, since }); a timer (unref'd:
 * it never keeps a process alive) touches the directory every staleMs / 3 while it is held. A
 * waiter in the foreground marks that it waits (foregroundWaiting) from its first failed try
 * until it holds the lock; one in the `background` does not take a free lock while such a mark is
 * there.
 */
async function acquire(path, parent, staleMs, { background = false } = {}) {
  const fs = await serverModule('node:fs/promises');
  const os = await serverModule('node:os');
  const { randomBytes } = await serverModule('node:crypto');
  const unique = () => randomBytes(8).toString('hex');
  const host = os.hostname();
  const boot = await bootId(fs);
  const token = unique();
  let wait = 5;
  let marked = null; // { path, timer } while this foreground waiter's mark is there
  // When the directory was made, on the wall clock and on the monotonic one (below: held()).
  let madeAt;
  let madeAtMono;
  try {
    for (;;) {
      if (background && (await foregroundWaiting(fs, path, staleMs, host, boot))) {
        await pause(wait);
        wait = Math.min(wait * 2, 25);
        continue;
      }
      madeAt = Date.now();
      madeAtMono = performance.now();
      try {
        await fs.mkdir(path);
        break;
      } catch (e) {
        if (e.code === 'ENOENT') {
          await fs.mkdir(parent, { recursive: true });
          continue;
        }
        if (e.code !== 'EEXIST') throw e;
      }
      if ((await staleness(fs, path, staleMs, host, boot)) !== null) {
        await breakStale(fs, path, staleMs, host, boot, unique);
        continue;
      }
      if (!background && marked === null) marked = await markWaiting(fs, `${path}${WAITING}${token}`, { pid: process.pid, host, boot }, staleMs);
      await pause(wait);
      wait = Math.min(wait * 2, 25); // a waiter looks again soon: a lock is held for one order at a time
    }
  } finally {
    if (marked !== null) {
      clearInterval(marked.timer);
      await fs.rm(marked.path, { force: true }).catch(() => {});
    }
  }
  const holder = { pid: process.pid, host, boot, token, since: Date.now() };
  await fs.writeFile(`${path}/${HOLDER}`, JSON.stringify(holder));
  const touch = () => {
    const now = new Date();
    fs.utimes(path, now, now).catch(() => {});
  };
  const heartbeat = setInterval(touch, Math.max(10, Math.floor(staleMs / 3)));
  heartbeat.unref?.();
  // Whether the directory still names this holder (not taken over while this process stalled).
  // Within half a lease of making it, by both clocks (a stop, a suspend or a clock step shows on
  // one of them), nobody can have taken it over yet: no read needed.
  const held = async () => {
    if (Date.now() - madeAt < staleMs / 2 && performance.now() - madeAtMono < staleMs / 2) return true;
    try {
      return JSON.parse(await fs.readFile(`${path}/${HOLDER}`, 'utf8'))?.token === token;
    } catch {
      return false;
    }
  };
  const release = async () => {
    clearInterval(heartbeat);
    if (!(await held())) return; // taken over meanwhile (this process stalled past staleMs)
    await removeLock(fs, path, `${unique()}.released`);
  };
  return { held, release };
}

/**
 * `{ path, exclusive(fn, { background }) }` over the lock directory `directory`/`name` (Node): one
 * holder at a time across every process on this machine (and across machines sharing the
 * directory). A holder is replaced at once when it ran on this host and its process is gone, else
 * after `staleMs` without a touch (its lease: a live holder touches it every staleMs / 3).
 * fn(lease) runs with lease.held(): whether the lock is still this holder's. A `background` caller
 * (the replay) lets a foreground waiter of another process (a checkout) take a free lock first.
 * Not re-entrant: fn() must not call exclusive() on the same lock.
 */
export function directoryLock(directory, { name = 'replay.lock', staleMs = DEFAULT_STALE_MS } = {}) {
  const parent = directory.replace(/[\\/]+$/, '');
  const path = `${parent}/${name}`;
  return {
    path,
    exclusive(fn, { background = false } = {}) {
      let queue = queues.get(path);
      if (queue === undefined) {
        queue = inProcessLock();
        queues.set(path, queue);
      }
      return queue.exclusive(async () => {
        const { held, release } = await acquire(path, parent, staleMs, { background });
        try {
          return await fn({ held });
        } finally {
          // A release that fails leaves the directory untouched from now on: stale after staleMs.
          await release().catch(() => {});
        }
      });
    },
  };
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
    exclusive: (owner, fn) => {
      if (!locks.has(owner)) locks.set(owner, webLock(`loyalty-qualifier-outbox:${owner}`));
      return locks.get(owner).exclusive(fn);
    },
  };
}
