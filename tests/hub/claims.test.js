// The store hub over real HTTP on 127.0.0.1 (a real process, a real SQLite file): a reward
// granted once, a retry answered the same, release and spend, expiry, points held against the
// newest balance, the store key (once per request, and a brake on clients that keep sending a wrong
// one), bodies declared JSON, bad input naming the field, a loyalty-service time far ahead of the
// hub's clock refused, a spend billed before the balance its claim was granted against refused, a
// guest's claims listed up to a cap (and said to be cut), a guest's live claims and points
// experiences bounded, a SIGKILL that loses no acknowledged claim, and 64 kiosks racing for one
// reward.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { exchange, requestBytes } from '../service/http/raw_http.js';
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
  // Nine failures, and a tenth below: within the brake's 10 a second of one client.
  for (const key of [null, 'wrong-key', `${STORE_KEY}x`]) {
    for (const [method, route] of [['GET', '/hub/health'], ['POST', '/hub/claims'], ['GET', '/nowhere']]) {
      const res = await hubCall(hub, method, route, { key, body: method === 'POST' ? rewardClaim('k') : undefined });
      assert.equal(res.status, 401, `${method} ${route} with ${key}`);
      assert.deepEqual(res.body, { code: 401, message: 'the Store-Key header is missing or invalid' });
    }
  }
  assert.equal((await hubCall(hub, 'GET', '/hub/health', { key: '' })).status, 401);
  const health = await hubCall(hub, 'GET', '/hub/health');
  assert.equal(health.status, 200);
  assert.equal(health.body.claim_ttl_ms, 7 * 24 * 3600 * 1000);
});

/** Raw requests from `localAddress` (another client on loopback), pipelined on one connection. */
async function rawCalls(localAddress, requests) {
  const answer = await exchange(hub.url, requests.map(([method, target, fields, body = '']) =>
    requestBytes(method, target, [['Host', '127.0.0.1'], ...fields, ...(body ? [['Content-Length', String(Buffer.byteLength(body))]] : [])], body)),
  { responses: requests.length, localAddress });
  assert.equal(answer.responses.length, requests.length, answer.error?.message ?? 'the hub closed early');
  return answer.responses;
}

const healthWith = (key) => ['GET', '/hub/health', [['Store-Key', key]]];

test('a body must be declared application/json: text/plain, a form or none is 415, and nothing is stored', async () => {
  for (const contentType of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x', 'application/json; charset=iso-8859-1', null]) {
    const res = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('typed-1', { reward: 'r_typed' }), contentType });
    assert.equal(res.status, 415, `${contentType}: ${res.text}`);
    assert.equal(res.body.code, 415);
    assert.match(res.body.message, /application\/json/);
    const spend = await hubCall(hub, 'POST', '/hub/claims/release', { body: basketOf('typed-1'), contentType });
    assert.equal(spend.status, 415);
  }
  // The same claim, declared JSON (with or without charset=utf-8): granted, so nothing before it was stored.
  const granted = await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('typed-1', { reward: 'r_typed' }), contentType: 'application/json; charset=utf-8' });
  assert.equal(granted.status, 201, granted.text);
  // Two Content-Type fields are refused too, even both JSON.
  const [twice] = await rawCalls('127.0.0.1', [['POST', '/hub/claims', [['Store-Key', STORE_KEY], ['Content-Type', 'application/json'], ['Content-Type', 'text/plain']], JSON.stringify(rewardClaim('typed-2'))]]);
  assert.equal(twice.status, 415);
  assert.match(JSON.parse(twice.body).message, /Content-Type header must be sent once/);
});

test('the Store-Key header twice is 400, whatever the keys', async () => {
  for (const keys of [[STORE_KEY, 'wrong'], ['wrong', STORE_KEY], [STORE_KEY, STORE_KEY]]) {
    const [answer] = await rawCalls('127.0.0.1', [['GET', '/hub/health', keys.map((key) => ['Store-Key', key])]]);
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body), { code: 400, message: 'the Store-Key header must be sent once (got 2)' });
  }
});

test('a client that keeps sending wrong keys gets 429 with Retry-After past 10 a second; the right key is still served, from it too', async () => {
  // Another client on loopback (127.0.0.2), so that the brake holds no other test back. Wrong keys
  // are sent in pipelined rounds until the brake answers (bounded): each round is answered in far
  // less than a second.
  const statuses = [];
  let braked = null;
  for (let round = 0; round < 20 && braked === null; ++round) {
    const answers = await rawCalls('127.0.0.2', Array.from({ length: 15 }, (_, i) => healthWith(`wrong-${round}-${i}`)));
    for (const answer of answers) {
      statuses.push(answer.status);
      if (answer.status === 429 && braked === null) braked = answer;
    }
  }
  assert.ok(braked, `no 429 after ${statuses.length} wrong keys: ${statuses.join(' ')}`);
  assert.ok(statuses.indexOf(429) >= 10, `the first 10 failures are 401: ${statuses.join(' ')}`);
  assert.ok(statuses.every((status) => status === 401 || status === 429), statuses.join(' '));
  assert.equal(braked.headers['retry-after'], '1');
  const body = JSON.parse(braked.body);
  assert.equal(body.code, 429);
  assert.match(body.message, /more than 10 requests a second without the right Store-Key from this client \(127\.0\.0\.2\)/);
  // Braked, the same client with the right key is served; its wrong keys stay braked.
  const [wrong, right, claimed, wrongAgain] = await rawCalls('127.0.0.2', [
    healthWith('still-wrong'),
    healthWith(STORE_KEY),
    ['POST', '/hub/claims', [['Store-Key', STORE_KEY], ['Content-Type', 'application/json']], JSON.stringify(rewardClaim('braked-peer', { reward: 'r_braked' }))],
    healthWith('still-wrong'),
  ]);
  assert.deepEqual([wrong.status, right.status, claimed.status, wrongAgain.status], [429, 200, 201, 429]);
  // Another client is not braked by it: its wrong key is a 401, its right key a 200.
  const [other, otherRight] = await rawCalls('127.0.0.3', [healthWith('wrong'), healthWith(STORE_KEY)]);
  assert.deepEqual([other.status, otherRight.status], [401, 200]);
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

test('a balance_as_of or billed_at more than 5 minutes ahead of the hub\'s clock is refused (400, naming the field), and stores nothing', async () => {
  const far = await hubCall(hub, 'POST', '/hub/claims', { body: pointsClaim('future-1', { asOf: '9999-12-31T23:59:59Z', balance: 5000 }) });
  assert.equal(far.status, 400, far.text);
  assert.match(far.body.message, /^balance_as_of is \d+ s ahead of the store hub's clock, more than the 5 minutes two clocks may differ/);
  const sentAt = Date.now();
  const ahead = new Date(sentAt + 10 * 60_000).toISOString();
  const soon = await hubCall(hub, 'POST', '/hub/claims', { body: pointsClaim('future-2', { asOf: ahead, balance: 5000 }) });
  assert.equal(soon.status, 400, soon.text);
  // Ten minutes ahead when sent, less the seconds the request took to be read.
  const seconds = Number(/^balance_as_of is (\d+) s ahead/.exec(soon.body.message)?.[1]);
  const took = Math.ceil((Date.now() - sentAt) / 1000);
  assert.ok(seconds <= 600 && seconds >= 599 - took, soon.body.message);
  // A balance a moment ahead (the two clocks' ordinary skew) is taken.
  const skewed = await hubCall(hub, 'POST', '/hub/claims', { body: pointsClaim('future-3', { asOf: new Date(Date.now() + 60_000).toISOString(), balance: 450 }) });
  assert.equal(skewed.status, 201, skewed.text);
  const { body } = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_1001');
  assert.ok(!body.claims.some((c) => c.basket_id === 'future-1' || c.basket_id === 'future-2'), 'nothing stored');
  assert.notEqual(body.points.find((p) => p.points_experience_id === 'pe_beans').balance, 5000, 'the far balance was not taken');
  const spend = await hubCall(hub, 'POST', '/hub/claims/spend', { body: { ...basketOf('future-3'), billed_at: ahead } });
  assert.equal(spend.status, 400, spend.text);
  assert.match(spend.body.message, /^billed_at is \d+ s ahead of the store hub's clock/);
  assert.equal((await hubCall(hub, 'POST', '/hub/claims/release', { body: basketOf('future-3') })).body.claim.state, 'released', 'still held: the refused spend changed nothing');
});

test('GET /hub/claims lists at most 100 of a guest\'s claims, the most recent, and says when it cut; points count every claim', async () => {
  const guest = { user_id: 'u_many' };
  const experience = await hubCall(hub, 'POST', '/hub/claims', { body: { ...pointsClaim('many-points', { balance: 1000 }), ...guest } });
  assert.equal(experience.status, 201, experience.text);
  for (let i = 0; i < 100; i += 1) {
    const granted = await hubCall(hub, 'POST', '/hub/claims', { body: { ...rewardClaim(`many-${i}`, { reward: `r_many_${i}` }), ...guest } });
    assert.equal(granted.status, 201, granted.text);
  }
  const cut = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_many');
  assert.equal(cut.status, 200);
  assert.equal(cut.body.truncated, true);
  assert.equal(cut.body.claims.length, 100);
  assert.equal(cut.body.claims[0].basket_id, 'many-0', 'the oldest listed first');
  assert.ok(!cut.body.claims.some((c) => c.basket_id === 'many-points'), 'the oldest claim is the one left out');
  assert.equal(cut.body.points[0].held, 200, 'its points are still counted');
  await hubCall(hub, 'POST', '/hub/claims/release', { body: { ...basketOf('many-0'), ...guest } });
  const whole = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_many');
  assert.equal(whole.body.truncated, false);
  assert.equal(whole.body.claims.length, 100);
});

test('a guest with 256 claims that hold is refused a new one (409 TOO_MANY_CLAIMS); a retry and another guest are answered as always', async () => {
  const guest = { user_id: 'u_flood' };
  for (let i = 0; i < 256; i += 1) {
    const granted = await hubCall(hub, 'POST', '/hub/claims', { body: { ...rewardClaim(`flood-${i}`, { reward: `r_flood_${i}` }), ...guest } });
    assert.equal(granted.status, 201, granted.text);
  }
  const refused = await hubCall(hub, 'POST', '/hub/claims', { body: { ...rewardClaim('flood-256', { reward: 'r_flood_256' }), ...guest } });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.reason, 'TOO_MANY_CLAIMS');
  assert.equal(refused.body.limit, 256);
  assert.match(refused.body.message, /user u_flood of merchant m_harbor already has 256 claims that hold/);
  assert.equal((await hubCall(hub, 'POST', '/hub/claims', { body: { ...rewardClaim('flood-0', { reward: 'r_flood_0' }), ...guest } })).status, 200, 'a retry');
  assert.equal((await hubCall(hub, 'POST', '/hub/claims', { body: rewardClaim('flood-other', { reward: 'r_flood_256' }) })).status, 201, 'another guest');
  const list = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_flood');
  assert.equal(list.body.claims.length, 100);
  assert.ok(list.text.length < 64 * 1024, `a bounded answer: ${list.text.length} bytes`);
});

test('a guest keeps balances of at most 16 points experiences: a 17th is refused (409 TOO_MANY_POINTS_EXPERIENCES), storing nothing', async () => {
  const guest = (basket, experience, balance = 0) => ({ ...pointsClaim(basket, { balance }), user_id: 'u_experiences', points_experience_id: experience });
  // Refused claims (balance 0) still leave their balance report: 16 experiences' worth at most.
  for (let i = 0; i < 16; i += 1) {
    const refused = await hubCall(hub, 'POST', '/hub/claims', { body: guest(`exp-${i}`, `pe_${i}`) });
    assert.equal(refused.body.reason, 'INSUFFICIENT_POINTS', refused.text);
  }
  for (let i = 16; i < 48; i += 1) {
    const beyond = await hubCall(hub, 'POST', '/hub/claims', { body: guest(`exp-${i}`, `pe_${i}`, 5000) });
    assert.equal(beyond.status, 409, beyond.text);
    assert.equal(beyond.body.reason, 'TOO_MANY_POINTS_EXPERIENCES');
    assert.equal(beyond.body.limit, 16);
    assert.match(beyond.body.message, new RegExp(`user u_experiences of merchant m_harbor already has balances of 16 points experiences at the store hub.*pe_${i}`));
  }
  // A known experience is decided as always, its newer balance taken.
  const known = await hubCall(hub, 'POST', '/hub/claims', { body: { ...guest('exp-known', 'pe_3', 450), balance_as_of: '2026-11-24T13:16:00Z' } });
  assert.equal(known.status, 201, known.text);
  const list = await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor&user_id=u_experiences');
  assert.deepEqual(list.body.points.map((p) => p.points_experience_id).sort(), Array.from({ length: 16 }, (_, i) => `pe_${i}`).sort());
  assert.equal(list.body.truncated, false);
  assert.equal(list.body.points.find((p) => p.points_experience_id === 'pe_3').held, 200);
  assert.ok(list.text.length < 8 * 1024, `a bounded answer: ${list.text.length} bytes`);
});

test('a points spend billed before the balance its claim was granted against is refused, naming billed_at, and the points stay held', async () => {
  const guest = (basket, extra = {}) => ({ ...pointsClaim(basket), user_id: 'u_backdated', points: 300, ...extra });
  const claimed = await hubCall(hub, 'POST', '/hub/claims', { body: guest('back-1') });
  assert.equal(claimed.status, 201, claimed.text);
  const spend = (billedAt) => hubCall(hub, 'POST', '/hub/claims/spend', { body: { ...basketOf('back-1'), user_id: 'u_backdated', billed_at: billedAt } });
  for (const billedAt of ['1970-01-01T00:00:00Z', '2026-11-24T13:14:59.999Z']) {
    const refused = await spend(billedAt);
    assert.equal(refused.status, 400, refused.text);
    assert.ok(refused.body.message.startsWith(`billed_at ${billedAt} is before 2026-11-24T13:15:00Z, the balance_as_of the claim of basket back-1 was granted against: an order is billed after its claim`), refused.text);
  }
  // The same points are not granted twice against the same balance report.
  const twice = await hubCall(hub, 'POST', '/hub/claims', { body: guest('back-2') });
  assert.equal(twice.status, 409, twice.text);
  assert.equal(twice.body.reason, 'INSUFFICIENT_POINTS');
  // Billed after that balance, a spend is taken, and still counts against it.
  const billed = await spend('2026-11-24T13:16:00Z');
  assert.equal(billed.status, 200, billed.text);
  assert.equal(billed.body.claim.state, 'spent');
  assert.equal((await hubCall(hub, 'POST', '/hub/claims', { body: guest('back-3') })).body.reason, 'INSUFFICIENT_POINTS');
  // A balance report older than the one the hub has is not the newest: it changes nothing.
  const old = await hubCall(hub, 'POST', '/hub/claims', { body: guest('back-4', { balance: 1_000_000, balance_as_of: '1970-01-01T00:00:00Z' }) });
  assert.equal(old.status, 409, old.text);
  assert.deepEqual([old.body.points.balance, old.body.points.balance_as_of, old.body.points.held], [450, '2026-11-24T13:15:00Z', 300]);
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
