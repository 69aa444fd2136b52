// Offline kiosks in Node, against the real service over 127.0.0.1 and a real SQLite file:
// snapshots that outlive outages (provisional past maxAgeMs, 503 past maxStaleMs, never removed
// by a failed refresh, refreshes backing off), conditional refresh (ETag / 304), and checkout
// through a file outbox: billed, refused, queued while the service is down and replayed exactly
// once when it is back, a lost answer (a TCP proxy that drops it), a replay the service refuses,
// and a process restart between queueing and replay.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { account, basket, credentialsOf, root, waitFor } from '../../service/harness.js';
import { clientOf, latte, lq, orderFiles, qualifierOptions, scratch, service, startServiceAgain, stopService, useOrderService } from './order_service.js';
import { startLossyProxy } from '../../service/http/lossy_proxy.js';

const ALEX = 'u_1001';
const BLAIR = 'u_1002';

/** globalThis.fetch that records the status of every GET /api/account. */
function recordingFetch() {
  const statuses = [];
  const fetchImpl = async (url, init) => {
    const response = await globalThis.fetch(url, init);
    if (url.endsWith('/api/account')) statuses.push(response.status);
    return response;
  };
  return { fetchImpl, statuses };
}

const balanceOf = async (userId) => Number((await account(service, userId)).body.points[0].balance);
const rewardState = async (userId, id) => (await account(service, userId)).body.rewards.find((r) => r.id === id).state;

useOrderService('offline');

describe('snapshots that outlive outages', () => {
  test('past maxAgeMs answers are provisional with their age; past maxStaleMs a 503 naming it; the stored snapshot stays', async () => {
    const directory = path.join(scratch.dir, 'stale-snapshots');
    let now = 1_000_000;
    const options = () => ({
      client: clientOf(ALEX),
      store: lq.fileSnapshotStore({ directory }),
      outbox: lq.memoryOrderOutbox(),
      now: () => now,
      maxAgeMs: 60_000,
      maxStaleMs: 3_600_000,
      qualifierOptions,
    });
    const first = new lq.HybridQualifier(options());
    const fresh = await first.qualify(latte);
    assert.equal(fresh.provisional, undefined);
    first.dispose();
    const [file] = readdirSync(directory);
    const stored = readFileSync(path.join(directory, file), 'utf8');
    assert.match(JSON.parse(stored).etag, /^"[0-9a-f]{32}-[0-9a-f]+"$/);

    await stopService();
    try {
      now += 10 * 60_000; // 10 minutes: past maxAgeMs, within maxStaleMs
      const second = new lq.HybridQualifier(options());
      const answer = await second.qualify(latte);
      assert.equal(answer.provisional, true);
      assert.equal(answer.snapshotAgeMs, 10 * 60_000);
      assert.deepEqual(answer.rewards.map((r) => r.id), fresh.rewards.map((r) => r.id));
      const confirmed = await second.confirm(latte);
      assert.equal(confirmed.provisional, true);
      assert.equal(confirmed.snapshotAgeMs, 10 * 60_000);
      await assert.rejects(second.refresh(), { code: lq.NETWORK_ERROR });
      assert.equal((await second.qualify(latte)).provisional, true, 'a failed refresh keeps the snapshot in use');
      assert.equal(readFileSync(path.join(directory, file), 'utf8'), stored, 'nor does it touch the stored one');

      now += 2 * 3_600_000; // past maxStaleMs
      await assert.rejects(second.qualify(latte), (e) => {
        assert.equal(e.code, 503);
        assert.match(e.message, /account snapshot is 2 h 10 min old, older than maxStaleMs \(1 h\)/);
        return true;
      });
      second.dispose();
      const third = new lq.HybridQualifier(options());
      await assert.rejects(third.qualify(latte), { code: 503, message: /2 h 10 min old/ });
      third.dispose();
      assert.deepEqual(readdirSync(directory), [file]);
      assert.equal(readFileSync(path.join(directory, file), 'utf8'), stored);

      // maxStaleMs: Infinity keeps answering, however old.
      now += 30 * 24 * 3_600_000;
      const forever = new lq.HybridQualifier({ ...options(), maxStaleMs: Infinity });
      const old = await forever.qualify(latte);
      assert.equal(old.provisional, true);
      assert.ok(old.snapshotAgeMs > 30 * 24 * 3_600_000);
      forever.dispose();
    } finally {
      await startServiceAgain();
    }
  });

  test('failed refreshes back off (capped exponential with jitter): no storm when the service is down', async () => {
    await stopService();
    try {
      let now = 0;
      const { fetchImpl, statuses } = recordingFetch();
      let attempts = 0;
      let failed = 0;
      const counting = async (url, init) => {
        attempts += 1;
        try {
          return await fetchImpl(url, init);
        } finally {
          failed += 1;
        }
      };
      const snapshot = JSON.parse(readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8'));
      const hybrid = new lq.HybridQualifier({
        client: clientOf(ALEX, { fetch: counting }),
        snapshot,
        outbox: lq.memoryOrderOutbox(),
        now: () => now,
        maxAgeMs: 1_000,
        qualifierOptions,
        backoff: { initialMs: 10_000, maxMs: 40_000, random: () => 1 },
      });
      await hybrid.qualify(latte);
      now = 5_000; // expired: the next answers start a background refresh, which fails
      // A refresh in flight or a failure's wait both keep further answers from starting another;
      // once the wait is over, the next answer starts one (as soon as the failed one has ended).
      const waitAttempts = async (n) => {
        const reached = await waitFor(async () => {
          await hybrid.qualify(latte);
          return attempts >= n;
        }, 20_000, 10);
        assert.ok(reached, `attempt ${n} started`);
        // Its failure (and the wait it sets, from the clock at that moment) before the clock moves.
        assert.ok(await waitFor(() => failed >= n, 20_000, 10), `attempt ${n} failed`);
      };
      await waitAttempts(1);
      for (let i = 0; i < 50; ++i) await hybrid.qualify(latte);
      await waitFor(() => false, 200, 50); // let any wrongly started refresh reach fetch
      assert.equal(attempts, 1, 'one attempt, then a wait of 10 s');
      now = 5_000 + 10_000;
      await waitAttempts(2);
      now += 10_000; // the second wait is 20 s
      for (let i = 0; i < 20; ++i) await hybrid.qualify(latte);
      await waitFor(() => false, 200, 50);
      assert.equal(attempts, 2);
      now += 10_000;
      await waitAttempts(3);
      assert.deepEqual(statuses, [], 'no answer ever came');
      hybrid.dispose();
    } finally {
      await startServiceAgain();
    }
  });
});

describe('conditional refresh', () => {
  test('an unchanged account costs one 304: no reload, no store write; a change brings a new ETag', async () => {
    const { fetchImpl, statuses } = recordingFetch();
    const memory = lq.memorySnapshotStore();
    let saves = 0;
    const store = { load: memory.load, remove: memory.remove, save: (key, entry) => { saves += 1; return memory.save(key, entry); } };
    const hybrid = new lq.HybridQualifier({ client: clientOf(BLAIR, { fetch: fetchImpl }), store, outbox: lq.memoryOrderOutbox(), qualifierOptions });
    try {
      await hybrid.ready();
      const loaded = hybrid.currentSnapshot();
      // The default store key: the full SHA-256 of the client's credentials (never a short hash).
      const { baseUrl, merchantKey, accessToken } = await clientOf(BLAIR).credentials();
      const key = `snapshot:${createHash('sha256').update(JSON.stringify([baseUrl, merchantKey, accessToken])).digest('hex')}`;
      const etag = memory.load(key).etag;
      assert.equal(saves, 1);
      assert.equal(await hybrid.refresh(), loaded);
      assert.equal(await hybrid.refresh(), loaded);
      assert.deepEqual(statuses, [200, 304, 304]);
      assert.equal(saves, 1, 'a 304 writes nothing');
      assert.equal(hybrid.currentSnapshot(), loaded, 'and reloads nothing');

      // Blair spends 200 beans elsewhere: the account changes, so does its ETag.
      const billed = await basket(service, BLAIR, { ...latte, id: 'etag-change-1', state: 'billed', points_products: ['pp_two_off'] });
      assert.equal(billed.status, 201);
      const changed = await hybrid.refresh();
      assert.notEqual(changed, loaded);
      assert.equal(statuses.at(-1), 200);
      assert.equal(saves, 2);
      assert.notEqual(memory.load(key).etag, etag);
      assert.equal(Number(changed.points[0].balance), Number(loaded.points[0].balance) - 200);
    } finally {
      hybrid.dispose();
    }
  });
});

describe('checkout through the outbox', () => {
  test('online: billed with the service\'s discount; a 4xx is refused with its message; options are checked', async () => {
    const settled = [];
    const hybrid = new lq.HybridQualifier({ client: clientOf('u_1003'), outbox: lq.memoryOrderOutbox(), qualifierOptions, onOrderSettled: (order, outcome) => settled.push({ order, outcome }) });
    try {
      const outcome = await hybrid.checkout(latte, { offer: null });
      assert.equal(outcome.status, 'billed');
      assert.match(outcome.basketId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(outcome.discount, '0.00');
      assert.equal(settled.length, 1);
      assert.deepEqual(settled[0].outcome, outcome);

      const refused = await hybrid.checkout(latte, { offer: { kind: 'reward', id: 'rw_not_there' }, basketId: 'casey-refused-1' });
      assert.deepEqual(refused, { status: 'refused', basketId: 'casey-refused-1', discount: '0.00', message: 'reward rw_not_there does not qualify for this basket' });
      assert.deepEqual(await hybrid.pendingOrders(), []);

      await assert.rejects(hybrid.checkout(latte, { offer: { kind: 'coupon', id: 'x' } }), { code: 400, message: /offer must be null or/ });
      await assert.rejects(hybrid.checkout(latte, { basketId: '' }), { code: 400, message: /basketId/ });
      await assert.rejects(hybrid.checkout({ ...latte, id: 'x' }), { code: 400, message: /must not carry id/ });
      assert.throws(() => new lq.HybridQualifier({ client: clientOf(ALEX), offline: { redeem: 'always' } }), /offline.redeem/);
      assert.throws(() => new lq.HybridQualifier({ client: clientOf(ALEX), offline: { redeem: 'provisional', maxDiscount: '-1' } }), /maxDiscount/);
      assert.throws(() => new lq.HybridQualifier({ client: clientOf(ALEX), maxAgeMs: 10, maxStaleMs: 5 }), /maxStaleMs/);
      assert.throws(() => new lq.HybridQualifier({ client: clientOf(ALEX), outbox: {} }), /outbox must have list/);
    } finally {
      hybrid.dispose();
    }
  });

  test('a lost answer: the order ends billed, with exactly one debit', async () => {
    const proxy = await startLossyProxy(service.url);
    const before = await balanceOf(BLAIR);
    const settled = [];
    const hybrid = new lq.HybridQualifier({ client: clientOf(BLAIR, { baseUrl: proxy.url }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push(outcome) });
    try {
      proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
      const outcome = await hybrid.checkout(latte, { offer: { kind: 'points_product', id: 'pp_two_off' } });
      assert.equal(proxy.state.dropped, 1, 'the service answered; the answer was lost');
      assert.equal(outcome.status, 'queued');
      assert.doesNotMatch(outcome.message, /nothing was charged/i);
      assert.equal(await balanceOf(BLAIR), before - 200, 'the service did bill it');
      const pending = await hybrid.pendingOrders();
      assert.deepEqual(pending.map((o) => o.basketId), [outcome.basketId]);

      const replayed = await hybrid.flush();
      assert.deepEqual(replayed, [{ status: 'billed', basketId: outcome.basketId, discount: '2.00', message: 'Billed by the loyalty service.', offer: { kind: 'points_product', id: 'pp_two_off' } }]);
      assert.deepEqual(settled, replayed);
      assert.equal(await balanceOf(BLAIR), before - 200, 'exactly one debit');
      assert.deepEqual(await hybrid.pendingOrders(), []);
      assert.deepEqual(await hybrid.flush(), [], 'nothing is sent twice');
    } finally {
      hybrid.dispose();
      await proxy.close();
    }
  });

  test('service down: queued at full price (offline policy "never"), replayed exactly once when it is back', async () => {
    const directory = path.join(scratch.dir, 'outbox-never');
    const before = await balanceOf(ALEX);
    await stopService();
    let hybrid;
    let outcome;
    try {
      hybrid = new lq.HybridQualifier({ client: clientOf(ALEX), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 } });
      outcome = await hybrid.checkout(latte, { offer: { kind: 'points_product', id: 'pp_two_off' }, basketId: 'alex-down-1' });
      assert.equal(outcome.status, 'queued');
      assert.equal(outcome.discount, '0.00');
      assert.match(outcome.message, /queued at full price/);
      assert.doesNotMatch(outcome.message, /nothing was charged/i);
      const second = await hybrid.checkout(latte, { offer: null, basketId: 'alex-down-2' });
      assert.equal(second.status, 'queued');
      assert.deepEqual((await hybrid.pendingOrders()).map((o) => o.basketId), ['alex-down-1', 'alex-down-2']);
      assert.equal(orderFiles(directory, { tmp: true }).filter((f) => f.endsWith('.tmp')).length, 0, 'no temporary file left');
    } finally {
      await startServiceAgain();
    }
    const outcomes = await hybrid.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['alex-down-1', 'billed', '0.00'], ['alex-down-2', 'billed', '0.00']]);
    assert.deepEqual(await hybrid.flush(), []);
    assert.equal(await balanceOf(ALEX), before, 'queued at full price: no debit');
    assert.deepEqual(orderFiles(directory), []);
    hybrid.dispose();
  });

  test('offline policy "provisional": queued with the offer; an offer refused on replay is billed without it under a derived id, once', async () => {
    const directory = path.join(scratch.dir, 'outbox-provisional');
    const settled = [];
    let hybrid;
    const proxy = await startLossyProxy(() => service.url);
    const options = { outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push({ order, outcome }), storeCredentials: false };
    hybrid = new lq.HybridQualifier({ client: clientOf(ALEX), ...options });
    await hybrid.ready();
    await stopService();
    let queued;
    try {
      queued = await hybrid.checkout(latte, { offer: { kind: 'reward', id: 'rw_free_latte' }, basketId: 'alex-provisional-1' });
      assert.equal(queued.status, 'queued');
      assert.equal(queued.discount, '4.75', 'the local engine\'s discount, within maxDiscount');
      assert.deepEqual((await hybrid.pendingOrders())[0].body.rewards, ['rw_free_latte']);
    } finally {
      await startServiceAgain();
    }
    // Meanwhile the reward is used at another till.
    const elsewhere = await basket(service, ALEX, { ...latte, id: 'other-till-free-latte', state: 'billed', rewards: ['rw_free_latte'] });
    assert.equal(elsewhere.status, 201);
    // Alex comes back to a kiosk that reaches the service through another URL (a proxy). The
    // first attempt of the sale without the offer loses its answer: it stays that order.
    hybrid.dispose();
    hybrid = new lq.HybridQualifier({ client: clientOf(ALEX, { baseUrl: proxy.url }), ...options });
    await hybrid.ready();
    proxy.dropAnswers(1, /without-offer/);
    // Replays (the start-up one, then these) until the sale is settled.
    assert.ok(await waitFor(async () => {
      await hybrid.flush();
      return settled.length > 0;
    }, 30_000, 10), 'settled');
    assert.equal(proxy.state.dropped, 1, 'the first attempt of the sale without the offer lost its answer');
    assert.equal(settled[0].order.attempts, 2, 'so it was sent again, same id, and billed once');
    const { outcome } = settled[0];
    const message = outcome.message;
    assert.deepEqual({ ...outcome, message: undefined }, {
      status: 'billed',
      basketId: 'alex-provisional-1~without-offer',
      originalBasketId: 'alex-provisional-1',
      discount: '0.00',
      offerRefused: { kind: 'reward', id: 'rw_free_latte', message: 'reward rw_free_latte does not qualify for this basket' },
      shortfall: '4.75',
      message: undefined,
      ...(Object.hasOwn(outcome, 'offer') ? { offer: null } : {}),
    });
    assert.match(message, /without the offer/);
    assert.match(message, /4\.75 off/);
    assert.equal(settled.length, 1, 'settled once, as the sale');
    assert.equal(settled[0].order.derivedFrom.basketId, 'alex-provisional-1');
    assert.deepEqual(await hybrid.pendingOrders(), [], 'decided, so not retried');
    // The sale is in the books: the derived basket is billed (a re-send answers what it billed).
    const recorded = await basket(service, ALEX, { ...latte, id: 'alex-provisional-1~without-offer', state: 'billed' });
    assert.equal(recorded.status, 200);
    assert.equal(recorded.body.state, 'billed');
    assert.equal(recorded.body.discount, '0.00');
    hybrid.dispose();
    await proxy.close();
  });

  test('a process restart between queueing and replay: the next process replays at start-up, exactly once', async () => {
    const directory = path.join(scratch.dir, 'outbox-restart');
    const index = pathToFileURL(path.join(root, 'web/index.js')).href;
    const { token, key } = credentialsOf(BLAIR);
    const script = `
      const lq = await import(${JSON.stringify(index)});
      const [mode, baseUrl, directory] = process.argv.slice(1);
      const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)} });
      const outbox = lq.fileOrderOutbox({ directory });
      if (mode === 'queue') {
        const hybrid = new lq.HybridQualifier({ client, outbox, backoff: { initialMs: 600_000 } });
        const outcome = await hybrid.checkout(${JSON.stringify(latte)}, { offer: { kind: 'points_product', id: 'pp_two_off' }, basketId: 'blair-restart-1' });
        hybrid.dispose();
        console.log(JSON.stringify(outcome));
      } else {
        const settled = new Promise((resolve) => {
          const hybrid = new lq.HybridQualifier({ client, outbox, onOrderSettled: (order, outcome) => { hybrid.dispose(); resolve(outcome); } });
        });
        console.log(JSON.stringify(await settled));
      }`;
    const run = (mode) => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, mode, service.url, directory], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => { out += c; });
      child.stderr.on('data', (c) => { err += c; });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(JSON.parse(out.trim().split('\n').at(-1)));
        else reject(new Error(`child ${mode} exited with ${code}: ${err}`));
      });
    });

    const before = await balanceOf(BLAIR);
    await stopService();
    let queued;
    try {
      queued = await run('queue');
    } finally {
      await startServiceAgain();
    }
    assert.equal(queued.status, 'queued');
    assert.equal(orderFiles(directory).length, 1, 'the order outlived its process');
    assert.ok(statSync(path.join(directory, orderFiles(directory)[0])).size > 0);
    const replayed = await run('replay');
    assert.deepEqual(replayed, { status: 'billed', basketId: 'blair-restart-1', discount: '0.00', message: 'Billed by the loyalty service.', offer: null });
    assert.deepEqual(orderFiles(directory), []);
    assert.equal(await balanceOf(BLAIR), before, 'queued at full price (policy "never"), billed once');
    assert.equal((await basket(service, BLAIR, { ...latte, id: 'blair-restart-1', state: 'billed' })).status, 200, 'the basket exists, billed');
  });
});

test('a lost answer, then another till moves the basket on: a 409 keeps the order queued, never refused', async () => {
  const user = 'u_1003';
  const proxy = await startLossyProxy(service.url);
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client: clientOf(user, { baseUrl: proxy.url }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled: (order, outcome) => settled.push(outcome) });
  try {
    proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
    const first = await hybrid.checkout(latte, { offer: null });
    assert.equal(proxy.state.dropped, 1, 'the service answered; the answer was lost');
    assert.equal(first.status, 'queued');
    // Another till completes the basket: possible only because the lost attempt billed it.
    const completed = await basket(service, user, { ...latte, id: first.basketId, state: 'completed' });
    assert.equal(completed.status, 200);
    assert.equal(completed.body.state, 'completed');

    // The next checkout bills its own order; the replay sends the first (409: completed cannot
    // become billed) and keeps it.
    const second = await hybrid.checkout(latte, { offer: null });
    assert.equal(second.status, 'billed');
    await hybrid.flush();
    const pending = await hybrid.pendingOrders();
    assert.deepEqual(pending.map((o) => o.basketId), [first.basketId]);
    assert.match(pending[0].lastError, /no answer, and the service now answers 409: basket .* is completed and cannot become billed/);
    assert.deepEqual(settled.map((o) => [o.basketId, o.status]), [[second.basketId, 'billed']], 'the first order is never settled as refused');

    const [again] = await hybrid.flush();
    assert.equal(again.status, 'queued');
    assert.equal(again.basketId, first.basketId);
    assert.match(again.message, /409/);
    assert.doesNotMatch(again.message, /nothing was charged/i);
    assert.equal((await hybrid.pendingOrders()).length, 1);
    assert.equal(settled.length, 1);
  } finally {
    hybrid.dispose();
    await proxy.close();
  }

  // Without an earlier attempt, a 409 is the service's refusal of this order: nothing was billed.
  const direct = new lq.HybridQualifier({ client: clientOf(user), outbox: lq.memoryOrderOutbox(), qualifierOptions });
  try {
    assert.equal((await basket(service, user, { ...latte, id: 'casey-voided-1', state: 'checkout' })).status, 201);
    assert.equal((await basket(service, user, { ...latte, id: 'casey-voided-1', state: 'voided' })).status, 200);
    const refused = await direct.checkout(latte, { offer: null, basketId: 'casey-voided-1' });
    assert.deepEqual(refused, { status: 'refused', basketId: 'casey-voided-1', discount: '0.00', message: 'basket casey-voided-1 is voided and cannot become billed' });
    assert.deepEqual(await direct.pendingOrders(), []);
  } finally {
    direct.dispose();
  }
});

test('the reward used by a replayed order is redeemed once', async () => {
  // Casey's welcome reward, billed through a lost answer, then replayed.
  const proxy = await startLossyProxy(service.url);
  const hybrid = new lq.HybridQualifier({ client: clientOf('u_1003', { baseUrl: proxy.url }), outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    const rewards = (await account(service, 'u_1003')).body.rewards.filter((r) => (r.state ?? 'redeemable') === 'redeemable');
    const local = await hybrid.qualify({ ...latte, subtotal: '40.00', items: [{ id: 'latte', price: '40.00', categories: ['coffee'] }] });
    const reward = local.rewards.find((r) => rewards.some((x) => x.id === r.id));
    assert.ok(reward, 'Casey has a reward that qualifies');
    proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
    const order = { ...latte, subtotal: '40.00', items: [{ id: 'latte', price: '40.00', categories: ['coffee'] }] };
    const first = await hybrid.checkout(order, { offer: { kind: 'reward', id: reward.id } });
    assert.equal(first.status, 'queued');
    const [replayed] = await hybrid.flush();
    assert.equal(replayed.status, 'billed');
    assert.notEqual(replayed.discount, '0.00', 'what the service billed: with the reward');
    assert.equal(await rewardState('u_1003', reward.id), 'redeemed');
  } finally {
    hybrid.dispose();
    await proxy.close();
  }
});
