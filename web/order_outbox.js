// Where HybridQualifier keeps the orders whose billing is not decided yet (the service could not
// be reached, or its answer was lost), so that they survive page reloads and process restarts
// and are re-sent with the same basket id until the service decides them. An outbox holds order
// records by (owner, basketId); list() gives them in the order they were queued (`sequence`).
// Every method may return a value or a Promise. The Node file outbox loads node:fs only when used.

import { writeFileDurably } from './durable_file.js';
import { indexedDbObjectStore } from './indexed_db_store.js';

/** A stored order, or null when the value is not one (a damaged record is skipped, never lost). */
function orderOf(value) {
  if (value === null || typeof value !== 'object') return null;
  const { owner, basketId, sequence, body } = value;
  if (typeof owner !== 'string' || owner.length === 0) return null;
  if (typeof basketId !== 'string' || basketId.length === 0) return null;
  if (typeof sequence !== 'number' || !Number.isFinite(sequence)) return null;
  if (body === null || typeof body !== 'object' || body.id !== basketId) return null;
  return structuredClone(value);
}

function checkOrder(order) {
  const checked = orderOf(order);
  if (checked === null) {
    throw new TypeError('an order needs owner, basketId, a numeric sequence and a body whose id is basketId');
  }
  return checked;
}

const bySequence = (a, b) => a.sequence - b.sequence;

/** Orders in memory only: nothing survives the process (tests, or a deliberate choice). */
export function memoryOrderOutbox() {
  const orders = new Map();
  const keyOf = (order) => `${order.owner}\u0000${order.basketId}`;
  return {
    kind: 'memory',
    list: () => [...orders.values()].map((order) => structuredClone(order)).sort(bySequence),
    put: (order) => {
      const checked = checkOrder(order);
      orders.set(keyOf(checked), checked);
    },
    remove: (order) => {
      orders.delete(keyOf(order));
    },
  };
}

/**
 * Orders in an IndexedDB object store (default database "loyalty-qualifier-orders", store
 * "orders", key [owner, basketId]); every write is committed before the promise resolves.
 */
export function indexedDbOrderOutbox({
  indexedDB = globalThis.indexedDB,
  databaseName = 'loyalty-qualifier-orders',
  storeName = 'orders',
} = {}) {
  const { run, close } = indexedDbObjectStore({ indexedDB, databaseName, storeName, durability: 'strict', owner: 'indexedDbOrderOutbox' });
  return {
    kind: 'indexedDB',
    list: async () => {
      const values = await run('readonly', (store) => store.getAll());
      return values.map(orderOf).filter((order) => order !== null).sort(bySequence);
    },
    put: async (order) => {
      const checked = checkOrder(order);
      await run('readwrite', (store) => store.put(checked, [checked.owner, checked.basketId]));
    },
    remove: async (order) => {
      await run('readwrite', (store) => store.delete([order.owner, order.basketId]));
    },
    /** Closes the database connection (it reopens on the next use). */
    close,
  };
}

// The specifier is a variable so that bundlers leave this Node-only import alone.
async function nodeFs() {
  const fsModule = 'node:fs/promises';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
}

/**
 * Orders as JSON files in a directory (Node), one per order, each replaced durably (written to a
 * temporary file, flushed to disk, renamed over the old one, the directory flushed): a crash
 * leaves the old record or the new one, never half of one.
 */
export function fileOrderOutbox({ directory } = {}) {
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new TypeError('fileOrderOutbox needs { directory }');
  }
  const folder = directory.replace(/[\\/]+$/, '');
  const nameOf = (order) => `${encodeURIComponent(order.owner)}~${encodeURIComponent(order.basketId)}.order.json`;
  const fileOf = (order) => `${folder}/${nameOf(order)}`;
  return {
    kind: 'file',
    directory,
    list: async () => {
      const fs = await nodeFs();
      let names;
      try {
        names = await fs.readdir(folder);
      } catch (e) {
        if (e.code === 'ENOENT') return [];
        throw e;
      }
      const orders = [];
      for (const name of names) {
        if (!name.endsWith('.order.json')) continue;
        let text;
        try {
          text = await fs.readFile(`${folder}/${name}`, 'utf8');
        } catch (e) {
          if (e.code === 'ENOENT') continue; // removed meanwhile (settled by another process)
          throw e;
        }
        let order = null;
        try {
          order = orderOf(JSON.parse(text));
        } catch {
          order = null;
        }
        if (order !== null) orders.push(order);
      }
      return orders.sort(bySequence);
    },
    put: async (order) => {
      const checked = checkOrder(order);
      await writeFileDurably(folder, nameOf(checked), JSON.stringify(checked));
    },
    remove: async (order) => {
      const fs = await nodeFs();
      await fs.rm(fileOf(order), { force: true });
    },
  };
}

function nodeDataDirectory() {
  const env = globalThis.process?.env ?? {};
  const base = env.XDG_STATE_HOME || (env.HOME ? `${env.HOME}/.local/state` : null) || env.LOCALAPPDATA || null;
  return base === null ? null : `${base}/loyalty-qualifier/orders`;
}

/**
 * The platform's durable outbox: IndexedDB (browsers and workers), else files under
 * $XDG_STATE_HOME/loyalty-qualifier/orders or ~/.local/state/loyalty-qualifier/orders (Node),
 * else memory.
 */
export function defaultOrderOutbox({ directory } = {}) {
  if (globalThis.indexedDB && typeof globalThis.indexedDB.open === 'function') return indexedDbOrderOutbox();
  const isNode = typeof globalThis.process?.versions?.node === 'string';
  const folder = directory ?? (isNode ? nodeDataDirectory() : null);
  return folder ? fileOrderOutbox({ directory: folder }) : memoryOrderOutbox();
}
