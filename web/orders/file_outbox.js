// The order outbox in files (Node): one JSON file per order, each replaced durably, damaged
// entries moved to a quarantine folder, the replay lock as a lock directory. node:fs and
// node:crypto are loaded only when used, so browsers never see them.
import { writeFileDurably } from '../storage/durable_file.js';
import { byQuarantineTime, bySequence, checkOrder, orderProblem, randomTag } from './outbox_entry.js';
import { directoryLock } from './outbox_lock.js';

// The specifiers are variables so that bundlers leave these Node-only imports alone.
async function nodeFs() {
  const fsModule = 'node:fs/promises';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
}

async function nodeCrypto() {
  const cryptoModule = 'node:crypto';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ cryptoModule);
}

const ORDER_SUFFIX = '.order.json';
const NAME_MAX = 255;
const QUARANTINE = 'quarantine';
const REASON = 'reason.json';
// Errors that say nothing about the entry (the process or the machine is short of something):
// list() fails and the next replay tries again, the entry stays where it is.
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR', 'ENOMEM']);

/** The file name of (owner, basketId): the SHA-256 of JSON [owner, basketId] in hex, 75 bytes. */
async function fileNameOf(order) {
  const { createHash } = await nodeCrypto();
  return `${createHash('sha256').update(JSON.stringify([order.owner, order.basketId])).digest('hex')}${ORDER_SUFFIX}`;
}

/** The name the first layout gave (owner, basketId), or null when it is too long to exist. */
function firstLayoutNameOf(order) {
  const name = `${encodeURIComponent(order.owner)}~${encodeURIComponent(order.basketId)}${ORDER_SUFFIX}`;
  return name.length <= NAME_MAX ? name : null; // ASCII: one byte per character
}

function kindOfEntry(info) {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The entry `name` of `folder`: { order }, { problem } when it cannot be read as an order, or
 * null when it is gone (removed meanwhile, e.g. settled by another process). Opened without
 * blocking (a FIFO named like an order must not hang the replay) and checked to be a file.
 */
async function readEntry(fs, folder, name) {
  const file = `${folder}/${name}`;
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
  let handle;
  try {
    handle = await fs.open(file, flags);
  } catch (e) {
    if (TRANSIENT.has(e.code)) throw e;
    if (e.code === 'ENOENT') {
      const info = await fs.lstat(file).catch(() => null);
      if (info === null) return null;
      return { problem: `unreadable: ${info.isSymbolicLink() ? 'a symbolic link to nothing' : e.message}` };
    }
    return { problem: `unreadable: ${e.message}` };
  }
  let text;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: `unreadable: ${kindOfEntry(info)}` };
    text = await handle.readFile('utf8');
  } catch (e) {
    if (TRANSIENT.has(e.code)) throw e;
    return { problem: `unreadable: ${e.message}` };
  } finally {
    await handle.close().catch(() => {});
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON (truncated or garbled, ${text.length} characters): ${e.message}` };
  }
  const problem = orderProblem(value);
  return problem === null ? { order: value } : { problem };
}

/**
 * Orders as JSON files in a directory (Node), one per order, each replaced durably (written to a
 * temporary file, flushed to disk, renamed over the old one, the directory flushed): a crash
 * leaves the old record or the new one, never half of one. A file's name is the SHA-256 of its
 * (owner, basketId) (files of the first layout, encodeURIComponent(owner)~encodeURIComponent(basketId),
 * are still read and removed); its content says whose order it is. An entry that is not a
 * readable order moves to `directory`/quarantine/<quarantinedAt>-<tag>/ beside a reason.json.
 * exclusive(fn) holds the lock directory `directory`/replay.lock (outbox_lock.js).
 */
export function fileOrderOutbox({ directory, staleMs } = {}) {
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new TypeError('fileOrderOutbox needs { directory }');
  }
  if (staleMs !== undefined && !(typeof staleMs === 'number' && staleMs > 0 && Number.isFinite(staleMs))) {
    throw new TypeError('staleMs must be a positive number of milliseconds');
  }
  const folder = directory.replace(/[\\/]+$/, '');
  const lock = directoryLock(folder, { staleMs });
  // Entries that could not be moved to quarantine (e.g. a read-only directory): reported, skipped.
  const unmovable = new Map();

  const quarantine = async (fs, name, reason) => {
    const quarantinedAt = Date.now();
    const box = `${folder}/${QUARANTINE}/${quarantinedAt}-${randomTag()}`;
    try {
      await fs.mkdir(box, { recursive: true });
      await fs.writeFile(`${box}/${REASON}`, JSON.stringify({ key: name, reason, quarantinedAt }));
      await fs.rename(`${folder}/${name}`, `${box}/${name}`);
      unmovable.delete(name);
    } catch (e) {
      await fs.rm(box, { recursive: true, force: true }).catch(() => {});
      if (e.code === 'ENOENT') return; // moved or removed by another process meanwhile
      if (!unmovable.has(name)) {
        unmovable.set(name, { key: name, reason: `${reason} (could not be moved to quarantine: ${e.message})`, quarantinedAt, path: `${folder}/${name}` });
      }
    }
  };

  const list = async () => {
    const fs = await nodeFs();
    let names;
    try {
      names = await fs.readdir(folder);
    } catch (e) {
      if (e.code === 'ENOENT') return [];
      throw e;
    }
    const orders = new Map(); // key -> { order, name }
    for (const name of names) {
      if (!name.endsWith(ORDER_SUFFIX)) continue;
      const entry = await readEntry(fs, folder, name);
      if (entry === null) continue;
      if (entry.problem !== undefined) {
        await quarantine(fs, name, entry.problem);
        continue;
      }
      const { order } = entry;
      const current = await fileNameOf(order);
      if (name !== current && name !== firstLayoutNameOf(order)) {
        // remove() would never find it: it would be replayed for ever.
        await quarantine(fs, name, 'its name is not the file name of the order it holds (owner, basketId)');
        continue;
      }
      const key = JSON.stringify([order.owner, order.basketId]);
      // Both layouts (put() stopped between writing one and removing the other): the current one is newer.
      if (!orders.has(key) || name === current) orders.set(key, order);
    }
    return [...orders.values()].sort(bySequence);
  };

  return {
    kind: 'file',
    directory,
    list,
    put: async (order) => {
      const checked = checkOrder(order);
      await writeFileDurably(folder, await fileNameOf(checked), JSON.stringify(checked));
      const old = firstLayoutNameOf(checked);
      if (old !== null) {
        const fs = await nodeFs();
        await fs.rm(`${folder}/${old}`, { force: true }).catch(() => {}); // list() prefers the new one anyway
      }
    },
    get: async (key) => {
      const fs = await nodeFs();
      // Both layouts' names at once (the current one wins), as list() prefers it.
      const names = [await fileNameOf(key), firstLayoutNameOf(key)];
      const entries = await Promise.all(names.map((name) => (name === null ? null : readEntry(fs, folder, name))));
      for (const entry of entries) {
        const order = entry?.order;
        if (order !== undefined && order.owner === key.owner && order.basketId === key.basketId) return order;
      }
      return null; // absent (or damaged: list() quarantines it)
    },
    remove: async (order) => {
      const fs = await nodeFs();
      await fs.rm(`${folder}/${await fileNameOf(order)}`, { force: true });
      const old = firstLayoutNameOf(order);
      if (old !== null) await fs.rm(`${folder}/${old}`, { force: true });
    },
    damaged: async () => {
      await list(); // quarantines what is damaged now
      const fs = await nodeFs();
      let boxes;
      try {
        boxes = await fs.readdir(`${folder}/${QUARANTINE}`);
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
        boxes = [];
      }
      const found = [...unmovable.values()].map((entry) => ({ ...entry }));
      for (const box of boxes) {
        let note;
        try {
          note = JSON.parse(await fs.readFile(`${folder}/${QUARANTINE}/${box}/${REASON}`, 'utf8'));
        } catch {
          continue; // not one of ours, or a quarantine interrupted before its entry moved
        }
        if (typeof note?.key !== 'string') continue;
        const path = `${folder}/${QUARANTINE}/${box}/${note.key}`;
        if ((await fs.lstat(path).catch(() => null)) === null) continue; // interrupted before the move
        found.push({ key: note.key, reason: String(note.reason), quarantinedAt: Number(note.quarantinedAt), path });
      }
      return found.sort(byQuarantineTime);
    },
    exclusive: (fn) => lock.exclusive(fn),
  };
}
