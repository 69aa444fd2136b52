// The kiosk page in the guest's language (issues 30 and 39), against the real service in Debian's
// Chromium: the switch (English, Español, Français, Deutsch, Português) changes the page's texts,
// the menu, the offers (described in the guest's language, the merchant's labels being English) and
// the reasons, with amounts as the store writes them (its region: US), sets <html lang>, and a new
// guest starts in the default language again. The whole page's text in each language holds no word
// of the demo's English. Accessibility is kept by axe-core (injected into the page) on each state
// of the page in each language: any violation fails.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import esCatalog from '../../../web/messages/catalogs/es.js';
import enCatalog from '../../../web/messages/catalogs/en.js';
import { launchChromium } from '../../support/support.js';
import { ensureWasm, serviceBinary } from '../../service/harness.js';
import { kioskCommand, startKiosk, stopKiosk } from './kiosk_process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shots = path.join(root, 'test-output/kiosk');
const NOW = '2026-11-24T13:15:00Z'; // Tuesday 08:15 in New York: the breakfast reward is in its window
const STEP = 30_000;
const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt-BR'];
// Words of the demo's English (its menu, locations, points, offers and the page's own texts) that no
// other language's page may show; proper names (merchants, guests, Brooklyn, Main Street, the
// languages' own names) are taken out of the text first.
const ENGLISH_WORDS = ['Drip', 'Pastries', 'Breakfast', 'Seasonal', 'Merch', 'Blueberry', 'Cinnamon', 'Oatmeal',
  'Peppermint', 'tote', 'Cold brew', 'Egg', 'Sourdough', 'Downtown', 'Airport', 'beans', 'Free', 'free', 'Spend',
  'off your order', 'Your order', 'basket', 'Checkout', 'milk', 'Extra shot', 'Warmed', 'Steamed', 'House blend',
  'Holiday', 'Why not', 'Unlock', 'Best offer', 'Dine in', 'Take out', 'Location', 'Guest', 'Language', 'Handoff',
  'Venue', 'Saves', 'uses', 'until', 'rewards', 'Hi', 'Computed', 'Store hub', 'reachable', 'The reward', 'Not available',
  'Quantity', 'Cancel', 'Order', 'order', 'Offers', 'Coffee extras', 'Any size', 'Orders of'];
const PROPER_NAMES = ['Harbor Coffee', 'Corner Bakery', 'Harbor', 'Alex', 'Blair', 'Casey', 'Dana', 'Brooklyn', 'Main Street',
  'English', 'Español', 'Français', 'Deutsch', 'Português (Brasil)'];
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

/** An amount as Chromium's Intl writes it in `tag`, in US dollars (the demo store's currency). */
const dollars = (tag, amount) => page.evaluate(([t, a]) => new Intl.NumberFormat(t, { style: 'currency', currency: 'USD' }).format(a), [tag, amount]);

/** Every text of the page: <title>, the body's text (hidden parts too), labels, accessible names. */
const pageText = () => page.evaluate(() => [document.title, document.body.textContent,
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')]
    .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((name) => e.getAttribute(name) ?? ''))].join('\n'));

/** The words of ENGLISH_WORDS in `text`, proper names taken out. */
function englishIn(text) {
  let rest = text;
  for (const name of PROPER_NAMES) rest = rest.replaceAll(name, ' ');
  return ENGLISH_WORDS.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(rest));
}

/** axe-core's violations on the page as it is now (injected once per document). */
async function violations(what) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE });
  // A button's colour transition (120 ms) caught halfway reads as too little contrast: let them end.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })));
  return found.map((v) => ({ state: what, ...v }));
}

/** The offer radios whose accessible name is `text` exactly (any whitespace, no-break spaces too, between its words). */
const radioNamed = (text) => page.getByRole('radio', {
  name: new RegExp(`^${text.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}$`),
});

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
  // Amounts as the store writes them: Spanish in a US store is es-US, "$4.75", in every sentence.
  assert.match(await page.locator('#offer-list li[data-id="rw_free_latte"] .detail').textContent(), /^Ahorra \$4\.75/);
  // The merchant's labels are English: the offers are described in Spanish, the menu naming the products.
  assert.equal(await page.locator('#offer-list li[data-id="rw_free_latte"] .label').textContent(), 'Café latte o Capuchino gratis');
  assert.equal(await page.locator('#offer-list li[data-id="rw_free_latte"] .fine-print').textContent(), 'Hasta $6');
  // The offer's radio is named by its label and saving in Spanish.
  assert.equal(await radioNamed('Café latte o Capuchino gratis Ahorra $4.75').count(), 1);
  assert.equal(await radioNamed('Sin oferta esta vez').count(), 1);
  assert.match(await page.locator('#hints').textContent(), /Gaste \$10\.25 más para desbloquear \$5 de descuento en su pedido/);
  assert.equal(await page.locator('#subtotal').textContent(), '$4.75');
  assert.equal(await page.locator('#checkout').textContent(), 'Pagar · $0.00'); // the free latte, best and chosen
  assert.match(await page.locator('#wallet').textContent(), /Hola, Alex.*450 granos.*9 recompensas/);
  assert.equal(await page.locator('#status-text').textContent(), 'En línea');
  assert.equal(await page.evaluate(() => document.title), 'Pedido — Harbor Coffee');
  assert.equal(await page.locator('button.item[data-id="latte"] .name').textContent(), 'Café latte');
  assert.equal(await page.locator('#location option[value="harbor-downtown"]').textContent(), 'Centro');
  assert.equal(await page.locator('#lines li .name').first().textContent(), 'Café latte');
  // The reasons: the Spanish catalog's texts (those without figures), none of the English ones.
  const others = await page.locator('#others').textContent();
  const plain = (catalog) => Object.values(catalog.reasons).filter((text) => !text.includes('{'));
  assert.ok(plain(esCatalog).some((text) => others.includes(text)), `a Spanish reason in: ${others}`);
  assert.ok(!plain(enCatalog).some((text) => others.includes(text)), `no English reason in: ${others}`);
  assert.equal(await page.locator('button.item[data-id="latte"]').evaluate((b) => b.textContent.includes('personalizar y añadir')), true);
  await page.locator('#others-section summary').click();
  await shoot('language-es.png');

  // French, German and Brazilian Portuguese, each as written in a US store; the last two are loaded
  // only when chosen (their page texts and the messages entry's catalogs).
  const described = {
    fr: ['Économisez', 'Offert\u00a0: Café latte ou Cappuccino', 'Jusqu’à'],
    de: ['Spart', 'Milchkaffee oder Cappuccino gratis', 'Bis zu'],
    'pt-BR': ['Economiza', 'Café com leite ou Capuchino grátis', 'Até'],
  };
  for (const [code, [saves, label, upTo]] of Object.entries(described)) {
    await useLanguage(code);
    const tag = await page.evaluate((c) => new Intl.Locale(c, { region: 'US' }).toString(), code);
    const offer = page.locator('#offer-list li[data-id="rw_free_latte"]');
    assert.equal(await offer.locator('.detail').evaluate((e) => e.textContent.split(' · ')[0]), `${saves} ${await dollars(tag, 4.75)}`, code);
    assert.equal(await offer.locator('.label').textContent(), label, code);
    assert.equal(await radioNamed(`${label} ${saves} ${await dollars(tag, 4.75)}`).count(), 1, `${code}: the radio's name`);
    const six = await page.evaluate((t) => new Intl.NumberFormat(t, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(6), tag);
    assert.equal(await offer.locator('.fine-print').textContent(), `${upTo} ${six}`, code);
    assert.equal(await page.locator('#subtotal').textContent(), await dollars(tag, 4.75), code);
  }
  assert.match(await page.locator('#wallet').textContent(), /Olá, Alex.*450 grãos.*9 recompensas/);
  // Back to English: the merchant's own label and fine print.
  await useLanguage('en');
  assert.equal(await page.locator('#offer-list li[data-id="rw_free_latte"] .label').textContent(), 'Free latte or cappuccino');
  assert.equal(await page.locator('#offer-list li[data-id="rw_free_latte"] .fine-print').textContent(), 'Any size; syrups included up to $6.');
  await useLanguage('fr');

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

test('the whole page in each language but English holds no word of the demo\'s English', { timeout: 300_000 }, async () => {
  const categories = await page.locator('#categories input').evaluateAll((inputs) => inputs.map((i) => i.value));
  for (const code of LANGUAGES.filter((c) => c !== 'en')) {
    await useLanguage(code);
    await addLatte(); // the customise dialog (groups, modifiers) and a basket line
    await page.waitForSelector('#others-section:not([hidden])');
    if (!(await page.locator('#others-section').evaluate((d) => d.open))) await page.locator('#others-section summary').click();
    // Every category in turn: every item of the menu is on the page once.
    const found = new Set();
    for (const category of categories) {
      await page.locator(`#categories label:has(input[value="${category}"])`).click();
      await page.waitForFunction((c) => document.querySelector(`#categories input[value="${c}"]`).checked, category);
      for (const word of englishIn(await pageText())) found.add(word);
    }
    assert.deepEqual([...found], [], `${code}: English words on the page`);
    await emptyBasket();
  }
  // The list finds what it looks for: the English page holds its words.
  await useLanguage('en');
  assert.ok(englishIn(await pageText()).length > 10, 'the English page shows the demo\'s English words');
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
    // A new order starts at the menu's heading (the Checkout button is disabled with the basket empty).
    await page.waitForFunction(() => document.activeElement?.id === 'menu-title');
    await page.waitForSelector('#others-section', { state: 'hidden' });
    await page.waitForSelector('#orders li[data-status="queued"]');
    found.push(...await violations(`${code}: an order queued offline (the Orders list)`));
  }
  await shoot('language-queued.png');
  await kioskCommand(kiosk, 'start', /service: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
  // Back online, the queued orders are billed: the Orders list says so in the page's language.
  await page.waitForFunction((n) => document.querySelectorAll('#orders li[data-status="billed"]').length === n, LANGUAGES.length, { timeout: 90_000 });
  assert.match(await page.locator('#orders li[data-status="billed"]').first().textContent(), /Confirmado: cobrado/);
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
  assert.deepEqual(errors, []);
});
