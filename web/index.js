// The package's public surface (types: web/index.d.ts, web/clients.d.ts). It only assembles: each
// concept lives in its own module, and no module imports this one, so there is no import cycle.

export { QualifyError } from './qualify_error.js';
export { createQualifier, diagnostics, initQualifier } from './qualifier.js';
// The loyalty service's own account read as a snapshot; IANA zones as POSIX rules through Intl.
export { snapshotFromAccount } from './snapshot_from_account.js';
export { tzRuleFromIntl } from './intl_tz_rule.js';

// The HTTP clients (types: web/clients.d.ts): the loyalty API, local-first qualifying, the sandbox.
export { LoyaltyClient, NETWORK_ERROR, TIMEOUT, isServiceUnavailable } from './loyalty_client.js';
export * from './hybrid_qualifier.js';
export * from './snapshot_store.js';
export * from './order_outbox.js';
export * from './sandbox_client.js';
