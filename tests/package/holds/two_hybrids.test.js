// Issue 34, finding 1: two hybrids on one outbox (two tabs, two processes) agree on what a guest
// has promised away, because every promise is decided against the outbox as it is at that moment,
// under the guest's lock. Through the public API against the real local service (demo fixture, a
// real SQLite file), the service cut: the guest's free latte is promised offline by one hybrid
// and never again by the other, in one process on a memory outbox and in two Node processes on one
// file outbox; once the service is back, each order is billed with exactly what it promised and
// nothing is billed without an offer its kiosk promised.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { account, basket, credentialsOf, root } from '../../service/harness.js';
import { clientOf, latte, lq, qualifierOptions, scratch, service, startServiceAgain, stopService, useOrderService } from '../orders/order_service.js';
import { lineProcess } from './line_process.js';

const ALEX = 'u_1001';
const BLAIR = 'u_1002';
const FREE_LATTE = { kind: 'reward', id: 'rw_free_latte' };
const ANY_COFFEE = { kind: 'reward', id: 'rw_1002_any_coffee' };
const CASEY = 'u_1003';
const WELCOME = { kind: 'reward', id: 'rw_1003_welcome' };
const offersLatte = (answer) => answer.rewards.some((r) => r.id === FREE_LATTE.id);

useOrderService('two-hybrids');

// What the service billed for basket `id` of `user`: a re-send of the billed body answers it.
async function billedDiscount(id, offer, user = ALEX) {
  const recorded = await basket(service, user, { ...latte, ...(offer ? { rewards: [offer.id] } : {}), id, state: 'billed' });
  assert.equal(recorded.body.state, 'billed', `${id}: ${JSON.stringify(recorded.body)}`);
  return recorded.body.discount;
}

test('two hybrids of one guest on one memory outbox (two tabs): the latte promised offline by one is neither offered nor promised by the other', async () => {
  const outbox = lq.memoryOrderOutbox();
  const make = () => new lq.HybridQualifier({ client: clientOf(ALEX), outbox, qualifierOptions, offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 } });
  const one = make();
  const two = make();
  try {
    // Both tabs show the guest's offers before the outage (each has read the outbox once).
    assert.ok(offersLatte(await one.qualify(latte)));
    assert.ok(offersLatte(await two.qualify(latte)));
    await stopService();
    let first;
    let second;
    try {
      first = await one.checkout(latte, { offer: FREE_LATTE, basketId: 'tabs-latte-1' });
      assert.deepEqual([first.status, first.discount], ['queued', '4.75'], 'promised by the first tab');
      assert.ok(!offersLatte(await two.qualify(latte)), 'the second tab no longer offers it');
      const explained = await two.explain(latte);
      assert.deepEqual(explained.entries.find((e) => e.id === FREE_LATTE.id).reasons.map((r) => r.code), ['PENDING_ORDER']);
      second = await two.checkout(latte, { offer: FREE_LATTE, basketId: 'tabs-latte-2' });
      assert.deepEqual([second.status, second.discount, second.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');
    } finally {
      await startServiceAgain();
    }
    const outcomes = await two.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]), [['tabs-latte-1', 'billed', '4.75'], ['tabs-latte-2', 'billed', '0.00']]);
    assert.ok(outcomes.every((o) => o.offerRefused === undefined), 'nothing billed without an offer it promised');
    assert.equal(await billedDiscount('tabs-latte-1', FREE_LATTE), '4.75');
    assert.equal(await billedDiscount('tabs-latte-2', null), '0.00');
  } finally {
    one.dispose();
    two.dispose();
  }
});

test('two hybrids of one guest on one memory outbox checking out a reward at once, neither asked anything since: exactly one promises it', async () => {
  const outbox = lq.memoryOrderOutbox();
  const make = () => new lq.HybridQualifier({ client: clientOf(CASEY), outbox, qualifierOptions, offline: { redeem: 'provisional', maxDiscount: '5.00' }, backoff: { initialMs: 600_000 } });
  const one = make();
  const two = make();
  try {
    // Both read the outbox (empty) and offered the latte before the outage; nothing since.
    const offersWelcome = (answer) => answer.rewards.some((r) => r.id === WELCOME.id);
    assert.ok(offersWelcome(await one.qualify(latte)));
    assert.ok(offersWelcome(await two.qualify(latte)));
    await stopService();
    let placed;
    try {
      placed = await Promise.all([one.checkout(latte, { offer: WELCOME, basketId: 'race-latte-1' }), two.checkout(latte, { offer: WELCOME, basketId: 'race-latte-2' })]);
    } finally {
      await startServiceAgain();
    }
    assert.deepEqual(placed.map((o) => o.status), ['queued', 'queued']);
    assert.deepEqual(placed.map((o) => o.discount).sort(), ['0.00', '3.00'], 'one promise, the other at full price');
    assert.equal(placed.find((o) => o.discount === '0.00').withheld?.code, 'PENDING_ORDER');
    const outcomes = await one.flush();
    assert.deepEqual(outcomes.map((o) => o.discount).sort(), ['0.00', '3.00']);
    assert.ok(outcomes.every((o) => o.status === 'billed' && o.offerRefused === undefined), 'each billed with what it promised');
  } finally {
    one.dispose();
    two.dispose();
  }
});

// A child process with a HybridQualifier of Blair on the file outbox `directory`. It reads the
// account and qualifies the latte ("ready <offered>": whether her any-coffee reward is offered),
// then for each line on stdin ("checkout <basketId>") checks the latte out with that reward and
// prints the outcome; "qualify" prints whether the reward is offered; "end" ends it.
const script = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const readline = await import('node:readline');
  const [baseUrl, directory] = process.argv.slice(1);
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, timeoutMs: 10_000 });
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory }), backoff: { initialMs: 600_000 },
    qualifierOptions: { now: () => new Date(${JSON.stringify(latte.order_timestamp)}) }, offline: { redeem: 'provisional', maxDiscount: '5.00' } });
  const latte = ${JSON.stringify(latte)};
  const offered = async () => (await hybrid.qualify(latte)).rewards.some((r) => r.id === 'rw_1002_any_coffee');
  console.log(JSON.stringify({ ready: await offered() }));
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const [command, basketId] = line.split(' ');
    if (command === 'end') break;
    if (command === 'qualify') console.log(JSON.stringify({ offered: await offered() }));
    if (command === 'checkout') console.log(JSON.stringify(await hybrid.checkout(latte, { offer: { kind: 'reward', id: 'rw_1002_any_coffee' }, basketId })));
  }
  hybrid.dispose();
  process.exit(0);
`;

test('two processes of one guest on one file outbox: the reward promised offline by one is neither offered nor promised by the other', { timeout: 180_000 }, async () => {
  const directory = path.join(scratch.dir, 'shared-outbox');
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf(BLAIR);
  const code = script(index, token, key);
  const before = (await account(service, BLAIR)).body;
  assert.ok(before.rewards.some((r) => r.id === ANY_COFFEE.id && r.state === 'redeemable'));
  const one = lineProcess(code, [service.url, directory]);
  const two = lineProcess(code, [service.url, directory]);
  try {
    assert.deepEqual(await one.next(), { ready: true });
    assert.deepEqual(await two.next(), { ready: true });
    await stopService();
    try {
      const first = await one.ask('checkout procs-latte-1');
      assert.deepEqual([first.status, first.discount], ['queued', '4.75'], 'promised by the first process');
      assert.deepEqual(await two.ask('qualify'), { offered: false }, 'the second process no longer offers it');
      const second = await two.ask('checkout procs-latte-2');
      assert.deepEqual([second.status, second.discount, second.withheld?.code], ['queued', '0.00', 'PENDING_ORDER'], 'not promised again');
    } finally {
      await startServiceAgain();
    }
  } finally {
    await Promise.all([one.end(), two.end()]);
  }
  const replayer = new lq.HybridQualifier({ client: clientOf(BLAIR), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 } });
  try {
    const outcomes = await replayer.flush();
    assert.deepEqual(outcomes.map((o) => [o.basketId, o.status, o.discount]).sort(), [['procs-latte-1', 'billed', '4.75'], ['procs-latte-2', 'billed', '0.00']]);
    assert.ok(outcomes.every((o) => o.offerRefused === undefined), 'nothing billed without an offer it promised');
  } finally {
    replayer.dispose();
  }
  assert.equal(await billedDiscount('procs-latte-1', ANY_COFFEE, BLAIR), '4.75');
  assert.equal(await billedDiscount('procs-latte-2', null, BLAIR), '0.00');
});
