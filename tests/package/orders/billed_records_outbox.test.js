// The outboxes' billing records (web/offline/orders/outbox/billed_order.js) on their own, in memory and on
// real files (IndexedDB's: billed_records_outbox.chromium.test.js): a record of an order billed
// with its offer is kept per guest beside the guest's orders (listBilled), never listed as an order
// (list, listOwner, damaged stay as they were), replaced whole by the next record of its basket,
// removed by removeBilled, dropped once expired (the file outbox by its name alone, without reading
// it), and a record that cannot be read is quarantined; writing one moves the guest's changeStamp.
// Readers of orders of earlier versions list only `*.order.json` files (in the directory, or in a
// guest's folder), which a record never is.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { fileOrderOutbox } from '../../../web/offline/orders/outbox/file_outbox.js';
import { memoryOrderOutbox } from '../../../web/offline/orders/outbox/memory_outbox.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-billed-records-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const OWNER = JSON.stringify(['m_harbor', 'u_1001']);
const OTHER = JSON.stringify(['m_harbor', 'u_1002']);
const HOUR = 3_600_000;
const recordOf = (basketId, extra = {}) => ({
  owner: OWNER,
  merchantId: 'm_harbor',
  userId: 'u_1001',
  basketId,
  offer: { kind: 'reward', id: 'rw_free_latte' },
  billedAt: null,
  recordedAt: Date.now(),
  expiresAt: Date.now() + HOUR,
  ...extra,
});
const orderOf = (owner, basketId) => ({ owner, basketId, sequence: 1, queuedAt: 1, body: { id: basketId } });
const byBasket = (records) => records.map((r) => [r.basketId, r.billedAt]).sort();

for (const [kind, make] of [['memory', () => memoryOrderOutbox()], ['file', () => fileOrderOutbox({ directory: mkdtempSync(path.join(scratch, 'kept-')) })]]) {
  test(`${kind}: records of one guest, beside the orders and never one of them`, async () => {
    const outbox = make();
    await outbox.put(orderOf(OWNER, 'pending-1'));
    const before = await outbox.changeStamp(OWNER);
    await outbox.putBilled(recordOf('billed-1'));
    await outbox.putBilled(recordOf('billed-2'));
    await outbox.putBilled({ ...recordOf('billed-3'), owner: OTHER, userId: 'u_1002' });
    if (kind === 'memory') assert.notEqual(await outbox.changeStamp(OWNER), before, 'a record moves the change stamp');
    assert.deepEqual(byBasket(await outbox.listBilled(OWNER)), [['billed-1', null], ['billed-2', null]]);
    assert.deepEqual(byBasket(await outbox.listBilled(OTHER)), [['billed-3', null]]);
    assert.deepEqual((await outbox.list()).map((o) => o.basketId), ['pending-1']);
    assert.deepEqual((await outbox.listOwner(OWNER)).map((o) => o.basketId), ['pending-1']);
    assert.deepEqual(await outbox.damaged(), []);

    // The billing time known: the same basket's record, replaced whole.
    await outbox.putBilled(recordOf('billed-1', { billedAt: '2026-11-24T13:15:00.999Z' }));
    assert.deepEqual(byBasket(await outbox.listBilled(OWNER)), [['billed-1', '2026-11-24T13:15:00.999Z'], ['billed-2', null]]);
    await outbox.removeBilled({ owner: OWNER, basketId: 'billed-2' });
    assert.deepEqual(byBasket(await outbox.listBilled(OWNER)), [['billed-1', '2026-11-24T13:15:00.999Z']]);
    // Expired: no longer listed.
    await outbox.putBilled(recordOf('billed-old', { recordedAt: Date.now() - 2 * HOUR, expiresAt: Date.now() - HOUR }));
    assert.deepEqual(byBasket(await outbox.listBilled(OWNER)), [['billed-1', '2026-11-24T13:15:00.999Z']]);
    await assert.rejects(async () => outbox.putBilled({ ...recordOf('x'), offer: null }), TypeError);
  });
}

describe('the file outbox\'s records', () => {
  test('named <SHA-256>.<expiresAt>.billed.json in the guest\'s folder: the folder changes, an expired one goes by its name (list() too), another of its basket is replaced, a garbled one is quarantined', async () => {
    const directory = mkdtempSync(path.join(scratch, 'named-'));
    const outbox = fileOrderOutbox({ directory });
    await outbox.put(orderOf(OWNER, 'pending-1'));
    const guest = readdirSync(directory).find((name) => name.startsWith('guest-'));
    const files = () => readdirSync(path.join(directory, guest)).sort();
    let stamp = null;
    while (stamp === null) stamp = await outbox.changeStamp(OWNER); // settled: the folder's time
    const record = recordOf('billed-1');
    await outbox.putBilled(record);
    const [billedName] = files().filter((name) => name.endsWith('.billed.json'));
    assert.match(billedName, new RegExp(`^[0-9a-f]{64}\\.${record.expiresAt}\\.billed\\.json$`));
    // The folder's time moved (null while it settles: read again).
    assert.notEqual(await outbox.changeStamp(OWNER), stamp);
    // A later record of the same basket kept for longer replaces it.
    await outbox.putBilled({ ...record, expiresAt: record.expiresAt + 1000 });
    assert.equal(files().filter((name) => name.endsWith('.billed.json')).length, 1);
    assert.equal((await outbox.listBilled(OWNER))[0].expiresAt, record.expiresAt + 1000);

    // One that expired is removed by list() without being read (its content is garbage here).
    const stem = billedName.split('.')[0];
    writeFileSync(path.join(directory, guest, `${stem.replace(/^./, 'f')}.${Date.now() - 1}.billed.json`), 'not json at all');
    assert.deepEqual((await outbox.list()).map((o) => o.basketId), ['pending-1']);
    assert.equal(files().filter((name) => name.endsWith('.billed.json')).length, 1);
    assert.deepEqual(await outbox.damaged(), []);

    // One that has not expired and cannot be read is quarantined, with its reason.
    const garbled = `${'a'.repeat(64)}.${Date.now() + HOUR}.billed.json`;
    writeFileSync(path.join(directory, guest, garbled), '{"owner": ');
    assert.equal((await outbox.listBilled(OWNER)).length, 1);
    const damaged = await outbox.damaged();
    assert.equal(damaged.length, 1);
    assert.equal(damaged[0].key, `${guest}/${garbled}`);
    assert.match(damaged[0].reason, /^not JSON/);
    await outbox.removeBilled({ owner: OWNER, basketId: 'billed-1' });
    assert.deepEqual(files().filter((name) => name.endsWith('.billed.json')), []);
    assert.deepEqual((await outbox.listOwner(OWNER)).map((o) => o.basketId), ['pending-1']);
  });

  test('a guest\'s folder that holds only expired records is emptied by list() and then removed like any empty one', async () => {
    const directory = mkdtempSync(path.join(scratch, 'swept-'));
    const outbox = fileOrderOutbox({ directory });
    await outbox.putBilled(recordOf('billed-1', { expiresAt: Date.now() + 50 }));
    const guest = readdirSync(directory).find((name) => name.startsWith('guest-'));
    for (const deadline = Date.now() + 5_000; (await outbox.listBilled(OWNER)).length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await outbox.list();
    assert.deepEqual(readdirSync(path.join(directory, guest)), []);
  });
});
