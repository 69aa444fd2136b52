// What a guest has promised away, under load (issue 34), with the real local service on 127.0.0.1:
// - a checkout while a replay of 100 other guests' orders runs, the service answering each basket
//   100 ms late (a slow link: every POST /api/baskets waits 100 ms before it goes): a checkout
//   waits for no other guest's orders (target <= 250 ms: its own basket's 100 ms and a little);
// - a checkout of a guest while another Node process replays 100 orders of that same guest from
//   the same file outbox, 100 ms per answer: the replay takes the guest's lock one order at a
//   time and lets a waiting checkout go first, so a checkout waits for at most the order in
//   flight (target <= 250 ms: that order's 100 ms, its own 100 ms and a little);
// - qualify() with the store hub stopped (SIGSTOP), its claims older than their 2 s: the local
//   answer does not wait for the hub (target <= 5 ms).
//
//   node bench/service/holds.mjs [--quick] [--service PATH] [--hub PATH]   (prints the figures as JSON)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { startStoreHub } from '../../web/local/service/store_hub.js';
import { median } from '../timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHECKOUT_BEHIND_REPLAY_TARGET_MS = 250;
export const QUALIFY_HUB_STOPPED_TARGET_MS = 5;
const REPLAYED = 100;
const ANSWER_DELAY_MS = 100;
const NOW = '2026-11-24T13:15:00Z';
// A store key of the documented strength (32 hex digits, as `openssl rand -hex 16` makes).
const KEY = 'c0ffee5d2f48e06a1c9b7d3e5f2a80b3';
const latte = {
  redemption_venue: 'instore',
  order_timestamp: NOW,
  location_uid: 'harbor-downtown',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
};

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];

// A slow link: every basket (POST /api/baskets) is answered ANSWER_DELAY_MS late.
async function slowFetch(url, init) {
  if (String(url).endsWith('/api/baskets')) await pause(ANSWER_DELAY_MS);
  return globalThis.fetch(url, init);
}

// REPLAYED plain lattes of Casey's (`casey`: the credentials a replay sends them with) put in
// `outbox`, basket ids `${prefix}-0`, `${prefix}-1`, ..., as checkouts queued them.
async function queueCaseyOrders(outbox, casey, prefix) {
  for (let i = 0; i < REPLAYED; ++i) {
    const basketId = `${prefix}-${i}`;
    await outbox.put({
      owner: JSON.stringify(['m_harbor_coffee', 'u_1003']), merchantId: 'm_harbor_coffee', userId: 'u_1003', basketId, sequence: i + 1,
      queuedAt: Date.now(), request: latte, body: { ...latte, id: basketId, state: 'billed' }, requestedOffer: null, offer: null,
      promisedDiscount: '0.00', policyApplied: true, attempts: 0, maybeSent: false, lastError: null, replay: casey,
    });
  }
}

/**
 * Up to `checkouts` checkouts of a latte by `hybrid` (basket ids `${prefix}-i`) while `replay`
 * (a promise) has not settled, each timed; then, once it has, checks that `outbox` is empty and
 * that every checkout ran during the replay: { median, max, checkouts } in wall ms.
 */
async function checkoutsDuring(hybrid, { checkouts, prefix, replay, outbox }) {
  let replayDone = false;
  replay.then(() => { replayDone = true; }, () => { replayDone = true; });
  await pause(3 * ANSWER_DELAY_MS); // the replay is under way
  const times = [];
  for (let i = 0; i < checkouts && !replayDone; ++i) {
    const started = performance.now();
    const outcome = await hybrid.checkout(latte, { basketId: `${prefix}-${i}` });
    times.push(performance.now() - started);
    if (outcome.status !== 'billed') throw new Error(`checkout ${i}: ${outcome.status} (${outcome.message})`);
  }
  const duringReplay = !replayDone;
  await replay;
  if ((await outbox.list()).length !== 0) throw new Error('orders are left in the outbox');
  if (times.length < checkouts || !duringReplay) throw new Error('the replay ended before the checkouts did');
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(times), max: sorted.at(-1), checkouts: times.length };
}

async function withService(binary, fn) {
  const lq = await import('../../web/index.js');
  const { startLocalService } = await import('../../web/local/service/local_service.js');
  const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8'));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-bench-holds-'));
  const service = await startLocalService({ binary, db: path.join(dir, 'bench.db'), fixture: path.join(root, 'fixtures/demo.json'), now: NOW, processingDelay: 3600 });
  const credentials = (id) => {
    const user = fixture.users.find((u) => u.id === id);
    return { baseUrl: service.url, accessToken: user.access_token, merchantKey: fixture.merchants.find((m) => m.id === user.merchant_id).merchant_key };
  };
  try {
    return await fn({ lq, service, credentials, dir });
  } finally {
    service.kill('SIGKILL');
    await service.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall ms of each checkout of one guest while a replay of REPLAYED other guests' orders runs, each basket answered ANSWER_DELAY_MS late. */
export async function measureCheckoutBehindReplay({ binary, checkouts = 10 }) {
  return withService(binary, async ({ lq, credentials, dir }) => {
    const outbox = lq.fileOrderOutbox({ directory: path.join(dir, 'orders') });
    await queueCaseyOrders(outbox, credentials('u_1003'), 'waiting');
    const client = new lq.LoyaltyClient({ ...credentials('u_1002'), fetch: slowFetch });
    const hybrid = new lq.HybridQualifier({ client, outbox, backoff: { initialMs: 600_000 }, qualifierOptions: { now: () => new Date(NOW) } });
    try {
      await hybrid.ready();
      return await checkoutsDuring(hybrid, { checkouts, prefix: 'behind', replay: hybrid.flush(), outbox });
    } finally {
      hybrid.dispose();
    }
  });
}

// The other process: replays the outbox at `directory` as Casey, every basket answered ANSWER_DELAY_MS late.
const replayer = (index) => `
  const lq = await import(${JSON.stringify(index)});
  const [baseUrl, accessToken, merchantKey, directory, delayMs] = process.argv.slice(1);
  const fetch = async (url, init) => {
    if (String(url).endsWith('/api/baskets')) await new Promise((resolve) => setTimeout(resolve, Number(delayMs)));
    return globalThis.fetch(url, init);
  };
  const hybrid = new lq.HybridQualifier({ client: new lq.LoyaltyClient({ baseUrl, accessToken, merchantKey, fetch }),
    outbox: lq.fileOrderOutbox({ directory }), backoff: { initialMs: 600_000 } });
  console.log('replaying');
  await hybrid.flush();
  hybrid.dispose();
  process.exit(0);
`;

/**
 * Wall ms of each checkout of one guest while another process replays REPLAYED orders of that
 * same guest from the same file outbox, every basket (its and the checkout's) answered
 * ANSWER_DELAY_MS late.
 */
export async function measureCheckoutBesideReplayElsewhere({ binary, checkouts = 10 }) {
  return withService(binary, async ({ lq, credentials, dir }) => {
    const directory = path.join(dir, 'shared-orders');
    const casey = credentials('u_1003');
    const hybrid = new lq.HybridQualifier({ client: new lq.LoyaltyClient({ ...casey, fetch: slowFetch }), outbox: lq.fileOrderOutbox({ directory }),
      backoff: { initialMs: 600_000 }, qualifierOptions: { now: () => new Date(NOW) } });
    let child = null;
    try {
      await hybrid.flush(); // its own start-up replay found nothing: the other process replays
      await hybrid.ready();
      const outbox = lq.fileOrderOutbox({ directory });
      await queueCaseyOrders(outbox, casey, 'elsewhere');
      const index = pathToFileURL(path.join(root, 'web/index.js')).href;
      child = spawn(process.execPath, ['--input-type=module', '-e', replayer(index), casey.baseUrl, casey.accessToken, casey.merchantKey, directory, String(ANSWER_DELAY_MS)],
        { stdio: ['ignore', 'pipe', 'inherit'] });
      const ended = new Promise((resolve) => child.once('close', resolve));
      await new Promise((resolve) => child.stdout.once('data', resolve));
      return await checkoutsDuring(hybrid, { checkouts, prefix: 'beside', replay: ended, outbox });
    } finally {
      hybrid.dispose();
      if (child !== null && child.exitCode === null) child.kill('SIGKILL');
    }
  });
}

/** Wall ms of qualify() calls with the store hub stopped (SIGSTOP) and the claims past their 2 s. */
export async function measureQualifyHubStopped({ binary, hubBinary, calls = 200 }) {
  return withService(binary, async ({ lq, credentials, dir }) => {
    const hub = await startStoreHub({ storeKey: KEY, db: path.join(dir, 'hub.db'), ...(hubBinary ? { binary: hubBinary } : {}), args: ['--access-log', 'off'] });
    const client = new lq.LoyaltyClient(credentials('u_1001'));
    const hybrid = new lq.HybridQualifier({ client, outbox: lq.memoryOrderOutbox(), qualifierOptions: { now: () => new Date(NOW) },
      hub: { url: hub.url, storeKey: KEY, kioskId: 'bench-kiosk', timeoutMs: 3_000 } });
    try {
      for (let i = 0; i < 50; ++i) await hybrid.qualify(latte); // warm, claims known
      while (hybrid.diagnostics().holds.claims.ageMs === null) await pause(10);
      while (hybrid.diagnostics().holds.claims.ageMs <= 2_100) await pause(50);
      hub.kill('SIGSTOP');
      const times = [];
      try {
        for (let i = 0; i < calls; ++i) {
          const started = performance.now();
          await hybrid.qualify(latte);
          times.push(performance.now() - started);
        }
        if (!hybrid.diagnostics().holds.claims.refreshing) throw new Error('the hub was not being asked meanwhile');
      } finally {
        hub.kill('SIGCONT');
      }
      const sorted = [...times].sort((a, b) => a - b);
      return { median: median(times), p99: percentile(sorted, 0.99), max: sorted.at(-1), calls };
    } finally {
      hybrid.dispose();
      await hub.stop();
    }
  });
}

/** The rows for bench/run.mjs's table: [figure, measured, target, ok, key, value]. */
export async function holdsRows({ binary, hubBinary, quick = false }) {
  const behind = await measureCheckoutBehindReplay({ binary, checkouts: quick ? 5 : 10 });
  const beside = await measureCheckoutBesideReplayElsewhere({ binary, checkouts: quick ? 5 : 10 });
  const stopped = await measureQualifyHubStopped({ binary, hubBinary, calls: quick ? 50 : 200 });
  return [
    [`checkout while a replay of ${REPLAYED} other guests' orders runs, ${ANSWER_DELAY_MS} ms per answer (file outbox)`,
      `median ${behind.median.toFixed(1)} ms, max ${behind.max.toFixed(1)} ms (${behind.checkouts} checkouts)`,
      `<= ${CHECKOUT_BEHIND_REPLAY_TARGET_MS} ms (median)`, behind.median <= CHECKOUT_BEHIND_REPLAY_TARGET_MS, 'checkout_behind_replay', behind],
    [`checkout of a guest while another process replays ${REPLAYED} orders of that guest, ${ANSWER_DELAY_MS} ms per answer (one file outbox)`,
      `median ${beside.median.toFixed(1)} ms, max ${beside.max.toFixed(1)} ms (${beside.checkouts} checkouts)`,
      `<= ${CHECKOUT_BEHIND_REPLAY_TARGET_MS} ms (median)`, beside.median <= CHECKOUT_BEHIND_REPLAY_TARGET_MS, 'checkout_beside_replay_elsewhere', beside],
    ['qualify() with the store hub stopped (SIGSTOP), claims past their 2 s',
      `median ${stopped.median.toFixed(2)} ms, p99 ${stopped.p99.toFixed(2)} ms, max ${stopped.max.toFixed(2)} ms (${stopped.calls} calls)`,
      `<= ${QUALIFY_HUB_STOPPED_TARGET_MS} ms`, stopped.p99 <= QUALIFY_HUB_STOPPED_TARGET_MS, 'qualify_hub_stopped', stopped],
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = (name, fallback) => (args.includes(name) ? path.resolve(args[args.indexOf(name) + 1]) : fallback);
  const binary = at('--service', path.join(root, 'build/native/service/loyalty_service'));
  const hubBinary = at('--hub', path.join(root, 'build/native/hub/loyalty_hub'));
  const rows = await holdsRows({ binary, hubBinary, quick: args.includes('--quick') });
  process.stdout.write(`${JSON.stringify(rows.map(([figure, measured, target]) => ({ figure, measured, target })), null, 2)}\n`);
}
