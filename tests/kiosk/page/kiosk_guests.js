// The demo's guests as the browser tests call the loyalty service themselves, through a kiosk
// server's /api proxy: to check what the page did (a balance, a billed basket) or to change the
// account behind its back. Their credentials come from the demo fixture (credentialsOf).
import assert from 'node:assert/strict';

import { MEDIA_TYPE, credentialsOf, waitFor } from '../../service/harness.js';

/**
 * Calls through the kiosk server at `origin()` (read at each call: the kiosk starts after the
 * test file loads): api(method, route, body, as) -> { status, body } as Alex (u_1001) or the
 * guest `as`; balance(as) (the account's first points balance); waitForBalance(as, expected,
 * what) waits up to 60 s for it.
 */
export function guestCalls(origin) {
  async function api(method, route, body, as = 'u_1001') {
    const { token, key } = credentialsOf(as);
    const response = await fetch(`${origin()}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: MEDIA_TYPE,
        ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: await response.json() };
  }
  const balance = async (as) => Number((await api('GET', '/api/account', undefined, as)).body.points[0].balance);
  async function waitForBalance(as, expected, what) {
    let last;
    await waitFor(async () => (last = await balance(as)) === expected, 60_000);
    assert.equal(last, expected, what);
  }
  return { api, balance, waitForBalance };
}
