// The IndexedDB order outbox in Chromium (the file and memory outboxes: order_outbox.test.js):
// records that are not orders are quarantined and reported by damaged(), exclusive() is one holder
// at a time across two pages of one origin, listOwner() reads one guest's orders by key range, and
// a write in one page moves the other's changeStamp().
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, test } from 'node:test';

import { CHROMIUM, launchChromium, servePackagePage } from '../../support/support.js';


describe('the IndexedDB outbox in Chromium', { skip: !existsSync(CHROMIUM) && 'no Chromium' }, () => {
  let server;
  let browser;
  after(async () => {
    if (browser) await browser.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  test('quarantines records that are not orders, exclusive() is one holder across two pages, listOwner() reads one guest, and a write in one page moves the other\'s changeStamp()', { timeout: 180_000 }, async () => {
    const log = []; // the pages' /log lines, in the order they arrive
    let origin;
    ({ server, origin } = await servePackagePage('outbox', (url, response) => {
      if (url.pathname !== '/log') return false;
      log.push(url.searchParams.get('line'));
      response.writeHead(204).end();
      return true;
    }));
    browser = await launchChromium();
    const context = await browser.newContext();
    const pages = [await context.newPage(), await context.newPage()];
    for (const page of pages) await page.goto(`${origin}/page.html`);

    const outcome = await pages[0].evaluate(async () => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      const outbox = indexedDbOrderOutbox({ databaseName: 'lq-outbox-test' });
      const order = (basketId, sequence) => ({ owner: '["m","u"]', basketId, sequence, body: { id: basketId } });
      await outbox.put(order('b-1', 1));
      await outbox.close();
      // Records another version (or a person) left behind, written with the raw API.
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('lq-outbox-test', 1);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction('orders', 'readwrite');
        tx.objectStore('orders').put('garbled', ['["m","u"]', 'b-garbled']);
        tx.objectStore('orders').put({ owner: '["m","u"]', basketId: 'b-x', sequence: 3 }, ['["m","u"]', 'b-x']);
        tx.objectStore('orders').put(order('b-moved', 4), ['someone', 'else']);
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      const listed = (await outbox.list()).map((o) => o.basketId);
      await outbox.put(order('b-2', 2));
      const again = (await outbox.list()).map((o) => o.basketId);
      const damaged = await outbox.damaged();
      const kept = await new Promise((resolve, reject) => {
        const request = indexedDB.open('lq-outbox-test', 1);
        request.onsuccess = () => {
          const get = request.result.transaction('orders').objectStore('orders').getAll();
          get.onsuccess = () => { resolve(get.result.filter((v) => v?.quarantine).map((v) => v.value)); request.result.close(); };
          get.onerror = () => reject(get.error);
        };
        request.onerror = () => reject(request.error);
      });
      await outbox.close();
      return { listed, again, damaged, kept };
    });
    assert.deepEqual(outcome.listed, ['b-1']);
    assert.deepEqual(outcome.again, ['b-1', 'b-2']);
    const reasons = Object.fromEntries(outcome.damaged.map((entry) => [entry.key, entry.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['["[\\"m\\",\\"u\\"]","b-garbled"]', '["[\\"m\\",\\"u\\"]","b-x"]', '["someone","else"]']);
    assert.match(reasons['["[\\"m\\",\\"u\\"]","b-garbled"]'], /^not an order: not a JSON object/);
    assert.match(reasons['["[\\"m\\",\\"u\\"]","b-x"]'], /^not an order: no body/);
    assert.match(reasons['["someone","else"]'], /key other than \[owner, basketId\]/);
    assert.ok(outcome.damaged.every((entry) => typeof entry.quarantinedAt === 'number'));
    assert.equal(outcome.kept.length, 3);
    assert.ok(outcome.kept.includes('garbled'));

    // Two pages (two tabs of one origin) contend for the outbox's lock.
    const contend = (page, id) => page.evaluate(async (who) => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      const outbox = indexedDbOrderOutbox({ databaseName: 'lq-outbox-test' });
      for (let round = 0; round < 10; round += 1) {
        await outbox.exclusive(async () => {
          // The test's server records the lines in the order they arrive (each awaited).
          await fetch(`/log?line=start ${who}`);
          await outbox.list();
          await fetch(`/log?line=end ${who}`);
        });
      }
      await outbox.close();
    }, id);
    await Promise.all([contend(pages[0], 'A'), contend(pages[1], 'B')]);
    const lines = log;
    assert.equal(lines.length, 40);
    for (let i = 0; i < lines.length; i += 2) assert.equal(lines[i + 1], `end ${lines[i].slice(6)}`, `line ${i + 2}`);

    // One guest's orders by key range; the other tab's write moves this tab's change stamp.
    await pages[1].evaluate(async () => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      globalThis.watching = indexedDbOrderOutbox({ databaseName: 'lq-outbox-test' });
      globalThis.before = await globalThis.watching.changeStamp('["m","u"]');
    });
    const listed = await pages[0].evaluate(async () => {
      const { indexedDbOrderOutbox } = await import('/web/offline/orders/outbox/indexed_db_outbox.js');
      const outbox = indexedDbOrderOutbox({ databaseName: 'lq-outbox-test' });
      await outbox.put({ owner: '["m","u"]', basketId: 'b-3', sequence: 5, body: { id: 'b-3' } });
      await outbox.put({ owner: '["m","other"]', basketId: 'b-4', sequence: 6, body: { id: 'b-4' } });
      const mine = (await outbox.listOwner('["m","u"]')).map((o) => o.basketId);
      const theirs = (await outbox.listOwner('["m","other"]')).map((o) => o.basketId);
      await outbox.close();
      return { mine, theirs };
    });
    assert.deepEqual(listed, { mine: ['b-1', 'b-2', 'b-3'], theirs: ['b-4'] });
    await pages[1].waitForFunction(async () => (await globalThis.watching.changeStamp('["m","u"]')) !== globalThis.before, null, { timeout: 30_000 });
  });
});
