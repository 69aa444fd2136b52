// The order outbox in memory: nothing survives the process (tests, or a deliberate choice). Orders
// are kept by guest, so that a guest's decision reads that guest's orders only; beside them, the
// records of the guest's orders billed with their offer (billed_order.js), never listed as orders.
import { billedExpired, checkBilled } from './billed_order.js';
import { bySequence, checkOrder } from './outbox_entry.js';
import { inProcessLock } from './in_process_lock.js';

/** Orders in memory only: nothing survives the process (tests, or a deliberate choice). */
export function memoryOrderOutbox() {
  const byOwner = new Map(); // owner -> Map(basketId -> order)
  const billedOf = new Map(); // owner -> Map(basketId -> billing record)
  const changes = new Map(); // owner -> how many times its orders changed
  const locks = new Map(); // owner ('' without one) -> lock
  const changed = (owner) => changes.set(owner, (changes.get(owner) ?? 0) + 1);
  const copies = (orders) => [...orders].map((order) => structuredClone(order)).sort(bySequence);
  return {
    kind: 'memory',
    list: () => copies([...byOwner.values()].flatMap((orders) => [...orders.values()])),
    listOwner: (owner) => copies(byOwner.get(owner)?.values() ?? []),
    changeStamp: (owner) => changes.get(owner) ?? 0,
    get: ({ owner, basketId }) => {
      const order = byOwner.get(owner)?.get(basketId);
      return order === undefined ? null : structuredClone(order);
    },
    put: (order) => {
      const checked = checkOrder(order);
      if (!byOwner.has(checked.owner)) byOwner.set(checked.owner, new Map());
      byOwner.get(checked.owner).set(checked.basketId, checked);
      changed(checked.owner);
    },
    remove: ({ owner, basketId }) => {
      const orders = byOwner.get(owner);
      if (!orders?.delete(basketId)) return;
      if (orders.size === 0) byOwner.delete(owner);
      changed(owner);
    },
    listBilled: (owner) => {
      const records = billedOf.get(owner);
      if (records === undefined) return [];
      for (const [basketId, record] of records) if (billedExpired(record)) records.delete(basketId);
      if (records.size === 0) billedOf.delete(owner);
      return [...records.values()].map((record) => structuredClone(record));
    },
    putBilled: (record) => {
      const checked = checkBilled(record);
      if (!billedOf.has(checked.owner)) billedOf.set(checked.owner, new Map());
      billedOf.get(checked.owner).set(checked.basketId, checked);
      changed(checked.owner);
    },
    removeBilled: ({ owner, basketId }) => {
      const records = billedOf.get(owner);
      if (!records?.delete(basketId)) return;
      if (records.size === 0) billedOf.delete(owner);
      changed(owner);
    },
    /** Nothing here is ever damaged: every order was checked when put. */
    damaged: () => [],
    exclusive: (fn, { owner = '', background = false } = {}) => {
      if (!locks.has(owner)) locks.set(owner, inProcessLock());
      return locks.get(owner).exclusive(fn, { background });
    },
  };
}
