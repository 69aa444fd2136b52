// Issue 38, item 1: loyalty-qualifier/react's hooks in Node, in a jsdom document under
// <StrictMode>, against the real local service and the real wasm engine (the package by its name,
// as a consumer imports it: web/index.node.mjs). useHybridQualifier leaves nothing of StrictMode's
// first mount running (one account read; no live handle after unmount); useOffers follows the
// basket's content, not its identity, and a Qualifier's setSnapshot(). The same hooks in Chromium,
// from the packed tarballs, with the example app: tests/consumer/react.test.js.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { JSDOM } from 'jsdom';

import { credentialsOf, waitFor } from '../../service/harness.js';
import { readJson } from '../../support/support.js';
import { latte, qualifierOptions, service, useOrderService } from '../orders/order_service.js';

useOrderService('react-hooks');

const dom = new JSDOM('<!doctype html><div id="root"></div>');
let React;
let createRoot;
let hooks;
let lq;

before(async () => {
  globalThis.window = dom.window;
  globalThis.document = dom.window.document;
  if (globalThis.navigator === undefined) globalThis.navigator = dom.window.navigator; // Node 20 has none
  globalThis.IS_REACT_ACT_ENVIRONMENT = false; // renders run on React's own schedule; the tests wait for conditions
  React = await import('react');
  ({ createRoot } = await import('react-dom/client'));
  hooks = await import('loyalty-qualifier/react');
  lq = await import('loyalty-qualifier');
});

after(() => {
  delete globalThis.window;
  delete globalThis.document;
  dom.window.close();
});

const FREE_LATTE = 'rw_free_latte';
const ids = (result) => result?.rewards.map((r) => r.id).sort() ?? null;

/** A client of Alex whose requests are counted ({ account, inFlight }). */
function countedClient() {
  const counts = { account: 0, inFlight: 0 };
  const { token, key } = credentialsOf('u_1001');
  const client = new lq.LoyaltyClient({
    baseUrl: service.url,
    accessToken: token,
    merchantKey: key,
    async fetch(url, init) {
      if (new URL(url).pathname === '/api/account') counts.account += 1;
      counts.inFlight += 1;
      try {
        return await fetch(url, init);
      } finally {
        counts.inFlight -= 1;
      }
    },
  });
  return { client, counts };
}

/** Renders `element` under StrictMode; `seen` gets every render's value of the probe. */
function mount(element) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(React.createElement(React.StrictMode, null, element));
  return root;
}

function HybridProbe({ options, basket, seen, mounts }) {
  React.useEffect(() => {
    mounts.count += 1;
  }, []);
  const hybrid = hooks.useHybridQualifier(options);
  const offers = hooks.useOffers(hybrid, basket, { explain: true });
  seen.push({ hybrid, offers });
  return null;
}

test('useHybridQualifier under StrictMode: one account read, offers that follow the basket, no live handle after unmount', { timeout: 60_000 }, async () => {
  const baseline = (await lq.diagnostics()).liveHandles;
  const { client, counts } = countedClient();
  const options = { client, outbox: lq.memoryOrderOutbox(), qualifierOptions, backoff: { initialMs: 600_000 } };
  const seen = [];
  const mounts = { count: 0 };
  const last = () => seen.at(-1);
  const render = (basket) => React.createElement(HybridProbe, { options, basket, seen, mounts });
  const root = mount(render(latte));
  assert.ok(await waitFor(() => last()?.offers.status === 'ready', 20_000), JSON.stringify(last()?.offers));
  assert.ok(ids(last().offers.result).includes(FREE_LATTE));
  assert.ok(last().offers.explanation.entries.length > 0, 'explain: true gives the explanation');
  assert.equal(mounts.count, 2, 'StrictMode mounted the component twice');
  assert.equal(counts.account, 1, "StrictMode's first hybrid read no account");
  assert.equal(new Set(seen.map((s) => s.hybrid).filter(Boolean)).size, 1, 'the component only ever saw one hybrid');
  assert.equal((await lq.diagnostics()).liveHandles, baseline + 1);

  // The same content in a new object asks nothing: the state is the same object.
  const settled = last().offers;
  root.render(React.createElement(React.StrictMode, null, render(structuredClone(latte))));
  assert.ok(await waitFor(() => seen.length > 0 && last().offers === settled, 5_000));
  // Another basket: a new answer. A pastry under $4: no free latte, but the answer is ready.
  const pastry = { ...latte, subtotal: '3.25', items: [{ id: 'croissant', price: '3.25', categories: ['pastry'] }] };
  root.render(React.createElement(React.StrictMode, null, render(pastry)));
  assert.ok(await waitFor(() => last().offers !== settled && last().offers.status === 'ready', 20_000));
  assert.ok(!ids(last().offers.result).includes(FREE_LATTE));
  // A malformed basket: 'error' with the engine's QualifyError 400.
  root.render(React.createElement(React.StrictMode, null, render({ ...latte, redemption_venue: 'drive-thru' })));
  assert.ok(await waitFor(() => last().offers.status === 'error', 20_000));
  assert.equal(last().offers.error.code, 400);

  root.unmount();
  assert.ok(await waitFor(async () => (await lq.diagnostics()).liveHandles === baseline, 10_000), 'the engine was freed');
  assert.equal(counts.account, 1);
  assert.ok(await waitFor(() => counts.inFlight === 0, 10_000), 'no request left running');
});

function QualifierProbe({ source, basket, seen }) {
  seen.push(hooks.useOffers(source, basket));
  return null;
}

test('useOffers with a Qualifier: setSnapshot() makes it ask again', { timeout: 60_000 }, async () => {
  const snapshot = readJson('examples/snapshot.json');
  const basket = readJson('examples/basket.json');
  const q = await lq.createQualifier(snapshot, qualifierOptions);
  const seen = [];
  const root = mount(React.createElement(QualifierProbe, { source: q, basket, seen }));
  try {
    assert.ok(await waitFor(() => seen.at(-1)?.status === 'ready', 10_000));
    const first = seen.at(-1).result;
    assert.ok(first.rewards.length > 0);
    q.setSnapshot({ ...snapshot, rewards: [] }); // the guest's rewards are gone
    assert.ok(await waitFor(() => seen.at(-1).status === 'ready' && seen.at(-1).result !== first, 10_000));
    assert.deepEqual(seen.at(-1).result.rewards, []);
  } finally {
    root.unmount();
    q.dispose();
  }
});
