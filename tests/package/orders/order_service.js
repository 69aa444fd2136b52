// What the order tests share: one real local service on a real SQLite file in a scratch folder,
// started before a test file's tests and crashed after them (useOrderService), the package, a
// guest's LoyaltyClient, and the basket most of them check out. node --test runs each test file
// in a process of its own, so these bindings are the file's own; they are live (`service` is the
// running process after startServiceAgain()).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';

import { FIXED_NOW, credentialsOf, ensureWasm, scratchDir, serviceBinary, startService } from '../../service/harness.js';

/** The service's processing delay in seconds: no accrual within a test, every balance change is a debit. */
export const NO_ACCRUAL = 3600;
export const qualifierOptions = { now: () => new Date(FIXED_NOW) };
export const latte = {
  redemption_venue: 'instore',
  order_timestamp: FIXED_NOW,
  location_uid: 'harbor-downtown',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
};

/** The package (web/index.js), once the file's `before` ran. */
export let lq;
/** The running service ({ url, stop(), crash(), stderr... } of tests/service/harness.js). */
export let service;
/** Its port, kept across restarts so that clients and queued orders find it again. */
export let port;
/** Its SQLite file, and the scratch folder that holds it. */
export let db;
export let scratch;

// The service's clock: FIXED_NOW (true), or its own (false: its times move, as a real service's).
let fixedClock = true;

/**
 * Registers the file's before/after: the service on `<name>.db` in a scratch folder `lq-<name>-*`,
 * on FIXED_NOW, or with `{ ownClock: true }` on its own clock.
 */
export function useOrderService(name, { ownClock = false } = {}) {
  scratch = scratchDir(`lq-${name}-`);
  db = path.join(scratch.dir, `${name}.db`);
  fixedClock = !ownClock;
  before(async () => {
    ensureWasm();
    serviceBinary();
    lq = await import('../../../web/index.js');
    service = await startService({ db, now: fixedClock, delay: NO_ACCRUAL });
    port = new URL(service.url).port;
  }, { timeout: 900_000 });
  after(async () => {
    await service?.crash();
    scratch.cleanup();
  });
}

/** An outage: the service stops (gracefully). */
export const stopService = () => service.stop();

/** The service back after an outage: the same database, the same port. */
export async function startServiceAgain() {
  service = await startService({ db, now: fixedClock, delay: NO_ACCRUAL, port });
}

/** A LoyaltyClient of a fixture guest, on the service unless `baseUrl` says otherwise. */
export function clientOf(userId, { baseUrl = service.url, accessToken, timeoutMs = 10_000, fetch } = {}) {
  const { token, key } = credentialsOf(userId);
  return new lq.LoyaltyClient({ baseUrl, accessToken: accessToken ?? token, merchantKey: key, timeoutMs, ...(fetch ? { fetch } : {}) });
}

/**
 * The order files of a file outbox's directory, as paths below it (its guests' folders, and the
 * earlier layouts directly in it; quarantine left out), sorted; temporary files too when `tmp`.
 */
export function orderFiles(directory, { tmp = false } = {}) {
  let names;
  try {
    names = readdirSync(directory, { recursive: true });
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((name) => !name.startsWith('quarantine') && (name.endsWith('.order.json') || (tmp && name.endsWith('.tmp')))).sort();
}
