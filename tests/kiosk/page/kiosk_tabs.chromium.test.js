// Issue 34, finding 1 in the browser: two tabs of the kiosk page (two pages of one browser context:
// one IndexedDB outbox, one origin's Web Locks and BroadcastChannel) in Debian's Chromium, served by
// `npm start`'s kiosk server (kiosk/server/main.mjs on port 0) with its real local service. The
// page works without a store hub here: its health answer is passed on without the "hub" member (a
// kiosk server that runs none), so only the outbox tells one tab what the other promised. The
// service is stopped for real: the free latte promised offline in the first tab is not offered in
// the second, whose checkout does not promise it; once the service is back, the service's SQLite
// file holds one redemption and no order billed without an offer its tab promised.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../../support/support.js';
import { kioskCommand, startTestKiosk } from './kiosk_process.js';
import { addLatte, placeOffline } from './kiosk_steps.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shots = path.join(root, 'test-output/kiosk');
const NOW = '2026-11-24T13:15:00Z';
const STEP = 30_000;
const GUEST = 'u_1001';
const LATTE = 'rw_free_latte';
const LATTE_LABEL = 'Free latte or cappuccino';

let setup; // startTestKiosk's
let kiosk;
let browser;
const errors = [];

const stopService = () => kioskCommand(kiosk, 'stop', /kiosk: service stopped/);
const startService = () => kioskCommand(kiosk, 'start', /kiosk: service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);

/** Rows of a query on the service's SQLite file. */
const rows = (query) => setup.rows(query);

before(async () => {
  mkdirSync(shots, { recursive: true });
  setup = await startTestKiosk({ name: 'kiosk-tabs', now: NOW });
  kiosk = setup.kiosk;
  browser = await launchChromium();
}, { timeout: 900_000 });

after(async () => {
  await browser?.close().catch(() => {});
  await setup?.close();
});

test('two tabs of the page, one outbox, no store hub: the latte promised offline in one tab is neither offered nor promised in the other; one redemption', { timeout: 300_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  // A kiosk server without a store hub: its health answer has no "hub".
  await context.route('**/_kiosk/health', async (route) => {
    const response = await route.fetch();
    const { hub, ...health } = await response.json();
    await route.fulfill({ response, json: health });
  });
  const billings = [];
  const tabs = [];
  for (const name of ['first', 'second']) {
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/baskets') billings.push(request.postDataJSON());
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 503/.test(message.text())) errors.push(`${name} tab: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${name} tab page error: ${error.message}`));
    await page.goto(`${kiosk.pageUrl}&poll=1&retry=1&guest=${GUEST}&offline=provisional`);
    await page.waitForSelector('body[data-ready]');
    await page.waitForSelector('#wallet #points-balance');
    await page.waitForSelector('#status[data-state="online"]');
    tabs.push(page);
  }
  const [one, two] = tabs;
  assert.equal(await one.locator('#store[data-hub="reachable"]').count(), 0, 'no store hub in use');
  assert.deepEqual(rows(`SELECT state FROM rewards WHERE id = '${LATTE}'`), [{ state: 'redeemable' }]);

  await stopService();
  let first;
  let second;
  try {
    await one.waitForSelector('#status[data-state="offline"]');
    await two.waitForSelector('#status[data-state="offline"]');
    await addLatte(one);
    await one.waitForSelector(`#offer-list li.best[data-id="${LATTE}"] input:checked`);
    first = await placeOffline(one);
    assert.match(first.offered, /applied provisionally/);
    assert.match(first.offered, new RegExp(LATTE_LABEL));
    assert.doesNotMatch(first.placed, /not redeemed/);

    // The second tab: the latte is held by the first tab's order, which the outbox holds.
    await addLatte(two);
    const held = two.locator(`#others li[data-id="${LATTE}"]`);
    await held.waitFor({ state: 'attached' });
    assert.match(await held.textContent(), /Already used by an order waiting to be confirmed\./);
    assert.equal(await two.locator(`#offer-list li[data-id="${LATTE}"]`).count(), 0);
    await two.locator('#others-section summary').click();
    await two.screenshot({ path: path.join(shots, 'i34-second-tab-held.png'), fullPage: true });
    second = await placeOffline(two);
    assert.doesNotMatch(second.offered, new RegExp(LATTE_LABEL));
    assert.doesNotMatch(second.placed, new RegExp(LATTE_LABEL));
    assert.equal(billings.length, 0, 'nothing reaches the stopped service');
  } finally {
    await startService();
  }

  // Both orders are replayed (by either tab) and billed once; none without the offer its tab sent.
  await one.waitForFunction(() => document.querySelectorAll('#orders li[data-status="queued"]').length === 0, null, { timeout: 60_000 });
  const promised = (billing) => billing.rewards?.[0] ?? billing.points_products?.[0] ?? null;
  const sent = new Map(billings.map((b) => [b.id, promised(b)]));
  assert.equal(sent.size, 2, JSON.stringify([...sent]));
  assert.equal([...sent.values()].filter((offer) => offer === LATTE).length, 1, 'the latte is sent with one order only');
  const baskets = rows(`SELECT id, state, reward_id, points_product_id, discount_cents FROM baskets WHERE user_id = '${GUEST}' ORDER BY id`);
  assert.deepEqual(baskets.map((b) => b.id).sort(), [...sent.keys()].sort(), 'no basket billed without an offer its tab promised (no ~without-offer)');
  for (const basket of baskets) {
    assert.equal(basket.state, 'billed', JSON.stringify(basket));
    assert.equal(basket.reward_id ?? basket.points_product_id, sent.get(basket.id), JSON.stringify(basket));
  }
  assert.deepEqual(rows(`SELECT count(*) AS n FROM baskets WHERE reward_id = '${LATTE}' AND state = 'billed'`), [{ n: 1 }]);
  // A health check in flight while the context closes must not fail after the test has ended.
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
  assert.deepEqual(errors, []);
});
