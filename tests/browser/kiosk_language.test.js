// The kiosk page in the guest's language (issue 30), against the real service in Debian's Chromium:
// the switch (English, Español, Français) changes the page's texts, the offers and the reasons,
// sets <html lang>, and a new guest starts in the default language again. Accessibility is kept by
// axe-core (injected into the page) on each state of the page in each language: any violation fails.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import esCatalog from '../../web/messages/catalogs/es.js';
import enCatalog from '../../web/messages/catalogs/en.js';
import { launchChromium } from '../js/support.js';
import { ensureWasm, serviceBinary } from '../service/harness.js';
import { kioskCommand, startKiosk, stopKiosk } from './kiosk_process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shots = path.join(root, 'test-output/kiosk');
const NOW = '2026-11-24T13:15:00Z'; // Tuesday 08:15 in New York: the breakfast reward is in its window
const STEP = 30_000;
const LANGUAGES = ['en', 'es', 'fr'];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let scratch;
let kiosk;
let browser;
let page;
const errors = [];

before(async () => {
  ensureWasm();
  const serviceBin = serviceBinary();
  mkdirSync(shots, { recursive: true });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-kiosk-language-'));
  kiosk = await startKiosk({ db: path.join(scratch, 'demo.db'), serviceBin, now: NOW });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  page.setDefaultTimeout(STEP);
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The outage's own 503s (a request that passed the health check just before `stop`) aside.
    if (message.type() === 'error' && !/status of 503/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  await page.goto(`${kiosk.pageUrl}&poll=1&retry=1`);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#status[data-state="online"]');
}, { timeout: 900_000 });

after(async () => {
  await browser?.close().catch(() => {});
  await stopKiosk(kiosk);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function useLanguage(code) {
  await page.locator(`#language label:has(input[value="${code}"])`).click();
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
}

/** axe-core's violations on the page as it is now (injected once per document). */
async function violations(what) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })));
  return found.map((v) => ({ state: what, ...v }));
}

async function addLatte() {
  await page.locator('#categories label:has(input[value="coffee"])').click();
  await page.locator('button.item[data-id="latte"]').click();
  await page.locator('#customize-add').click();
  await page.waitForFunction(() => !document.getElementById('customize').open);
  await page.waitForSelector('#offer-list li[data-id="rw_free_latte"]');
}

async function emptyBasket() {
  while (await page.locator('#lines li').count() > 0) {
    const before = await page.locator('#basket-count').textContent();
    await page.locator('#lines li').first().locator('button.round').first().click(); // one less, or remove
    await page.waitForFunction((text) => document.getElementById('basket-count').textContent !== text, before);
  }
}

test('the language switch: offers, hints and reasons in Spanish, <html lang>, and the default again for a new guest', { timeout: 120_000 }, async () => {
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await addLatte();
  await page.waitForSelector('#others-section:not([hidden])');
  await useLanguage('es');
  assert.equal(await page.locator('#offers-title [data-text="offers.title"]').textContent(), 'Ofertas');
  assert.equal(await page.locator('#offer-list li.best .badge.best').textContent(), 'Mejor oferta');
  assert.match(await page.locator('#offer-list li[data-id="rw_free_latte"] .detail').textContent(), /^Ahorra 4,75\s?US\$/);
  assert.match(await page.locator('#hints').textContent(), /Gaste 10,25\s?US\$ más para desbloquear \$5 off your order/);
  assert.match(await page.locator('#subtotal').textContent(), /^4,75\s?US\$$/);
  assert.match(await page.locator('#checkout').textContent(), /^Pagar · 0,00\s?US\$$/); // the free latte, best and chosen
  assert.match(await page.locator('#wallet').textContent(), /Hola, Alex.*450 beans.*9 recompensas/);
  assert.equal(await page.locator('#status-text').textContent(), 'En línea');
  // The reasons: the Spanish catalog's texts (those without figures), none of the English ones.
  const others = await page.locator('#others').textContent();
  const plain = (catalog) => Object.values(catalog.reasons).filter((text) => !text.includes('{'));
  assert.ok(plain(esCatalog).some((text) => others.includes(text)), `a Spanish reason in: ${others}`);
  assert.ok(!plain(enCatalog).some((text) => others.includes(text)), `no English reason in: ${others}`);
  assert.equal(await page.locator('button.item[data-id="latte"]').evaluate((b) => b.textContent.includes('personalizar y añadir')), true);
  await page.locator('#others-section summary').click();
  await shoot('language-es.png');

  // French figures too
  await useLanguage('fr');
  assert.match(await page.locator('#offer-list li[data-id="rw_free_latte"] .detail').textContent(), /^Économisez 4,75\s?\$US/);

  // Another guest: the default language again, with every text.
  await page.locator('#guest').selectOption('u_1002');
  await page.waitForFunction(() => document.documentElement.lang === 'en' && /Blair/.test(document.getElementById('wallet').textContent));
  assert.equal(await page.locator('#language input[value="en"]').isChecked(), true);
  assert.equal(await page.locator('#offers-title [data-text="offers.title"]').textContent(), 'Offers');
  assert.match(await page.locator('#wallet').textContent(), /^Hi, Blair/);
  await page.locator('#guest').selectOption('u_1001');
  await page.waitForFunction(() => /Alex/.test(document.getElementById('wallet').textContent));
  await emptyBasket();
  assert.deepEqual(errors, []);
});

async function shoot(name) {
  await page.screenshot({ path: path.join(shots, name), fullPage: true });
}

test('axe-core finds no violation on any state of the page in any language', { timeout: 600_000 }, async () => {
  const found = [];
  for (const code of LANGUAGES) {
    await useLanguage(code);
    found.push(...await violations(`${code}: start`));
    await addLatte();
    found.push(...await violations(`${code}: a basket`));
    await page.waitForSelector('#others-section:not([hidden])');
    if (!(await page.locator('#others-section').evaluate((d) => d.open))) await page.locator('#others-section summary').click();
    await page.waitForFunction(() => document.getElementById('others-section').open);
    found.push(...await violations(`${code}: why not the others`));
    await page.locator('#checkout').click();
    await page.waitForSelector('#pay');
    found.push(...await violations(`${code}: checkout`));
    await page.locator('#checkout-actions button:not(#pay)').click();
    await page.waitForFunction(() => !document.getElementById('checkout-dialog').open);
    await emptyBasket();
  }

  await kioskCommand(kiosk, 'stop', /service stopped/);
  await page.waitForSelector('#status[data-state="offline"]');
  for (const code of LANGUAGES) {
    await useLanguage(code);
    await addLatte();
    await page.locator('#checkout').click();
    await page.waitForSelector('#pay');
    await page.locator('#pay').click();
    await page.waitForSelector('#checkout-body [data-status="queued"]');
    found.push(...await violations(`${code}: an order queued offline (the dialog)`));
    await page.locator('#new-order').click();
    await page.waitForFunction(() => !document.getElementById('checkout-dialog').open);
    await page.waitForSelector('#orders li[data-status="queued"]');
    found.push(...await violations(`${code}: an order queued offline (the Orders list)`));
  }
  await shoot('language-queued.png');
  await kioskCommand(kiosk, 'start', /service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  // Back online, the queued orders are billed: the Orders list says so in the page's language.
  await page.waitForFunction(() => document.querySelectorAll('#orders li[data-status="billed"]').length === 3, null, { timeout: 90_000 });
  assert.match(await page.locator('#orders li[data-status="billed"]').first().textContent(), /Confirmée : facturée/);
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
  assert.deepEqual(errors, []);
});
