// Snapshot entries in memory only (the default of HybridQualifier): nothing survives the process.

import { checkKey, checkPrefix, entryOf, sortedKeys } from './snapshot_entry.js';

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
    keys: (prefix) => sortedKeys([...entries.keys()].filter((key) => key.startsWith(checkPrefix(prefix)))),
  };
}
