// Where HybridQualifier keeps account snapshots between runs. A store holds entries
// { snapshot, savedAt, etag? } (savedAt: epoch milliseconds; etag: the service's ETag) by key; every method may return a value or
// a Promise. keys(prefix) lists the keys that start with a prefix (the store hub's kept
// settlements are entries of their own, found that way). One module per kind of store beside
// this one (checking entries alike through snapshot_entry.js); this one picks the platform's.

import { platformStorage } from '../storage/platform_storage.js';
import { fileSnapshotStore } from './file_snapshot_store.js';
import { indexedDbSnapshotStore } from './indexed_db_snapshot_store.js';
import { localStorageSnapshotStore } from './local_storage_snapshot_store.js';
import { memorySnapshotStore } from './memory_snapshot_store.js';

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
