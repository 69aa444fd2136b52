// An order billed with its offer leaves the outbox; the offer stays held, for every tab and process
// on that outbox, against every snapshot read before the billing: the outbox keeps a billing
// record of it (never an order: no list() returns it, no replay sends it). Through the public API
// against the real local service on its own clock (its snapshots' generated_at move, as a real
// service's), no hub: hybrid A bills Alex's free latte (online, or by replaying an order it
// queued), hybrid B on the same outbox, with a snapshot read before that billing and the service
// then cut, neither offers the latte (qualify, explain) nor promises it at checkout. In one process
// (two outbox objects on one directory: nothing shared in memory) and in two Node processes.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { credentialsOf, root, waitFor } from '../../service/harness.js';
import { clientOf, lq, orderFiles, scratch, service, startServiceAgain, stopService, useOrderService } from '../orders/order_service.js';
import { lineProcess } from './line_process.js';

const ALEX = 'u_1001';
const BLAIR = 'u_1002';
const CASEY = 'u_1003';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const ANY_COFFEE = { kind: 'reward', id: 'rw_1002_any_coffee' };
const ownerOf = (userId) => JSON.stringify(['m_harbor_coffee', userId]);
// The service runs on its own clock: the order is placed now.
const latteNow = () => ({
  redemption_venue: 'instore',
  order_timestamp: new Date().toISOString(),
  location_uid: 'harbor-downtown',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
});
const offers = (answer, offer) => answer.rewards.some((r) => r.id === offer.id);
const codesOf = (explain, offer) => explain.entries.find((e) => e.id === offer.id).reasons.map((r) => r.code);

useOrderService('billed-records', { ownClock: true });

const hybridOf = (userId, directory) =>
  new lq.HybridQualifier({ client: clientOf(userId), outbox: lq.fileOrderOutbox({ directory }), offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 } });

// The outbox's billing record of `basketId` once an account read after the billing gave it the service's time.
async function resolvedRecord(directory, userId, basketId) {
  const outbox = lq.fileOrderOutbox({ directory });
  return waitFor(async () => (await outbox.listBilled(ownerOf(userId))).find((r) => r.basketId === basketId && r.billedAt !== null), 20_000, 20);
}

test('two hybrids in one process, one file outbox, separate memory: the latte A billed online is neither offered nor promised by B, whose snapshot is older', { timeout: 120_000 }, async () => {
  const directory = path.join(scratch.dir, 'one-process');
  const b = hybridOf(ALEX, directory);
  const a = hybridOf(ALEX, directory);
  try {
    assert.ok(offers(await b.qualify(latteNow()), FREE_LATTE), 'B offers the latte before');
    const older = b.currentSnapshot().generated_at;
    const billed = await a.checkout(latteNow(), { offer: FREE_LATTE, basketId: 'a-online-1' });
    assert.deepEqual([billed.status, billed.discount], ['billed', '4.75']);
    assert.deepEqual(orderFiles(directory), [], 'the order left the outbox');
    const record = await resolvedRecord(directory, ALEX, 'a-online-1');
    assert.ok(record, 'the billing record got the service time of the read after the billing');
    assert.deepEqual(record.offer, FREE_LATTE);
    assert.ok(Date.parse(record.billedAt) > Date.parse(older), `billedAt ${record.billedAt} is after B's snapshot ${older}`);
    assert.deepEqual(await lq.fileOrderOutbox({ directory }).list(), [], 'never listed as an order');

    await stopService();
    try {
      assert.equal(b.currentSnapshot().generated_at, older, "B still answers from its snapshot read before the billing");
      assert.ok(b.currentSnapshot().rewards.some((r) => r.id === FREE_LATTE.id && r.state === 'redeemable'), 'which still lists the latte');
      assert.ok(!offers(await b.qualify(latteNow()), FREE_LATTE), 'B no longer offers it');
      assert.deepEqual(codesOf(await b.explain(latteNow()), FREE_LATTE), ['PENDING_ORDER']);
      const second = await b.checkout(latteNow(), { offer: FREE_LATTE, basketId: 'b-offline-1' });
      assert.deepEqual([second.status, second.discount, second.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');
      // A, whose snapshot was read after the billing, does not count it twice.
      assert.ok(!a.currentSnapshot().rewards.some((r) => r.id === FREE_LATTE.id && r.state === 'redeemable'));
      assert.equal(a.diagnostics().holds.billedSinceSnapshot, 0);
    } finally {
      await startServiceAgain();
    }
    const outcomes = await b.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['b-offline-1', 'billed', '0.00']]);
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('the latte A queued offline and billed by its replay stays held for B; the record is never replayed and an earlier reader leaves it alone', { timeout: 120_000 }, async () => {
  const directory = path.join(scratch.dir, 'replayed');
  const b = hybridOf(BLAIR, directory);
  const a = hybridOf(BLAIR, directory);
  try {
    assert.ok(offers(await b.qualify(latteNow()), ANY_COFFEE));
    assert.ok(offers(await a.qualify(latteNow()), ANY_COFFEE));
    await stopService();
    let queued;
    try {
      queued = await a.checkout(latteNow(), { offer: ANY_COFFEE, basketId: 'a-queued-1' });
    } finally {
      await startServiceAgain();
    }
    assert.deepEqual([queued.status, queued.discount], ['queued', '4.75']);
    const replayed = await a.flush();
    assert.deepEqual(replayed.map((o) => [o.basketId, o.status, o.discount]), [['a-queued-1', 'billed', '4.75']]);
    assert.ok(await resolvedRecord(directory, BLAIR, 'a-queued-1'));
    // What an order reader of any version lists of the guest's folder: *.order.json only.
    const guestFolder = readdirSync(directory).find((name) => name.startsWith('guest-'));
    assert.deepEqual(readdirSync(path.join(directory, guestFolder)).filter((name) => name.endsWith('.order.json')), []);
    assert.equal(readdirSync(path.join(directory, guestFolder)).filter((name) => name.endsWith('.billed.json')).length, 1);
    assert.deepEqual(await a.flush(), [], 'a replay sends nothing more');
    assert.deepEqual(await a.damagedOrders(), [], 'nothing quarantined');

    await stopService();
    try {
      assert.ok(!offers(await b.qualify(latteNow()), ANY_COFFEE), 'B no longer offers it');
      const second = await b.checkout(latteNow(), { offer: ANY_COFFEE, basketId: 'b-offline-2' });
      assert.deepEqual([second.status, second.discount, second.withheld?.code], ['queued', '0.00', 'PENDING_ORDER']);
    } finally {
      await startServiceAgain();
    }
    const outcomes = await b.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['b-offline-2', 'billed', '0.00']]);
  } finally {
    a.dispose();
    b.dispose();
  }
});

// A child process with a HybridQualifier of a guest on the file outbox `directory`, reading its
// account at once ("ready"), then per line on stdin: "checkout <basketId> <offerId>" (the outcome),
// "qualify <offerId>" ({ offered }), "explain <offerId>" ({ codes }), "generated" (its snapshot's
// generated_at), "flush" (the outcomes), "end".
const script = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const readline = await import('node:readline');
  const [baseUrl, directory] = process.argv.slice(1);
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, timeoutMs: 10_000 });
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory }), backoff: { initialMs: 600_000 },
    offline: { redeem: 'provisional', maxDiscount: '5.00' } });
  const latte = () => ({ redemption_venue: 'instore', order_timestamp: new Date().toISOString(), location_uid: 'harbor-downtown',
    subtotal: '4.75', items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }] });
  await hybrid.ready();
  console.log(JSON.stringify({ ready: true }));
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const [command, first, second] = line.split(' ');
    if (command === 'end') break;
    if (command === 'qualify') console.log(JSON.stringify({ offered: (await hybrid.qualify(latte())).rewards.some((r) => r.id === first) }));
    if (command === 'explain') console.log(JSON.stringify({ codes: (await hybrid.explain(latte())).entries.find((e) => e.id === first).reasons.map((r) => r.code) }));
    if (command === 'generated') console.log(JSON.stringify({ generatedAt: hybrid.currentSnapshot().generated_at }));
    if (command === 'checkout') console.log(JSON.stringify(await hybrid.checkout(latte(), { offer: { kind: 'reward', id: second }, basketId: first })));
    if (command === 'flush') console.log(JSON.stringify({ outcomes: await hybrid.flush() }));
  }
  hybrid.dispose();
  process.exit(0);
`;

test('two processes on one file outbox: the reward process A billed online is neither offered nor promised by process B, offline on an older snapshot', { timeout: 180_000 }, async () => {
  const directory = path.join(scratch.dir, 'two-processes');
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf(CASEY);
  const code = script(index, token, key);
  const WELCOME = 'rw_1003_welcome'; // $3 off

  const b = lineProcess(code, [service.url, directory]);
  try {
    assert.deepEqual(await b.next(), { ready: true });
    assert.deepEqual(await b.ask(`qualify ${WELCOME}`), { offered: true });
    const { generatedAt: older } = await b.ask('generated');
    const a = lineProcess(code, [service.url, directory]);
    try {
      assert.deepEqual(await a.next(), { ready: true });
      const billed = await a.ask(`checkout a-proc-1 ${WELCOME}`);
      assert.deepEqual([billed.status, billed.discount], ['billed', '3.00'], JSON.stringify(billed));
      const record = await resolvedRecord(directory, CASEY, 'a-proc-1');
      assert.ok(record && Date.parse(record.billedAt) > Date.parse(older), `the record's billedAt (${record?.billedAt}) is after B's snapshot (${older})`);
    } finally {
      await a.end();
    }
    await stopService();
    try {
      assert.deepEqual(await b.ask('generated'), { generatedAt: older }, 'B answers from its older snapshot');
      assert.deepEqual(await b.ask(`qualify ${WELCOME}`), { offered: false }, 'B no longer offers it');
      assert.deepEqual(await b.ask(`explain ${WELCOME}`), { codes: ['PENDING_ORDER'] });
      const second = await b.ask(`checkout b-proc-1 ${WELCOME}`);
      assert.deepEqual([second.status, second.discount, second.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');
    } finally {
      await startServiceAgain();
    }
    const { outcomes } = await b.ask('flush');
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['b-proc-1', 'billed', '0.00']]);
  } finally {
    await b.end();
  }
});
