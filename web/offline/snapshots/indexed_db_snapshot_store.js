// Snapshot entries in an IndexedDB object store (browsers and workers).

import { indexedDbObjectStore } from '../storage/indexed_db_store.js';
import { checkKey, checkPrefix, entryOf, sortedKeys } from './snapshot_entry.js';

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
      return sortedKeys(keys.filter((key) => typeof key === 'string' && key.startsWith(prefix)));
    },
    /** Closes the database connection (it reopens on the next use). */
    close,
  };
}
