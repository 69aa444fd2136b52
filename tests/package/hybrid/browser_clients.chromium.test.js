// The clients in Chromium (playwright-core, /usr/bin/chromium): the same modules as in Node, with
// IndexedDB and localStorage snapshot stores, and LoyaltyClient / SandboxClient / HybridQualifier
// against the real local service through a same-origin proxy (as a dev server's proxy; the
// service's own CORS: tests/service/http/cross_origin_page.chromium.test.js).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  FIXED_NOW,
  clientIdOf,
  credentialsOf,
  ensureWasm,
  scratchDir,
  serviceBinary,
  startService,
} from '../../service/harness.js';
import { CHROMIUM, openPackagePage } from '../../support/support.js';

const PROXY = '/__service__';
const available = existsSync(CHROMIUM);

const scratch = scratchDir('lq-browser-');
let service;
let opened;
let origin;
let page;

function proxy(request, response) {
  const target = new URL(service.url);
  const headers = { ...request.headers, host: target.host };
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: request.method, path: request.url.slice(PROXY.length) || '/', headers },
    (answer) => {
      response.writeHead(answer.statusCode, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.writeHead(502).end());
  request.pipe(upstream);
}

// The service behind PROXY, as a dev server's proxy passes it on.
function toService(url, response, request) {
  if (!request.url.startsWith(`${PROXY}/`)) return false;
  proxy(request, response);
  return true;
}

before(async () => {
  if (!available) return;
  ensureWasm();
  serviceBinary();
  service = await startService({ db: path.join(scratch.dir, 'browser.db'), now: true, delay: 1 });
  opened = await openPackagePage('clients', toService, { files: 'repository' });
  ({ origin, page } = opened);
}, { timeout: 900_000 });

after(async () => {
  await opened?.close();
  if (service) await service.crash();
  scratch.cleanup();
});

test('IndexedDB and localStorage stores keep snapshots across qualifiers in a page', { timeout: 120_000, skip: !available && 'no Chromium' }, async () => {
  const outcome = await page.evaluate(async () => {
    const stores = {
      ...(await import('/web/offline/snapshots/snapshot_store.js')),
      ...(await import('/web/offline/snapshots/indexed_db_snapshot_store.js')),
      ...(await import('/web/offline/snapshots/local_storage_snapshot_store.js')),
    };
    const { HybridQualifier } = await import('/web/offline/hybrid/hybrid_qualifier.js');
    const snapshot = await (await fetch('/examples/snapshot.json')).json();
    const basket = await (await fetch('/examples/basket.json')).json();
    const out = { defaultKind: stores.defaultSnapshotStore().kind };
    for (const make of [() => stores.indexedDbSnapshotStore({ databaseName: 'lq-test' }), () => stores.localStorageSnapshotStore()]) {
      const store = make();
      const online = { identity: 'page', qualify: async () => { throw new Error('unused'); }, account: async () => snapshot };
      const first = new HybridQualifier({ client: online, store, maxAgeMs: 60_000 });
      const answer = await first.qualify(basket);
      first.dispose();
      const offline = {
        identity: 'page',
        account: async () => { throw new Error('offline'); },
        qualify: async () => {
          const { QualifyError } = await import('/web/index.js');
          throw new QualifyError(0, 'cannot reach the service');
        },
      };
      const second = new HybridQualifier({ client: offline, store, maxAgeMs: 60_000 });
      const confirmed = await second.confirm(basket);
      second.dispose();
      const stored = await store.load('snapshot:page');
      await store.remove('snapshot:page');
      out[store.kind] = {
        same: JSON.stringify(confirmed.result) === JSON.stringify(answer),
        source: confirmed.source,
        provisional: confirmed.provisional,
        storedUser: stored.snapshot.user.id,
        removed: (await store.load('snapshot:page')) === null,
        rewards: answer.rewards.length,
      };
      await store.close?.();
    }
    return out;
  });
  assert.equal(outcome.defaultKind, 'indexedDB');
  for (const kind of ['indexedDB', 'localStorage']) {
    const result = outcome[kind];
    assert.deepEqual({ ...result, rewards: undefined }, {
      same: true, source: 'local', provisional: true, storedUser: 'u_1001', removed: true, rewards: undefined,
    }, kind);
    assert.ok(result.rewards > 0, kind);
  }
});

test('the clients against the real service from a page', { timeout: 120_000, skip: !available && 'no Chromium' }, async () => {
  const { token, key } = credentialsOf('u_2001');
  const outcome = await page.evaluate(async ({ base, token, key, clientId, now }) => {
    const { LoyaltyClient } = await import('/web/http/loyalty_client.js');
    const { SandboxClient } = await import('/web/http/sandbox_client.js');
    const { HybridQualifier } = await import('/web/offline/hybrid/hybrid_qualifier.js');
    const sandbox = new SandboxClient({ sandboxApiUrl: base, accessToken: token, clientId });
    const loyalty = new LoyaltyClient({ baseUrl: base, accessToken: token, merchantKey: key });
    const hybrid = new HybridQualifier({ client: loyalty, qualifierOptions: { now: () => new Date(now) } });
    await hybrid.ready();
    const reward = await sandbox.grantReward({ campaign_id: 'cmp_Cb3mP8', user_id: 'u_2001' });
    const listed = await sandbox.listRewards({ states: ['redeemable'], campaign_ids: ['cmp_Cb3mP8'] });
    const basket = { order_timestamp: now, subtotal: '10.00', items: [{ id: 'baguette', price: '10.00' }] };
    const confirmed = await hybrid.confirm(basket);
    const local = await hybrid.qualify(basket);
    let error = null;
    try {
      await sandbox.grantReward({ campaign_id: '52001', user_id: 'u_2001' });
    } catch (e) {
      error = { name: e.name, code: e.code, message: e.message };
    }
    hybrid.dispose();
    return {
      listed: listed.map((r) => r.id),
      rewardId: reward.id,
      source: confirmed.source,
      remoteHasIt: confirmed.result.rewards.some((r) => r.id === reward.id),
      localHasIt: local.rewards.some((r) => r.id === reward.id),
      error,
    };
  }, { base: `${origin}${PROXY}`, token, key, clientId: clientIdOf('u_2001'), now: FIXED_NOW });
  assert.deepEqual(outcome.listed, [outcome.rewardId]);
  assert.equal(outcome.source, 'remote');
  assert.ok(outcome.remoteHasIt);
  assert.ok(outcome.localHasIt, 'the divergence refreshed the page\'s snapshot');
  assert.equal(outcome.error.name, 'QualifyError');
  assert.equal(outcome.error.code, 404);
  assert.match(outcome.error.message, /numeric program id/);
});

test('LoyaltyClient takes a path as baseUrl in a page, resolved against the page\'s address as hub.url is', { timeout: 60_000, skip: !available && 'no Chromium' }, async () => {
  const { token, key } = credentialsOf('u_1001');
  const outcome = await page.evaluate(async ({ path, token, key }) => {
    const { LoyaltyClient } = await import('/web/http/loyalty_client.js');
    const { hubOption } = await import('/web/offline/hub/hub_client.js');
    const client = new LoyaltyClient({ baseUrl: `${path}/`, accessToken: token, merchantKey: key });
    const snapshot = await client.account();
    return {
      baseUrl: client.baseUrl,
      hubUrl: hubOption({ url: `${path}/`, storeKey: 'k'.repeat(32), kioskId: 'k1' }).url,
      user: snapshot.user.id,
      replayBase: (await client.credentials()).baseUrl,
    };
  }, { path: PROXY, token, key });
  assert.equal(outcome.baseUrl, `${origin}${PROXY}`);
  assert.equal(outcome.hubUrl, outcome.baseUrl, 'the same rule as hub.url');
  assert.equal(outcome.replayBase, outcome.baseUrl, 'a replay on another page goes to the same service');
  assert.equal(outcome.user, 'u_1001');
});

test('waitForPurchase runs its schedule on injected timers in a page', { timeout: 60_000, skip: !available && 'no Chromium' }, async () => {
  const waits = await page.evaluate(async () => {
    const { SandboxClient } = await import('/web/http/sandbox_client.js');
    const state = { now: 0, waits: [] };
    const timers = {
      now: () => state.now,
      setTimeout: (fn, ms) => {
        state.waits.push(ms);
        return setTimeout(() => { state.now += ms; fn(); }, 0);
      },
      clearTimeout: (handle) => clearTimeout(handle),
    };
    const client = new SandboxClient({
      sandboxApiUrl: 'http://127.0.0.1:9',
      accessToken: 't',
      clientId: 'c',
      fetch: async () => ({ ok: true, status: 200, statusText: 'OK', text: async () => '{"purchases":[]}' }),
    });
    const found = await client.waitForPurchase({ user_id: 'u' }, { timers });
    return { found, waits: state.waits };
  });
  assert.equal(waits.found, null);
  assert.deepEqual(waits.waits, [60, 120, 240, 300, 300, 300, 300, 300, 300, 300, 180].map((s) => s * 1000));
});
