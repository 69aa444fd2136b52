// The order outbox in IndexedDB (browsers and workers): one record per order, every write committed
// before its promise resolves, damaged records moved aside in the same object store, the replay
// lock through navigator.locks.
import { indexedDbObjectStore } from '../storage/indexed_db_store.js';
import { byQuarantineTime, bySequence, checkOrder, orderProblem, randomTag } from './outbox_entry.js';
import { webLock } from './outbox_lock.js';

// IndexedDB: an order is stored under the key [owner, basketId]; a quarantined record under
// [0, quarantinedAt, the old key as JSON, a random tag] (a number first: never an order's key),
// as { quarantine: { key, reason, quarantinedAt }, value: the record as it was }.
const isQuarantineKey = (key) => Array.isArray(key) && key.length === 4 && key[0] === 0;

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
