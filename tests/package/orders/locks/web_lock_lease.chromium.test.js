// The outbox's lock across the tabs of an origin (navigator.locks) is a lease, as the file outbox's
// lock directory is: a tab that hangs while it holds a guest's lock (frozen, stuck in a call that
// never ends) holds back another tab's checkout for `staleMs` at most, and then finds its lease
// lost (held() false), so it sends, settles and writes nothing more. And a replay turn never waits
// in navigator.locks' queue, so a checkout of another tab that waits there goes first.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchChromium, servePackagePage } from '../../../support/support.js';

let server;
let pageUrl = null; // the blank page of the package's server, which every tab opens
let browser;

before(async () => {
  const served = await servePackagePage('locks');
  server = served.server;
  pageUrl = `${served.origin}/page.html`;
  browser = await launchChromium();
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  server?.close();
});

test('a tab hung while it holds the lock holds back another tab for a lease at most, then loses it', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const [hung, waiting] = [await context.newPage(), await context.newPage()];
  for (const page of [hung, waiting]) await page.goto(pageUrl);

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

test('a replay turn of one tab never queues ahead of a checkout waiting in another', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const [holding, replaying, checking] = [await context.newPage(), await context.newPage(), await context.newPage()];
  for (const page of [holding, replaying, checking]) await page.goto(pageUrl);
  const name = 'loyalty-qualifier-outbox:guest-order';
  // The first tab holds the lock until told.
  await holding.evaluate(async (lockName) => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    await new Promise((granted) => {
      window.done = webLock(lockName, { staleMs: 60_000 }).exclusive(() => new Promise((resolve) => {
        window.release = resolve;
        granted();
      }));
    });
  }, name);
  // A replay turn asks first, a checkout after it; each appends to one log of the origin when it runs.
  await replaying.evaluate(async (lockName) => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    window.turn = webLock(lockName, { staleMs: 60_000 }).exclusive(async () => {
      localStorage.setItem('ran', `${localStorage.getItem('ran') ?? ''} turn`);
    }, { background: true });
  }, name);
  await checking.evaluate(async (lockName) => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    window.checkout = webLock(lockName, { staleMs: 60_000 }).exclusive(async () => {
      localStorage.setItem('ran', `${localStorage.getItem('ran') ?? ''} checkout`);
    });
    // Waiting for the lock in navigator.locks' queue (the replay turn does not wait there).
    for (;;) {
      const { pending } = await navigator.locks.query();
      if (pending.some((lock) => lock.name === lockName)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }, name);
  await holding.evaluate(() => window.release());
  await checking.evaluate(() => window.checkout);
  await replaying.evaluate(() => window.turn);
  assert.equal(await holding.evaluate(() => localStorage.getItem('ran')), ' checkout turn');
  await context.close();
});

test('a holder hung in a tab holds back the same tab\'s next caller for a lease or two at most', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(pageUrl);
  const outcome = await page.evaluate(async () => {
    const { webLock } = await import('/web/offline/orders/outbox/outbox_lock.js');
    const lock = webLock('loyalty-qualifier-outbox:same-tab', { staleMs: 500 });
    let hungLease = null;
    await new Promise((granted) => {
      lock.exclusive(async (lease) => {
        hungLease = lease;
        granted();
        await new Promise(() => {}); // hung
      });
    });
    const next = await lock.exclusive(async (lease) => ({ held: await lease.held() }));
    return { next, hungHeld: await hungLease.held() };
  });
  assert.deepEqual(outcome, { next: { held: true }, hungHeld: false });
  await context.close();
});
