// Where HybridQualifier keeps account snapshots between runs. A store holds entries
// { snapshot, savedAt, etag? } (savedAt: epoch milliseconds; etag: the service's ETag) by key; every method may return a value or
// a Promise. keys(prefix) lists the keys that start with a prefix (the store hub's kept
// settlements are entries of their own, found that way). The Node file store loads node:fs only
// when used, so browsers never see it.

import { writeFileDurably } from '../storage/durable_file.js';
import { indexedDbObjectStore } from '../storage/indexed_db_store.js';
import { platformStorage } from '../storage/platform_storage.js';

function checkKey(key) {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError('key must be a non-empty string');
  return key;
}

function checkPrefix(prefix) {
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  return prefix;
}

const sorted = (keys) => [...keys].sort();

// A stored entry, or null when the value is missing or not an entry.
function entryOf(value) {
  if (value === null || typeof value !== 'object') return null;
  if (value.snapshot === null || typeof value.snapshot !== 'object') return null;
  if (typeof value.savedAt !== 'number' || !Number.isFinite(value.savedAt)) return null;
  const entry = { snapshot: value.snapshot, savedAt: value.savedAt };
  if (typeof value.etag === 'string') entry.etag = value.etag; // the ETag GET /api/account sent with it
  return entry;
}

function parseEntry(text) {
  if (typeof text !== 'string') return null;
  try {
    return entryOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Entries in memory only (the default of HybridQualifier): nothing survives the process. */
export function memorySnapshotStore() {
  const entries = new Map();
  return {
    kind: 'memory',
    load: (key) => entries.get(checkKey(key)) ?? null,
    save: (key, entry) => {
      entries.set(checkKey(key), entryOf(structuredClone(entry)));
    },
    remove: (key) => {
      entries.delete(checkKey(key));
    },
    keys: (prefix) => sorted([...entries.keys()].filter((key) => key.startsWith(checkPrefix(prefix)))),
  };
}

/** Entries in a Web Storage object (default globalThis.localStorage), one JSON string per key. */
export function localStorageSnapshotStore({ storage = globalThis.localStorage, prefix = 'loyalty-qualifier:' } = {}) {
  if (!storage || typeof storage.getItem !== 'function') {
    throw new TypeError('localStorageSnapshotStore needs a Storage (localStorage is not available here)');
  }
  return {
    kind: 'localStorage',
    load: (key) => parseEntry(storage.getItem(prefix + checkKey(key))),
    save: (key, entry) => {
      storage.setItem(prefix + checkKey(key), JSON.stringify(entry));
    },
    remove: (key) => {
      storage.removeItem(prefix + checkKey(key));
    },
    keys: (start) => {
      const wanted = prefix + checkPrefix(start);
      const found = [];
      for (let i = 0; i < storage.length; i += 1) {
        const name = storage.key(i);
        if (typeof name === 'string' && name.startsWith(wanted)) found.push(name.slice(prefix.length));
      }
      return sorted(found);
    },
  };
}

/** Entries in an IndexedDB object store (default database "loyalty-qualifier", store "snapshots"). */
export function indexedDbSnapshotStore({
  indexedDB = globalThis.indexedDB,
  databaseName = 'loyalty-qualifier',
  storeName = 'snapshots',
  IDBKeyRange: keyRanges = globalThis.IDBKeyRange,
} = {}) {
  const { run, close } = indexedDbObjectStore({ indexedDB, databaseName, storeName, owner: 'indexedDbSnapshotStore' });
  return {
    kind: 'indexedDB',
    load: async (key) => entryOf(await run('readonly', (store) => store.get(checkKey(key)))),
    save: async (key, entry) => {
      await run('readwrite', (store) => store.put(entryOf(entry), checkKey(key)));
    },
    remove: async (key) => {
      await run('readwrite', (store) => store.delete(checkKey(key)));
    },
    keys: async (prefix) => {
      checkPrefix(prefix);
      // Every string that starts with the prefix sorts between it and the prefix followed by U+FFFF.
      const range = typeof keyRanges?.bound === 'function' && prefix !== '' ? keyRanges.bound(prefix, `${prefix}\uffff`) : undefined;
      const keys = await run('readonly', (store) => store.getAllKeys(range));
      return sorted(keys.filter((key) => typeof key === 'string' && key.startsWith(prefix)));
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
 * Entries as JSON files in a directory (Node), one file per key, each replaced durably: a crash
 * leaves the old entry or the new one, never half of one.
 */
export function fileSnapshotStore({ directory } = {}) {
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new TypeError('fileSnapshotStore needs { directory }');
  }
  const nameOf = (key) => `${encodeURIComponent(checkKey(key))}.json`;
  const fileOf = (key) => `${directory.replace(/[\\/]+$/, '')}/${nameOf(key)}`;
  return {
    kind: 'file',
    directory,
    load: async (key) => {
      const fs = await nodeFs();
      try {
        return parseEntry(await fs.readFile(fileOf(key), 'utf8'));
      } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw e;
      }
    },
    save: async (key, entry) => {
      await writeFileDurably(directory, nameOf(key), JSON.stringify(entry));
    },
    remove: async (key) => {
      const fs = await nodeFs();
      await fs.rm(fileOf(key), { force: true });
    },
    keys: async (prefix) => {
      const start = encodeURIComponent(checkPrefix(prefix));
      const fs = await nodeFs();
      let names;
      try {
        names = await fs.readdir(directory);
      } catch (e) {
        if (e.code === 'ENOENT') return [];
        throw e;
      }
      const keys = [];
      for (const name of names) {
        if (!name.endsWith('.json') || !name.startsWith(start)) continue;
        try {
          keys.push(decodeURIComponent(name.slice(0, -'.json'.length)));
        } catch {
          // not a name this store wrote
        }
      }
      return sorted(keys.filter((key) => key.startsWith(prefix)));
    },
  };
}

/**
 * The platform's persistent store: IndexedDB, else localStorage (browsers and workers), else
 * files under $XDG_CACHE_HOME/loyalty-qualifier or ~/.cache/loyalty-qualifier (Node), else memory.
 */
export function defaultSnapshotStore({ directory } = {}) {
  return platformStorage({
    directory,
    userFolder: { kind: 'cache', subfolder: 'loyalty-qualifier' },
    indexedDb: () => indexedDbSnapshotStore(),
    localStorage: () => localStorageSnapshotStore(),
    files: (folder) => fileSnapshotStore({ directory: folder }),
    memory: () => memorySnapshotStore(),
  });
}
