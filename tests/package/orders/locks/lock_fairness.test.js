// A checkout is not kept waiting by a replay in another process: the replay takes a guest's lock
// for one order at a time, in the background, and a checkout that waits for that guest's lock
// (leaving its waiting mark beside the lock directory) gets it as soon as the order in flight is
// decided, ahead of the replay's next order. Through the public API against the real local
// service behind a relay in this process that records the order in which baskets arrive and holds
// the replay's baskets until told: another Node process replays 12 orders of Blair from a file
// outbox; once its first basket is in flight, a checkout of Blair on the same outbox starts here.
// Its basket must arrive right after that one (the order of events, never wall time).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { credentialsOf, root, waitFor } from '../../../service/harness.js';
import { latte, lq, qualifierOptions, scratch, service, useOrderService } from '../order_service.js';

const BLAIR = 'u_1002';
const REPLAYED = 12;

useOrderService('lock-fairness');

// The relay: forwards every request to the service; records each basket's id as it arrives and,
// while `held` is set, holds the replay's baskets ("replay-*") until release().
function relay() {
  const arrivals = [];
  let held = true;
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const server = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    if (request.method === 'POST' && request.url === '/api/baskets') {
      const id = JSON.parse(body.toString('utf8')).id;
      arrivals.push(id);
      if (held && id.startsWith('replay-')) await released;
    }
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)));
    try {
      const answer = await fetch(`${service.url}${request.url}`, { method: request.method, headers, body: body.length > 0 ? body : undefined });
      const text = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    } catch {
      response.destroy();
    }
  });
  return {
    arrivals,
    listen: () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`))),
    release: () => {
      held = false;
      release();
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

// The other process: a HybridQualifier of Blair on `directory` replays the outbox and prints the outcomes.
const replayer = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const [baseUrl, directory] = process.argv.slice(1);
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, timeoutMs: 30_000 });
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory }), backoff: { initialMs: 600_000 },
    qualifierOptions: { now: () => new Date(${JSON.stringify(latte.order_timestamp)}) } });
  const outcomes = await hybrid.flush();
  console.log(JSON.stringify(outcomes.map((o) => [o.basketId, o.status])));
  hybrid.dispose();
  process.exit(0);
`;

let link = null;
after(() => link?.close());

test('a checkout waiting for its guest\'s lock goes ahead of the next order of a replay in another process', { timeout: 120_000 }, async () => {
  link = relay();
  const baseUrl = await link.listen();
  const directory = path.join(scratch.dir, 'outbox');
  const { token, key } = credentialsOf(BLAIR);
  const credentials = { baseUrl, accessToken: token, merchantKey: key };
  // This process's hybrid, made first: its own start-up replay has found nothing to do.
  const hybrid = new lq.HybridQualifier({ client: new lq.LoyaltyClient({ ...credentials, timeoutMs: 30_000 }), outbox: lq.fileOrderOutbox({ directory }), qualifierOptions, backoff: { initialMs: 600_000 } });
  let child = null;
  try {
    assert.deepEqual(await hybrid.flush(), []);
    await hybrid.ready();
    const outbox = lq.fileOrderOutbox({ directory });
    const owner = JSON.stringify(['m_harbor_coffee', BLAIR]);
    for (let i = 0; i < REPLAYED; ++i) {
      const basketId = `replay-${i}`;
      await outbox.put({
        owner, merchantId: 'm_harbor_coffee', userId: BLAIR, basketId, sequence: i + 1, queuedAt: Date.now(), request: latte,
        body: { ...latte, id: basketId, state: 'billed' }, requestedOffer: null, offer: null, promisedDiscount: '0.00', policyApplied: true,
        attempts: 0, maybeSent: false, lastError: null, replay: credentials,
      });
    }
    const index = pathToFileURL(path.join(root, 'web/index.js')).href;
    child = spawn(process.execPath, ['--input-type=module', '-e', replayer(index, token, key), baseUrl, directory], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    const ended = new Promise((resolve) => child.once('close', resolve));

    // The replay's first basket is in flight (held by the relay): the other process holds Blair's lock.
    assert.ok(await waitFor(() => link.arrivals.includes('replay-0'), 60_000, 10), `the replay started: ${err}`);
    const checkout = hybrid.checkout(latte, { basketId: 'checkout-1' });
    // The checkout waits for the lock, and says so beside it.
    const locks = path.join(directory, 'locks');
    const marked = await waitFor(() => readdirSync(locks).some((name) => name.includes('.waiting-')), 10_000, 5);
    link.release();
    const outcome = await checkout;
    assert.deepEqual([outcome.status, outcome.basketId], ['billed', 'checkout-1'], JSON.stringify(outcome));
    await ended;
    const replayed = JSON.parse(out.trim().split('\n').at(-1));
    assert.equal(replayed.length, REPLAYED);
    assert.ok(replayed.every(([, status]) => status === 'billed'), JSON.stringify(replayed));
    // The checkout's basket came right after the one in flight when it started waiting.
    assert.deepEqual(link.arrivals.slice(0, 2), ['replay-0', 'checkout-1'], link.arrivals.join(' '));
    assert.ok(marked, 'the waiting checkout left its mark');
    assert.equal(new Set(link.arrivals).size, REPLAYED + 1, 'each basket sent once');
    assert.deepEqual(readdirSync(locks), [], 'no lock or mark left behind');
  } finally {
    hybrid.dispose();
    if (child !== null && child.exitCode === null) child.kill('SIGKILL');
  }
});
