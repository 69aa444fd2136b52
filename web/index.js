// The package's public surface (types: web/index.d.ts and the .d.ts of each folder). It only assembles: each
// concept lives in its own module, and no module imports this one, so there is no import cycle.

export { QualifyError } from './engine/qualify_error.js';
export { DisposedError } from './engine/disposed_error.js';
// The events qualifiers dispatch (docs/reference.md#events).
export { HubReachabilityEvent, OrderSettledEvent, SnapshotChangeEvent } from './events/qualifier_events.js';
export { createQualifier, diagnostics, initQualifier } from './engine/qualifier.js';
// The loyalty service's own account read as a snapshot; IANA zones as POSIX rules through Intl.
export { snapshotFromAccount } from './account/snapshot_from_account.js';
export { tzRuleFromIntl } from './account/intl_tz_rule.js';
// Money text and integer cents, as the API writes amounts.
export { centsOf, decimalOfCents } from './account/money_text.js';

// The HTTP clients, local-first qualifying, the snapshot stores, the order outboxes, the sandbox.
export { LoyaltyClient, NETWORK_ERROR, TIMEOUT, isServiceUnavailable } from './http/loyalty_client.js';
export * from './offline/hybrid/hybrid_qualifier.js';
export { memorySnapshotStore } from './offline/snapshots/memory_snapshot_store.js';
export { localStorageSnapshotStore } from './offline/snapshots/local_storage_snapshot_store.js';
export { indexedDbSnapshotStore } from './offline/snapshots/indexed_db_snapshot_store.js';
export { fileSnapshotStore } from './offline/snapshots/file_snapshot_store.js';
export { defaultSnapshotStore } from './offline/snapshots/snapshot_store.js';
export { memoryOrderOutbox } from './offline/orders/outbox/memory_outbox.js';
export { indexedDbOrderOutbox } from './offline/orders/outbox/indexed_db_outbox.js';
export { fileOrderOutbox } from './offline/orders/outbox/file_outbox.js';
export { defaultOrderOutbox } from './offline/orders/outbox/order_outbox.js';
export { newBasketId } from './offline/orders/basket_id.js';
export * from './http/sandbox_client.js';
