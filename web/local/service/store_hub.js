// startStoreHub(): the store hub (loyalty_hub, docs/hub.md) as a child process, started by the
// one launcher (native_process.js) as startLocalService() starts the service. Its options share
// the service's checks for port, host and db (service_options.js); the store key, checked for
// strength first (store_key.js), goes to the hub in its environment (LQ_HUB_STORE_KEY), not on
// its command line, where any user of the machine could read it. Node only; types:
// web/local/service/local_service.d.ts.
import { chooseRuntime } from './runtime_choice.js';
import { startWasmHub } from './wasm_front.js';
import { startNativeProcess, processOptions } from './native_process.js';
import { hubBinaryPath } from './service_binary.js';
import { CLAIM_TTL_OPTION, SERVICE_OPTIONS, optionArguments } from '../emulator/service_options.js';
import { checkStoreKey } from './store_key.js';

export { checkStoreKey } from './store_key.js';

const shared = (key) => SERVICE_OPTIONS.find((option) => option.key === key);

/** The hub's launch options: port, host, db and corsOrigin as the service's, its claims' lifetime; its own store key and exposure. */
export const HUB_OPTIONS = [
  shared('port'),
  { ...shared('host'), default: '127.0.0.1' },
  shared('db'),
  shared('corsOrigin'),
  CLAIM_TTL_OPTION,
];

/**
 * The hub's arguments and environment for launcher options; a TypeError "<caller>: <key> must
 * be ..." names the first bad one. Returns { args, env }.
 */
export function hubArguments(options, { caller = 'startStoreHub', extra = [] } = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError(`${caller}: options must be an object`);
  if (!Array.isArray(extra) || !extra.every((arg) => typeof arg === 'string')) {
    throw new TypeError(`${caller}: args must be an array of strings`);
  }
  const args = [];
  for (const option of HUB_OPTIONS) {
    const value = options[option.key] ?? option.default;
    if (value === undefined) continue;
    args.push(...optionArguments(option, value, `${caller}: ${option.key}`));
  }
  const storeKey = checkStoreKey(options.storeKey, `${caller}: storeKey`);
  const { exposeOnNetwork = false } = options;
  if (typeof exposeOnNetwork !== 'boolean') throw new TypeError(`${caller}: exposeOnNetwork must be a boolean`);
  if (exposeOnNetwork) args.push('--expose-on-network');
  args.push(...extra);
  return { args, env: { LQ_HUB_STORE_KEY: storeKey } };
}

/**
 * Starts the store hub and resolves once it listens. options: storeKey (required, at least 128
 * bits: store_key.js; a weaker one rejects with a TypeError saying how to make one), port (default
 * 0: a free one), host (default 127.0.0.1; an address beyond loopback needs exposeOnNetwork),
 * db (a SQLite file, default ':memory:': a throwaway database), exposeOnNetwork, corsOrigin (an
 * origin or an array of them whose pages may call the hub from a browser), claimTtl (a claim's
 * default lifetime: '7d', '36h', '90m' or '600s'; default 7 days), and the process
 * options of startLocalService (binary, args, wrapper, onStderr, signal, keepAlive,
 * startTimeoutMs, runtime). Resolves { url, pid, exited, running(), kill(), stop() }.
 */
export async function startStoreHub(options = {}) {
  const { args, env } = hubArguments(options, { extra: options?.args ?? [] });
  if (chooseRuntime('hub', options, 'startStoreHub') === 'wasm') return startWasmHub(options, args);
  const processOptionsChecked = processOptions(options, 'startStoreHub');
  const binary = processOptionsChecked.binary ?? hubBinaryPath();
  processOptionsChecked.signal?.throwIfAborted();
  return startNativeProcess({ program: 'loyalty_hub', binary, args, env, options: processOptionsChecked });
}
