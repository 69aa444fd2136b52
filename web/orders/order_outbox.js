// Where HybridQualifier keeps the orders whose billing is not decided yet (the service could not
// be reached, or its answer was lost), so that they survive page reloads and process restarts
// and are re-sent with the same basket id until the service decides them. An outbox holds order
// records by (owner, basketId); list() gives them in the order they were queued (`sequence`).
// An entry that cannot be read as an order is moved to quarantine and reported by damaged(),
// never returned, never dropped, never in the way of the other orders. exclusive(fn) runs the
// replay under the outbox's lock (outbox_lock.js); get(key) reads one order (a checkout costs the
// same however many orders wait). Every method may return a value or a Promise.
// The Node file outbox loads node:fs and node:crypto only when used.

import { writeFileDurably } from '../storage/durable_file.js';
import { indexedDbObjectStore } from '../storage/indexed_db_store.js';
import { directoryLock, inProcessLock, webLock } from './outbox_lock.js';
import { platformStorage } from '../storage/platform_storage.js';

/** Why `value` is not a stored order, or null when it is one. */
function orderProblem(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an order: not a JSON object';
  const { owner, basketId, sequence, body } = value;
  if (typeof owner !== 'string' || owner.length === 0) return 'not an order: no owner (a non-empty string)';
  if (typeof basketId !== 'string' || basketId.length === 0) return 'not an order: no basketId (a non-empty string)';
  if (typeof sequence !== 'number' || !Number.isFinite(sequence)) return 'not an order: no numeric sequence';
  if (body === null || typeof body !== 'object' || body.id !== basketId) return 'not an order: no body whose id is basketId';
  return null;
}

function checkOrder(order) {
  if (orderProblem(order) !== null) {
    throw new TypeError('an order needs owner, basketId, a numeric sequence and a body whose id is basketId');
  }
  return structuredClone(order);
}

const bySequence = (a, b) => a.sequence - b.sequence;
const byQuarantineTime = (a, b) => a.quarantinedAt - b.quarantinedAt;

/** Orders in memory only: nothing survives the process (tests, or a deliberate choice). */
export function memoryOrderOutbox() {
  const orders = new Map();
  const keyOf = (order) => `${order.owner}\u0000${order.basketId}`;
  const lock = inProcessLock();
  return {
    kind: 'memory',
    list: () => [...orders.values()].map((order) => structuredClone(order)).sort(bySequence),
    get: (key) => (orders.has(keyOf(key)) ? structuredClone(orders.get(keyOf(key))) : null),
    put: (order) => {
      const checked = checkOrder(order);
      orders.set(keyOf(checked), checked);
    },
    remove: (order) => {
      orders.delete(keyOf(order));
    },
    /** Nothing here is ever damaged: every order was checked when put. */
    damaged: () => [],
    exclusive: (fn) => lock.exclusive(fn),
  };
}

// IndexedDB: an order is stored under the key [owner, basketId]; a quarantined record under
// [0, quarantinedAt, the old key as JSON, a random tag] (a number first: never an order's key),
// as { quarantine: { key, reason, quarantinedAt }, value: the record as it was }.
const isQuarantineKey = (key) => Array.isArray(key) && key.length === 4 && key[0] === 0;
const randomTag = () => Math.random().toString(36).slice(2, 10);

function keyProblem(key, value) {
  const problem = orderProblem(value);
  if (problem !== null) return problem;
  if (!Array.isArray(key) || key.length !== 2 || key[0] !== value.owner || key[1] !== value.basketId) {
    return 'stored under a key other than [owner, basketId]';
  }
  return null;
}

const keyText = (key) => {
  try {
    return JSON.stringify(key) ?? String(key);
  } catch {
    return String(key);
  }
};

/**
 * Orders in an IndexedDB object store (default database "loyalty-qualifier-orders", store
 * "orders", key [owner, basketId]); every write is committed before the promise resolves. A record
 * that is not an order moves, in one transaction, to a quarantine key in the same store.
 * exclusive(fn) holds navigator.locks' "loyalty-qualifier-outbox:<databaseName>/<storeName>".
 */
export function indexedDbOrderOutbox({
  indexedDB = globalThis.indexedDB,
  databaseName = 'loyalty-qualifier-orders',
  storeName = 'orders',
} = {}) {
  const { run, transact, close } = indexedDbObjectStore({ indexedDB, databaseName, storeName, durability: 'strict', owner: 'indexedDbOrderOutbox' });
  const lock = webLock(`loyalty-qualifier-outbox:${databaseName}/${storeName}`);
  const quarantine = (key, reason) =>
    transact('readwrite', (store) => {
      const request = store.get(key);
      request.onsuccess = () => {
        const value = request.result;
        // Replaced by an order or removed since it was read: nothing to move.
        if (value === undefined || keyProblem(key, value) === null) return;
        const quarantinedAt = Date.now();
        const text = keyText(key);
        store.put({ quarantine: { key: text, reason, quarantinedAt }, value }, [0, quarantinedAt, text, randomTag()]);
        store.delete(key);
      };
      return () => {};
    });
  const list = async () => {
    const [keys, values] = await run('readonly', (store) => [store.getAllKeys(), store.getAll()]);
    const orders = [];
    for (let i = 0; i < keys.length; i += 1) {
      if (isQuarantineKey(keys[i])) continue;
      const problem = keyProblem(keys[i], values[i]);
      if (problem === null) orders.push(structuredClone(values[i]));
      else await quarantine(keys[i], problem);
    }
    return orders.sort(bySequence);
  };
  return {
    kind: 'indexedDB',
    list,
    put: async (order) => {
      const checked = checkOrder(order);
      await run('readwrite', (store) => store.put(checked, [checked.owner, checked.basketId]));
    },
    remove: async (order) => {
      await run('readwrite', (store) => store.delete([order.owner, order.basketId]));
    },
    get: async ({ owner, basketId }) => {
      const [value] = await run('readonly', (store) => [store.get([owner, basketId])]);
      return value !== undefined && keyProblem([owner, basketId], value) === null ? structuredClone(value) : null;
    },
    damaged: async () => {
      await list(); // quarantines what is damaged now
      const [keys, values] = await run('readonly', (store) => [store.getAllKeys(), store.getAll()]);
      const found = [];
      for (let i = 0; i < keys.length; i += 1) {
        if (!isQuarantineKey(keys[i])) continue;
        const note = values[i]?.quarantine;
        found.push({
          key: typeof note?.key === 'string' ? note.key : keyText(keys[i]),
          reason: typeof note?.reason === 'string' ? note.reason : 'not an order (stored under a quarantine key)',
          quarantinedAt: typeof note?.quarantinedAt === 'number' ? note.quarantinedAt : keys[i][1],
        });
      }
      return found.sort(byQuarantineTime);
    },
    exclusive: (fn) => lock.exclusive(fn),
    /** Closes the database connection (it reopens on the next use). */
    close,
  };
}

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

/**
 * The platform's durable outbox: IndexedDB (browsers and workers), else files under
 * $XDG_STATE_HOME/loyalty-qualifier/orders or ~/.local/state/loyalty-qualifier/orders (Node),
 * else memory.
 */
export function defaultOrderOutbox({ directory } = {}) {
  return platformStorage({
    directory,
    userFolder: { kind: 'state', subfolder: 'loyalty-qualifier/orders' },
    indexedDb: () => indexedDbOrderOutbox(),
    files: (folder) => fileOrderOutbox({ directory: folder }),
    memory: () => memoryOrderOutbox(),
  });
}
