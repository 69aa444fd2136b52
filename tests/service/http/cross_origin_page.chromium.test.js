// A page of another origin calls the local service, in Chromium (playwright-core,
// /usr/bin/chromium): a page served on one loopback port (a dev server's, say) reads the service
// on another with the package's LoyaltyClient when the service lists the page's origin
// (corsOrigin / --cors-origin), conditional refresh (ETag) and a POST with a JSON body (both
// preflighted) included; the same page is blocked by the browser when the service does not list
// it (NETWORK_ERROR: no answer reaches the page). The real service over real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { CHROMIUM, launchChromium, sendFile } from '../../support/support.js';
import { FIXED_NOW, credentialsOf, ensureWasm, root, scratchDir, serviceBinary, startService, waitFor } from '../harness.js';

const available = existsSync(CHROMIUM);
const scratch = scratchDir('lq-cross-origin-');
const services = [];
let server;
let pageOrigin;
let browser;
let page;

// The page's own server: a blank page and the package's modules, nothing of the service.
function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  if (url.pathname === '/app/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>ordering page</title>');
    return;
  }
  const file = path.join(root, decodeURIComponent(url.pathname));
  if (!url.pathname.startsWith('/web/') || !file.startsWith(path.join(root, 'web') + path.sep)) {
    response.writeHead(404).end();
    return;
  }
  sendFile(response, file);
}

before(async () => {
  if (!available) return;
  ensureWasm();
  serviceBinary();
  server = http.createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${pageOrigin}/app/`);
}, { timeout: 900_000 });

after(async () => {
  if (browser) await browser.close();
  if (server) {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const service of services) await service.crash();
  scratch.cleanup();
});

async function start(options) {
  const service = await startService({ db: path.join(scratch.dir, `${services.length}.db`), now: true, ...options });
  services.push(service);
  return service;
}

// Runs in the page: the package's client against `base`, every outcome as data.
async function useService({ base, token, key, now }) {
  const { LoyaltyClient } = await import('/web/http/loyalty_client.js');
  const client = new LoyaltyClient({ baseUrl: base, accessToken: token, merchantKey: key, timeoutMs: 15_000 });
  const outcome = {};
  try {
    const first = await client.accountIfChanged(null);
    const again = await client.accountIfChanged(first.etag);
    const answer = await client.qualify({
      order_timestamp: now,
      redemption_venue: 'instore',
      location_uid: 'harbor-downtown',
      subtotal: '4.75',
      items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
    });
    Object.assign(outcome, {
      user: first.snapshot.user.id,
      etag: first.etag,
      notModified: again.notModified,
      rewards: answer.rewards.map((r) => r.id),
    });
  } catch (e) {
    outcome.error = { name: e.name, code: e.code, message: e.message };
  }
  // A plain fetch, as any page would: what the browser lets it see.
  try {
    const res = await fetch(`${base}/api/account`, {
      headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json' },
    });
    outcome.fetch = { status: res.status, etag: res.headers.get('ETag') };
  } catch (e) {
    outcome.fetch = { failed: e.name };
  }
  return outcome;
}

test('a page of another loopback origin reads the service that lists its origin', { timeout: 120_000, skip: !available && 'no Chromium' }, async () => {
  const service = await start({ corsOrigin: pageOrigin });
  assert.notEqual(new URL(service.url).origin, pageOrigin, 'two origins');
  const { token, key } = credentialsOf('u_1001');
  const outcome = await page.evaluate(useService, { base: service.url, token, key, now: FIXED_NOW });
  assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
  assert.equal(outcome.user, 'u_1001');
  assert.match(outcome.etag, /^".+"$/, 'ETag is exposed to the page');
  assert.equal(outcome.notModified, true, 'the conditional refresh (If-None-Match) was let through');
  assert.ok(outcome.rewards.length > 0, 'the preflighted POST was answered');
  assert.deepEqual(outcome.fetch, { status: 200, etag: outcome.etag });
  // The browser asked first: the service's access log shows the preflights it granted.
  // A line is written after its answer is sent: wait for it.
  const granted = () => service.accessLogLines().some((line) => / "OPTIONS \/api\/baskets\/qualifying" 204 /.test(line));
  assert.ok(await waitFor(granted, 5_000, 20), service.stderr);
});

test('the same page is blocked by the browser when the service does not list its origin', { timeout: 120_000, skip: !available && 'no Chromium' }, async () => {
  const service = await start({ corsOrigin: 'http://localhost:5173' });
  const { token, key } = credentialsOf('u_1001');
  const outcome = await page.evaluate(useService, { base: service.url, token, key, now: FIXED_NOW });
  assert.equal(outcome.error?.name, 'QualifyError');
  assert.equal(outcome.error.code, 0, 'NETWORK_ERROR: no answer reached the page');
  assert.deepEqual(outcome.fetch, { failed: 'TypeError' });
  const unlisted = await start({});
  const without = await page.evaluate(useService, { base: unlisted.url, token, key, now: FIXED_NOW });
  assert.equal(without.error?.code, 0);
  assert.deepEqual(without.fetch, { failed: 'TypeError' });
});
