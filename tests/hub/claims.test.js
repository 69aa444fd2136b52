// The store hub over real HTTP on 127.0.0.1 (a real process, a real SQLite file): a reward
// granted once, a retry answered the same, release and spend, expiry, points held against the
// newest balance, the store key, bad input naming the field, a SIGKILL that loses no acknowledged
// claim, and 64 kiosks racing for one reward.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { STORE_KEY, basketOf, hubBinary, hubCall, pointsClaim, rewardClaim, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-hub-');
const running = new Set();
let hub;

async function start(options) {
  const started = await startHub(options);
  running.add(started);
  return started;
}

before(async () => {
  hubBinary();
  hub = await start({ db: path.join(scratch.dir, 'claims.db') });
}, { timeout: 900_000 });

after(async () => {
  for (const each of running) await each.stop();
  scratch.cleanup();
});

test('a reward is granted to one basket (201); another basket is refused CLAIMED_ELSEWHERE naming the kiosk', async () => {
  const first = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('once-1', { reward: 'r_once' }) });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.claim.state, 'held');
  assert.equal(first.body.claim.kiosk_id, 'kiosk-1');
  const second = await hubCall(hub, 'POST', '/hub/claims', {
    body: rewardClaim('once-2', { reward: 'r_once', kiosk: 'kiosk-2' }),
  });
  assert.equal(second.status, 409, second.text);
  assert.equal(second.body.code, 409);
  assert.equal(second.body.reason, 'CLAIMED_ELSEWHERE');
  assert.equal(second.body.claim.kiosk_id, 'kiosk-1');
  assert.equal(second.body.claim.basket_id, 'once-1');
});

test('a retried claim gets the same claim (200); the same basket for another offer is BASKET_MISMATCH', async () => {
  const first = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('retry-1', { reward: 'r_retry' }) });
  assert.equal(first.status, 201);
  const again = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('retry-1', { reward: 'r_retry' }) });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body.claim, first.body.claim);
  const other = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('retry-1', { reward: 'r_other' }) });
  assert.equal(other.status, 409);
  assert.equal(other.body.reason, 'BASKET_MISMATCH');
});

test('a released claim frees the reward; a spent one keeps it; settling again repeats, the other way is 409', async () => {
  await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('rel-1', { reward: 'r_rel' }) });
  const released = await hubCall(hub, 'POST', '/hub/claims/release', { body: basketOf('rel-1') });
  assert.equal(released.status, 200, released.text);
  assert.equal(released.body.claim.state, 'released');
  assert.equal((await hubCall(hub, 'POST', '/hub/claims/release', { body: basketOf('rel-1') })).status, 200);
  const spendReleased = await hubCall(hub, 'POST', '/hub/claims/spend', { body: basketOf('rel-1') });
  assert.equal(spendReleased.status, 409);
  assert.equal(spendReleased.body.reason, 'CLAIM_RELEASED');

  const next = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('rel-2', { reward: 'r_rel' }) });
  assert.equal(next.status, 201, next.text);
  const spent = await hubCall(hub, 'POST', '/hub/claims/spend', {
    body: { ...basketOf('rel-2'), billed_at: '2026-11-24T13:16:00Z' },
  });
  assert.equal(spent.status, 200, spent.text);
  assert.equal(spent.body.claim.state, 'spent');
  assert.equal(spent.body.claim.billed_at, '2026-11-24T13:16:00Z');
  const releaseSpent = await hubCall(hub, 'POST', '/hub/claims/release', { body: basketOf('rel-2') });
  assert.equal(releaseSpent.status, 409);
  assert.equal(releaseSpent.body.reason, 'CLAIM_SPENT');
  const after = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('rel-3', { reward: 'r_rel' }) });
  assert.equal(after.body.reason, 'CLAIMED_ELSEWHERE');
  const none = await hubCall(hub, 'POST', '/hub/claims/spend', { body: basketOf('no-such-basket') });
  assert.equal(none.status, 404);
  assert.match(none.body.message, /no claim for basket no-such-basket/);
});

test('a claim expires after its ttl_ms: it leaves the guest\'s list and another basket gets the reward', async () => {
  const short = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('exp-1', { reward: 'r_exp', ttl_ms: 300 }) });
  assert.equal(short.status, 201);
  const listed = async () => (await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_1001')).body.claims;
  const gone = await waitFor(async () => !(await listed()).some((c) => c.basket_id === 'exp-1'), 10_000, 50);
  assert.ok(gone, 'the claim is still listed');
  const retry = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('exp-1', { reward: 'r_exp', ttl_ms: 300 }) });
  assert.equal(retry.status, 200);
  assert.equal(retry.body.claim.state, 'expired');
  const other = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('exp-2', { reward: 'r_exp' }) });
  assert.equal(other.status, 201, other.text);
});

test('points are held against the newest balance any kiosk reported: 450 beans grant two 200-bean claims, not three', async () => {
  const guest = (basket, options) => ({ ...pointsClaim(basket, options), user_id: 'u_points' });
  const one = await hubCall(hub, 'POST', '/hub/claims', { body: guest('pts-1') });
  assert.equal(one.status, 201, one.text);
  assert.deepEqual(one.body.points, {
    points_experience_id: 'pe_beans', balance: 450, balance_as_of: '2026-11-24T13:15:00Z', held: 200, available: 250,
  });
  // Another kiosk with an older snapshot (more beans) does not raise what the hub counts on.
  const two = await hubCall(hub, 'POST', '/hub/claims', { body: guest('pts-2', { balance: 900, asOf: '2026-11-24T12:00:00Z', kiosk: 'kiosk-2' }) });
  assert.equal(two.status, 201, two.text);
  const three = await hubCall(hub, 'POST', '/hub/claims', { body: guest('pts-3', { kiosk: 'kiosk-2' }) });
  assert.equal(three.status, 409);
  assert.equal(three.body.reason, 'INSUFFICIENT_POINTS');
  assert.equal(three.body.points_needed, 150);
  const list = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_points');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.claims.map((c) => [c.basket_id, c.kiosk_id]), [['pts-1', 'kiosk-1'], ['pts-2', 'kiosk-2']]);
  assert.equal(list.body.points[0].held, 400);
  // Spent, then a balance computed after the billing: the spent claim no longer counts.
  await hubCall(hub, 'POST', '/hub/claims/spend', { body: { ...basketOf('pts-1'), user_id: 'u_points', billed_at: '2026-11-24T13:20:00Z' } });
  const fresh = await hubCall(hub, 'POST', '/hub/claims', { body: guest('pts-4', { balance: 250, asOf: '2026-11-24T13:21:00Z' }) });
  assert.equal(fresh.status, 409, fresh.text);
  assert.equal(fresh.body.points.held, 200); // pts-2 only
  assert.equal(fresh.body.points_needed, 150);
});

test('every call needs the store key: 401 {code, message} without it or with a wrong one, also on unknown paths', async () => {
  for (const key of [null, 'wrong-key', `${STORE_KEY}x`, '']) {
    for (const [method, route] of [['GET', '/hub/health'], ['POST', '/hub/claims'], ['GET', '/nowhere']]) {
      const res = await hubCall(hub, method, route, { key, body: method === 'POST' ? rewardClaim('k') : undefined });
      assert.equal(res.status, 401, `${method} ${route} with ${key}`);
      assert.deepEqual(res.body, { code: 401, message: 'the Store-Key header is missing or invalid' });
    }
  }
  const health = await hubCall(hub, 'GET', '/hub/health');
  assert.equal(health.status, 200);
  assert.equal(health.body.claim_ttl_ms, 7 * 24 * 3600 * 1000);
});

test('bad input is a 4xx {code, message} naming the field, and changes nothing', async () => {
  for (const [raw, status, message] of [
    ['{', 400, /^request body is not valid JSON/],
    ['[1]', 400, /^request body must be a JSON object$/],
    [JSON.stringify({ ...rewardClaim('bad-1'), kiosk_id: undefined }), 400, /^kiosk_id is required$/],
    [JSON.stringify({ ...rewardClaim('bad-1'), reward_id: 7 }), 400, /^reward_id must be a string$/],
    [JSON.stringify({ ...rewardClaim('bad-1'), ttl_ms: -5 }), 400, /^ttl_ms must be/],
    [JSON.stringify({ ...pointsClaim('bad-1'), balance_as_of: 'yesterday' }), 400, /^balance_as_of must be an RFC 3339 instant/],
    [JSON.stringify({ ...pointsClaim('bad-1'), points: undefined }), 400, /^points is required with points_product_id$/],
    [JSON.stringify({ ...rewardClaim('bad-1'), merchant_id: 'm'.repeat(300) }), 400, /^merchant_id must be a non-empty string of at most 256 bytes/],
  ]) {
    const res = await hubCall(hub, 'POST', '/hub/claims', { raw });
    assert.equal(res.status, status, raw.slice(0, 80));
    assert.equal(res.body.code, status);
    assert.match(res.body.message, message);
  }
  const missing = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor');
  assert.equal(missing.status, 400);
  assert.equal(missing.body.message, 'the query parameter user_id is required');
  const wrongMethod = await hubCall(hub, 'DELETE', '/hub/claims');
  assert.equal(wrongMethod.status, 405);
  const list = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_1001');
  assert.ok(!list.body.claims.some((c) => c.basket_id === 'bad-1'));
});

test('a body over the service\'s 1 MiB limit is 413, as the service answers it', async () => {
  const res = await hubCall(hub, 'POST', '/hub/claims', { raw: JSON.stringify({ ...rewardClaim('big'), pad: 'x'.repeat(1 << 20) }) });
  assert.equal(res.status, 413);
  assert.equal(res.body.code, 413);
});

test('64 kiosks claiming one reward at once: exactly one grant', async () => {
  const answers = await Promise.all(Array.from({ length: 64 }, (_, i) =>
    hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim(`race-${i}`, { reward: 'r_race', kiosk: `kiosk-${i}` }) })));
  assert.equal(answers.filter((a) => a.status === 201).length, 1);
  assert.equal(answers.filter((a) => a.status === 409 && a.body.reason === 'CLAIMED_ELSEWHERE').length, 63);
});

// A database file and a restart: the native runtime's alone (the wasm runtime keeps no file).
const durable = { skip: process.env.LQ_HUB_RUNTIME === 'wasm' && 'the wasm runtime keeps its state in memory' };
test('kill -9 right after acknowledged claims, restart on the same file: every acknowledged claim is there', durable, async () => {
  const db = path.join(scratch.dir, 'crash.db');
  const first = await start({ db });
  const acknowledged = [];
  await Promise.all(Array.from({ length: 40 }, async (_, i) => {
    const res = await hubCall(first, 'POST', '/hub/claims', { body: rewardClaim(`crash-${i}`, { reward: `r_crash_${i}` }) });
    if (res.status === 201) acknowledged.push(`crash-${i}`);
  }));
  assert.equal(acknowledged.length, 40);
  first.kill('SIGKILL');
  const exit = await first.exited;
  running.delete(first);
  assert.equal(exit.signal, 'SIGKILL');
  const second = await start({ db });
  const list = await hubCall(second, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_1001');
  const stored = new Set(list.body.claims.map((c) => c.basket_id));
  for (const basket of acknowledged) assert.ok(stored.has(basket), `${basket} lost`);
  const again = await hubCall(second, 'POST', '/hub/claims', { body: rewardClaim('crash-after', { reward: 'r_crash_0' }) });
  assert.equal(again.body.reason, 'CLAIMED_ELSEWHERE');
});
