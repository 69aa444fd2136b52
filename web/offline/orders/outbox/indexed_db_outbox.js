// The order outbox in IndexedDB (browsers and workers): one record per order, every write committed
// before its promise resolves, damaged records moved aside in the same object store, a guest's
// orders read through a key range, the lock of a guest's orders through navigator.locks, and a
// note on a BroadcastChannel per write so that every tab knows when a guest's orders changed. The
// records of orders billed with their offer (billed_order.js) live in a database of their own
// beside it: every earlier version quarantines whatever else its object store holds.
import { indexedDbObjectStore } from '../../storage/indexed_db_store.js';
import { billedExpired, billedProblem, checkBilled } from './billed_order.js';
import { byQuarantineTime, bySequence, checkOrder, orderProblem, randomTag } from './outbox_entry.js';
import { webLock } from './outbox_lock.js';

// IndexedDB: an order is stored under the key [owner, basketId]; a quarantined record under
// [0, quarantinedAt, the old key as JSON, a random tag] (a number first: never an order's key),
// as { quarantine: { key, reason, quarantinedAt }, value: the record as it was }.
const isQuarantineKey = (key) => Array.isArray(key) && key.length === 4 && key[0] === 0;
// The billing records' database is the outbox's name and this; its object store, key [owner, basketId].
const BILLED_DATABASE_SUFFIX = '-billed';
// Records of guests who never come back are swept by list() at most this often (each guest's own
// expired ones go whenever that guest's records are read).
const BILLED_SWEEP_MS = 3_600_000;

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
 * listOwner(owner) reads the key range [owner, ...] only. exclusive(fn, { owner }) holds
 * navigator.locks' "loyalty-qualifier-outbox:<databaseName>/<storeName>:<owner>" (without an
 * owner: "loyalty-qualifier-outbox:<databaseName>/<storeName>"). changeStamp(owner) changes with
 * every write of this object and, through the BroadcastChannel of the same name, of every other
 * tab or worker of the origin (a note arrives a moment after the other's write).
 */
export function indexedDbOrderOutbox({
  indexedDB = globalThis.indexedDB,
  databaseName = 'loyalty-qualifier-orders',
  storeName = 'orders',
  IDBKeyRange: keyRanges = globalThis.IDBKeyRange,
} = {}) {
  const { run, transact, close } = indexedDbObjectStore({ indexedDB, databaseName, storeName, durability: 'strict', owner: 'indexedDbOrderOutbox' });
  const billed = indexedDbObjectStore({ indexedDB, databaseName: `${databaseName}${BILLED_DATABASE_SUFFIX}`, storeName, durability: 'strict', owner: 'indexedDbOrderOutbox' });
  let sweptAt = 0;
  const name = `loyalty-qualifier-outbox:${databaseName}/${storeName}`;
  const locks = new Map();
  const lockOf = (owner) => {
    if (!locks.has(owner)) locks.set(owner, webLock(owner === '' ? name : `${name}:${owner}`));
    return locks.get(owner);
  };
  // owner -> changes seen (this object's writes and the other tabs' notes).
  const changes = new Map();
  const changed = (owner) => changes.set(owner, (changes.get(owner) ?? 0) + 1);
  let channel = null;
  // Opened on first use (and again after close()), where the platform has BroadcastChannel.
  const notes = () => {
    if (channel === null && typeof globalThis.BroadcastChannel === 'function') {
      channel = new BroadcastChannel(name);
      channel.onmessage = (event) => {
        if (typeof event.data?.owner === 'string') changed(event.data.owner);
      };
      channel.unref?.(); // Node: a channel never keeps the process alive
    }
    return channel;
  };
  const wrote = (owner) => {
    changed(owner);
    notes()?.postMessage({ owner });
  };
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
  // The billing records in `range` that have not expired; the expired ones are deleted.
  const billedIn = async (range = undefined) => {
    const [keys, values] = await billed.run('readonly', (store) => [store.getAllKeys(range), store.getAll(range)]);
    const expired = keys.filter((key, i) => billedProblem(values[i]) !== null || billedExpired(values[i]));
    if (expired.length > 0) await billed.run('readwrite', (store) => expired.map((key) => store.delete(key)));
    return values.filter((value) => billedProblem(value) === null && !billedExpired(value)).map((value) => structuredClone(value));
  };
  const guestRange = (owner) => (typeof keyRanges?.bound === 'function' ? keyRanges.bound([owner], [owner, []]) : null);
  const list = async (range = undefined) => {
    if (range === undefined && Date.now() - sweptAt > BILLED_SWEEP_MS) {
      sweptAt = Date.now();
      await billedIn().catch(() => {}); // the guests who never come back
    }
    const [keys, values] = await run('readonly', (store) => [store.getAllKeys(range), store.getAll(range)]);
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
    // Every key [owner, basketId] lies between [owner] and [owner, []] (an array sorts after every string).
    listOwner: (owner) => (typeof keyRanges?.bound === 'function' ? list(keyRanges.bound([owner], [owner, []])) : list().then((all) => all.filter((o) => o.owner === owner))),
    changeStamp: (owner) => {
      notes(); // listening from the first look on
      return changes.get(owner) ?? 0;
    },
    listBilled: async (owner) => {
      const range = guestRange(owner);
      return range === null ? (await billedIn()).filter((record) => record.owner === owner) : billedIn(range);
    },
    putBilled: async (record) => {
      const checked = checkBilled(record);
      await billed.run('readwrite', (store) => store.put(checked, [checked.owner, checked.basketId]));
      wrote(checked.owner);
    },
    removeBilled: async ({ owner, basketId }) => {
      await billed.run('readwrite', (store) => store.delete([owner, basketId]));
      wrote(owner);
    },
    put: async (order) => {
      const checked = checkOrder(order);
      await run('readwrite', (store) => store.put(checked, [checked.owner, checked.basketId]));
      wrote(checked.owner);
    },
    remove: async (order) => {
      await run('readwrite', (store) => store.delete([order.owner, order.basketId]));
      wrote(order.owner);
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
    exclusive: (fn, { owner = '', background = false } = {}) => lockOf(owner).exclusive(fn, { background }),
    /** Closes the database connection (it reopens on the next use) and the change notes' channel. */
    close: async () => {
      channel?.close();
      channel = null;
      await Promise.all([close(), billed.close()]);
    },
  };
}
