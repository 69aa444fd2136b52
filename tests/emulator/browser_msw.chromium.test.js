// In a real Chromium: a page registers Mock Service Worker's worker with loyaltyHandlers over an
// emulator, and the package's HybridQualifier runs end to end against it (the account read, a
// local qualify, the service's confirmation, a billed checkout, a sandbox grant, then qualify
// again), with nothing but a static file server: no loyalty service anywhere. And the emulator in
// a module worker.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

import { launchChromium, sendFile } from '../support/support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-msw-page-'));

// The page: the package's entries as a bundler resolves them, MSW's browser entry, one function.
const PAGE_SCRIPT = `
import { setupWorker } from 'msw/browser';
import { HybridQualifier, LoyaltyClient, SandboxClient } from 'loyalty-qualifier';
import { createEmulator } from 'loyalty-qualifier/emulator';
import { loyaltyHandlers } from 'loyalty-qualifier/msw';

const API = 'https://loyalty.example.test';

window.runOrder = async (fixture) => {
  const emulator = await createEmulator({ fixture, now: () => Date.parse('2026-11-24T13:15:00Z') });
  const worker = setupWorker(...loyaltyHandlers(emulator, { baseUrl: API }));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const client = new LoyaltyClient({ baseUrl: API, merchantKey: 'mk_harbor_5f1c9a7e2b', accessToken: 'at_u1001_7Qx2LmN9pR4s' });
  const hybrid = new HybridQualifier({ client });
  const basket = {
    redemption_venue: 'instore',
    location_uid: 'harbor-downtown',
    order_timestamp: '2026-11-24T13:15:00Z',
    items: [{ id: 'drip_coffee', price: '2.50', categories: ['coffee'] }, { id: 'latte', price: '5.25', categories: ['coffee'] }],
  };
  const ids = (answer) => answer.rewards.map((reward) => reward.id).sort();
  const local = await hybrid.qualify(basket);
  const confirmed = await hybrid.confirm(basket);
  const billed = await hybrid.checkout(basket, { offer: { kind: 'reward', id: 'rw_free_latte' } });
  const sandbox = new SandboxClient({ sandboxApiUrl: API, accessToken: 'at_u1001_7Qx2LmN9pR4s', clientId: 'cl_harbor_pos' });
  // The billed order's own refresh (in the background) ends first: a refresh() called while it
  // runs joins it, and it may have read the account before the grant.
  await hybrid.refresh();
  await sandbox.grantReward({ campaign_id: 'cmp_Hb9xK4', user_id: 'u_1001' });
  await hybrid.refresh();
  const again = await hybrid.qualify(basket);
  worker.stop();
  return {
    local: ids(local),
    confirmed: { source: confirmed.source, rewards: ids(confirmed.result) },
    billed: { status: billed.status, discount: billed.discount },
    again: ids(again),
  };
};
`;

// A module worker: the emulator answers there too (the page only asks it and reads the answer).
const WORKER_SCRIPT = `
import { createEmulator } from 'loyalty-qualifier/emulator';

self.onmessage = async ({ data: fixture }) => {
  const emulator = await createEmulator({ fixture, now: () => Date.parse('2026-11-24T13:15:00Z') });
  const res = await emulator.fetch('https://loyalty.example.test/api/baskets/qualifying', {
    method: 'POST',
    headers: { Authorization: 'Bearer at_u1001_7Qx2LmN9pR4s', 'Merchant-Key': 'mk_harbor_5f1c9a7e2b', Accept: 'application/vnd.service-v1+json' },
    body: JSON.stringify({ redemption_venue: 'instore', location_uid: 'harbor-downtown', items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }] }),
  });
  const answer = await res.json();
  await emulator.close();
  self.postMessage({ status: res.status, rewards: answer.rewards.map((reward) => reward.id) });
};
`;

let server;
let browser;

before(async () => {
  const bundleOf = (contents) => esbuild.build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    alias: {
      'loyalty-qualifier/emulator': path.join(root, 'web/local/emulator/emulator.js'),
      'loyalty-qualifier/msw': path.join(root, 'web/local/msw/msw.js'),
      'loyalty-qualifier': path.join(root, 'web/index.js'),
    },
    // The modules' own dist/ files (../dist/, ../../dist/) stay beside the bundle's URL (/dist/), as a server ships them.
    external: ['../dist/*', '../../dist/*'],
    logLevel: 'silent',
  });
  writeFileSync(path.join(scratch, 'page.js'), (await bundleOf(PAGE_SCRIPT)).outputFiles[0].text);
  writeFileSync(path.join(scratch, 'worker.js'), (await bundleOf(WORKER_SCRIPT)).outputFiles[0].text);
  writeFileSync(path.join(scratch, 'index.html'), '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/page.js"></script>');
  // A static file server: the page, its bundle, MSW's worker script, the package's dist/.
  server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://127.0.0.1');
    if (pathname === '/') return sendFile(response, path.join(scratch, 'index.html'));
    if (pathname === '/page.js' || pathname === '/worker.js') return sendFile(response, path.join(scratch, pathname.slice(1)));
    if (pathname === '/mockServiceWorker.js') return sendFile(response, path.join(root, 'node_modules/msw/lib/mockServiceWorker.js'));
    if (pathname.startsWith('/dist/')) return sendFile(response, path.join(root, 'web/dist', path.basename(pathname)));
    response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test('HybridQualifier against loyaltyHandlers in a service worker: qualify, confirm, bill, grant, qualify again', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => typeof window.runOrder === 'function');
  const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
  const outcome = await page.evaluate((f) => window.runOrder(f), fixture);
  assert.deepEqual(errors, []);
  assert.ok(outcome.local.includes('rw_free_latte'), JSON.stringify(outcome));
  assert.deepEqual(outcome.confirmed, { source: 'remote', rewards: outcome.local });
  assert.equal(outcome.billed.status, 'billed', JSON.stringify(outcome));
  // The latte reward was spent by the billed order; the granted free drip coffee now applies.
  assert.ok(!outcome.again.includes('rw_free_latte'), JSON.stringify(outcome));
  assert.equal(outcome.again.length, outcome.local.length, JSON.stringify(outcome));
});

test('in a module worker: createEmulator and fetch answer there as in the page', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
  const outcome = await page.evaluate(
    (f) =>
      new Promise((resolve, reject) => {
        const worker = new Worker('/worker.js', { type: 'module' });
        worker.onmessage = ({ data }) => resolve(data);
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage(f);
      }),
    fixture,
  );
  assert.equal(outcome.status, 200);
  assert.ok(outcome.rewards.includes('rw_free_latte'), JSON.stringify(outcome));
});
