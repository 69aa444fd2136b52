// HybridQualifier: local answers at once, confirmation by the service, provisional answers when
// the service cannot be reached, divergence handling, and snapshots that persist through a
// pluggable store, turn provisional after maxAgeMs and stop after maxStaleMs. The service is a stub over the engine here, except
// for the 4xx checks, which use the real one.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  FIXED_NOW,
  HARBOR_BASKET,
  credentialsOf,
  ensureWasm,
  root,
  scratchDir,
  serviceBinary,
  startService,
} from '../../service/harness.js';

const scratch = scratchDir('lq-hybrid-');
let api;
let clients;
let service;
let snapshot;

before(async () => {
  // The hybrids made here without an outbox or a store use the platform's default, the user's
  // state and cache folders: this process's own, so that no other test's queued orders (another
  // file, another checkout on this machine) hold rewards against these answers.
  process.env.XDG_STATE_HOME = path.join(scratch.dir, 'state');
  process.env.XDG_CACHE_HOME = path.join(scratch.dir, 'cache');
  ensureWasm();
  serviceBinary();
  api = await import('../../../web/index.js');
  clients = {
    ...(await import('../../../web/http/loyalty_client.js')),
    ...(await import('../../../web/offline/hybrid/hybrid_qualifier.js')),
    ...(await import('../../../web/offline/snapshots/memory_snapshot_store.js')),
    ...(await import('../../../web/offline/snapshots/local_storage_snapshot_store.js')),
    ...(await import('../../../web/offline/snapshots/indexed_db_snapshot_store.js')),
    ...(await import('../../../web/offline/snapshots/file_snapshot_store.js')),
    ...(await import('../../../web/offline/snapshots/snapshot_store.js')),
  };
  const { readFile } = await import('node:fs/promises');
  snapshot = JSON.parse(await readFile(path.join(root, 'examples/snapshot.json'), 'utf8'));
  service = await startService({ db: path.join(scratch.dir, 'hybrid.db'), now: true });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.crash();
  scratch.cleanup();
});

const basket = HARBOR_BASKET;

// Waits for a condition (bounded: 5 s), one macrotask at a time.
async function waitUntil(condition) {
  for (let i = 0; i < 5000 && !condition(); ++i) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.ok(condition(), 'condition not met within 5 s');
}

const qualifierOptions = { now: () => new Date(FIXED_NOW) };

/**
 * A stand-in for the service: qualify() runs the engine on `state.snapshot` (or fails with
 * `state.failure`), account() returns it; every call is counted.
 */
function stubClient(initial, { identity = 'stub' } = {}) {
  const state = { snapshot: initial, failure: null, accountCalls: 0, qualifyCalls: 0, accountDelay: null };
  return {
    state,
    identity,
    async qualify(request) {
      state.qualifyCalls += 1;
      if (state.failure) throw state.failure();
      const engine = await api.createQualifier(state.snapshot, qualifierOptions);
      try {
        return JSON.parse(JSON.stringify(engine.qualify(request)));
      } finally {
        engine.dispose();
      }
    },
    async account() {
      state.accountCalls += 1;
      if (state.accountDelay) await state.accountDelay;
      if (state.failure) throw state.failure();
      return structuredClone(state.snapshot);
    },
  };
}

const unreachable = () => new api.QualifyError(clients.NETWORK_ERROR, 'cannot reach the service (ECONNREFUSED)');

function withoutReward(source, id) {
  const copy = structuredClone(source);
  copy.rewards = copy.rewards.filter((r) => r.id !== id);
  return copy;
}

describe('qualify and confirm', () => {
  test('qualify() answers from the snapshot; confirm() agrees with the service', async () => {
    const client = stubClient(snapshot);
    const hybrid = new clients.HybridQualifier({ client, qualifierOptions });
    try {
      const local = await hybrid.qualify(basket);
      assert.equal(client.state.accountCalls, 1, 'the first use loads the snapshot');
      assert.equal(client.state.qualifyCalls, 0, 'qualify never asks the service');
      assert.ok(local.rewards.length > 0);
      const confirmed = await hybrid.confirm(basket);
      assert.deepEqual(confirmed, { result: local, source: 'remote', provisional: false, diverged: false });
      assert.equal(client.state.accountCalls, 1);
    } finally {
      hybrid.dispose();
    }
  });

  test('the service unreachable, timing out or failing (5xx): the local answer, provisional', async () => {
    for (const failure of [unreachable, () => new api.QualifyError(clients.TIMEOUT, 'no answer'), () => new api.QualifyError(503, 'busy')]) {
      const client = stubClient(snapshot);
      const hybrid = new clients.HybridQualifier({ client, snapshot, qualifierOptions });
      try {
        client.state.failure = failure;
        const answer = await hybrid.confirm(basket);
        assert.equal(answer.source, 'local');
        assert.equal(answer.provisional, true);
        assert.equal(answer.error.code, failure().code);
        assert.deepEqual(answer.result, await hybrid.qualify(basket));
        assert.equal(client.state.accountCalls, 0, 'a given snapshot needs no network');
      } finally {
        hybrid.dispose();
      }
    }
  });

  test('without any snapshot and without the service, confirm rejects with the network error', async () => {
    const client = stubClient(snapshot);
    client.state.failure = unreachable;
    const hybrid = new clients.HybridQualifier({ client, qualifierOptions });
    await assert.rejects(hybrid.confirm(basket), { code: clients.NETWORK_ERROR });
    await assert.rejects(hybrid.qualify(basket), { code: clients.NETWORK_ERROR });
    hybrid.dispose();
  });

  test('the service\'s 4xx is surfaced as the error, whatever the local answer', async () => {
    const { token, key } = credentialsOf('u_1001');
    const real = new clients.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key });
    const hybrid = new clients.HybridQualifier({ client: real, qualifierOptions });
    try {
      await assert.rejects(hybrid.confirm({ redemption_venue: 'kiosk' }), (e) => {
        assert.ok(e instanceof api.QualifyError);
        assert.equal(e.code, 400);
        assert.match(e.message, /redemption_venue must be one of: instore, online/);
        return true;
      });
      const stranger = new clients.LoyaltyClient({ baseUrl: service.url, accessToken: 'at_revoked', merchantKey: key });
      const offline = new clients.HybridQualifier({ client: stranger, snapshot, qualifierOptions });
      await assert.rejects(offline.confirm(basket), { code: 401, message: /bearer token/ });
      offline.dispose();
    } finally {
      hybrid.dispose();
    }
  });

  test('a disagreement refreshes the snapshot and calls onDivergence', async () => {
    const stale = withoutReward(snapshot, 'rw_free_latte');
    const client = stubClient(snapshot);
    const events = [];
    const hybrid = new clients.HybridQualifier({ client, snapshot: stale, qualifierOptions, onDivergence: (e) => events.push(e) });
    try {
      const before = await hybrid.qualify(basket);
      assert.ok(!before.rewards.some((r) => r.id === 'rw_free_latte'));
      const confirmed = await hybrid.confirm(basket);
      assert.equal(confirmed.source, 'remote');
      assert.equal(confirmed.diverged, true);
      assert.ok(confirmed.result.rewards.some((r) => r.id === 'rw_free_latte'));
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].local, before);
      assert.deepEqual(events[0].remote, confirmed.result);
      assert.equal(events[0].basket, basket);
      assert.equal(events[0].refreshError, null);
      assert.equal(client.state.accountCalls, 1, 'refreshed once');
      assert.deepEqual(await hybrid.qualify(basket), confirmed.result);
    } finally {
      hybrid.dispose();
    }
  });

  test('a failed refresh is reported to onDivergence; the remote answer still wins', async () => {
    const client = stubClient(snapshot);
    client.state.accountDelay = Promise.resolve();
    const events = [];
    const hybrid = new clients.HybridQualifier({ client, snapshot: withoutReward(snapshot, 'rw_free_latte'), qualifierOptions, onDivergence: (e) => events.push(e) });
    try {
      const original = client.account;
      client.account = async () => {
        throw new api.QualifyError(503, 'account store down');
      };
      const confirmed = await hybrid.confirm(basket);
      client.account = original;
      assert.equal(confirmed.source, 'remote');
      assert.equal(confirmed.diverged, true);
      assert.equal(events[0].refreshError.code, 503);
    } finally {
      hybrid.dispose();
    }
  });
});

describe('refresh', () => {
  test('a refresh called while another read is in flight reads again after it: a change made in between is in the snapshot', async () => {
    const client = stubClient(withoutReward(snapshot, 'rw_free_latte'));
    // Each read answers the account as it was when the read was sent; the first is held back.
    let answerFirst;
    const held = new Promise((resolve) => {
      answerFirst = resolve;
    });
    client.account = async () => {
      client.state.accountCalls += 1;
      const answer = structuredClone(client.state.snapshot);
      if (client.state.accountCalls === 1) await held;
      return answer;
    };
    const hybrid = new clients.HybridQualifier({ client, qualifierOptions });
    try {
      const first = hybrid.refresh();
      await waitUntil(() => client.state.accountCalls === 1);
      client.state.snapshot = snapshot; // the account changes after the first read was sent
      const changed = hybrid.refresh();
      const alsoChanged = hybrid.refresh();
      answerFirst();
      assert.ok(!(await first).rewards.some((r) => r.id === 'rw_free_latte'));
      const [after, alsoAfter] = await Promise.all([changed, alsoChanged]);
      assert.ok(after.rewards.some((r) => r.id === 'rw_free_latte'), 'the second refresh read after the first ended');
      assert.equal(alsoAfter, after, 'the calls made meanwhile share that read');
      assert.equal(client.state.accountCalls, 2);
      assert.ok((await hybrid.qualify(basket)).rewards.some((r) => r.id === 'rw_free_latte'));
    } finally {
      hybrid.dispose();
    }
  });
});

describe('snapshots persist through a store and expire', () => {
  test('a file store keeps the snapshot for the next run, which then needs no network', async () => {
    const directory = path.join(scratch.dir, 'snapshots');
    let now = 1_000_000;
    const clock = () => now;
    const online = stubClient(snapshot, { identity: 'persist' });
    const first = new clients.HybridQualifier({ client: online, store: clients.fileSnapshotStore({ directory }), now: clock, maxAgeMs: 60_000, qualifierOptions });
    const answer = await first.qualify(basket);
    first.dispose();
    assert.equal(readdirSync(directory).length, 1, 'one file per key');
    assert.ok(readdirSync(directory)[0].endsWith('.json'));

    now += 59_000;
    const offline = stubClient(snapshot, { identity: 'persist' });
    offline.state.failure = unreachable;
    const second = new clients.HybridQualifier({ client: offline, store: clients.fileSnapshotStore({ directory }), now: clock, maxAgeMs: 60_000, qualifierOptions });
    assert.deepEqual(await second.qualify(basket), answer);
    assert.equal(offline.state.accountCalls, 0, 'loaded from the store');
    assert.deepEqual(second.snapshotInfo(), { savedAt: 1_000_000, ageMs: 59_000, expired: false });
    const provisional = await second.confirm(basket);
    assert.equal(provisional.provisional, true);
    second.dispose();

    now += 2_000; // 61 s old: expired, still answering (provisional), and kept
    const third = new clients.HybridQualifier({ client: offline, store: clients.fileSnapshotStore({ directory }), now: clock, maxAgeMs: 60_000, maxStaleMs: 120_000, qualifierOptions });
    assert.deepEqual(await third.qualify(basket), { ...answer, provisional: true, snapshotAgeMs: 61_000 });
    assert.equal(readdirSync(directory).length, 1, 'an expired entry is never removed');
    third.dispose();

    now += 60_000; // 121 s old: past maxStaleMs
    const fourth = new clients.HybridQualifier({ client: offline, store: clients.fileSnapshotStore({ directory }), now: clock, maxAgeMs: 60_000, maxStaleMs: 120_000, qualifierOptions });
    await assert.rejects(fourth.qualify(basket), { code: 503, message: /snapshot is 2 min old, older than maxStaleMs \(2 min\)/ });
    assert.equal(readdirSync(directory).length, 1);
    fourth.dispose();
  });

  test('an expired snapshot in use answers at once and is refreshed in the background', async () => {
    let now = 0;
    const client = stubClient(snapshot);
    const hybrid = new clients.HybridQualifier({ client, snapshot, now: () => now, maxAgeMs: 1_000, qualifierOptions });
    try {
      await hybrid.qualify(basket);
      now = 5_000;
      assert.equal(hybrid.snapshotInfo().expired, true);
      let release;
      client.state.accountDelay = new Promise((resolve) => {
        release = resolve;
      });
      const answer = await hybrid.qualify(basket); // does not wait for the refresh
      assert.ok(answer.rewards.length > 0);
      assert.equal(client.state.accountCalls, 1, 'a refresh started');
      await hybrid.qualify(basket);
      assert.equal(client.state.accountCalls, 1, 'one refresh at a time');
      release();
      await hybrid.refresh();
      assert.deepEqual(hybrid.snapshotInfo(), { savedAt: 5_000, ageMs: 0, expired: false });
    } finally {
      hybrid.dispose();
    }
  });

  test('an unreadable or invalid stored entry is ignored', async () => {
    const broken = { load: () => { throw new Error('disk on fire'); }, save: () => { throw new Error('read-only'); }, remove: () => {} };
    const client = stubClient(snapshot);
    const hybrid = new clients.HybridQualifier({ client, store: broken, qualifierOptions });
    assert.ok((await hybrid.qualify(basket)).rewards.length > 0);
    assert.equal(client.state.accountCalls, 1);
    hybrid.dispose();

    const store = clients.memorySnapshotStore();
    await store.save('snapshot:stub', { snapshot: { schema_version: 7 }, savedAt: Date.now() });
    const second = new clients.HybridQualifier({ client, store, qualifierOptions });
    assert.ok((await second.qualify(basket)).rewards.length > 0);
    assert.equal(client.state.accountCalls, 2, 'the invalid stored snapshot was replaced');
    assert.equal((await store.load('snapshot:stub')).snapshot.schema_version, 1);
    second.dispose();
  });

  test('localStorage store: one JSON string per key under a prefix', async () => {
    const items = new Map();
    const storage = {
      getItem: (key) => (items.has(key) ? items.get(key) : null),
      setItem: (key, value) => items.set(key, String(value)),
      removeItem: (key) => items.delete(key),
    };
    const store = clients.localStorageSnapshotStore({ storage, prefix: 'test:' });
    assert.equal(store.load('a'), null);
    store.save('a', { snapshot, savedAt: 42 });
    assert.deepEqual([...items.keys()], ['test:a']);
    assert.deepEqual(store.load('a'), { snapshot, savedAt: 42 });
    items.set('test:b', '{not json');
    assert.equal(store.load('b'), null);
    store.remove('a');
    assert.equal(items.size, 1);
    assert.throws(() => clients.localStorageSnapshotStore(), /localStorage is not available/);
    assert.throws(() => clients.indexedDbSnapshotStore(), /indexedDB is not available/);
  });

  test('the memory store copies entries; the default store in Node is a file store', async () => {
    const store = clients.memorySnapshotStore();
    const entry = { snapshot: { schema_version: 1 }, savedAt: 1 };
    store.save('k', entry);
    entry.snapshot.schema_version = 2;
    assert.equal(store.load('k').snapshot.schema_version, 1);
    assert.throws(() => store.load(''), TypeError);
    const chosen = clients.defaultSnapshotStore({ directory: path.join(scratch.dir, 'default') });
    assert.equal(chosen.kind, 'file');
    assert.equal(chosen.directory, path.join(scratch.dir, 'default'));
    assert.ok(!existsSync(chosen.directory), 'nothing is written before a save');
  });
});

test('options are checked; dispose() ends it', async () => {
  const client = stubClient(snapshot);
  assert.throws(() => new clients.HybridQualifier(), TypeError);
  assert.throws(() => new clients.HybridQualifier({}), /client must be a LoyaltyClient/);
  assert.throws(() => new clients.HybridQualifier({ client, maxAgeMs: -1 }), /maxAgeMs/);
  assert.throws(() => new clients.HybridQualifier({ client, store: {} }), /store must have load/);
  assert.throws(() => new clients.HybridQualifier({ client, onDivergence: 1 }), /onDivergence/);
  const hybrid = new clients.HybridQualifier({ client, snapshot, qualifierOptions });
  await hybrid.qualify(basket);
  const live = (await api.diagnostics()).liveHandles;
  hybrid.dispose();
  assert.equal((await api.diagnostics()).liveHandles, live - 1, 'the engine handle is freed');
  await assert.rejects(hybrid.qualify(basket), { code: 410 });
  assert.equal(hybrid.snapshotInfo(), null);
  await assert.rejects(new clients.HybridQualifier({ client, snapshot: { schema_version: 9 } }).qualify(basket), { code: 422 });
});
