// One IndexedDB object store, opened on first use (internal: shared by the snapshot store and the
// order outbox). run() resolves a request's result once its transaction has committed.

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * `{ run(mode, action), close() }` over `storeName` in `databaseName` (version 1). `action(store)`
 * makes one request; `durability` ('strict', 'relaxed') is passed to each transaction when given.
 * `owner` names the caller in the error when there is no IndexedDB.
 */
export function indexedDbObjectStore({ indexedDB, databaseName, storeName, durability, owner }) {
  if (!indexedDB || typeof indexedDB.open !== 'function') {
    throw new TypeError(`${owner} needs an IDBFactory (indexedDB is not available here)`);
  }
  let opened = null;
  const database = () => {
    if (opened === null) {
      const request = indexedDB.open(databaseName, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(storeName)) request.result.createObjectStore(storeName);
      };
      opened = promised(request).catch((e) => {
        opened = null;
        throw e;
      });
    }
    return opened;
  };
  return {
    run: async (mode, action) => {
      const db = await database();
      const transaction =
        durability === undefined ? db.transaction(storeName, mode) : db.transaction(storeName, mode, { durability });
      const result = promised(action(transaction.objectStore(storeName)));
      result.catch(() => {}); // a failed request also fails the transaction, reported below
      await new Promise((resolve, reject) => {
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      });
      return result;
    },
    /** Closes the database connection (it reopens on the next use). */
    close: async () => {
      if (opened === null) return;
      const db = await opened.catch(() => null);
      opened = null;
      db?.close();
    },
  };
}
