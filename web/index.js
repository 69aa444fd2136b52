// The package's public surface (types: web/index.d.ts, web/clients/clients.d.ts). It only assembles: each
// concept lives in its own module, and no module imports this one, so there is no import cycle.

export { QualifyError } from './engine/qualify_error.js';
export { createQualifier, diagnostics, initQualifier } from './engine/qualifier.js';
// The loyalty service's own account read as a snapshot; IANA zones as POSIX rules through Intl.
export { snapshotFromAccount } from './account/snapshot_from_account.js';
export { tzRuleFromIntl } from './account/intl_tz_rule.js';

// The HTTP clients (types: web/clients/clients.d.ts): the loyalty API, local-first qualifying, the sandbox.
export { LoyaltyClient, NETWORK_ERROR, TIMEOUT, isServiceUnavailable } from './clients/loyalty_client.js';
export * from './clients/hybrid_qualifier.js';
export * from './clients/snapshot_store.js';
export * from './clients/order_outbox.js';
export * from './clients/sandbox_client.js';
