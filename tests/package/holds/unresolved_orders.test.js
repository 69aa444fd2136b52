// An order placed before the guest's account could be read (its owner not known yet: queued with
// the merchant key and token it was placed with) holds its offer for the guest whose credentials
// placed it, at once, before any replay adopts it: qualify and explain do not offer it, checkout
// does not promise it again, in the hybrid that placed it and in another on the same outbox (a
// second tab). Through the public API against the real local service; the link drops every
// account read, then every basket's answer (an attempt that may have reached the service: the
// order keeps its offer), then heals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { credentialsOf, root, waitFor } from '../../service/harness.js';
import { guestFolderOf } from '../../../web/offline/orders/outbox/file_outbox_entry.js';

import { clientOf, latte, lq, qualifierOptions, scratch, service, startServiceAgain, stopService, useOrderService } from '../orders/order_service.js';

const ALEX = 'u_1001';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
// Queued before its owner was known: an owner [null, null, <SHA-256 of the merchant key and token>].
const unresolved = (order) => JSON.parse(order.owner).slice(0, 2).every((part) => part === null);
const offers = (answer) => answer.rewards.some((r) => r.id === FREE_LATTE.id);
const codesOf = (explain) => explain.entries.find((e) => e.id === FREE_LATTE.id).reasons.map((r) => r.code);

useOrderService('unresolved-holds');

test('an order queued before the account was read holds its offer for the guest whose credentials placed it, in every hybrid on the outbox', { timeout: 60_000 }, async () => {
  // The link: 'accounts' drops account reads, 'baskets' drops baskets' answers (the request may
  // have reached the service, no answer came back), 'up' lets everything through.
  let link = 'accounts';
  const fetch = (url, init) => {
    const account = new URL(url).pathname === '/api/account';
    if ((link === 'accounts' && (account || new URL(url).pathname === '/api/baskets')) || (link === 'baskets' && !account)) {
      return Promise.reject(new TypeError('fetch failed: the link dropped it'));
    }
    return globalThis.fetch(url, init);
  };
  const outbox = lq.memoryOrderOutbox();
  const make = () => new lq.HybridQualifier({ client: clientOf(ALEX, { fetch }), outbox, qualifierOptions, offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 } });
  const first = make();
  let second = null;
  try {
    const placed = await first.checkout(latte, { offer: FREE_LATTE, basketId: 'before-read-1' });
    assert.equal(placed.status, 'queued');
    assert.equal(placed.discount, null, 'it may have been billed with the latte: unknown');
    const [queued] = outbox.list();
    assert.ok(unresolved(queued), queued.owner);
    assert.deepEqual([queued.basketId, queued.offer], ['before-read-1', FREE_LATTE], 'queued before its owner was known, with its offer');

    link = 'baskets'; // the account can be read now; baskets still get no answer
    second = make();
    for (const [name, hybrid] of [['the hybrid that placed it', first], ['another on the outbox', second]]) {
      assert.ok(!offers(await hybrid.qualify(latte)), `${name} does not offer the latte`);
      assert.deepEqual(codesOf(await hybrid.explain(latte)), ['PENDING_ORDER'], name);
      assert.equal(hybrid.diagnostics().holds.pendingOrders, 1, name);
    }
    assert.deepEqual(outbox.list().filter(unresolved).map((o) => o.basketId), ['before-read-1'], 'not adopted yet: counted as it is');
    const again = await second.checkout(latte, { offer: FREE_LATTE, basketId: 'after-read-1' });
    assert.deepEqual([again.status, again.discount, again.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');

    link = 'up';
    const outcomes = await first.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]).sort(), [['after-read-1', 'billed', '0.00'], ['before-read-1', 'billed', '4.75']]);
  } finally {
    first.dispose();
    second?.dispose();
  }
});

// The orders the real file outbox hands out by owner (listOwner(): what a decision reads; list(),
// every order on the device, is the replay's), counted by owner.
function countedOutbox(outbox) {
  const listed = new Map();
  const counted = {
    ...outbox,
    listOwner: async (owner) => {
      const orders = await outbox.listOwner(owner);
      for (const order of orders) listed.set(order.owner, (listed.get(order.owner) ?? 0) + 1);
      return orders;
    },
  };
  return { counted, listed };
}

test('a guest\'s decisions read the orders queued before accounts were read with that guest\'s credentials only, never every walk-in\'s', { timeout: 120_000 }, async () => {
  const outbox = lq.fileOrderOutbox({ directory: path.join(scratch.dir, 'walk-ins') });
  const WALK_INS = 20;
  // During an outage, 20 walk-ins check out before their accounts could ever be read (tokens this kiosk never read an account with).
  await stopService();
  try {
    for (let i = 0; i < WALK_INS; i += 1) {
      const walkIn = new lq.HybridQualifier({ client: clientOf(ALEX, { accessToken: `walk-in-token-${i}` }), outbox, qualifierOptions, backoff: { initialMs: 600_000 } });
      try {
        assert.equal((await walkIn.checkout(latte, { basketId: `walk-in-${i}` })).status, 'queued');
      } finally {
        walkIn.dispose();
      }
    }
  } finally {
    await startServiceAgain();
  }
  assert.equal((await outbox.list()).filter(unresolved).length, WALK_INS);
  const { counted, listed } = countedOutbox(outbox);
  const ANY_COFFEE = { kind: 'reward', id: 'rw_1002_any_coffee' };
  const blair = new lq.HybridQualifier({ client: clientOf('u_1002'), outbox: counted, qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    assert.ok((await blair.qualify(latte)).rewards.some((r) => r.id === ANY_COFFEE.id));
    const billed = await blair.checkout(latte, { offer: ANY_COFFEE, basketId: 'walk-ins-blair-1' });
    assert.deepEqual([billed.status, billed.discount], ['billed', '4.75']);
    assert.equal((await blair.pendingOrders()).length, 0);
  } finally {
    blair.dispose();
  }
  assert.deepEqual([...listed.keys()].filter((owner) => JSON.parse(owner)[0] === null), [], `the walk-ins' orders were read: ${JSON.stringify([...listed])}`);
});

// A child replaying a file outbox as the guest `token` (a HybridQualifier): it flushes once before
// its account is read (its sends fail), then reads the account and flushes again; that send prints
// "sending" and waits for a line on stdin. Prints { settled } at the end.
const replayer = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const [baseUrl, directory] = process.argv.slice(1);
  let mode = 'down';
  const fetch = async (url, init) => {
    if (url.endsWith('/api/baskets')) {
      if (mode === 'down') throw new TypeError('fetch failed: not yet');
      console.log('sending');
      await new Promise((resolve) => process.stdin.once('data', resolve));
    }
    return globalThis.fetch(url, init);
  };
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, fetch, timeoutMs: 60_000 });
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory }), backoff: { initialMs: 600_000 }, onOrderSettled: (order) => settled.push(order.basketId) });
  await hybrid.flush(); // before its account is read: sent as it is (its send fails), not adopted
  mode = 'up';
  await hybrid.ready();
  await hybrid.flush(); // adopted as Casey's, then sent
  hybrid.dispose();
  console.log(JSON.stringify({ settled }));
  process.exit(0);
`;

test('an order adopted by its guest has its turn under that guest\'s lock: another process replaying the guest waits, and it is settled once', { timeout: 120_000 }, async () => {
  const directory = path.join(scratch.dir, 'adopted');
  const { token, key } = credentialsOf('u_1003');
  // Casey's first checkout, before her account could ever be read, and before any basket is answered.
  const down = (url) => Promise.reject(new TypeError(`fetch failed: the link dropped ${new URL(url).pathname}`));
  const first = new lq.HybridQualifier({ client: clientOf('u_1003', { fetch: down }), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    assert.equal((await first.checkout(latte, { basketId: 'adopted-1' })).status, 'queued');
  } finally {
    first.dispose();
  }
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', replayer(index, token, key), service.url, directory], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => { out += chunk; });
  proc.stderr.on('data', (chunk) => { err += chunk; });
  const closed = new Promise((resolve) => proc.once('close', resolve));
  const settled = [];
  let other = null;
  try {
    assert.ok(await waitFor(() => out.includes('sending') || proc.exitCode !== null, 60_000, 20));
    assert.ok(out.includes('sending'), `the child sends: ${out} ${err}`);
    // The child sends the order it adopted as Casey's, holding Casey's lock (not only the lock of
    // the orders placed with her token before her account was read).
    const lock = path.join(directory, 'locks', `${await guestFolderOf(JSON.stringify(['m_harbor_coffee', 'u_1003']))}.lock`);
    let holder = null;
    try {
      holder = JSON.parse(readFileSync(path.join(lock, 'holder.json'), 'utf8'));
    } catch (e) {
      holder = { error: e.code, locks: readdirSync(path.join(directory, 'locks')) };
    }
    assert.equal(holder.pid, proc.pid, `the child holds Casey's lock while it sends her adopted order: ${JSON.stringify(holder)}`);
    // Another process of Casey's replays meanwhile: it waits for the lock, then finds the order decided.
    other = new lq.HybridQualifier({ client: clientOf('u_1003'), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 },
      onOrderSettled: (order) => settled.push(order.basketId) });
    const flushed = other.flush();
    proc.stdin.write('go\n');
    await flushed;
  } finally {
    proc.stdin.end();
    await closed;
    other?.dispose();
  }
  const child = JSON.parse(out.trim().split('\n').at(-1));
  assert.deepEqual([...child.settled, ...settled], ['adopted-1'], 'settled once, by the process that sent it');
});
