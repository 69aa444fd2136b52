// Issues 28 and 34, a lock safe to lose and held per guest, with real processes on one file outbox
// and the real service: a replayer stopped (SIGSTOP) while it sends loses the lock of its guest's
// orders once its lease (staleMs) has passed without its heartbeat, alive on this host or on
// another (here: its own UTS namespace, `unshare -u`, with another host name); the new holder
// bills and settles the order, and the old one, resumed, neither re-writes it nor reports it
// settled: each order is reported settled exactly once. A checkout waits for such a holder at most
// the lease when it holds the same guest's lock, not at all for another guest's, and never behind
// a replay of other guests' orders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { credentialsOf, root, waitFor } from '../../../service/harness.js';
import { clientOf, latte, lq, orderFiles, qualifierOptions, scratch, service, startServiceAgain, useOrderService } from '../order_service.js';
import { child } from './node_child.js';

const STALE_MS = 600;
const canUnshare = spawnSync('unshare', ['-u', 'true']).status === 0;

useOrderService('lost-lock');

// A child with a HybridQualifier on a file outbox (staleMs STALE_MS). 'checkout': checks out one
// order; its POST /api/baskets prints "sending" and waits for a line on stdin before it goes.
// 'replay': flushes until the outbox holds no order. Both print { sends, settled, outcome }.
const script = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const fs = await import('node:fs');
  const [mode, baseUrl, directory, basketId] = process.argv.slice(1);
  let sends = 0;
  const go = () => new Promise((resolve) => process.stdin.once('data', resolve));
  const fetch = async (url, init) => {
    if (url.endsWith('/api/baskets')) {
      sends += 1;
      if (mode === 'checkout') {
        console.log('sending');
        await go();
      }
    }
    return globalThis.fetch(url, init);
  };
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, fetch, timeoutMs: 120_000 });
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory, staleMs: ${STALE_MS} }),
    backoff: { initialMs: 600_000 }, onOrderSettled: (order) => settled.push(order.basketId) });
  await hybrid.ready();
  let outcome = null;
  if (mode === 'checkout') {
    outcome = await hybrid.checkout(${JSON.stringify(latte)}, { basketId });
  } else {
    const deadline = Date.now() + 60_000;
    const pending = () => fs.readdirSync(directory, { recursive: true }).filter((name) => !name.startsWith('quarantine') && name.endsWith('.order.json')).length;
    while (pending() > 0 && Date.now() < deadline) await hybrid.flush();
  }
  hybrid.dispose();
  console.log(JSON.stringify({ sends, settled, outcome }));
  process.exit(0);
`;


const ordersIn = (directory) => orderFiles(directory);
// The lock directory has not been touched for `ms` (its holder's heartbeat stopped).

// Casey's checkout in a child, stopped (SIGSTOP) while it sends; with `replay` (default), a second
// child that replays the same outbox.
async function stoppedWhileSending(directory, basketId, { replay = true, otherHost = false } = {}) {
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf('u_1003');
  const code = script(index, token, key);
  const first = child(code, ['checkout', service.url, directory, basketId], { otherHost });
  await first.printed('sending');
  assert.match(first.output(), /sending/, 'the first replayer is sending');
  first.proc.kill('SIGSTOP');
  return { first, second: replay ? child(code, ['replay', service.url, directory]) : null };
}

for (const otherHost of [false, true]) {
  const where = otherHost ? 'on another host' : 'alive on this host';
  test(`a replayer ${where} stopped past its lease loses the lock: the new holder bills and settles, the old one writes and reports nothing`, { timeout: 180_000, skip: otherHost && !canUnshare && 'needs unshare -u (root) for a second host name' }, async () => {
    const directory = path.join(scratch.dir, otherHost ? 'other-host' : 'same-host');
    const basketId = otherHost ? 'lock-other-host-1' : 'lock-same-host-1';
    const { first, second } = await stoppedWhileSending(directory, basketId, { otherHost });
    let b;
    try {
      b = await second.done; // it takes the lock over once the stopped holder is silent past its lease
    } finally {
      first.proc.kill('SIGCONT');
    }
    assert.deepEqual(b.settled, [basketId], 'the new holder settles it');
    assert.deepEqual(ordersIn(directory), []);
    first.proc.stdin.write('go\n');
    const a = await first.done;
    assert.deepEqual(a.settled, [], 'the old holder reports nothing settled');
    assert.equal(a.outcome.status, 'billed', "the old holder's guest is told the service's decision");
    assert.deepEqual(ordersIn(directory), [], 'the settled order is not written back');
    // The next replay finds nothing to settle again.
    const index = pathToFileURL(path.join(root, 'web/index.js')).href;
    const { token, key } = credentialsOf('u_1003');
    const c = await child(script(index, token, key), ['replay', service.url, directory]).done;
    assert.deepEqual(c.settled, []);
  });
}

// Resolves `promise`'s value, or 'still waiting' when it has not settled once `bound` ms passed (a
// bound on the wait, not a timing: a checkout that waits for another's lock never settles here).
const within = (promise, bound) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('still waiting'), bound).unref())]);

test('a checkout waits for a stopped holder of its guest\'s lock at most its lease, and not at all when the holder holds another guest\'s', { timeout: 180_000 }, async () => {
  const directory = path.join(scratch.dir, 'checkout-lease');
  const { first } = await stoppedWhileSending(directory, 'lease-held-1', { replay: false });
  const settled = [];
  const onOrderSettled = (order) => settled.push(order.basketId);
  const make = (userId) => new lq.HybridQualifier({ client: clientOf(userId), outbox: lq.fileOrderOutbox({ directory, staleMs: STALE_MS }), qualifierOptions, backoff: { initialMs: 600_000 }, onOrderSettled });
  const other = make('u_1002');
  const same = make('u_1003');
  let a;
  try {
    // Another guest's checkout: the stopped process holds only u_1003's lock.
    const theirs = await within(other.checkout(latte, { basketId: 'lease-other-1' }), 30_000);
    assert.equal(theirs.status, 'billed', 'another guest never waits for it');
    // The same guest's checkout: the lock is taken over once the stopped holder is silent past its lease.
    const mine = await within(same.checkout(latte, { basketId: 'lease-same-1' }), 30_000);
    assert.equal(mine.status, 'billed', 'bounded by the lease');
    // The stopped holder's order is replayed by the new holder (in the background, or now), once.
    await same.flush();
    assert.ok(settled.includes('lease-held-1'));
  } finally {
    first.proc.kill('SIGCONT');
    first.proc.stdin.write('go\n');
    a = await first.done;
    other.dispose();
    same.dispose();
  }
  assert.equal(a.outcome.status, 'billed', 'its guest is told the service\'s decision (the same basket, billed once)');
  assert.deepEqual(a.settled, [], 'the old holder reports nothing settled');
  assert.deepEqual(settled.sort(), ['lease-held-1', 'lease-other-1', 'lease-same-1']);
  assert.deepEqual(ordersIn(directory), []);
});

test('a checkout never waits behind a replay of other guests\' orders', { timeout: 120_000 }, async () => {
  const outbox = lq.memoryOrderOutbox();
  // Casey's orders queued while the service was down.
  const casey = new lq.HybridQualifier({ client: clientOf('u_1003'), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
  await casey.ready();
  await service.stop();
  try {
    for (let i = 1; i <= 3; i += 1) assert.equal((await casey.checkout(latte, { basketId: `waiting-${i}` })).status, 'queued');
  } finally {
    casey.dispose();
    await startServiceAgain();
  }
  // Blair's kiosk replays every order on the device; Casey's sends are held back until released.
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  let held = 0;
  const fetch = async (url, init) => {
    if (String(url).endsWith('/api/baskets') && String(init?.body).includes('waiting-')) {
      held += 1;
      await released;
    }
    return globalThis.fetch(url, init);
  };
  const settled = [];
  const blair = new lq.HybridQualifier({ client: clientOf('u_1002', { fetch }), outbox, qualifierOptions, backoff: { initialMs: 600_000 },
    onOrderSettled: (order, outcome) => settled.push([order.basketId, outcome.status]) });
  try {
    await blair.ready();
    const replay = blair.flush(); // (or the start-up replay, already under way)
    assert.ok(await waitFor(() => held === 1, 30_000, 10), 'the replay is sending Casey\'s first order');
    const outcome = await within(blair.checkout(latte, { basketId: 'not-behind-1' }), 30_000);
    assert.equal(outcome.status, 'billed', 'decided while the replay waits for the service');
    assert.equal(held, 1);
    release();
    await replay;
    assert.deepEqual(settled, [['not-behind-1', 'billed'], ['waiting-1', 'billed'], ['waiting-2', 'billed'], ['waiting-3', 'billed']]);
    assert.deepEqual(outbox.list(), []);
  } finally {
    release();
    blair.dispose();
  }
});
