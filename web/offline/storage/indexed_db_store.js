// One IndexedDB object store, opened on first use (internal: shared by the snapshot store and the
// order outbox). run() resolves a request's result once its transaction has committed.

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * `{ run(mode, action), transact(mode, action), close() }` over `storeName` in `databaseName`
 * (version 1). run: `action(store)` makes one request, or several (an array: their results, in
 * order). transact: `action(store)` makes requests and may make more from their callbacks; it
 * returns a function read once the transaction has committed. `durability` ('strict', 'relaxed')
 * is passed to each transaction when given. `owner` names the caller in the error when there is
 * no IndexedDB.
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
  const begin = async (mode) => {
    const db = await database();
    const transaction =
      durability === undefined ? db.transaction(storeName, mode) : db.transaction(storeName, mode, { durability });
    const committed = new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
    return { store: transaction.objectStore(storeName), committed };
  };
  return {
    run: async (mode, action) => {
      const { store, committed } = await begin(mode);
      const requests = action(store);
      const result = Array.isArray(requests) ? Promise.all(requests.map(promised)) : promised(requests);
      result.catch(() => {}); // a failed request also fails the transaction, reported below
      await committed;
      return result;
    },
    transact: async (mode, action) => {
      const { store, committed } = await begin(mode);
      const read = action(store);
      await committed;
      return read();
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
