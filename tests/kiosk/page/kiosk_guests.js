// The demo's Harbor Coffee guests as the browser tests call the loyalty service themselves, through
// a kiosk server's /api proxy: to check what the page did (a balance, a billed basket) or to
// change the account behind its back.
import assert from 'node:assert/strict';

export const MEDIA_TYPE = 'application/vnd.service-v1+json';
export const ALEX = { token: 'at_u1001_7Qx2LmN9pR4s', key: 'mk_harbor_5f1c9a7e2b' };
export const GUESTS = { u_1001: ALEX, u_1002: { token: 'at_u1002_Kd83JsPq0Wz1', key: ALEX.key } };

/**
 * Calls through the kiosk server at `origin()` (read at each call: the kiosk starts after the
 * test file loads): api(method, route, body, as) -> { status, body } as Alex or `as`; balance(as)
 * (the account's first points balance); waitForBalance(as, expected, what) waits up to 60 s for it.
 */
export function guestCalls(origin) {
  async function api(method, route, body, as = 'u_1001') {
    const { token, key } = GUESTS[as];
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
    const deadline = Date.now() + 60_000;
    let last;
    while (Date.now() < deadline) {
      last = await balance(as);
      if (last === expected) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(last, expected, what);
  }
  return { api, balance, waitForBalance };
}
