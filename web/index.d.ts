// Types of the loyalty-qualifier package (hand-written; checked with tsc by `npm test`). It only
// re-exports, as web/index.js does: each folder's types sit beside its modules.
export * from './engine/engine.js';
export * from './engine/snapshot.js';
export * from './account/account.js';
export * from './events/events.js';
export * from './lifecycle/lifecycle.js';
export * from './http/http.js';
export * from './http/sandbox_client.js';
export * from './offline/snapshots/snapshots.js';
export * from './offline/storage/storage.js';
export * from './offline/orders/orders.js';
export * from './offline/hybrid/hybrid.js';
