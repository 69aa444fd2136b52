// The kiosk page (kiosk/page/) against the real service, as `npm start` runs it: kiosk/server/main.mjs
// on port 0 with a temporary database and a fixed service clock, driven by Debian's Chromium
// through playwright-core. Screenshots go to test-output/kiosk/. The tests run in order on one
// page: each continues the order of the previous one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createKioskServer } from '../../../kiosk/server/page_server.mjs';
import { launchChromium } from '../../support/support.js';
import { hubBinary } from '../../hub/harness.js';
import { MEDIA_TYPE, credentialsOf, ensureWasm, serviceBinary } from '../../service/harness.js';
import { startLossyProxy } from '../../service/http/lossy_proxy.js';
import { guestCalls } from './kiosk_guests.js';
import { kioskCommand, startKiosk, stopKiosk } from './kiosk_process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shots = path.join(root, 'test-output/kiosk');
// Tuesday 08:15 in New York: the in-store breakfast reward is in its window.
const NOW = '2026-11-24T13:15:00Z';
const STEP = 30_000;  // the longest a single UI expectation may take (a loaded machine)
const MAX_AGE_S = 4;  // the main page's maxAgeMs: past it, offers are provisional

let scratch;
let kiosk;  // { proc, pageUrl, origin, stderr, exited }
let browser;
let page;
const consoleErrors = [];
const ALEX = credentialsOf('u_1001');

/** Loyalty API calls through the kiosk's proxy, as Alex (or `as`, another Harbor Coffee guest). */
const { api, balance, waitForBalance } = guestCalls(() => kiosk.origin);

/** GET with a raw path (no URL normalisation), for the static server's path checks. */
function rawGet(rawPath) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(kiosk.origin);
    http.get({ hostname, port, path: rawPath, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    }).on('error', reject);
  });
}

// The kiosk server answers /api with its outage 503 while the service is stopped: a request that
// passed the page's health check just before a `stop` gets it, and Chromium logs that as a console
// error. Such answers are recognised by their body (the kiosk server's own message), and only a
// console 503 for a URL that got one is excused in the last test.
const OUTAGE_MESSAGE = /^the loyalty service is not (running|reachable)/;
const outageAnswers = new Set();

function watch(target, label) {
  target.on('response', async (response) => {
    if (response.status() !== 503 || !new URL(response.url()).pathname.startsWith('/api/')) return;
    try {
      if (OUTAGE_MESSAGE.test((await response.json())?.message ?? '')) outageAnswers.add(response.url());
    } catch {
      // no JSON body: not the kiosk server's outage answer
    }
  });
  target.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${label} console: ${message.text()} @ ${message.location().url}`);
  });
  target.on('pageerror', (error) => consoleErrors.push(`${label} page error: ${error.message}`));
}

async function shoot(name, target = page) {
  await target.screenshot({ path: path.join(shots, name), fullPage: true });
}

const offerIds = () => page.locator('#offer-list li.offer[data-id]').evaluateAll((items) => items.map((li) => li.dataset.id));
const bestId = () => page.locator('#offer-list li.offer.best').getAttribute('data-id');
const hintIds = () => page.locator('#hints li').evaluateAll((items) => items.map((li) => li.dataset.id));

/** The offer radios whose accessible name is `text` exactly (any whitespace between its words). */
const radioNamed = (text) => page.getByRole('radio', {
  name: new RegExp(`^${text.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}$`),
});

async function waitForOffers(predicate, what) {
  await page.waitForFunction(
    (ids) => {
      const shown = [...document.querySelectorAll('#offer-list li.offer[data-id]')].map((li) => li.dataset.id);
      return ids.every((id) => (id.startsWith('!') ? !shown.includes(id.slice(1)) : shown.includes(id)));
    },
    predicate,
    { timeout: STEP },
  ).catch(async (e) => {
    throw new Error(`${what}: offers are ${JSON.stringify(await offerIds())} (${e.message})`);
  });
}

async function category(name) {
  await page.locator('#categories label', { hasText: name }).click();
}

/** Adds a menu item; items with modifiers go through the customise dialog. */
async function addItem(id, { modifiers = [], quantity = 1 } = {}) {
  await page.locator(`button.item[data-id="${id}"]`).click();
  const dialog = page.locator('#customize');
  if (await dialog.evaluate((d) => d.open)) {
    for (const m of modifiers) await dialog.locator(`input[value="${m}"]`).check();
    for (let i = 1; i < quantity; ++i) await page.locator('#customize-more').click();
    await page.locator('#customize-add').click();
    await page.waitForFunction(() => !document.getElementById('customize').open, null, { timeout: STEP });
  }
}

before(async () => {
  ensureWasm();
  const serviceBin = serviceBinary();
  mkdirSync(shots, { recursive: true });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-kiosk-'));
  kiosk = await startKiosk({ db: path.join(scratch, 'demo.db'), serviceBin, hubBin: hubBinary(), now: NOW });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  page.setDefaultTimeout(STEP);
  watch(page, 'kiosk');
}, { timeout: 900_000 });

after(async () => {
  await browser?.close().catch(() => {});
  await stopKiosk(kiosk);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('npm start prints the page URL; the kiosk server serves web/ and proxies the API', { timeout: 60_000 }, async () => {
  assert.match(kiosk.pageUrl, /^http:\/\/127\.0\.0\.1:\d+\/kiosk\/page\/\?now=/);
  // npm start runs the store hub beside the service: the health answer names it.
  const health = await fetch(`${kiosk.origin}/_kiosk/health`).then((r) => r.json());
  assert.deepEqual(health, { service: 'up', hub: 'up' });
  const account = await api('GET', '/api/account');
  assert.equal(account.status, 200);
  assert.equal(account.body.user.id, 'u_1001');
  assert.equal(await rawGet('/'), 302);
  assert.equal(await rawGet('/kiosk/page/'), 200);
  assert.equal(await rawGet('/web/dist/loyalty_qualifier.wasm'), 200);
  assert.equal(await rawGet('/..%2fpackage.json'), 403);
  assert.equal(await rawGet('/kiosk/page/..%2f..%2fpackage.json'), 403);
  assert.equal(await rawGet('/kiosk/page/nothing-here.js'), 404);
});

test('the page starts online with the first demo guest and an empty basket', { timeout: 60_000 }, async () => {
  await page.goto(`${kiosk.pageUrl}&poll=1&max_age=${MAX_AGE_S}`);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#status[data-state="online"]');
  assert.equal(await page.locator('#merchant-name').textContent(), 'Harbor Coffee');
  assert.match(await page.locator('#wallet').textContent(), /450 beans.*9 rewards/);
  assert.equal(await page.locator('#offers-empty').textContent(), 'Add items to see your offers.');
  assert.equal(await page.locator('#provisional').isHidden(), true);
  assert.equal(await page.locator('#checkout').isDisabled(), true);
  // An empty basket explains nothing: no "Why not the others?" list.
  assert.equal(await page.locator('#others-section').isHidden(), true);
  await shoot('01-start.png');
});

// The kiosk's engine worker: the build's bundle of kiosk/page/engine_worker.js (the package's
// worker script), kiosk/page/dist/engine_worker.js.
const ENGINE_WORKER = /\/kiosk\/page\/dist\/engine_worker\.js$/;
const engineWorkers = (p) => p.workers().filter((w) => ENGINE_WORKER.test(new URL(w.url()).pathname));

test('the page\'s engine runs in a dedicated Worker; ?worker=off runs it without one', { timeout: 60_000 }, async () => {
  await page.waitForSelector('body[data-engine]', { state: 'attached' });
  assert.equal(await page.evaluate(() => document.body.dataset.engine), 'worker');
  assert.equal(engineWorkers(page).length, 1, `workers: ${page.workers().map((w) => w.url())}`);
  // The worker hosts the package's engine: its global is a worker's, its module graph the package's.
  assert.equal(await engineWorkers(page)[0].evaluate(() => typeof document === 'undefined' && typeof postMessage), 'function');

  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  try {
    const inThread = await context.newPage();
    watch(inThread, 'worker=off');
    await inThread.goto(`${kiosk.pageUrl}&poll=600&worker=off`);
    await inThread.waitForSelector('body[data-engine]', { state: 'attached' });
    assert.equal(await inThread.evaluate(() => document.body.dataset.engine), 'thread');
    await inThread.locator('#categories label', { hasText: 'Coffee' }).click();
    await inThread.locator('button.item[data-id="latte"]').click();
    await inThread.locator('#customize-add').click();
    await inThread.waitForSelector('#offer-list li[data-id="rw_free_latte"]');
    assert.deepEqual(inThread.workers().map((w) => w.url()), [], 'no worker with ?worker=off');
  } finally {
    await context.close();
  }
});

test('a worker that cannot start is not silent: the engine runs in the page\'s thread, with a warning', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  try {
    // The worker's script cannot be fetched (as for a browser offline whose worker is outside the
    // service worker's scope): the offers still show, computed in the page's thread.
    await context.route(ENGINE_WORKER, (route) => route.abort('internetdisconnected'));
    const broken = await context.newPage();
    const warnings = [];
    broken.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    broken.on('pageerror', (error) => consoleErrors.push(`broken-worker page error: ${error.message}`));
    await broken.goto(`${kiosk.pageUrl}&poll=600`);
    await broken.waitForSelector('body[data-engine]', { state: 'attached' });
    assert.equal(await broken.evaluate(() => document.body.dataset.engine), 'thread');
    assert.ok(warnings.some((w) => /qualifier worker could not start .*runs the engine in this thread/.test(w)),
      `a console warning says so: ${JSON.stringify(warnings)}`);
    await broken.locator('#categories label', { hasText: 'Coffee' }).click();
    await broken.locator('button.item[data-id="latte"]').click();
    await broken.locator('#customize-add').click();
    await broken.waitForSelector('#offer-list li[data-id="rw_free_latte"]');
  } finally {
    await context.close();
  }
});

test('adding items recomputes the offers locally, with "spend more" hints', { timeout: 60_000 }, async () => {
  const apiCalls = [];
  const onRequest = (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/baskets')) apiCalls.push(request.url());
  };
  page.on('request', onRequest);

  await addItem('latte');
  await waitForOffers(['rw_free_latte', 'pp_two_off'], 'a latte');
  assert.equal(await bestId(), 'rw_free_latte');
  assert.deepEqual(await offerIds(), ['rw_free_latte', 'pp_two_off']);
  assert.deepEqual(await hintIds(), ['rw_welcome5']);
  assert.match(await page.locator('#hints').textContent(), /Spend \$10\.25 more to unlock \$5 off your order/);
  assert.match(await page.locator('#timing').textContent(), /^Computed on this device in (< 0\.1|\d+\.\d) ms$/);
  assert.equal(await page.locator('#subtotal').textContent(), '$4.75');
  // Each offer's radio is named by its label and saving, not by its whole card ("−$4.75", the fine print).
  assert.equal(await radioNamed('Free latte or cappuccino Saves $4.75').count(), 1);
  assert.equal(await radioNamed('No offer this time').count(), 1);
  // The rest of the card describes it.
  assert.match(await page.locator('#offer-list input[value="rw_free_latte"]').evaluate((input) =>
    input.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' | ')),
  /^Best offer \| until Dec 31 \| Any size; syrups included up to \$6\.$/);

  await category('Pastries');
  await addItem('croissant');
  await waitForOffers(['rw_downtown_pastry', 'pp_pastry'], 'a latte and a croissant');
  // Rewards by expiry, then points products by cost (the contract's order).
  assert.deepEqual(await offerIds(), ['rw_free_latte', 'rw_downtown_pastry', 'pp_two_off', 'pp_pastry']);
  assert.match(await page.locator('#hints').textContent(), /Spend \$6\.50 more/);
  assert.equal(await page.locator('#subtotal').textContent(), '$8.50');

  // A second croissant: the buy-one-get-one reward needs two.
  await page.locator('#lines li', { hasText: 'Croissant' }).getByRole('button', { name: 'One more Croissant' }).click();
  await waitForOffers(['rw_bogo_croissant'], 'two croissants');
  await page.locator('#lines li', { hasText: 'Croissant' }).getByRole('button', { name: 'One less Croissant' }).click();
  await waitForOffers(['!rw_bogo_croissant'], 'back to one croissant');
  assert.equal(await page.locator('#subtotal').textContent(), '$8.50');

  // Online delivery brings the delivery-only reward; in store it goes again.
  await page.locator('#venue label', { hasText: 'Online' }).click();
  await page.locator('#handoff-options label', { hasText: 'Delivery' }).click();
  await waitForOffers(['rw_delivery_3'], 'online delivery');
  await page.locator('#venue label', { hasText: 'In store' }).click();
  await waitForOffers(['!rw_delivery_3'], 'in store');

  page.off('request', onRequest);
  assert.deepEqual(apiCalls, [], 'offers must be computed in the page, not by the service');
  await shoot('02-offers.png');
});

test('crossing the minimum unlocks the $5 reward, which becomes the best offer', { timeout: 60_000 }, async () => {
  await category('Breakfast');
  await addItem('egg_sandwich');
  assert.equal(await page.locator('#subtotal').textContent(), '$15.45');
  await waitForOffers(['rw_welcome5', 'rw_breakfast_20'], 'over $15');
  assert.equal(await bestId(), 'rw_welcome5');
  assert.deepEqual(await hintIds(), []);
  assert.equal(await page.locator('#offer-list input[value="rw_welcome5"]').isChecked(), true);
  assert.equal(await page.locator('#discount').textContent(), '\u2212$5.00');
  assert.equal(await page.locator('#total').textContent(), '$10.45');
  await shoot('03-minimum-crossed.png');
});

test('checkout confirms with the service, bills the basket; the reward is gone and points change', { timeout: 90_000 }, async () => {
  // Choosing another offer, then the best one again, by tapping the cards.
  await page.locator('#offer-list li[data-id="pp_pastry"] label').click();
  assert.equal(await page.locator('#total').textContent(), '$11.70');
  await page.locator('#offer-list li[data-id="rw_welcome5"] label').click();
  assert.equal(await page.locator('#total').textContent(), '$10.45');

  await page.locator('#checkout').click();
  await page.waitForSelector('#pay');
  const confirm = await page.locator('#checkout-dialog').textContent();
  assert.match(confirm, /Confirmed by the loyalty service: “\$5 off your order”/);
  assert.doesNotMatch(confirm, /differed/);
  assert.match(await page.locator('#pay').textContent(), /Pay \$10\.45/);
  await shoot('04-checkout-confirm.png');

  await page.locator('#pay').click();
  await page.waitForSelector('#new-order');
  assert.match(await page.locator('#checkout-dialog').textContent(), /Paid \$10\.45.*You saved \$5\.00 with “\$5 off your order”/s);
  await shoot('05-paid.png');
  await page.locator('#new-order').click();
  // The order is placed and the basket empty (Checkout disabled): focus goes to the menu's heading,
  // where the next order starts, never to <body>; the empty basket has no "why not" list.
  await page.waitForFunction(() => !document.getElementById('checkout-dialog').open);
  await page.waitForFunction(() => document.activeElement?.id === 'menu-title', null, { timeout: STEP });
  await page.waitForSelector('#others-section', { state: 'hidden' });

  // The service redeemed it; the page's snapshot follows.
  const account = await api('GET', '/api/account');
  assert.equal(account.body.rewards.find((r) => r.id === 'rw_welcome5').state, 'redeemed');
  await page.waitForFunction(() => /8 rewards/.test(document.getElementById('wallet').textContent), null, { timeout: STEP });
  // $10.45 paid at 10 beans per dollar lands after the 1 s processing delay: 450 + 104.
  await page.waitForFunction(() => /554 beans/.test(document.getElementById('wallet').textContent), null, { timeout: STEP });
  assert.match(await page.locator('#wallet .delta').textContent(), /\+104/);

  assert.equal(await page.locator('#basket-empty').isVisible(), true);
  await category('Coffee');
  await addItem('latte');
  await category('Pastries');
  await addItem('croissant');
  await category('Breakfast');
  await addItem('egg_sandwich');
  assert.equal(await page.locator('#subtotal').textContent(), '$15.45');
  await waitForOffers(['rw_free_latte', '!rw_welcome5'], 'the same order again');
  assert.ok(!(await hintIds()).includes('rw_welcome5'));
  assert.ok(!(await page.locator('#others').textContent()).includes('$5 off your order'));
  assert.equal(await bestId(), 'rw_free_latte');
  await shoot('06-after-redeem.png');
});

test('with the service stopped, offers come from the stored snapshot, provisional with their age, and orders can still be placed', { timeout: 90_000 }, async () => {
  await kioskCommand(kiosk, 'stop', /service stopped/);
  assert.deepEqual(await fetch(`${kiosk.origin}/_kiosk/health`).then((r) => r.json()), { service: 'down', hub: 'up' });
  assert.equal((await api('GET', '/api/account')).status, 503);

  await page.waitForSelector('#status[data-state="offline"]');
  await page.waitForSelector('#provisional:not([hidden])');
  assert.match(await page.locator('#provisional-note').textContent(), /Offline: computed from your account/);
  assert.equal(await page.locator('#checkout').isDisabled(), false, 'an order can be placed offline (queued)');
  assert.match(await page.locator('#checkout-note').textContent(), /Offline: the loyalty service is not reachable/);
  assert.ok((await offerIds()).includes('rw_free_latte'));

  // Stopped for longer than maxAgeMs: the offers stay, provisional, with the snapshot's age.
  await page.waitForFunction((ms) => Number(document.getElementById('provisional-note').dataset.snapshotAgeMs) > ms,
    MAX_AGE_S * 1000, { timeout: STEP });
  await page.waitForFunction(() => /Provisional · account \d+ s old/.test(
    document.querySelector('#offer-list li[data-id="rw_free_latte"] .age')?.textContent ?? ''), null, { timeout: STEP });
  assert.match(await page.locator('#provisional-note').textContent(), /\(\d+ s old\)/);

  // Still recomputed on every change while offline.
  await page.locator('#lines li', { hasText: 'Egg sandwich' }).getByRole('button', { name: 'Remove Egg sandwich' }).click();
  await waitForOffers(['!rw_breakfast_20'], 'without the egg sandwich, offline');
  await shoot('07-offline.png');

  // A reload while the service is down: the cached snapshot still gives offers.
  await page.reload();
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#status[data-state="offline"]');
  assert.equal(await page.locator('#location').inputValue(), 'harbor-downtown');
  await category('Coffee');
  await addItem('latte');
  await waitForOffers(['rw_free_latte', 'pp_two_off'], 'a latte after a reload, offline');
  assert.equal(await page.locator('#provisional').isVisible(), true);
  assert.match(await page.locator('#wallet').textContent(), /554 beans/);
  await shoot('08-offline-after-reload.png');
});

test('when the service is back, the page goes online and checkout is possible again', { timeout: 90_000 }, async () => {
  await kioskCommand(kiosk, 'start', /service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  await page.waitForSelector('#status[data-state="online"]', { timeout: 30_000 });
  await page.waitForSelector('#provisional', { state: 'hidden' });
  assert.equal(await page.locator('#checkout').isDisabled(), false);

  // The checkout dialog closed with the basket kept (Back, Escape): focus returns to Checkout.
  for (const close of [() => page.locator('#checkout-actions button:not(#pay)').click(), () => page.keyboard.press('Escape')]) {
    await page.locator('#checkout').click();
    await page.waitForSelector('#pay');
    await close();
    await page.waitForFunction(() => !document.getElementById('checkout-dialog').open, null, { timeout: STEP });
    await page.waitForFunction(() => document.activeElement?.id === 'checkout', null, { timeout: STEP });
  }
});

test('a late close event of an earlier customize dialog does not disarm the next one', { timeout: 60_000 }, async () => {
  await category('Coffee');
  // Closing the dialog queues its 'close' event; opening it again before that event is
  // dispatched (Escape, then Enter on the item at once) must leave the new opening working.
  await page.evaluate(async () => {
    const item = document.querySelector('button.item[data-id="cappuccino"]');
    const dialog = document.getElementById('customize');
    item.click();
    const closed = new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
    dialog.close();
    item.click(); // open again, before the queued 'close' runs
    await closed;
  });
  assert.equal(await page.evaluate(() => document.getElementById('customize').open), true);
  await page.locator('#customize-add').click();
  await page.waitForFunction(() => !document.getElementById('customize').open, null, { timeout: STEP });
  await page.waitForFunction(() => /Cappuccino/.test(document.getElementById('lines').textContent), null,
    { timeout: STEP });
  await page.locator('#lines li', { hasText: 'Cappuccino' }).getByRole('button', { name: 'Remove Cappuccino' }).click();
  await page.waitForFunction(() => !/Cappuccino/.test(document.getElementById('lines').textContent), null,
    { timeout: STEP });
});

test('the page is usable by keyboard', { timeout: 60_000 }, async () => {
  await category('Coffee');
  await page.locator('button.item[data-id="cappuccino"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('customize').open);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'customize-add');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.getElementById('customize').open);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.id), 'cappuccino');

  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('customize').open, null, { timeout: STEP });
  await page.locator('#customize input[value="oat_milk"]').focus();
  await page.keyboard.press('Space');
  // Each step waits for its effect: on a loaded machine a key press may land late.
  await page.waitForFunction(() => document.querySelector('#customize input[value="oat_milk"]').checked, null,
    { timeout: STEP });
  await page.locator('#customize-add').focus();
  await page.waitForFunction(() => document.activeElement?.id === 'customize-add', null, { timeout: STEP });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('customize').open, null, { timeout: STEP });
  // Added: focus is back on the item that opened the dialog.
  await page.waitForFunction(() => document.activeElement?.dataset.id === 'cappuccino', null, { timeout: STEP });
  // The basket re-renders after the dialog closes: wait for the line rather than race it.
  await page.waitForFunction(() => /Cappuccino\s*Oat milk/.test(document.getElementById('lines').textContent), null,
    { timeout: STEP });
  await waitForOffers(['rw_oat_milk'], 'a cappuccino with oat milk');

  // Radio groups move with the arrow keys.
  await page.locator('#venue input[value="instore"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#venue input[value="online"]').checked, null,
    { timeout: STEP });
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement.nextElementSibling).outlineStyle);
  assert.equal(outline, 'solid', 'the focused choice shows a focus ring');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#venue input[value="instore"]').checked, null,
    { timeout: STEP });

  // The reasons of the other offers open from the keyboard too.
  await page.waitForFunction(() => /\$3 off delivery: .*handoff/.test(document.getElementById('others').textContent),
    null, { timeout: STEP });
  await page.locator('#others-section summary').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('others-section').open, null, { timeout: STEP });
  await page.locator('#others-section').scrollIntoViewIfNeeded();
  await shoot('09-keyboard.png');
  await page.keyboard.press('Enter');
});

test('choosing another guest loads their account, merchant and menu', { timeout: 60_000 }, async () => {
  await page.locator('#guest').selectOption('u_2001');
  await page.waitForFunction(() => document.getElementById('merchant-name').textContent === 'Corner Bakery');
  await page.waitForFunction(() => /300 crumbs/.test(document.getElementById('wallet').textContent));
  assert.equal(await page.locator('#basket-empty').isVisible(), true, 'another merchant: a new basket');
  assert.deepEqual(await page.locator('#location option').allTextContents(), ['Main Street']);
  await addItem('sourdough', { modifiers: ['sliced'] });
  await waitForOffers(['rw_2001_free_loaf'], 'a sourdough loaf for Dana');
  await category('Cookies');
  await addItem('chocolate_chip_cookie');
  await waitForOffers(['pp_bakery_cookie'], 'a cookie for Dana');
  await shoot('10-other-guest.png');

  await page.locator('#guest').selectOption('u_1001');
  await page.waitForFunction(() => document.getElementById('merchant-name').textContent === 'Harbor Coffee');
  await page.waitForFunction(() => /554 beans/.test(document.getElementById('wallet').textContent));
});

test('touch at phone size and a portrait kiosk render without errors', { timeout: 90_000 }, async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const touchPage = await phone.newPage();
    watch(touchPage, 'phone');
    await touchPage.goto(`${kiosk.pageUrl}&poll=1`);
    await touchPage.waitForSelector('#status[data-state="online"]');
    await touchPage.locator('button.item[data-id="drip_coffee"]').tap();
    await touchPage.locator('#customize-add').tap();
    await touchPage.waitForSelector('#offer-list li[data-id="pp_drip"]');
    const target = await touchPage.locator('#lines button.round').first().boundingBox();
    assert.ok(target.width >= 44 && target.height >= 44, `touch targets are at least 44 px (${target.width})`);
    await shoot('11-phone.png', touchPage);
  } finally {
    await phone.close();
  }

  const portrait = await browser.newContext({ viewport: { width: 1080, height: 1920 } });
  try {
    const kioskPage = await portrait.newPage();
    watch(kioskPage, 'portrait');
    await kioskPage.goto(`${kiosk.pageUrl}&poll=1`);
    await kioskPage.waitForSelector('#status[data-state="online"]');
    await kioskPage.locator('button.item[data-id="latte"]').click();
    await kioskPage.locator('#customize-add').click();
    await kioskPage.waitForSelector('#offer-list li[data-id="rw_free_latte"]');
    const size = await kioskPage.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.item .name')).fontSize));
    assert.ok(size >= 20, `item names are readable at kiosk size (${size}px)`);
    await shoot('12-portrait-kiosk.png', kioskPage);
  } finally {
    await portrait.close();
  }
});

test('checkout refuses an offer the service no longer confirms, and refreshes the offers', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  try {
    const stale = await context.newPage();
    watch(stale, 'stale');
    await stale.goto(`${kiosk.pageUrl}&poll=600`);  // no refresh of its own during the test
    await stale.waitForSelector('#status[data-state="online"]');
    await stale.locator('button.item[data-id="latte"]').click();
    await stale.locator('#customize-add').click();
    await stale.waitForSelector('#offer-list li.best[data-id="rw_free_latte"] input:checked');

    // Meanwhile the reward is used elsewhere (another till).
    const billed = await api('POST', '/api/baskets', { id: 'other-till-1', state: 'billed', rewards: ['rw_free_latte'],
      subtotal: '4.75', items: [{ id: 'latte', price: '4.75' }] });
    assert.equal(billed.status, 201);

    await stale.locator('#checkout').click();
    await stale.waitForSelector('#checkout-dialog .error');
    assert.match(await stale.locator('#checkout-dialog').textContent(),
      /no longer offers “Free latte or cappuccino”/);
    await shoot('13-offer-no-longer-confirmed.png', stale);
    await stale.getByRole('button', { name: 'Back to the order' }).click();
    await stale.waitForFunction(() => !document.querySelector('#offer-list li[data-id="rw_free_latte"]'));
    assert.equal(await stale.locator('#offer-list li.best').getAttribute('data-id'), 'pp_two_off');
  } finally {
    await context.close();
  }
});

// ------------------------------------------------------------------------------------------
// Offline for real: a second kiosk server in this process, which the tests can close (the network
// gone), in front of a TCP proxy that can lose the service's answers. Its page runs in its own
// browser context (its own service worker, IndexedDB and outbox).

let site;  // { server, origin, port, proxy, serviceUp, context, page, errors }

/** The service's current base URL, from the kiosk's log (a restarted service has a new port). */
function serviceUrl() {
  const urls = [...kiosk.stderr.matchAll(/kiosk: service: (http:\/\/127\.0\.0\.1:\d+) \(pid/g)];
  return urls.at(-1)[1];
}

async function listen(server, port) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server.address().port;
}

async function closeSite() {
  site.server.closeAllConnections?.();
  await new Promise((resolve) => site.server.close(resolve));
}

async function stopService() {
  await kioskCommand(kiosk, 'stop', /service stopped/);
  site.serviceUp = false;
}

async function startService() {
  await kioskCommand(kiosk, 'start', /service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  site.serviceUp = true;
}

function siteUrl(extra = '') {
  return `${site.origin}/kiosk/page/?now=${encodeURIComponent(NOW)}&poll=1&retry=1&guest=u_1002${extra}`;
}

async function openSitePage(extra = '') {
  await site.page.goto(siteUrl(extra));
  await site.page.waitForSelector('body[data-ready]');
}

/** Blair orders a latte on the site page and goes to checkout (offer: an offer id or null). */
async function orderLatte(offer) {
  const p = site.page;
  await p.locator('#categories label', { hasText: 'Coffee' }).click();
  await p.locator('button.item[data-id="latte"]').click();
  await p.locator('#customize-add').click();
  await p.waitForSelector('#offer-list li[data-id="rw_1002_any_coffee"]');
  await p.locator(offer ? `#offer-list li[data-id="${offer}"] label` : '#offer-list li.none label').click();
  await p.locator('#checkout').click();
  await p.waitForSelector('#pay');
}

test('a second kiosk site in front of a lossy proxy', { timeout: 60_000 }, async () => {
  site = { serviceUp: true, errors: [] };
  site.proxy = await startLossyProxy(serviceUrl);
  site.server = createKioskServer({ upstream: () => (site.serviceUp ? site.proxy.url : null) });
  site.port = await listen(site.server, 0);
  site.origin = `http://127.0.0.1:${site.port}`;
  site.context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  site.page = await site.context.newPage();
  site.page.setDefaultTimeout(STEP);
  site.page.on('console', (message) => {
    if (message.type() === 'error') site.errors.push(`${message.text()} @ ${message.location().url}`);
  });
  site.page.on('pageerror', (error) => consoleErrors.push(`site page error: ${error.message}`));

  // Static files carry validators: a revalidation is a 304.
  const first = await fetch(`${site.origin}/kiosk/page/kiosk.js`);
  await first.arrayBuffer();
  assert.equal(first.headers.get('cache-control'), 'no-cache');
  assert.match(first.headers.get('etag'), /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  assert.ok(first.headers.get('last-modified'));
  const again = await fetch(`${site.origin}/kiosk/page/kiosk.js`, { headers: { 'If-None-Match': first.headers.get('etag') } });
  assert.equal(again.status, 304);
  const since = await fetch(`${site.origin}/kiosk/page/kiosk.js`, { headers: { 'If-Modified-Since': first.headers.get('last-modified') } });
  assert.equal(since.status, 304);
  // The account: a strong ETag and 304 through the proxy as well.
  const account = await fetch(`${site.origin}/api/account`, { headers: { Authorization: `Bearer ${ALEX.token}`, 'Merchant-Key': ALEX.key, Accept: MEDIA_TYPE } });
  await account.arrayBuffer();
  const etag = account.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
  const unchanged = await fetch(`${site.origin}/api/account`, { headers: { Authorization: `Bearer ${ALEX.token}`, 'Merchant-Key': ALEX.key, Accept: MEDIA_TYPE, 'If-None-Match': etag } });
  assert.equal(unchanged.status, 304);
});

test('with the network off, a reload shows the page and the guest\'s offers (service worker + IndexedDB)', { timeout: 120_000 }, async () => {
  const p = site.page;
  await openSitePage();
  await p.waitForSelector('#status[data-state="online"]');
  await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: STEP });
  await p.evaluate(() => navigator.serviceWorker.ready);
  // Unchanged polls are 304s: the snapshot object stays, nothing is reloaded.
  const statuses = [];
  const onResponse = (response) => {
    if (new URL(response.url()).pathname === '/api/account') statuses.push(response.status());
  };
  p.on('response', onResponse);
  const deadline = Date.now() + STEP;
  while (statuses.filter((s) => s === 304).length < 2 && Date.now() < deadline) await p.waitForTimeout(100);
  p.off('response', onResponse);
  assert.ok(statuses.filter((s) => s === 304).length >= 2, `polls answered 304: ${statuses}`);

  // The network goes: the server is closed and the browser is offline.
  await closeSite();
  await site.context.setOffline(true);
  try {
    await p.reload();
    await p.waitForSelector('body[data-ready]');
    await p.waitForSelector('#status[data-state="offline"]');
    assert.match(await p.locator('#wallet').textContent(), /2,600 beans/);
    await p.locator('#categories label', { hasText: 'Coffee' }).click();
    await p.locator('button.item[data-id="latte"]').click();
    await p.locator('#customize-add').click();
    await p.waitForSelector('#offer-list li[data-id="rw_1002_any_coffee"]');
    assert.equal(await p.locator('#provisional').isVisible(), true);
    // Computed in the engine's worker: its script and modules came from the service worker's cache.
    await p.waitForSelector('body[data-engine]', { state: 'attached' });
    assert.equal(await p.evaluate(() => document.body.dataset.engine), 'worker');
    assert.equal(engineWorkers(p).length, 1, `workers: ${p.workers().map((w) => w.url())}`);
    await shoot('14-offline-reload.png', p);
  } finally {
    await listen(site.server, site.port);  // the server first: the page retries on 'online'
    await site.context.setOffline(false);
  }
  await p.waitForSelector('#status[data-state="online"]');
});

test('a lost answer to a billing: the order ends billed, with exactly one debit', { timeout: 120_000 }, async () => {
  const p = site.page;
  await openSitePage();
  await p.waitForSelector('#status[data-state="online"]');
  const before = await balance('u_1002');
  site.proxy.dropAnswers(1, /^POST \/api\/baskets HTTP/);
  await orderLatte('pp_two_off');
  assert.match(await p.locator('#pay').textContent(), /Pay \$2\.75/);
  await p.locator('#pay').click();
  await p.waitForSelector('#checkout-dialog .queued');
  const dialog = await p.locator('#checkout-dialog').textContent();
  assert.doesNotMatch(dialog, /nothing was charged/i);
  assert.match(dialog, /has not confirmed it yet/);
  assert.equal(site.proxy.state.dropped, 1, 'the service answered; the answer was lost');
  // The receipt names the order (the replay may already have settled it by now).
  const basketId = (await p.locator('#checkout-dialog .receipt-id').textContent()).replace(/^Order /, '');
  assert.match(basketId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await shoot('15-lost-answer-queued.png', p);
  await p.locator('#new-order').click();

  // The replay (backoff timer) re-sends the same basket: billed once.
  await p.waitForSelector(`#orders li[data-status="billed"][data-basket-id="${basketId}"]`, { timeout: 60_000 });
  assert.equal(await p.locator('#orders li[data-status="queued"]').count(), 0);
  // 200 beans debited once; $2.75 paid accrues 27 beans once (after the 1 s processing delay).
  await waitForBalance('u_1002', before - 200 + 27, 'exactly one debit and one accrual');
  // The id names that one order: re-sent with another body, it is refused (409), nothing billed.
  const resent = await api('POST', '/api/baskets', { id: basketId, state: 'billed', subtotal: '4.75', items: [{ id: 'latte', price: '4.75' }] }, 'u_1002');
  assert.equal(resent.status, 409, 'the basket exists, billed with another body');
  assert.match(resent.body.message, new RegExp(`basket ${basketId} was billed with another body`));
  await waitForBalance('u_1002', before - 200 + 27, 'still exactly one debit and one accrual');
  await shoot('16-lost-answer-billed.png', p);
});

test('checkout with the service down: queued; reload; service back; replayed exactly once', { timeout: 180_000 }, async () => {
  const p = site.page;
  await openSitePage();
  await p.waitForSelector('#status[data-state="online"]');
  const before = await balance('u_1002');
  await stopService();
  let basketId;
  try {
    await p.waitForSelector('#status[data-state="offline"]');
    await orderLatte('rw_1002_any_coffee');
    const offline = await p.locator('#checkout-dialog').textContent();
    assert.match(offline, /not reachable right now/);
    assert.match(offline, /Offers are not redeemed offline/);
    assert.match(await p.locator('#pay').textContent(), /pay \$4\.75/);
    await p.locator('#pay').click();
    await p.waitForSelector('#checkout-dialog .queued');
    assert.match(await p.locator('#checkout-dialog').textContent(), /Order placed: \$4\.75\. The loyalty service has not confirmed it yet/);
    assert.doesNotMatch(await p.locator('#checkout-dialog').textContent(), /nothing was charged/i);
    basketId = await p.locator('#orders li[data-status="queued"]').first().getAttribute('data-basket-id');
    await p.locator('#new-order').click();

    await p.reload();
    await p.waitForSelector('body[data-ready]');
    await p.waitForSelector(`#orders li[data-status="queued"][data-basket-id="${basketId}"]`);
    assert.match(await p.locator('#status').textContent(), /1 order waiting/);
    await shoot('17-queued-offline.png', p);
  } finally {
    await startService();
  }
  await p.waitForSelector(`#orders li[data-status="billed"][data-basket-id="${basketId}"]`, { timeout: 60_000 });
  await p.waitForSelector('#status[data-state="online"]');
  // At full price (the offline policy "never"): no redemption, 47 beans accrued once.
  await waitForBalance('u_1002', before + 47, 'billed once, at full price');
  const account = await api('GET', '/api/account', undefined, 'u_1002');
  assert.equal(account.body.rewards.find((r) => r.id === 'rw_1002_any_coffee').state ?? 'redeemable', 'redeemable');
});

// Needs issue 19's checkout (a provisional offer refused on replay is billed without it).
test('a queued order whose provisional offer is refused on replay is billed without it, and says so', { timeout: 180_000 }, async () => {
  const p = site.page;
  await openSitePage('&offline=provisional');
  await p.waitForSelector('#status[data-state="online"]');
  await stopService();
  let basketId;
  try {
    await p.waitForSelector('#status[data-state="offline"]');
    await orderLatte('rw_1002_any_coffee');
    assert.match(await p.locator('#checkout-dialog').textContent(), /applied provisionally/);
    await p.locator('#pay').click();
    await p.waitForSelector('#checkout-dialog .queued');
    basketId = await p.locator('#orders li[data-status="queued"]').first().getAttribute('data-basket-id');
    await p.locator('#new-order').click();
    await p.goto('about:blank');  // no replay while the reward is used elsewhere
  } finally {
    await startService();
  }
  const elsewhere = await api('POST', '/api/baskets', { id: 'other-till-any-coffee', state: 'billed', rewards: ['rw_1002_any_coffee'],
    redemption_venue: 'instore', subtotal: '4.75', items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }] }, 'u_1002');
  assert.equal(elsewhere.status, 201, JSON.stringify(elsewhere.body));

  const before = await balance('u_1002');
  await openSitePage('&offline=provisional');  // the start-up replay
  // The service refuses the reward (400); the sale is billed without it under a derived basket id.
  const settled = p.locator(`#orders li[data-status="billed"][data-offer-refused][data-basket-id="${basketId}"]`);
  await settled.waitFor({ timeout: 60_000 });
  const text = await settled.textContent();
  assert.match(text, /Billed without Any coffee drink on us: the offer was no longer available; \$4\.75 not applied/);
  assert.doesNotMatch(text, /saved/);
  assert.notEqual(await settled.getAttribute('data-billed-as'), basketId);
  assert.equal(await p.locator('#orders li[data-status="queued"]').count(), 0);
  // Billed once at full price: 47 beans for $4.75, no reward redeemed by this order.
  await waitForBalance('u_1002', before + 47, 'billed once, without the offer');
  await shoot('18-offer-refused-replay.png', p);
});

test('the second site: its only console errors are the outage\'s 503s and the refusal\'s 400', async () => {
  await site.context.close();
  await closeSite();
  await site.proxy.close();
  // While its service is down, a billing and any account refresh that falls in the outage are
  // answered 503 by the kiosk server; the refused replay is the 400.
  const expected = (e) =>
    /status of 503 .*@ .*\/api\/(baskets|account)$/.test(e) || /status of 400 .*@ .*\/api\/baskets$/.test(e);
  const unexpected = site.errors.filter((e) => !expected(e));
  assert.deepEqual(unexpected, []);
});

test('no console errors or page errors on any page', () => {
  const outage = (e) => /status of 503 .* @ (.*)$/.test(e) && outageAnswers.has(e.replace(/^.* @ /, ''));
  assert.deepEqual(consoleErrors.filter((e) => !outage(e)), []);
});
