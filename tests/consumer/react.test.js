// loyalty-qualifier/react as a React developer gets it (issue 38): the tarballs of `npm run pack`
// installed into a temporary project outside the checkout, with React 19 and react-dom (packed
// from this checkout's copies, installed offline beside it); the example app the package ships
// (examples/react/, its own Vite config) built by Vite in React's development mode, where
// <StrictMode> mounts every component twice; the local service from the installed package, reached
// through the page's own origin (a proxy, as the example's dev server does). In Chromium: the
// offers follow the basket as the service would answer it, an order billed with its reward takes
// the reward off (the hybrid's events reach useOffers), no console error, one account read per
// hybrid (StrictMode's first leaves none running), an aborted call rejects with AbortError, and
// diagnostics() shows one live handle per root's hybrid before unmount and none after it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { build as viteBuild } from 'vite';

import { launchChromium, sendFile } from '../support/support.js';
import { consumerProject, root, waitFor } from './consumer_project.js';

const GUEST = { token: 'at_u1001_7Qx2LmN9pR4s', key: 'mk_harbor_5f1c9a7e2b' }; // Alex, of the demo data
const MEDIA_TYPE = 'application/vnd.service-v1+json';

// The test page: the example's App and a probe, each under StrictMode in a root of its own; the
// probe's hybrid is what the test calls directly (window.probe).
const TEST_PAGE = `import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { LoyaltyClient, diagnostics } from 'loyalty-qualifier';
import { useHybridQualifier } from 'loyalty-qualifier/react';

import { App } from './App.jsx';

const latte = { redemption_venue: 'instore', location_uid: 'harbor-downtown', subtotal: '4.75',
  items: [{ id: 'latte', name: 'Latte', price: '4.75', categories: ['coffee'], quantity: 1 }] };
const client = new LoyaltyClient({ baseUrl: location.origin, accessToken: ${JSON.stringify(GUEST.token)}, merchantKey: ${JSON.stringify(GUEST.key)} });
let hybrid = null;
let mounts = 0;

function Probe() {
  useEffect(() => {
    mounts += 1;
  }, []);
  const made = useHybridQualifier({ client });
  useEffect(() => {
    hybrid = made;
  }, [made]);
  return null;
}

const roots = [['app', <App />], ['probe', <Probe />]].map(([id, element]) => {
  const root = createRoot(document.getElementById(id));
  root.render(<StrictMode>{element}</StrictMode>);
  return root;
});

window.probe = {
  ready: () => hybrid !== null,
  mounts: () => mounts,
  async abortedCall() {
    await hybrid.qualify(latte); // loaded: the abort below cuts short a call that would answer
    const controller = new AbortController();
    const asked = hybrid.qualify(latte, { signal: controller.signal });
    controller.abort();
    const early = hybrid.explain(latte, { signal: AbortSignal.abort() });
    const outcome = async (call) => call.then(() => ({ resolved: true }), (e) => ({ name: e.name, isDOMException: e instanceof DOMException }));
    return [await outcome(asked), await outcome(early)];
  },
  unmount: () => roots.forEach((root) => root.unmount()),
  liveHandles: async () => (await diagnostics()).liveHandles,
};
`;

const TEST_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>react consumer</title></head>
<body><div id="app"></div><div id="probe"></div><script type="module" src="./test.jsx"></script></body></html>`;

let project;
let service;
let server;
let origin;
let browser;
let out;
const accountReads = { count: 0 };
const apiRequests = []; // every /api/ request, in order: what an assertion's message shows

/** Packs React, react-dom and scheduler from this checkout's node_modules and installs them offline in the project. */
function installReact() {
  const tarballs = ['react', 'react-dom', 'scheduler'].map((name) => {
    const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', project.tmp, path.join(root, 'node_modules', name)], {
      cwd: project.tmp, env: project.env, encoding: 'utf8', timeout: 120_000,
    });
    assert.equal(packed.status, 0, packed.stderr);
    return path.join(project.tmp, packed.stdout.trim().split('\n').at(-1));
  });
  const installed = spawnSync('npm', ['install', '--no-package-lock', ...tarballs], { cwd: project.dir, env: project.env, encoding: 'utf8', timeout: 300_000 });
  assert.equal(installed.status, 0, `${installed.stdout}${installed.stderr}`);
}

// The built page, and /api/* passed on to the service (GET /api/account counted).
function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  if (url.pathname === '/favicon.ico') {
    response.writeHead(204).end(); // the browser asks for it; the example has none
    return;
  }
  if (!url.pathname.startsWith('/api/')) {
    sendFile(response, path.join(out, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname)));
    return;
  }
  apiRequests.push(`${request.method} ${url.pathname}${url.search} ${request.headers['if-none-match'] ?? ''}`);
  if (request.method === 'GET' && url.pathname === '/api/account') accountReads.count += 1;
  const target = new URL(url.pathname + url.search, service.url);
  const forwarded = http.request(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  forwarded.on('error', () => response.writeHead(502).end());
  request.pipe(forwarded);
}

before(async () => {
  project = consumerProject('lq-consumer-react-');
  installReact();
  // The example as the package ships it, with the test page beside it.
  const app = path.join(project.dir, 'app');
  cpSync(path.join(project.installed(), 'examples/react'), app, { recursive: true });
  project.write('app/test.jsx', TEST_PAGE);
  project.write('app/test.html', TEST_HTML);
  out = path.join(project.dir, 'app-out');
  // Vite's own copy (the repository's), with the example's vite.config.js; React's development
  // build, as `npm run dev` serves it: StrictMode's double mount happens only there.
  await viteBuild({
    root: app,
    logLevel: 'silent',
    mode: 'development',
    define: { 'process.env.NODE_ENV': '"development"' },
    build: { outDir: out, emptyOutDir: true, minify: false, rollupOptions: { input: { index: path.join(app, 'index.html'), test: path.join(app, 'test.html') } } },
  });
  const { startLocalService } = await import(pathToFileURL(path.join(project.installed(), 'web/local/service/local_service.js')).href);
  service = await startLocalService({ fixture: path.join(project.installed(), 'fixtures/demo.json'), mode: 'sandbox' });
  server = http.createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
}, { timeout: 900_000 });

after(async () => {
  await browser?.close();
  server?.close();
  await service?.stop();
  project?.cleanup();
});

/** The rewards and points products the service itself qualifies for `basket`: ids, sorted. */
async function qualifiedByService(basket) {
  const res = await fetch(`${service.url}/api/baskets/qualifying`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${GUEST.token}`, 'Merchant-Key': GUEST.key, Accept: MEDIA_TYPE, 'Content-Type': 'application/json' },
    body: JSON.stringify(basket),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return [...body.rewards, ...body.points_products].map((o) => o.id).sort();
}

const basketOf = (lines) => {
  const menu = { latte: { name: 'Latte', price: '4.75', categories: ['coffee'] }, croissant: { name: 'Croissant', price: '3.75', categories: ['pastry'] } };
  const items = Object.entries(lines).map(([id, quantity]) => ({ id, ...menu[id], quantity }));
  const cents = items.reduce((sum, item) => sum + Math.round(Number(item.price) * 100) * item.quantity, 0);
  return { redemption_venue: 'instore', location_uid: 'harbor-downtown', subtotal: (cents / 100).toFixed(2), items };
};

/** The offers the page shows now: ids, sorted, once it is not computing. */
const shownOffers = (page) =>
  page.evaluate(() => (document.querySelector('section[aria-busy="true"]') ? null : [...document.querySelectorAll('[data-offer]')].map((e) => e.dataset.offer).sort()));

test('the shipped example builds with Vite into one page with one wasm asset', () => {
  const built = spawnSync('find', [out, '-name', '*.wasm'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  assert.equal(built.length, 1, built.join(', '));
  assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /<div id="root">/);
});

test('the example under StrictMode in Chromium: offers follow the basket and an order, one account read per hybrid, no console error; then an aborted call and unmount', { timeout: 180_000 }, async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  try {
    await page.goto(`${origin}/test.html`);
    await page.waitForFunction(() => window.probe?.ready());
    assert.equal(await page.evaluate(() => window.probe.mounts()), 2, "React's development build: StrictMode mounted the probe twice");

    // A latte, then two, then a croissant too: each time the offers the service would give.
    const add = (name) => page.getByRole('button', { name: `Add a ${name}` }).click();
    for (const [step, lines] of [[() => add('Latte'), { latte: 1 }], [() => add('Latte'), { latte: 2 }], [() => add('Croissant'), { latte: 2, croissant: 1 }]]) {
      await step();
      const expected = await qualifiedByService(basketOf(lines));
      assert.ok(expected.length > 0, JSON.stringify(lines));
      assert.ok(await waitFor(async () => JSON.stringify(await shownOffers(page)) === JSON.stringify(expected), 20_000),
        `${JSON.stringify(lines)}: shown ${JSON.stringify(await shownOffers(page))}, the service ${JSON.stringify(expected)}`);
    }
    assert.equal(accountReads.count, 1, `one account read, the app's hybrid's: StrictMode's first one read none (the probe's has asked nothing yet):\n${apiRequests.join('\n')}`);

    // Pay with the free latte: billed, and the offer is gone for the next basket (ordersettled,
    // the refresh after it, snapshotchange, useOffers asks again: no reload, no polling).
    await page.getByRole('button', { name: 'Remove a Croissant' }).click();
    await page.getByRole('button', { name: 'Remove a Latte' }).click();
    assert.ok(await waitFor(async () => (await shownOffers(page))?.includes('rw_free_latte'), 20_000));
    await page.locator('[data-offer="rw_free_latte"] input').check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForFunction(() => document.querySelector('[role="status"]').textContent === 'Billed by the loyalty service. Discount: $4.75.', null, { timeout: 20_000 });
    // Billed with its reward: the hybrid reads the account again (the service's snapshot after
    // the order); waited for, so that no read of this page is still to come at unmount.
    const readAfterOrder = () => {
      const placed = apiRequests.findLastIndex((line) => line.startsWith('POST /api/baskets '));
      return placed >= 0 && apiRequests.slice(placed + 1).some((line) => line.startsWith('GET /api/account '));
    };
    assert.ok(await waitFor(readAfterOrder, 20_000), `no account read after the billed order:\n${apiRequests.join('\n')}`);
    await add('Latte');
    assert.ok(await waitFor(async () => {
      const shown = await shownOffers(page);
      return shown !== null && !shown.includes('rw_free_latte');
    }, 20_000), `the free latte is still offered: ${JSON.stringify(await shownOffers(page))}`);

    const [aborted, early] = await page.evaluate(() => window.probe.abortedCall());
    assert.deepEqual(aborted, { name: 'AbortError', isDOMException: true });
    assert.deepEqual(early, { name: 'AbortError', isDOMException: true });

    const reads = accountReads.count;
    // Each root's hybrid holds an engine (the app's and the probe's; StrictMode's first ones made
    // none), once a reload of the refresh after the order, if any, has let its old one go.
    assert.ok(await waitFor(async () => (await page.evaluate(() => window.probe.liveHandles())) === 2, 10_000),
      `live handles before unmount: ${await page.evaluate(() => window.probe.liveHandles())}, not 2`);
    await page.evaluate(() => window.probe.unmount());
    assert.ok(await waitFor(async () => (await page.evaluate(() => window.probe.liveHandles())) === 0, 10_000), 'a live handle after unmount');
    assert.equal(await page.evaluate(() => document.getElementById('app').childElementCount), 0);
    assert.equal(accountReads.count, reads, `an account read after unmount:\n${apiRequests.join('\n')}`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
