// waitForPurchase() polls exactly as API spec 8 says: first poll after 60 s, waits doubling from
// 60 s to a 5-minute cap, giving up after about 45 minutes; injected timers run it in
// milliseconds. Also the bracket encoding of array filters and purchase matching.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { QualifyError } from '../../../web/index.js';
import { NETWORK_ERROR } from '../../../web/http/loyalty_client.js';
import {
  SANDBOX_POLL_SCHEDULE,
  SandboxClient,
  encodeQuery,
  pollDelays,
  purchaseMatcher,
} from '../../../web/http/sandbox_client.js';
import { SEED_WAITS } from './scaled_timers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Timers on a fake clock: each timeout fires on the next turn and advances the clock by its delay. */
function fakeTimers(start = 1_700_000_000_000) {
  const state = { now: start, waits: [], pending: new Set() };
  return {
    state,
    timers: {
      now: () => state.now,
      setTimeout(fn, ms) {
        state.waits.push(ms);
        const handle = setImmediate(() => {
          state.pending.delete(handle);
          state.now += ms;
          fn();
        });
        state.pending.add(handle);
        return handle;
      },
      clearTimeout(handle) {
        clearImmediate(handle);
        state.pending.delete(handle);
      },
    },
  };
}

function jsonResponse(status, body) {
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => JSON.stringify(body) };
}

/**
 * A sandbox whose GET /purchases answers `answer(pollNumber)` (an array of purchases, or a
 * Response-like); `pollCostMs` advances the fake clock during each poll.
 */
function sandbox(fake, answer, { pollCostMs = 0 } = {}) {
  const polls = [];
  const fetch = async (url, init) => {
    polls.push({ url, at: fake.state.now - fake.start, headers: init.headers });
    fake.state.now += pollCostMs;
    const value = await answer(polls.length);
    return Array.isArray(value) ? jsonResponse(200, { purchases: value }) : value;
  };
  const client = new SandboxClient({ sandboxApiUrl: 'http://127.0.0.1:9', accessToken: 'at_x', clientId: 'cl_x', fetch });
  return { client, polls };
}

function withStart(fake) {
  fake.start = fake.state.now;
  return fake;
}

const purchase = { id: 'pur_1', user_id: 'u_1001', amount: '12.50', purchased_at: '2026-11-24T08:00:00-05:00' };

describe('the polling schedule (API spec 8)', () => {
  test('pollDelays(): 60, 120, 240, 300, 300 ... s, the last poll at 45:00', () => {
    assert.deepEqual(pollDelays(), SEED_WAITS);
    assert.equal(SEED_WAITS.reduce((a, b) => a + b, 0), 45 * MINUTE);
    assert.deepEqual(SANDBOX_POLL_SCHEDULE, { firstDelayMs: 60 * SECOND, maxDelayMs: 5 * MINUTE, totalMs: 45 * MINUTE });
    assert.ok(Object.isFrozen(SANDBOX_POLL_SCHEDULE));
    assert.deepEqual(pollDelays({ firstDelayMs: 10, maxDelayMs: 40, totalMs: 100 }), [10, 20, 40, 30]);
    assert.throws(() => pollDelays({ totalMs: 0 }), TypeError);
  });

  test('never found: polls at 1, 3, 7, 12, 17 ... 45 min, then resolves null', async () => {
    const fake = withStart(fakeTimers());
    const { client, polls } = sandbox(fake, () => []);
    const events = [];
    const result = await client.waitForPurchase(purchase, { timers: fake.timers, onProgress: (e) => events.push(e) });
    assert.equal(result, null);
    assert.deepEqual(fake.state.waits, SEED_WAITS);
    let at = 0;
    assert.deepEqual(polls.map((p) => p.at), SEED_WAITS.map((w) => (at += w)));
    assert.equal(polls[0].at, 60 * SECOND, 'the first poll comes after at least 60 s');
    assert.equal(polls.at(-1).at, 45 * MINUTE, 'the last poll at 45 minutes');
    assert.equal(polls.length, 11);
    const last = events.at(-1);
    assert.deepEqual({ type: last.type, attempt: last.attempt, elapsedMs: last.elapsedMs, totalMs: last.totalMs },
      { type: 'gave-up', attempt: 11, elapsedMs: 45 * MINUTE, totalMs: 45 * MINUTE });
    assert.equal(fake.state.pending.size, 0, 'no timer left behind');
  });

  test('stops at the poll that finds the purchase, with progress a UI can render', async () => {
    const fake = withStart(fakeTimers());
    const { client, polls } = sandbox(fake, (n) => (n < 3 ? [] : [{ ...purchase, id: 'pur_0', amount: '1.00' }, purchase]));
    const events = [];
    const found = await client.waitForPurchase({ user_id: 'u_1001', amount: 12.5 }, { timers: fake.timers, onProgress: (e) => events.push(e) });
    assert.deepEqual(found, purchase);
    assert.deepEqual(fake.state.waits, [60 * SECOND, 120 * SECOND, 240 * SECOND]);
    assert.equal(polls.length, 3);
    assert.deepEqual(events.map((e) => `${e.type}:${e.attempt}`), [
      'waiting:1', 'polling:1', 'not-found:1',
      'waiting:2', 'polling:2', 'not-found:2',
      'waiting:3', 'polling:3', 'found:3',
    ]);
    const waiting = events.filter((e) => e.type === 'waiting');
    assert.deepEqual(waiting.map((e) => e.delayMs), [60 * SECOND, 120 * SECOND, 240 * SECOND]);
    assert.deepEqual(waiting.map((e) => e.elapsedMs), [0, 60 * SECOND, 180 * SECOND]);
    assert.equal(waiting[1].nextPollAt, fake.start + 180 * SECOND);
    assert.deepEqual(events.at(-1).purchase, purchase);
    assert.equal(events.at(-1).elapsedMs, 420 * SECOND);
  });

  test('slow polls: the waits keep the schedule and the total stays within 45 minutes', async () => {
    const fake = withStart(fakeTimers());
    const { client, polls } = sandbox(fake, () => [], { pollCostMs: 10 * SECOND });
    assert.equal(await client.waitForPurchase(purchase, { timers: fake.timers }), null);
    assert.deepEqual(fake.state.waits.slice(0, 5), [60, 120, 240, 300, 300].map((s) => s * SECOND));
    assert.equal(polls.at(-1).at, 45 * MINUTE, 'the last poll at 45 minutes');
    assert.equal(fake.state.now - fake.start, 45 * MINUTE + 10 * SECOND, 'ends with the last poll');
    assert.equal(fake.state.waits.at(-1), 80 * SECOND, 'the last wait is shortened to end at 45 minutes');
  });

  test('a poll the service cannot answer (network, timeout, 5xx) is retried at the next step', async () => {
    const fake = withStart(fakeTimers());
    const { client, polls } = sandbox(fake, (n) => {
      if (n === 1) throw new TypeError('fetch failed');
      if (n === 2) return jsonResponse(503, { code: 503, message: 'busy' });
      return [purchase];
    });
    const failures = [];
    const found = await client.waitForPurchase(purchase, {
      timers: fake.timers,
      onProgress: (e) => e.type === 'poll-failed' && failures.push(e.error),
    });
    assert.deepEqual(found, purchase);
    assert.equal(polls.length, 3);
    assert.deepEqual(failures.map((e) => e.code), [NETWORK_ERROR, 503]);
    assert.ok(failures.every((e) => e instanceof QualifyError));
  });

  test('a 4xx ends the wait with the service\'s error', async () => {
    const fake = withStart(fakeTimers());
    const { client, polls } = sandbox(fake, () => jsonResponse(401, { code: 401, message: 'the X-ClientId header is missing or invalid' }));
    await assert.rejects(client.waitForPurchase(purchase, { timers: fake.timers }), (e) => {
      assert.ok(e instanceof QualifyError);
      assert.equal(e.code, 401);
      assert.match(e.message, /X-ClientId/);
      return true;
    });
    assert.equal(polls.length, 1);
  });

  test('an abort signal stops the wait at once and leaves no timer behind', async () => {
    const fake = withStart(fakeTimers());
    const controller = new AbortController();
    const { client, polls } = sandbox(fake, () => []);
    const waiting = client.waitForPurchase(purchase, {
      timers: fake.timers,
      signal: controller.signal,
      onProgress: (e) => e.type === 'not-found' && e.attempt === 2 && controller.abort(),
    });
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.equal(polls.length, 2);
    assert.equal(fake.state.pending.size, 0);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(client.waitForPurchase(purchase, { timers: fake.timers, signal: aborted.signal }), { name: 'AbortError' });
  });

  test('real timers by default; a custom schedule and filters are used', async () => {
    let polls = 0;
    const client = new SandboxClient({
      sandboxApiUrl: 'http://127.0.0.1:9',
      accessToken: 'at_x',
      clientId: 'cl_x',
      fetch: async (url) => {
        polls += 1;
        assert.equal(url, 'http://127.0.0.1:9/purchases?purchased_since=2026-11-24T00%3A00%3A00Z');
        return jsonResponse(200, { purchases: polls < 2 ? [] : [purchase] });
      },
    });
    const started = Date.now();
    const found = await client.waitForPurchase((p) => p.id === 'pur_1', {
      schedule: { firstDelayMs: 20, maxDelayMs: 40, totalMs: 1000 },
      filters: { purchased_since: '2026-11-24T00:00:00Z' },
    });
    assert.deepEqual(found, purchase);
    assert.ok(Date.now() - started >= 55, 'waited 20 + 40 ms');
  });

  test('arguments are checked', async () => {
    const { client } = sandbox(withStart(fakeTimers()), () => []);
    await assert.rejects(client.waitForPurchase(42), TypeError);
    await assert.rejects(client.waitForPurchase(purchase, { schedule: { firstDelayMs: -1 } }), TypeError);
    await assert.rejects(client.waitForPurchase(purchase, { onProgress: 'yes' }), TypeError);
  });
});

describe('array filters in the bracket convention (API spec 4.5)', () => {
  test('an array is name[] once per value; anything else is one string', () => {
    assert.equal(encodeQuery({ states: ['redeemable', 'redeemed'] }), '?states[]=redeemable&states[]=redeemed');
    assert.equal(encodeQuery({ states: 'redeemable,redeemed' }), '?states=redeemable%2Credeemed');
    assert.equal(encodeQuery({ ids: ['a&b', 'c d'], limit: 5, skip: undefined, none: null }), '?ids[]=a%26b&ids[]=c%20d&limit=5');
    assert.equal(encodeQuery({}), '');
    assert.throws(() => encodeQuery({ states: [] }), /states must not be an empty array/);
  });

  test('listRewards({ states }) sends states[] and the consumer API headers', async () => {
    const seen = [];
    const client = new SandboxClient({
      sandboxApiUrl: 'http://127.0.0.1:9/',
      accessToken: 'at_x',
      clientId: 'cl_x',
      fetch: async (url, init) => {
        seen.push({ url, init });
        return jsonResponse(200, { rewards: [{ id: 'rw_1' }] });
      },
    });
    assert.deepEqual(await client.listRewards({ states: ['redeemable', 'redeemed'] }), [{ id: 'rw_1' }]);
    assert.equal(seen[0].url, 'http://127.0.0.1:9/rewards?states[]=redeemable&states[]=redeemed');
    assert.deepEqual(seen[0].init.headers, {
      Authorization: 'Bearer at_x',
      'X-ClientId': 'cl_x',
      'Accept-Version': 'v4.0',
      Accept: 'application/json',
    });
    assert.equal(seen[0].init.method, 'GET');
  });
});

describe('matching a purchase', () => {
  test('amounts by decimal value, *_at fields as instants, other fields exactly', () => {
    const matches = purchaseMatcher({ amount: 12.5, purchased_at: '2026-11-24T13:00:00Z', user_id: 'u_1001' });
    assert.ok(matches(purchase));
    assert.ok(purchaseMatcher({ amount: '012.500' })(purchase));
    assert.ok(!purchaseMatcher({ amount: '12.51' })(purchase));
    assert.ok(!purchaseMatcher({ purchased_at: '2026-11-24T08:00:00Z' })(purchase));
    assert.ok(!purchaseMatcher({ user_id: 'u_1002' })(purchase));
    assert.ok(purchaseMatcher({ location_id: undefined })(purchase), 'undefined fields are ignored');
    assert.ok(purchaseMatcher({ amount: '0' })({ amount: '0.00' }));
    assert.ok(purchaseMatcher({ amount: '-0.5' })({ amount: '-.50' }));
    assert.throws(() => purchaseMatcher(null), TypeError);
  });
});
