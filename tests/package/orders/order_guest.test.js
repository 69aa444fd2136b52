// OrderGuest on its own: who the guest on screen is for the order path. Over a real LoyaltyClient
// and a real LocalSnapshot (the wasm engine on examples/snapshot.json, or an account that cannot be
// read: a closed port on 127.0.0.1), it says who the guest on screen is and which client replays an
// order (credentials proven by the real service's account read). The local engine's discount for
// the offline policy is the holds' (tests/package/holds/guest_holds.test.js).
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';

import { LoyaltyClient, memorySnapshotStore } from '../../../web/index.js';
import { LocalSnapshot } from '../../../web/offline/hybrid/local_snapshot.js';
import { OrderGuest } from '../../../web/offline/orders/order_guest.js';
import { engineFactory } from '../../../web/worker/engine_factory.js';
import { readJson } from '../../support/support.js';
import { credentialsOf, ensureWasm, scratchDir, serviceBinary, startService } from '../../service/harness.js';

const snapshot = readJson('examples/snapshot.json');
const basket = readJson('examples/basket.json');
const credentials = { baseUrl: 'http://127.0.0.1:9', merchantKey: 'mk_harbor_5f1c9a7e2b', accessToken: 'at_u1001_7Qx2LmN9pR4s' };
const qualifierOptions = { now: () => new Date('2026-11-24T13:15:00Z') };

function localSnapshot(client, options = {}) {
  return new LocalSnapshot({
    client,
    store: memorySnapshotStore(),
    maxAgeMs: 60_000,
    maxStaleMs: 120_000,
    qualifierOptions,
    engine: engineFactory(false, qualifierOptions),
    accountShape: 'snapshot',
    ...options,
  });
}

// A port on 127.0.0.1 that nothing listens on (it was just closed): connections are refused.
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the guest on screen is the (merchant, user) of the snapshot in hand, read when none is', async () => {
  const client = new LoyaltyClient(credentials);
  const snapshots = localSnapshot(client, { snapshot });
  const guest = new OrderGuest({ client, snapshots });
  try {
    assert.equal(guest.known(), null, 'nothing is known before the snapshot is loaded');
    const me = { owner: JSON.stringify(['m_harbor_coffee', 'u_1001']), merchantId: 'm_harbor_coffee', userId: 'u_1001' };
    assert.deepEqual(await guest.identify(), me);
    assert.deepEqual(guest.known(), me);
    assert.equal(guest.client, client);
    assert.deepEqual(await guest.credentials(), credentials);
  } finally {
    snapshots.dispose();
  }
});

test('no guest when the account cannot be read, and no credentials when the token fails', async () => {
  const port = await closedPort();
  const client = new LoyaltyClient({ ...credentials, baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5_000 });
  const snapshots = localSnapshot(client);
  const guest = new OrderGuest({ client, snapshots });
  try {
    assert.equal(await guest.identify(), null);
    assert.equal(guest.known(), null);
    const tokenless = new LoyaltyClient({ ...credentials, accessToken: () => { throw new Error('signed out'); } });
    assert.equal(await new OrderGuest({ client: tokenless, snapshots }).credentials(), null);
  } finally {
    snapshots.dispose();
  }
});

test('which client replays an order: credentials proven to be its guest\'s (the guest\'s own, its stored ones, credentialsFor first)', async () => {
  ensureWasm();
  serviceBinary();
  const scratch = scratchDir('lq-order-guest-');
  const service = await startService({ db: path.join(scratch.dir, 'guest.db'), now: true, delay: 3600 });
  const of = (userId) => ({ baseUrl: service.url, merchantKey: credentialsOf(userId).key, accessToken: credentialsOf(userId).token });
  const client = new LoyaltyClient(of('u_1001'));
  const snapshots = localSnapshot(client, { snapshot });
  const guest = new OrderGuest({ client, snapshots });
  try {
    await guest.identify();
    const clients = new Map();
    const own = { owner: JSON.stringify(['m_harbor_coffee', 'u_1001']), basketId: 'b1' };
    const mine = await guest.replayClient(own, clients);
    assert.equal(mine.key, service.url);
    assert.deepEqual(await mine.client.credentials(), of('u_1001'), 'the on-screen credentials, fixed for this send');

    const other = { owner: JSON.stringify(['m_harbor_coffee', 'u_1002']), basketId: 'b2', replay: of('u_1002') };
    const route = await guest.replayClient(other, clients);
    assert.equal(route.key, service.url);
    assert.deepEqual(await route.client.credentials(), of('u_1002'));
    assert.equal((await guest.replayClient(other, clients)).client, route.client, 'one client per credentials in a replay');

    const waiting = await guest.replayClient({ owner: JSON.stringify(['m_harbor_coffee', 'u_1003']), basketId: 'b3' }, clients);
    assert.match(waiting.error, /no credentials to replay it/);

    // Stored credentials of someone else: never used.
    const mislabelled = { ...other, owner: JSON.stringify(['m_harbor_coffee', 'u_1003']) };
    assert.match((await guest.replayClient(mislabelled, new Map())).error, /credentials of \["m_harbor_coffee","u_1002"\], not of this order's guest \["m_harbor_coffee","u_1003"\]/);

    const asked = [];
    const routed = new OrderGuest({ client, snapshots, credentialsFor: (order) => (asked.push(order.basketId), of('u_1002')) });
    const refused = await routed.replayClient(own, new Map());
    assert.deepEqual(asked, ['b1'], 'credentialsFor comes first');
    assert.deepEqual(await refused.client.credentials(), of('u_1001'), "credentialsFor's are another guest's: the guest's own replay it");
    const failing = new OrderGuest({ client, snapshots, credentialsFor: () => { throw new Error('vault locked'); } });
    assert.deepEqual(await failing.replayClient(own, new Map()), { error: 'credentialsFor() failed: vault locked' });

    const away = { ...of('u_1002'), baseUrl: `http://127.0.0.1:${await closedPort()}` };
    const silent = await guest.replayClient({ ...other, replay: away }, new Map());
    assert.equal(silent.noAnswer, true, 'no answer: that service is unreachable');
    assert.equal(silent.key, away.baseUrl);
  } finally {
    snapshots.dispose();
    await service.crash();
    scratch.cleanup();
  }
});
