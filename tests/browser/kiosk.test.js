// The kiosk page (web/kiosk/) against the real service, as `npm start` runs it: scripts/kiosk.mjs
// on port 0 with a temporary database and a fixed service clock, driven by Debian's Chromium
// through playwright-core. Screenshots go to test-output/kiosk/. The tests run in order on one
// page: each continues the order of the previous one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { ensureWasm, serviceBinary } from '../service/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shots = path.join(root, 'test-output/kiosk');
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run'];
// Tuesday 08:15 in New York: the in-store breakfast reward is in its window.
const NOW = '2026-11-24T13:15:00Z';
const MEDIA_TYPE = 'application/vnd.service-v1+json';
const ALEX = { token: 'at_u1001_7Qx2LmN9pR4s', key: 'mk_harbor_5f1c9a7e2b' };
const STEP = 20_000;  // the longest a single UI expectation may take

let scratch;
let kiosk;  // { proc, pageUrl, origin, stderr, exited }
let browser;
let page;
const consoleErrors = [];

// The service binary comes from the service tests' harness (built under its lock, so parallel
// test files never build it twice); the kiosk runs it as is through LQ_SERVICE_BIN.
function startKiosk(db, serviceBin) {
  const proc = spawn(process.execPath, ['scripts/kiosk.mjs', '--port', '0', '--db', db,
    '--processing-delay', '1', '--now', NOW], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LQ_SERVICE_BIN: serviceBin },
  });
  const started = { proc, pageUrl: null, origin: null, stderr: '' };
  started.exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  readline.createInterface({ input: proc.stderr }).on('line', (line) => {
    started.stderr += `${line}\n`;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the kiosk printed no URL:\n${started.stderr}`)), 600_000);
    readline.createInterface({ input: proc.stdout }).once('line', (line) => {
      clearTimeout(timer);
      started.pageUrl = line.trim();
      started.origin = new URL(started.pageUrl).origin;
      resolve(started);
    });
    started.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the kiosk exited (${code ?? signal}):\n${started.stderr}`));
    });
  });
}

async function stopKiosk() {
  if (!kiosk || kiosk.proc.exitCode !== null || kiosk.proc.signalCode !== null) return;
  kiosk.proc.kill('SIGTERM');
  const timer = setTimeout(() => kiosk.proc.kill('SIGKILL'), 15_000);
  await kiosk.exited;
  clearTimeout(timer);
}

/** Types a command on the kiosk's stdin and waits for the stderr line that confirms it. */
async function kioskCommand(command, confirmation) {
  const from = kiosk.stderr.length;
  kiosk.proc.stdin.write(`${command}\n`);
  const deadline = Date.now() + 60_000;
  while (!confirmation.test(kiosk.stderr.slice(from))) {
    if (Date.now() > deadline) throw new Error(`no confirmation of "${command}":\n${kiosk.stderr.slice(from)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A loyalty API call through the kiosk's proxy, as Alex. */
async function api(method, route, body) {
  const response = await fetch(`${kiosk.origin}${route}`, {
    method,
    headers: { Authorization: `Bearer ${ALEX.token}`, 'Merchant-Key': ALEX.key, Accept: MEDIA_TYPE,
      ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.json() };
}

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

function watch(target, label) {
  target.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${label} console: ${message.text()}`);
  });
  target.on('pageerror', (error) => consoleErrors.push(`${label} page error: ${error.message}`));
}

async function shoot(name, target = page) {
  await target.screenshot({ path: path.join(shots, name), fullPage: true });
}

const offerIds = () => page.locator('#offer-list li.offer[data-id]').evaluateAll((items) => items.map((li) => li.dataset.id));
const bestId = () => page.locator('#offer-list li.offer.best').getAttribute('data-id');
const hintIds = () => page.locator('#hints li').evaluateAll((items) => items.map((li) => li.dataset.id));

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
  kiosk = await startKiosk(path.join(scratch, 'demo.db'), serviceBin);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_FLAGS, timeout: 60_000 });
  page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  page.setDefaultTimeout(STEP);
  watch(page, 'kiosk');
}, { timeout: 900_000 });

after(async () => {
  await browser?.close().catch(() => {});
  await stopKiosk();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('npm start prints the page URL; the kiosk server serves web/ and proxies the API', { timeout: 60_000 }, async () => {
  assert.match(kiosk.pageUrl, /^http:\/\/127\.0\.0\.1:\d+\/kiosk\/\?now=/);
  const health = await fetch(`${kiosk.origin}/_kiosk/health`).then((r) => r.json());
  assert.deepEqual(health, { service: 'up' });
  const account = await api('GET', '/api/account');
  assert.equal(account.status, 200);
  assert.equal(account.body.user.id, 'u_1001');
  assert.equal(await rawGet('/'), 302);
  assert.equal(await rawGet('/kiosk/'), 200);
  assert.equal(await rawGet('/dist/loyalty_qualifier.wasm'), 200);
  assert.equal(await rawGet('/..%2fpackage.json'), 403);
  assert.equal(await rawGet('/kiosk/..%2f..%2fpackage.json'), 403);
  assert.equal(await rawGet('/kiosk/nothing-here.js'), 404);
});

test('the page starts online with the first demo guest and an empty basket', { timeout: 60_000 }, async () => {
  await page.goto(`${kiosk.pageUrl}&poll=1`);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#status[data-state="online"]');
  assert.equal(await page.locator('#merchant-name').textContent(), 'Harbor Coffee');
  assert.match(await page.locator('#wallet').textContent(), /450 beans.*9 rewards/);
  assert.equal(await page.locator('#offers-empty').textContent(), 'Add items to see your offers.');
  assert.equal(await page.locator('#provisional').isHidden(), true);
  assert.equal(await page.locator('#checkout').isDisabled(), true);
  await shoot('01-start.png');
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

test('with the service stopped, offers come from the cached snapshot, provisional, and checkout waits', { timeout: 90_000 }, async () => {
  await kioskCommand('stop', /service stopped/);
  assert.deepEqual(await fetch(`${kiosk.origin}/_kiosk/health`).then((r) => r.json()), { service: 'down' });
  assert.equal((await api('GET', '/api/account')).status, 503);

  await page.waitForSelector('#status[data-state="offline"]');
  await page.waitForSelector('#provisional:not([hidden])');
  assert.match(await page.locator('#provisional-note').textContent(), /Offline: computed from your account/);
  assert.equal(await page.locator('#checkout').isDisabled(), true);
  assert.match(await page.locator('#checkout-note').textContent(), /Checkout needs the loyalty service/);
  assert.ok((await offerIds()).includes('rw_free_latte'));

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
  await kioskCommand('start', /service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  await page.waitForSelector('#status[data-state="online"]', { timeout: 30_000 });
  await page.waitForSelector('#provisional', { state: 'hidden' });
  assert.equal(await page.locator('#checkout').isDisabled(), false);
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
  await page.waitForFunction(() => document.getElementById('customize').open);
  await page.locator('#customize input[value="oat_milk"]').focus();
  await page.keyboard.press('Space');
  await page.locator('#customize-add').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('customize').open);
  // The basket re-renders after the dialog closes: wait for the line rather than race it.
  await page
    .waitForFunction(() => /Cappuccino\s*Oat milk/.test(document.getElementById('lines').textContent), null, {
      timeout: 10_000,
    })
    .catch(() => {});
  assert.match(await page.locator('#lines').textContent(), /Cappuccino\s*Oat milk/);
  await waitForOffers(['rw_oat_milk'], 'a cappuccino with oat milk');

  // Radio groups move with the arrow keys.
  await page.locator('#venue input[value="instore"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#venue input[value="online"]').isChecked(), true);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement.nextElementSibling).outlineStyle);
  assert.equal(outline, 'solid', 'the focused choice shows a focus ring');
  await page.keyboard.press('ArrowLeft');

  // The reasons of the other offers open from the keyboard too.
  await page.locator('#others-section summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#others-section').evaluate((d) => d.open), true);
  assert.match(await page.locator('#others').textContent(), /\$3 off delivery: .*handoff/);
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

test('no console errors or page errors on any page', () => {
  assert.deepEqual(consoleErrors, []);
});
