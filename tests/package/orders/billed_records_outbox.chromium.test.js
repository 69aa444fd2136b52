// The IndexedDB outbox's billing records (web/offline/orders/outbox/billed_order.js) in Chromium (the
// memory and file outboxes': billed_records_outbox.test.js): a record of an order billed with its
// offer is kept per guest beside the guest's orders, in a database of its own, so that the orders'
// object store (all that an earlier version reads) holds orders only; it is never listed as an
// order, and writing one in one page moves the guest's changeStamp in another.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, test } from 'node:test';

import { CHROMIUM, launchChromium, servePackagePage } from '../../support/support.js';

const OWNER = JSON.stringify(['m_harbor', 'u_1001']);
const OTHER = JSON.stringify(['m_harbor', 'u_1002']);
const HOUR = 3_600_000;

describe('the IndexedDB outbox\'s records in Chromium', { skip: !existsSync(CHROMIUM) && 'no Chromium' }, () => {
  let server;
  let browser;
  after(async () => {
    if (browser) await browser.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  test('live in a database of their own: the orders\' object store (all an earlier version reads) holds orders only; another tab\'s changeStamp moves', { timeout: 180_000 }, async () => {
    let origin;
    ({ server, origin } = await servePackagePage('records'));
    browser = await launchChromium();
    const context = await browser.newContext();
    const pages = [await context.newPage(), await context.newPage()];
    for (const page of pages) await page.goto(`${origin}/page.html`);
    await pages[1].evaluate(async (owner) => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      globalThis.watching = indexedDbOrderOutbox({ databaseName: 'lq-billed-test' });
      globalThis.before = await globalThis.watching.changeStamp(owner);
    }, OWNER);
    const seen = await pages[0].evaluate(async ({ owner, other, hour }) => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      const outbox = indexedDbOrderOutbox({ databaseName: 'lq-billed-test' });
      const record = (basketId, extra = {}) => ({ owner, merchantId: 'm_harbor', userId: 'u_1001', basketId, offer: { kind: 'reward', id: 'rw_free_latte' },
        billedAt: null, recordedAt: Date.now(), expiresAt: Date.now() + hour, ...extra });
      await outbox.put({ owner, basketId: 'pending-1', sequence: 1, body: { id: 'pending-1' } });
      await outbox.putBilled(record('billed-1'));
      await outbox.putBilled({ ...record('billed-2'), owner: other });
      await outbox.putBilled(record('billed-old', { expiresAt: Date.now() - 1 }));
      await outbox.putBilled(record('billed-1', { billedAt: '2026-11-24T13:15:00.999Z' }));
      const mine = (await outbox.listBilled(owner)).map((r) => [r.basketId, r.billedAt]);
      const theirs = (await outbox.listBilled(other)).map((r) => r.basketId);
      const orders = (await outbox.list()).map((o) => o.basketId);
      const damaged = await outbox.damaged();
      await outbox.removeBilled({ owner: other, basketId: 'billed-2' });
      const removed = (await outbox.listBilled(other)).length;
      await outbox.close();
      // What an earlier version reads: every key of the orders' object store.
      const keys = await new Promise((resolve, reject) => {
        const request = indexedDB.open('lq-billed-test', 1);
        request.onsuccess = () => {
          const all = request.result.transaction('orders').objectStore('orders').getAllKeys();
          all.onsuccess = () => { resolve(all.result); request.result.close(); };
          all.onerror = () => reject(all.error);
        };
        request.onerror = () => reject(request.error);
      });
      const databases = (await indexedDB.databases()).map((d) => d.name).sort();
      return { mine, theirs, orders, damaged, removed, keys, databases };
    }, { owner: OWNER, other: OTHER, hour: HOUR });
    assert.deepEqual(seen.mine, [['billed-1', '2026-11-24T13:15:00.999Z']]);
    assert.deepEqual(seen.theirs, ['billed-2']);
    assert.deepEqual(seen.orders, ['pending-1']);
    assert.deepEqual(seen.damaged, []);
    assert.equal(seen.removed, 0);
    assert.deepEqual(seen.keys, [[OWNER, 'pending-1']]);
    assert.deepEqual(seen.databases, ['lq-billed-test', 'lq-billed-test-billed']);
    await pages[1].waitForFunction(async (owner) => (await globalThis.watching.changeStamp(owner)) !== globalThis.before, OWNER, { timeout: 30_000 });
  });
});
