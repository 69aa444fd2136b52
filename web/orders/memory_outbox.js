// The order outbox in memory: nothing survives the process (tests, or a deliberate choice).
import { bySequence, checkOrder } from './outbox_entry.js';
import { inProcessLock } from './outbox_lock.js';

/** Orders in memory only: nothing survives the process (tests, or a deliberate choice). */
export function memoryOrderOutbox() {
  const orders = new Map();
  const keyOf = (order) => `${order.owner}\u0000${order.basketId}`;
  const lock = inProcessLock();
  return {
    kind: 'memory',
    list: () => [...orders.values()].map((order) => structuredClone(order)).sort(bySequence),
    get: (key) => (orders.has(keyOf(key)) ? structuredClone(orders.get(keyOf(key))) : null),
    put: (order) => {
      const checked = checkOrder(order);
      orders.set(keyOf(checked), checked);
    },
    remove: (order) => {
      orders.delete(keyOf(order));
    },
    /** Nothing here is ever damaged: every order was checked when put. */
    damaged: () => [],
    exclusive: (fn) => lock.exclusive(fn),
  };
}
