// The lock directory of a file outbox: one holder at a time of a guest's orders across every process
// on this machine (and across machines sharing the folder). A lock directory is a lease: its holder
// touches it every third of `staleMs`; one untouched for `staleMs` is taken over (its holder
// stopped, SIGSTOP, a frozen VM, or another host gone silent), and one whose holder ran on this
// host and is gone, at once. So a lock can be lost: exclusive(fn) gives fn a lease whose held()
// says whether the lock is still its own. Waiters on a lock directory poll, so they are not served
// in order: a waiter in the foreground (a checkout) leaves a waiting mark beside the lock, and a
// holder in the background (a replay turn) lets it go first; in this process, the realm's queue
// (in_process_lock.js) serves a checkout before the replay turns queued before it. node:fs, node:os
// and node:crypto are loaded only when a lock directory is used (browser-safe to import).
import { serverModule } from '../../../engine/server_module.js';
import { STEPPED_BACK, inProcessLock, queuedExclusive } from './in_process_lock.js';

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
async function acquire(path, parent, staleMs, { background = false, stepBack = () => false } = {}) {
  const fs = await serverModule('node:fs/promises');
  const os = await serverModule('node:os');
  const { randomBytes } = await serverModule('node:crypto');
  const unique = () => randomBytes(8).toString('hex');
  const host = os.hostname();
  const boot = await bootId(fs);
  const token = unique();
  const holder = { pid: process.pid, host, boot, token };
  let wait = 5;
  let marked = null; // { path, timer } while this foreground waiter's mark is there
  // When the directory was made, on the wall clock and on the monotonic one (below: held()).
  let madeAt;
  let madeAtMono;
  try {
    for (;;) {
      // A checkout of this process waits in the realm's queue: it goes first.
      if (background && stepBack()) return STEPPED_BACK;
      if (background && (await foregroundWaiting(fs, path, staleMs, host, boot))) {
        await pause(wait);
        wait = Math.min(wait * 2, 25);
        continue;
      }
      madeAt = Date.now();
      madeAtMono = performance.now();
      let made = false;
      try {
        await fs.mkdir(path);
        made = true;
      } catch (e) {
        if (e.code === 'ENOENT') {
          await fs.mkdir(parent, { recursive: true });
          continue;
        }
        if (e.code !== 'EEXIST') throw e;
      }
      // Made: this holder's name in it, never over another's. Gone or named already (this process
      // stopped between the two past the lease, and the directory was taken over): try again.
      if (made) {
        try {
          await fs.writeFile(`${path}/${HOLDER}`, JSON.stringify({ ...holder, since: Date.now() }), { flag: 'wx' });
          break;
        } catch (e) {
          if (e.code === 'ENOENT' || e.code === 'EEXIST') continue;
          // Not named (a full disk, a file size limit): the directory made is removed, so that
          // nobody waits a lease for a lock nobody holds.
          await removeLock(fs, path, `${unique()}.unnamed`).catch(() => {});
          throw e;
        }
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
      // A release that fails leaves the directory untouched from now on: stale after staleMs.
      const take = async (inBackground, stepBack) => {
        const taken = await acquire(path, parent, staleMs, { background: inBackground, stepBack });
        return taken === STEPPED_BACK ? taken : { lease: { held: taken.held }, release: taken.release };
      };
      return queuedExclusive(queue, take, fn, { background });
    },
  };
}
