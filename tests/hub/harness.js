// Runs the real store hub for the tests: built into build/native when missing or older than its
// sources, started through the package's launcher (startStoreHub) on 127.0.0.1, talked to over
// real HTTP; every test file stops what it started.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { startStoreHub } from '../../web/local/service/store_hub.js';
import { root } from '../service/harness.js';

export { scratchDir, waitFor } from '../service/harness.js';

/** A store key of the documented strength (128 bits: 32 hex digits, as `openssl rand -hex 16` makes). */
export const STORE_KEY = '7f3a9c2e5b8d41f0a6c3e9b27d5f1a84';
const binary = process.env.LQ_HUB_BIN ?? path.join(root, 'build/native/hub/loyalty_hub');

// The newest modification time of the sources the hub is built from (include/, src/, front/ and hub/).
function newestSource() {
  let newest = 0;
  for (const dir of ['include', 'src', 'front', 'hub']) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(cpp|hpp)$|^CMakeLists\.txt$/.test(entry.name)) {
        newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** The hub binary, (re)built first when missing or older than its sources. */
export function hubBinary() {
  if (process.env.LQ_HUB_BIN || (existsSync(binary) && statSync(binary).mtimeMs >= newestSource())) return binary;
  const built = spawnSync('cmake', ['--build', 'build/native', '--target', 'loyalty_hub', '-j2'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    timeout: 900_000,
  });
  if (built.status !== 0) throw new Error('cmake --build build/native --target loyalty_hub failed');
  return binary;
}

/**
 * Starts a hub (options of startStoreHub; storeKey defaults to STORE_KEY); its stderr is kept.
 * LQ_HUB_RUNTIME=wasm (npm test's conformance step): the wasm runtime, its state in memory (db
 * unused), unless `runtime` is given.
 */
export async function startHub(options = {}) {
  const hub = { stderr: '' };
  const runtime = options.runtime ?? process.env.LQ_HUB_RUNTIME ?? 'native';
  const launched = await startStoreHub({
    ...(runtime === 'wasm' ? { runtime } : { binary: hubBinary() }),
    storeKey: STORE_KEY,
    startTimeoutMs: 15_000,
    onStderr: (chunk) => {
      hub.stderr += chunk;
    },
    // The wasm runtime keeps its state in memory: a database file is not passed on.
    ...(runtime === 'wasm' ? { ...options, db: undefined } : options),
  });
  return Object.assign(hub, launched);
}

/**
 * One hub call. `key`: the Store-Key header (default STORE_KEY; null: none); `contentType`: a
 * body's (default application/json; null: none). Resolves { status, body (parsed JSON), text }.
 */
export async function hubCall(hub, method, route, { body, raw, key = STORE_KEY, contentType = 'application/json' } = {}) {
  const headers = {};
  if (key !== null) headers['Store-Key'] = key;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  // fetch gives a string body text/plain of its own; bytes go without a Content-Type.
  if (payload !== undefined && contentType === null) payload = Buffer.from(payload);
  else if (payload !== undefined) headers['Content-Type'] = contentType;
  const res = await fetch(hub.url + route, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** A reward claim of guest u_1001 (merchant m_harbor) for `basket` from `kiosk`. */
export const rewardClaim = (basket, { kiosk = 'kiosk-1', reward = 'r_latte', ...extra } = {}) => ({
  merchant_id: 'm_harbor',
  user_id: 'u_1001',
  basket_id: basket,
  kiosk_id: kiosk,
  reward_id: reward,
  ...extra,
});

/** A points-product claim (pp_two_off, 200 points of pe_beans) with the kiosk's known balance. */
export const pointsClaim = (basket, { balance = 450, asOf = '2026-11-24T13:15:00Z', kiosk = 'kiosk-1' } = {}) => ({
  merchant_id: 'm_harbor',
  user_id: 'u_1001',
  basket_id: basket,
  kiosk_id: kiosk,
  points_product_id: 'pp_two_off',
  points: 200,
  points_experience_id: 'pe_beans',
  balance,
  balance_as_of: asOf,
});

export const basketOf = (basket) => ({ merchant_id: 'm_harbor', user_id: 'u_1001', basket_id: basket });
