// HybridQualifier's options, checked before anything starts: a TypeError names the first bad one.
import { hubOption } from '../hub/hub_client.js';
import { isWorker } from '../../worker/engine_factory.js';

const DEFAULT_MAX_AGE_MS = 15 * 60_000;
const DEFAULT_MAX_STALE_MS = 7 * 24 * 60 * 60_000;

function checkMethods(value, name, methods, shape) {
  for (const method of methods) {
    if (typeof value?.[method] !== 'function') throw new TypeError(`${name} must have ${shape} (missing ${method})`);
  }
  return value;
}

/** The outbox option as given: it must have list(), put(order) and remove(order). */
export const checkOutbox = (outbox) => checkMethods(outbox, 'outbox', ['list', 'put', 'remove'], 'list(), put(order) and remove(order)');

/** The store option as given: it must have load(key), save(key, entry) and remove(key). */
export const checkStore = (store) => checkMethods(store, 'store', ['load', 'save', 'remove'], 'load(key), save(key, entry) and remove(key)');

/** HybridQualifier's options with their defaults, each checked (outbox and store stay undefined when absent). */
export function hybridOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const {
    client,
    maxAgeMs = DEFAULT_MAX_AGE_MS,
    maxStaleMs = Math.max(DEFAULT_MAX_STALE_MS, typeof maxAgeMs === 'number' ? maxAgeMs : 0),
    onDivergence,
    now,
    onOrderSettled,
    credentialsFor,
    storeCredentials = true,
    accountShape = 'snapshot',
    context,
    worker = false,
  } = options;
  if (accountShape !== 'snapshot' && accountShape !== 'loyalty-api') {
    throw new TypeError("accountShape must be 'loyalty-api' or 'snapshot'");
  }
  if (accountShape === 'loyalty-api' && (typeof context?.merchantId !== 'string' || context.merchantId === '')) {
    throw new TypeError("accountShape 'loyalty-api' needs context: { merchantId, locationUid?, venue?, timeZone? }");
  }
  if (typeof client?.qualify !== 'function' || typeof client?.account !== 'function') {
    throw new TypeError('client must be a LoyaltyClient (or have qualify(basket) and account())');
  }
  if (typeof maxAgeMs !== 'number' || !(maxAgeMs >= 0)) {
    throw new TypeError('maxAgeMs must be a non-negative number of milliseconds');
  }
  if (typeof maxStaleMs !== 'number' || !(maxStaleMs >= maxAgeMs)) {
    throw new TypeError('maxStaleMs must be a number of milliseconds (Infinity allowed), at least maxAgeMs');
  }
  if (onDivergence !== undefined && typeof onDivergence !== 'function') {
    throw new TypeError('onDivergence must be a function');
  }
  if (onOrderSettled !== undefined && typeof onOrderSettled !== 'function') {
    throw new TypeError('onOrderSettled must be a function');
  }
  if (credentialsFor !== undefined && typeof credentialsFor !== 'function') {
    throw new TypeError('credentialsFor must be a function (order) => { baseUrl, merchantKey, accessToken } | null');
  }
  if (typeof storeCredentials !== 'boolean') throw new TypeError('storeCredentials must be true or false');
  if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function');
  if (typeof worker !== 'boolean' && typeof worker !== 'function' && !isWorker(worker)) {
    throw new TypeError('worker must be true, false, a Worker running loyalty-qualifier/worker/script or a createQualifierWorker function');
  }
  return { ...options, maxAgeMs, maxStaleMs, storeCredentials, accountShape, worker, hub: hubOption(options.hub) };
}
