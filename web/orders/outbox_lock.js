// The order outbox's replay lock: while one replayer holds it, no other sends or settles that
// outbox's orders. Three holders: this JavaScript realm only (the memory outbox, and any outbox
// when nothing better exists), navigator.locks across the tabs and workers of an origin (the
// IndexedDB outbox), and a lock directory beside the order files across the processes of a machine
// (the file outbox), recovered when its holder died (never while its process is alive on this
// host). A lock directory can still be lost (a holder on another host, silent past the staleness
// time): exclusive(fn) gives fn a lease whose held() says whether the lock is still its own, which
// the replay asks before each send, settle and write. Browser-safe to import: node:fs, node:os
// and node:crypto are loaded only when a lock directory is used.

/** The lease of a lock that cannot be lost (in-process, navigator.locks). */
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
 * and worker of the origin waits for the same name), else in this realm only.
 */
export function webLock(name) {
  const local = inProcessLock();
  return {
    exclusive(fn) {
      const locks = globalThis.navigator?.locks;
      if (typeof locks?.request !== 'function') return local.exclusive(fn);
      return locks.request(name, () => fn(KEPT_LEASE));
    },
  };
}

// The specifiers are variables so that bundlers leave these Node-only imports alone.
async function nodeModule(name) {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name);
}

const HOLDER = 'holder.json';
const DEFAULT_STALE_MS = 30_000;
// Several outboxes on one directory in one process queue here first instead of polling the directory.
const queues = new Map();

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// This boot of this machine (Linux), so that a holder of an earlier boot whose pid is now
// another process's is known to be gone; null elsewhere.
async function bootId(fs) {
  try {
    return (await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  } catch {
    return null;
  }
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
 * Why the lock directory at `path` is stale (its holder is gone), or null while it is held (or
 * gone already). A holder recorded as running on this host (this boot) is stale exactly when its
 * process is dead: a live one, even stopped (SIGSTOP) or swapped out, is never taken over.
 * Another host's holder is stale when nobody touched the directory for `staleMs` (a live holder
 * touches it every staleMs / 3).
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
    return null;
  }
  const idle = Date.now() - info.mtimeMs;
  if (idle > staleMs) return `not touched for ${Math.round(idle)} ms`;
  return null;
}

/**
 * Removes the stale lock directory at `path`. Breakers take turns through a second directory
 * (`path`.break) and look again once they hold it, so a lock that a breaker just took over is
 * never removed by another that judged its predecessor stale.
 */
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

/**
 * Takes the lock directory at `path` (waiting while another holder has it) and returns
 * { held(), release() }. The directory holds `holder.json` ({ pid, host, boot, token, since }); a timer (unref'd:
 * it never keeps a process alive) touches the directory every staleMs / 3 while it is held.
 */
async function acquire(path, parent, staleMs) {
  const fs = await nodeModule('node:fs/promises');
  const os = await nodeModule('node:os');
  const { randomBytes } = await nodeModule('node:crypto');
  const unique = () => randomBytes(8).toString('hex');
  const host = os.hostname();
  const boot = await bootId(fs);
  const token = unique();
  let wait = 5;
  for (;;) {
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
    await pause(wait);
    wait = Math.min(wait * 2, 100);
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
  const held = async () => {
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
 * `{ path, exclusive(fn) }` over the lock directory `directory`/`name` (Node): one holder at a time
 * across every process on this machine (and across machines sharing the directory, by the
 * staleness time only). A holder that died is replaced as soon as that is known: at once when it
 * ran on this host and its process is gone (never while it lives), else after `staleMs` without
 * a touch. fn(lease) runs with lease.held(): whether the lock is still this holder's. Not
 * re-entrant: fn() must not call exclusive() on the same lock.
 */
export function directoryLock(directory, { name = 'replay.lock', staleMs = DEFAULT_STALE_MS } = {}) {
  const parent = directory.replace(/[\\/]+$/, '');
  const path = `${parent}/${name}`;
  return {
    path,
    exclusive(fn) {
      let queue = queues.get(path);
      if (queue === undefined) {
        queue = inProcessLock();
        queues.set(path, queue);
      }
      return queue.exclusive(async () => {
        const { held, release } = await acquire(path, parent, staleMs);
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

// Outboxes without exclusive() (a caller's own): one lock per outbox object.
const lockOfOutbox = new WeakMap();

/**
 * The replay lock of `outbox`: its own exclusive(fn); for an outbox without one,
 * navigator.locks' "loyalty-qualifier-outbox" (across tabs) or, without it, one lock per outbox
 * in this realm. Its exclusive(fn) always returns a Promise.
 */
export function replayLock(outbox) {
  if (typeof outbox.exclusive === 'function') return { exclusive: (fn) => Promise.resolve(outbox.exclusive(fn)) };
  let lock = lockOfOutbox.get(outbox);
  if (lock === undefined) {
    lock = webLock('loyalty-qualifier-outbox');
    lockOfOutbox.set(outbox, lock);
  }
  return lock;
}
