// The kiosk server's doors against another site in the same browser (issue 35), in Debian's
// Chromium, with `npm start`'s kiosk server (kiosk/server/main.mjs on port 0) and its real service
// and store hub:
// - a page of another origin (another port of 127.0.0.1) sends what a page may send without
//   asking first (`no-cors` POSTs, text/plain and form bodies) to the kiosk server's /hub/ and
//   /api/ writes: a year-long claim of Alex's free latte, a report of his beans as 0 "as of
//   9999-12-31", a billing. The kiosk server refuses them; the hub and the service store nothing;
//   Alex's later checkout at the kiosk redeems the latte, nothing withheld.
// - the kiosk page opened with `?api=` naming another origin (a server that records every request
//   and would answer any CORS preflight): no request reaches it, so no guest token or key does, and
//   the page reads the account from its own origin.
// Every wait is for a condition, bounded.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { launchChromium } from '../../support/support.js';
import { startTestKiosk } from './kiosk_process.js';

const NOW = '2026-11-24T13:15:00Z'; // Tuesday 08:15 in New York
const STEP = 30_000;
const GUEST = { user_id: 'u_1001', merchant_id: 'm_harbor_coffee' };
const LATTE = 'rw_free_latte';
const CREDENTIALS = /^(authorization|merchant-key|store-key|x-clientid)$/i;

let setup; // startTestKiosk's
let kiosk;
let browser;
let attacker; // serves the other site's page
let attackerOrigin;
let elsewhere; // records every request, answers every CORS preflight
let elsewhereOrigin;
const reachedElsewhere = [];

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

/** Rows of a query on the service's SQLite file. */
const rows = (query) => setup.rows(query);

/** The guest's claims and points at the store hub, asked through the kiosk server (which adds the key). */
async function hubView() {
  const query = new URLSearchParams({ merchant_id: GUEST.merchant_id, user_id: GUEST.user_id });
  const response = await fetch(`${kiosk.origin}/hub/claims?${query}`, { signal: AbortSignal.timeout(15_000) });
  assert.equal(response.status, 200);
  return response.json();
}

/** The other site's page: it fires the writes once loaded, then marks itself done. */
function attackPage(kioskOrigin) {
  const claim = { ...GUEST, basket_id: 'evil-basket', kiosk_id: 'evil', reward_id: LATTE, ttl_ms: 366 * 86_400_000 };
  const beans = {
    ...GUEST, basket_id: 'evil-points', kiosk_id: 'evil', points_product_id: 'pp_two_off', points: 1,
    points_experience_id: 'beans', balance: 0, balance_as_of: '9999-12-31T00:00:00Z',
  };
  const billing = { id: 'evil-order', state: 'billed', subtotal: '4.75', items: [{ id: 'latte', price: '4.75' }], rewards: [LATTE] };
  const writes = [
    ['/hub/claims', claim, 'text/plain'],
    ['/hub/claims', beans, 'text/plain'],
    ['/hub/claims', claim, 'application/x-www-form-urlencoded'],
    ['/hub/claims/spend', { ...GUEST, basket_id: 'evil-basket' }, 'text/plain'],
    ['/api/baskets', billing, 'text/plain'],
    ['/api/baskets/qualifying', billing, 'text/plain'],
  ];
  return `<!doctype html><meta charset="utf-8"><title>another site</title><body><script type="module">
const writes = ${JSON.stringify(writes)};
await Promise.allSettled(writes.map(([route, body, type]) => fetch(${JSON.stringify(kioskOrigin)} + route, {
  method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': type }, body: JSON.stringify(body),
})));
document.body.dataset.done = 'yes';
</script></body>`;
}

before(async () => {
  setup = await startTestKiosk({ name: 'kiosk-doors', now: NOW });
  kiosk = setup.kiosk;
  attacker = http.createServer((request, response) => {
    if (request.url !== '/') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(attackPage(kiosk.origin));
  });
  attackerOrigin = await listen(attacker);
  elsewhere = http.createServer((request, response) => {
    reachedElsewhere.push({ method: request.method, url: request.url, headers: request.headers });
    request.resume();
    // Any preflight granted, so that only the page itself could keep a credential from coming here.
    response.writeHead(request.method === 'OPTIONS' ? 204 : 404, {
      'access-control-allow-origin': request.headers.origin ?? '*',
      'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'content-type': 'application/json',
    }).end(request.method === 'OPTIONS' ? undefined : '{"code":404,"message":"elsewhere"}');
  });
  elsewhereOrigin = await listen(elsewhere);
  browser = await launchChromium();
}, { timeout: 900_000 });

after(async () => {
  await browser?.close().catch(() => {});
  await setup?.close();
  for (const server of [attacker, elsewhere]) {
    server?.closeAllConnections?.();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  }
});

test('a page of another origin cannot claim, report points or bill through the kiosk server', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(STEP);
  const answered = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === kiosk.origin) answered.push([url.pathname, response.status()]);
  });
  try {
    await page.goto(`${attackerOrigin}/`);
    await page.waitForSelector('body[data-done="yes"]', { state: 'attached' });
    // The browser sent them (each got the kiosk server's answer), and the kiosk server refused each.
    assert.equal(answered.length, 6, JSON.stringify(answered));
    for (const [route, status] of answered) assert.equal(status, 403, `${route}: ${status}`);
  } finally {
    await context.close();
  }

  // Nothing at the hub: no claim, no balance reported for the guest.
  const view = await hubView();
  assert.deepEqual(view.claims, []);
  assert.deepEqual(view.points, []);
  // Nothing at the service: no basket of the other site, the latte still in the wallet.
  assert.deepEqual(rows("SELECT id FROM baskets WHERE id LIKE 'evil%'"), []);
  assert.deepEqual(rows(`SELECT state FROM rewards WHERE id = '${LATTE}'`), [{ state: 'redeemable' }]);

  // Alex's checkout at the kiosk, online: the latte is redeemed, nothing withheld.
  const kioskContext = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const kioskPage = await kioskContext.newPage();
  kioskPage.setDefaultTimeout(STEP);
  try {
    await kioskPage.goto(`${kiosk.pageUrl}&guest=${GUEST.user_id}`);
    await kioskPage.waitForSelector('body[data-ready]');
    await kioskPage.waitForSelector('#status[data-state="online"]');
    await kioskPage.waitForSelector('#store[data-hub="reachable"]');
    await kioskPage.locator('#categories label:has(input[value="coffee"])').click();
    await kioskPage.locator('button.item[data-id="latte"]').click();
    await kioskPage.locator('#customize-add').click();
    await kioskPage.waitForSelector(`#offer-list li.best[data-id="${LATTE}"] input:checked`);
    await kioskPage.locator('#checkout').click();
    await kioskPage.waitForSelector('#pay');
    await kioskPage.locator('#pay').click();
    await kioskPage.waitForSelector('#new-order');
    const receipt = await kioskPage.locator('#checkout-dialog').textContent();
    assert.match(receipt, /You saved \$\d+\.\d\d with “Free latte or cappuccino”/);
    assert.doesNotMatch(receipt, /is not redeemed on this order/);
  } finally {
    await kioskContext.close();
  }
  assert.deepEqual(rows(`SELECT state, reward_id FROM baskets WHERE user_id = '${GUEST.user_id}' AND state = 'billed'`), [{ state: 'billed', reward_id: LATTE }]);
});

test('?api= naming another origin sends it nothing: no request, no credential; the page uses its own origin', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP);
  const sentElsewhere = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin === elsewhereOrigin) sentElsewhere.push(`${request.method()} ${request.url()}`);
  });
  try {
    await page.goto(`${kiosk.pageUrl}&guest=u_1002&api=${encodeURIComponent(`${elsewhereOrigin}/`)}`);
    await page.waitForSelector('body[data-ready]');
    // The account was read, from the page's own origin.
    await page.waitForSelector('#wallet #points-balance');
    await page.waitForSelector('#status[data-state="online"]');
    // A checkout too: its calls go to the page's own origin as well.
    await page.locator('#categories label:has(input[value="coffee"])').click();
    await page.locator('button.item[data-id="latte"]').click();
    await page.locator('#customize-add').click();
    await page.locator('#checkout').click();
    await page.waitForSelector('#pay');
    await page.locator('#pay').click();
    await page.waitForSelector('#new-order');
  } finally {
    await context.close();
  }
  assert.deepEqual(sentElsewhere, []);
  assert.deepEqual(reachedElsewhere.map(({ method, url }) => `${method} ${url}`), []);
  assert.ok(reachedElsewhere.every(({ headers }) => !Object.keys(headers).some((name) => CREDENTIALS.test(name))));
  assert.equal(rows("SELECT count(*) AS n FROM baskets WHERE user_id = 'u_1002' AND state = 'billed'")[0].n, 1);
});
