// The outbox's lock across the tabs of an origin (navigator.locks) is a lease, as the file outbox's
// lock directory is: a tab that hangs while it holds a guest's lock (frozen, stuck in a call that
// never ends) holds back another tab's checkout for `staleMs` at most, and then finds its lease
// lost (held() false), so it sends, settles and writes nothing more.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { launchChromium, root, sendFile } from '../../support/support.js';

let server;
let browser;

before(async () => {
  server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://127.0.0.1');
    if (pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end('<!doctype html><meta charset="utf-8"><title>locks</title>');
    }
    // The package's modules, as a page without a bundler loads them.
    if (pathname.startsWith('/web/') && !pathname.includes('..')) return sendFile(response, path.join(root, pathname));
    return response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  server?.close();
});

test('a tab hung while it holds the lock holds back another tab for a lease at most, then loses it', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const url = `http://127.0.0.1:${server.address().port}/`;
  const [hung, waiting] = [await context.newPage(), await context.newPage()];
  for (const page of [hung, waiting]) await page.goto(url);

  // The first tab takes the guest's lock and never ends its work.
  await hung.evaluate(async () => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    window.granted = new Promise((resolve) => {
      webLock('loyalty-qualifier-outbox:guest', { staleMs: 1_000 }).exclusive(async (lease) => {
        window.lease = lease;
        resolve();
        await new Promise(() => {}); // hung
      });
    });
    await window.granted;
  });
  assert.equal(await hung.evaluate(() => window.lease.held()), true);

  // The second tab's turn comes (the lock taken over), and the first tab's lease is lost.
  const turn = await waiting.evaluate(async () => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    return webLock('loyalty-qualifier-outbox:guest', { staleMs: 1_000 }).exclusive(async (lease) => ({ held: await lease.held() }));
  });
  assert.deepEqual(turn, { held: true });
  assert.equal(await hung.evaluate(() => window.lease.held()), false);

  // Another guest's lock never waited for either.
  const other = await waiting.evaluate(async () => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    return webLock('loyalty-qualifier-outbox:another-guest', { staleMs: 60_000 }).exclusive(async () => 'ran');
  });
  assert.equal(other, 'ran');
  await context.close();
});
