// GuestHolds on its own, over a real LocalSnapshot (the wasm engine on examples/snapshot.json) and
// real outboxes: the offline policy's discount is the engine's on the snapshot with only what holds
// against the order taken off (the guest's other orders decided before it or queued before it, as
// the outbox holds them now); an order of another guest is promised nothing; the local answers read
// the outbox again only when its change stamp moved.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LoyaltyClient, memoryOrderOutbox, memorySnapshotStore } from '../../../web/index.js';
import { GuestHolds } from '../../../web/offline/holds/guest_holds.js';
import { LocalSnapshot } from '../../../web/offline/hybrid/local_snapshot.js';
import { newOrder } from '../../../web/offline/orders/order_record.js';
import { engineFactory } from '../../../web/worker/engine_factory.js';
import { exampleRewards, readJson } from '../../support/support.js';

const snapshot = readJson('examples/snapshot.json');
const basket = readJson('examples/basket.json');
const qualifierOptions = { now: () => new Date('2026-11-24T13:15:00Z') };
const me = { owner: JSON.stringify([snapshot.merchant.id, snapshot.user.id]), merchantId: snapshot.merchant.id, userId: snapshot.user.id };
const reward = { kind: 'reward', id: exampleRewards[0] };

function holdsOver(outbox) {
  let holds = null;
  const snapshots = new LocalSnapshot({
    client: new LoyaltyClient({ baseUrl: 'http://127.0.0.1:9', merchantKey: 'k', accessToken: 't' }),
    snapshot,
    store: memorySnapshotStore(),
    maxAgeMs: 60_000,
    maxStaleMs: 120_000,
    qualifierOptions,
    engine: engineFactory(false, qualifierOptions),
    accountShape: 'snapshot',
    derive: (s) => holds.derive(s),
  });
  holds = new GuestHolds({ outbox, snapshots });
  return { holds, snapshots };
}

const order = (basketId, extra = {}) => ({ ...newOrder({ owner: me, basketId, request: basket, offer: reward, replay: null }), ...extra });

test('the discount of an order\'s offer: the engine\'s, with only what holds against the order taken off', async () => {
  const outbox = memoryOrderOutbox();
  const { holds, snapshots } = holdsOver(outbox);
  try {
    const first = order('first');
    assert.equal(await holds.discountFor(first), null, 'no snapshot loaded yet');
    await snapshots.ready();
    const explained = (await snapshots.localAnswer((engine) => engine.explain(basket))).answer;
    const entry = explained.entries.find((e) => e.kind === 'reward' && e.id === reward.id);
    assert.ok(entry.qualifies && /^\d+\.\d\d$/.test(entry.discount));
    assert.equal(await holds.discountFor(first), entry.discount);
    assert.equal(await holds.discountFor({ ...first, offer: { kind: 'reward', id: 'rw_not_in_this_account' } }), null);
    assert.equal(await holds.discountFor({ ...first, owner: JSON.stringify(['m_other', 'u_other']) }), null, "another guest's order: nothing promised");

    // An undecided order queued after `first` does not hold against it; `first`, queued before, holds against it.
    const second = order('second');
    outbox.put(first);
    outbox.put(second);
    assert.equal(await holds.discountFor(first), entry.discount);
    assert.equal(await holds.discountFor(second), null, 'the reward is held by the order queued before it');
    // Two processes' clocks: an order decided already holds against one queued "before" it.
    const early = order('early', { sequence: first.sequence - 1000 });
    outbox.put({ ...first, policyApplied: true, promisedDiscount: entry.discount });
    outbox.remove(second);
    assert.equal(await holds.discountFor(early), null, 'first was decided (promised) before it');
    // An order that no longer carries its offer holds nothing.
    outbox.put({ ...first, offer: null, policyApplied: true });
    assert.equal(await holds.discountFor(early), entry.discount);
  } finally {
    snapshots.dispose();
  }
});

test('the local answers read the outbox again only when its change stamp moved', async () => {
  const outbox = memoryOrderOutbox();
  let reads = 0;
  // The guest's own orders read (those queued before an account was read are looked at too).
  const counted = { ...outbox, listOwner: (owner) => { if (owner === me.owner) reads += 1; return outbox.listOwner(owner); } };
  const { holds, snapshots } = holdsOver(counted);
  try {
    await snapshots.ready();
    await holds.sync();
    await holds.sync();
    assert.equal(reads, 1, 'nothing changed: no second read');
    outbox.put(order('held'));
    await holds.sync();
    assert.equal(reads, 2);
    const { answer } = await snapshots.localAnswer((engine) => engine.explain(basket));
    assert.deepEqual(answer.entries.find((e) => e.id === reward.id).reasons.map((r) => r.code), ['PENDING_ORDER']);
    assert.equal(holds.diagnostics().pendingOrders, 1);
  } finally {
    snapshots.dispose();
  }
});
