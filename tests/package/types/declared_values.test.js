// The .d.ts of web/engine, web/account, web/http, web/offline/snapshots, web/offline/orders and web/offline/hybrid: they type-check
// with tsc (strict, exactOptionalPropertyTypes) beside web/index.d.ts, which only re-exports them, and they declare exactly
// the values the JS modules export (the internal transport helpers aside).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';

import { root, scratchDir } from '../../service/harness.js';

const scratch = scratchDir('lq-types-');
const DECLARATIONS = ['engine/engine.d.ts', 'engine/snapshot.d.ts', 'account/account.d.ts', 'http/http.d.ts', 'http/sandbox_client.d.ts', 'offline/snapshots/snapshots.d.ts', 'offline/storage/storage.d.ts', 'offline/orders/orders.d.ts', 'offline/hybrid/hybrid.d.ts'];
const MODULES = ['engine/qualifier.js', 'engine/qualify_error.js', 'engine/disposed_error.js', 'account/snapshot_from_account.js', 'account/intl_tz_rule.js', 'account/money_text.js', 'http/loyalty_client.js', 'offline/hybrid/hybrid_qualifier.js', 'offline/snapshots/memory_snapshot_store.js', 'offline/snapshots/local_storage_snapshot_store.js', 'offline/snapshots/indexed_db_snapshot_store.js', 'offline/snapshots/file_snapshot_store.js', 'offline/snapshots/snapshot_store.js', 'offline/orders/outbox/memory_outbox.js', 'offline/orders/outbox/indexed_db_outbox.js', 'offline/orders/outbox/file_outbox.js', 'offline/orders/outbox/order_outbox.js', 'offline/orders/basket_id.js', 'http/sandbox_client.js'];
after(() => scratch.cleanup());

const USAGE = `
import {
  CONSUMER_API_VERSION,
  HybridQualifier,
  LoyaltyClient,
  NETWORK_ERROR,
  QualifyError,
  SANDBOX_POLL_SCHEDULE,
  SandboxClient,
  TIMEOUT,
  createQualifier,
  defaultSnapshotStore,
  encodeQuery,
  fileSnapshotStore,
  indexedDbSnapshotStore,
  isServiceUnavailable,
  localStorageSnapshotStore,
  memorySnapshotStore,
  memoryOrderOutbox,
  fileOrderOutbox,
  indexedDbOrderOutbox,
  defaultOrderOutbox,
  describeAge,
  type CheckoutOutcome,
  type PendingOrder,
  pollDelays,
  purchaseMatcher,
  type ConfirmResult,
  type DivergenceEvent,
  type FraudReport,
  type QualifyResult,
  type RegisteredCard,
  type SandboxPurchase,
  type SandboxReward,
  type SnapshotStore,
  type WaitProgress,
} from './package.js';

export async function usage(): Promise<void> {
  const client = new LoyaltyClient({ baseUrl: 'http://127.0.0.1:8080', accessToken: 't', merchantKey: 'k', timeoutMs: 5000, fetch });
  const answer: QualifyResult = await client.qualify({ subtotal: '5.00', items: [{ id: 'latte', price: 5 }] });
  const snapshot = await client.account({ signal: AbortSignal.timeout(1000) });
  const saved = await client.saveBasket({ id: 'b-1', state: 'billed', rewards: ['rw_1'], subtotal: 5 });
  const discount: string = saved.discount;
  const identity: string = client.identity;

  const stores: SnapshotStore[] = [
    memorySnapshotStore(),
    localStorageSnapshotStore({ storage: localStorage, prefix: 'x:' }),
    indexedDbSnapshotStore({ indexedDB, databaseName: 'db' }),
    fileSnapshotStore({ directory: '/tmp/x' }),
    defaultSnapshotStore(),
  ];
  await indexedDbSnapshotStore().close();

  const hybrid = new HybridQualifier({
    client,
    snapshot,
    store: stores[0]!,
    maxAgeMs: 60_000,
    now: () => Date.now(),
    qualifierOptions: { now: () => new Date() },
    onDivergence: (event: DivergenceEvent) => console.log(event.local?.rewards.length, event.remote.points_products),
  });
  await hybrid.ready();
  const local: QualifyResult = await hybrid.qualify({ items: [] });
  const confirmed: ConfirmResult = await hybrid.confirm('{"subtotal": 3}');
  if (confirmed.source === 'local') {
    const provisional: true = confirmed.provisional;
    const code: number = confirmed.error.code;
    console.log(provisional, code);
  } else {
    const provisional: false = confirmed.provisional;
    console.log(provisional);
  }
  const offline = new HybridQualifier({
    client,
    outbox: memoryOrderOutbox(),
    maxStaleMs: Infinity,
    offline: { redeem: 'provisional', maxDiscount: '5.00' },
    backoff: { initialMs: 1000, maxMs: 60_000 },
    onOrderSettled: (order: PendingOrder, outcome: CheckoutOutcome) => console.log(order.basketId, outcome.status),
  });
  const outcome: CheckoutOutcome = await offline.checkout({ subtotal: '4.75' }, { offer: { kind: 'reward', id: 'r' }, basketId: 'b-1' });
  const status: 'billed' | 'refused' | 'queued' = outcome.status;
  const pending: PendingOrder[] = await offline.pendingOrders();
  const everyone: PendingOrder[] = await offline.pendingOrders({ all: true });
  const damaged = await offline.damagedOrders();
  const flushed: CheckoutOutcome[] = await offline.flush();
  const unknown: string | null = outcome.discount;
  if (outcome.offerRefused) console.log(outcome.offerRefused.kind, outcome.offerRefused.message, outcome.originalBasketId, outcome.shortfall);
  console.log(everyone[0]?.userId, everyone[0]?.replay?.accessToken, damaged[0]?.reason, unknown, outcome.lastError, outcome.offer?.id);
  const refreshed = new LoyaltyClient({ baseUrl: 'http://127.0.0.1:8080', merchantKey: 'k', accessToken: async () => 'fresh' });
  const replaying = new HybridQualifier({
    client: refreshed,
    outbox: memoryOrderOutbox(),
    storeCredentials: false,
    credentialsFor: async (order: PendingOrder) => (order.userId ? await refreshed.credentials() : null),
  });
  console.log(refreshed.withCredentials({ baseUrl: 'x', merchantKey: 'k', accessToken: await refreshed.accessToken() }).baseUrl, replaying);
  const stale = await offline.qualify({ items: [] });
  console.log(status, pending.length, flushed.length, stale.provisional, stale.snapshotAgeMs, describeAge(1000));
  console.log(fileOrderOutbox({ directory: '/tmp/o' }).directory, indexedDbOrderOutbox().kind, defaultOrderOutbox().kind);
  const changed = await client.accountIfChanged('"x"');
  const narrowed = await client.account({ locationUid: 'harbor-downtown', redemptionVenue: 'instore', rewardStates: ['redeemable', 'redeemed'] });
  const narrowedChange = await client.accountIfChanged(null, { redemptionVenue: 'online', signal: AbortSignal.timeout(1000) });
  console.log(narrowed.user, narrowedChange.notModified);
  if (!changed.notModified) console.log(changed.snapshot.user, changed.etag);
  const info = hybrid.snapshotInfo();
  if (info) console.log(info.ageMs, info.expired, info.savedAt);
  const diagnostics = hybrid.diagnostics();
  const claimsAge: number | null | undefined = diagnostics.holds.claims?.ageMs;
  console.log(diagnostics.snapshot?.ageMs, diagnostics.holds.pendingOrders, diagnostics.holds.billedSinceSnapshot, claimsAge, diagnostics.holds.claims?.truncated);
  const memoryOutbox = memoryOrderOutbox();
  const mine: PendingOrder[] = memoryOutbox.listOwner('["m","u"]');
  const stamp: number = memoryOutbox.changeStamp('["m","u"]');
  const locked: number = await fileOrderOutbox({ directory: '/tmp/o', staleMs: 5000 }).exclusive(async () => 1, { owner: '["m","u"]' });
  const keys: string[] = await memorySnapshotStore().keys('hub-settlement:');
  console.log(mine.length, stamp, locked, keys, await stores[0]!.keys?.('x'));
  await hybrid.refresh();
  hybrid.dispose();

  const sandbox = new SandboxClient({ sandboxApiUrl: 'http://127.0.0.1:8080', accessToken: 't', clientId: 'c' });
  const reward: SandboxReward = await sandbox.grantReward({ campaign_id: 'cmp_Hb7dQ2', user_id: 'u_1' });
  const campaign: string | null = reward.campaign_id;
  await sandbox.simulatePurchase({ merchant_id: 'm', location_id: 'loc', user_id: 'u_1', amount: '12.50', purchased_at: '2026-11-24T08:00:00-05:00' });
  await sandbox.simulatePurchase({ merchant_id: 'm', user_id: 'u_1', amount: 3 });
  const purchases: SandboxPurchase[] = await sandbox.listPurchases({ location_ids: ['loc'], sources: ['sandbox'], limit: 5 });
  const rewards: SandboxReward[] = await sandbox.listRewards({ states: ['redeemable', 'redeemed'] });
  const controller = new AbortController();
  const landed: SandboxPurchase | null = await sandbox.waitForPurchase(
    { user_id: 'u_1', amount: 12.5 },
    {
      signal: controller.signal,
      schedule: { firstDelayMs: 60_000 },
      timers: { setTimeout, clearTimeout, now: Date.now },
      filters: { purchased_since: '2026-11-24T00:00:00Z' },
      onProgress: (event: WaitProgress) => {
        if (event.type === 'waiting') console.log(event.delayMs, event.nextPollAt);
        if (event.type === 'found') console.log(event.purchase.id);
        if (event.type === 'poll-failed') console.log(event.error.code);
        console.log(event.attempt, event.elapsedMs, event.totalMs);
      },
    },
  );
  await sandbox.waitForPurchase((p) => p.points > 10);
  const card: RegisteredCard = await sandbox.registerCard({ card_number: '4111 1198 7654 1111', replace: true });
  const report: FraudReport = await sandbox.fraudReport({ user_id: 'u_1' });
  const failing: number = report.silent_failures + report.campaigns.filter((c) => !c.activates).length;
  console.log(card.card, report.fix?.card_number, failing);
  const delays: number[] = pollDelays({ ...SANDBOX_POLL_SCHEDULE, totalMs: 1000 });
  const query: string = encodeQuery({ states: ['a', 'b'], limit: 3, skip: undefined });
  const matches: boolean = purchaseMatcher({ amount: '1.00' })(purchases[0]!);
  const version: 'v4.0' = CONSUMER_API_VERSION;
  const codes: [0, 599] = [NETWORK_ERROR, TIMEOUT];

  try {
    await createQualifier(snapshot);
  } catch (e) {
    if (isServiceUnavailable(e)) {
      const unavailable: QualifyError = e;
      console.log(unavailable.code);
    }
  }
  console.log(answer, discount, identity, local, campaign, rewards, landed, delays, query, matches, version, codes);
}
`;

const ERRORS = `
import { HybridQualifier, LoyaltyClient, SandboxClient } from './package.js';
const client = new LoyaltyClient({ baseUrl: 'x', accessToken: 't', merchantKey: 'k' });
// @ts-expect-error merchantKey is required
new LoyaltyClient({ baseUrl: 'x', accessToken: 't' });
// @ts-expect-error a token function gives a string
new LoyaltyClient({ baseUrl: 'x', accessToken: () => 42, merchantKey: 'k' });
// @ts-expect-error storeCredentials is a boolean
new HybridQualifier({ client, storeCredentials: 'no' });
// @ts-expect-error the client must be able to qualify and read the account
new HybridQualifier({ client: {} });
// @ts-expect-error campaign_id is a string (the hashid), never the numeric program id
new SandboxClient({ sandboxApiUrl: 'x', accessToken: 't', clientId: 'c' }).grantReward({ campaign_id: 41001, user_id: 'u' });
// @ts-expect-error states is an array filter
new SandboxClient({ sandboxApiUrl: 'x', accessToken: 't', clientId: 'c' }).listRewards({ states: [{}] });
// @ts-expect-error card_number is the number as text
new SandboxClient({ sandboxApiUrl: 'x', accessToken: 't', clientId: 'c' }).registerCard({ card_number: 4111111111111111 });
// @ts-expect-error the account read's venue is instore or online
client.account({ redemptionVenue: 'drive-thru' });
// @ts-expect-error reward_states[] is an array of states
client.accountIfChanged(null, { rewardStates: 'redeemed' });
console.log(client);
`;

test('the folders\' .d.ts type-check beside web/index.d.ts', { timeout: 120_000 }, (t) => {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) {
    t.skip('typescript is not installed (npm ci)');
    return;
  }
  const dir = scratch.dir;
  const web = path.join(root, 'web').split(path.sep).join('/');
  writeFileSync(path.join(dir, 'package.d.ts'), `export * from '${web}/index.js';\n`);
  writeFileSync(path.join(dir, 'usage.ts'), USAGE);
  writeFileSync(path.join(dir, 'errors.ts'), ERRORS);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2022', 'dom'],
      types: [],
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      skipLibCheck: false,
    },
    files: ['package.d.ts', 'usage.ts', 'errors.ts', ...DECLARATIONS.map((file) => `${web}/${file}`)],
  }));
  const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test('the declared values are exactly the ones the modules export', async () => {
  const declared = new Set();
  const text = DECLARATIONS.map((file) => readFileSync(path.join(root, 'web', file), 'utf8')).join('\n');
  for (const match of text.matchAll(/^export (?:declare )?(?:const|class|function) (\w+)/gm)) declared.add(match[1]);
  const exported = new Set();
  for (const file of MODULES) {
    for (const name of Object.keys(await import(`../../../web/${file}`))) {
      assert.ok(!exported.has(name), `${name} is exported twice (export * would drop it)`);
      exported.add(name);
    }
  }
  const internal = new Set(['ServiceEndpoint', 'requestJson', 'requireText', 'checkBasketId', 'derivedBasketId', 'intlOffsetAt', 'intlTransitionsInYear']);
  assert.deepEqual([...exported].filter((n) => !internal.has(n)).sort(), [...declared].sort());
  // The package root re-exports every public client value as the same binding, and no internal one.
  const index = await import('../../../web/index.js');
  for (const file of MODULES) {
    const module = await import(`../../../web/${file}`);
    for (const [name, value] of Object.entries(module)) {
      if (internal.has(name)) assert.ok(!(name in index), `${name} is internal but exported by web/index.js`);
      else assert.equal(index[name], value, `web/index.js does not re-export ${name} from ${file}`);
    }
  }
});
