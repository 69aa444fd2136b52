// Snapshot entries in a Web Storage object, one JSON string per key under a prefix of the store's.

import { checkKey, checkPrefix, parseEntry, sortedKeys } from './snapshot_entry.js';

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
      return sortedKeys(found);
    },
  };
}
