// Issue 28, a lock safe to lose, with real processes on one file outbox and the real service: a
// replayer stopped (SIGSTOP) while it sends. Its process is alive on this host, so it is never
// taken over, however long it stays stopped; a replayer on another host (here: its own UTS
// namespace, `unshare -u`, with another host name) loses the lock after staleMs, the new holder
// bills and settles the order, and the old one, resumed, neither re-writes it nor reports it
// settled: each order is reported settled exactly once.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { credentialsOf, root, waitFor } from '../../service/harness.js';
import { latte, scratch, service, useOrderService } from './order_service.js';

const STALE_MS = 600;
const canUnshare = spawnSync('unshare', ['-u', 'true']).status === 0;

useOrderService('lost-lock');

// A child with a HybridQualifier on a file outbox (staleMs STALE_MS). 'checkout': checks out one
// order; its POST /api/baskets prints "sending" and waits for a line on stdin before it goes.
// 'replay': flushes until the outbox holds no order. Both print { sends, settled, outcome }.
const script = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const fs = await import('node:fs');
  const [mode, baseUrl, directory, basketId] = process.argv.slice(1);
  let sends = 0;
  const go = () => new Promise((resolve) => process.stdin.once('data', resolve));
  const fetch = async (url, init) => {
    if (url.endsWith('/api/baskets')) {
      sends += 1;
      if (mode === 'checkout') {
        console.log('sending');
        await go();
      }
    }
    return globalThis.fetch(url, init);
  };
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, fetch, timeoutMs: 120_000 });
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client, outbox: lq.fileOrderOutbox({ directory, staleMs: ${STALE_MS} }),
    backoff: { initialMs: 600_000 }, onOrderSettled: (order) => settled.push(order.basketId) });
  await hybrid.ready();
  let outcome = null;
  if (mode === 'checkout') {
    outcome = await hybrid.checkout(${JSON.stringify(latte)}, { basketId });
  } else {
    const deadline = Date.now() + 60_000;
    const pending = () => fs.readdirSync(directory).filter((name) => name.endsWith('.order.json')).length;
    while (pending() > 0 && Date.now() < deadline) await hybrid.flush();
  }
  hybrid.dispose();
  console.log(JSON.stringify({ sends, settled, outcome }));
  process.exit(0);
`;

function child(code, args, { otherHost = false } = {}) {
  const node = [process.execPath, '--input-type=module', '-e', code, ...args];
  const [command, ...rest] = otherHost ? ['unshare', '-u', 'sh', '-c', 'hostname lq-other-host && exec "$@"', 'sh', ...node] : node;
  const proc = spawn(command, rest, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => { out += chunk; });
  proc.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
  const done = new Promise((resolve, reject) => {
    proc.on('close', (status) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(out.trim().split('\n').at(-1)));
      else reject(new Error(`child exited with ${status}: ${err}`));
    });
  });
  const printed = (line) => waitFor(() => out.split('\n').includes(line) || proc.exitCode !== null, 60_000, 20);
  return { proc, done, printed, output: () => out };
}

const ordersIn = (directory) => readdirSync(directory).filter((name) => name.endsWith('.order.json'));
// The lock directory has not been touched for `ms` (its holder's heartbeat stopped).
const untouchedFor = (directory, ms) => waitFor(() => Date.now() - statSync(path.join(directory, 'replay.lock')).mtimeMs > ms, ms + 30_000, 50);

async function stoppedWhileSending(directory, basketId, options) {
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf('u_1003');
  const code = script(index, token, key);
  const first = child(code, ['checkout', service.url, directory, basketId], options);
  await first.printed('sending');
  assert.match(first.output(), /sending/, 'the first replayer is sending');
  first.proc.kill('SIGSTOP');
  return { first, second: child(code, ['replay', service.url, directory]) };
}

test('a replayer stopped while it sends, alive on this host, is never taken over; the order is settled once', { timeout: 180_000 }, async () => {
  const directory = path.join(scratch.dir, 'same-host');
  const { first, second } = await stoppedWhileSending(directory, 'lock-same-host-1');
  try {
    // Past its staleMs, and past the default staleness time (30 s) too.
    assert.ok(await untouchedFor(directory, 32_000), 'the stopped holder no longer touches its lock');
    assert.equal(second.proc.exitCode, null, 'the second replayer still waits for the lock');
    assert.deepEqual(ordersIn(directory).length, 1);
  } finally {
    first.proc.kill('SIGCONT');
  }
  first.proc.stdin.write('go\n');
  const [a, b] = await Promise.all([first.done, second.done]);
  assert.equal(a.outcome.status, 'billed');
  assert.deepEqual([...a.settled, ...b.settled], ['lock-same-host-1'], 'settled once');
  assert.equal(a.sends + b.sends, 1, 'sent once');
  assert.deepEqual(ordersIn(directory), []);
});

test('a replayer on another host stopped past staleMs loses the lock: the new holder bills and settles, the old one writes and reports nothing', { timeout: 180_000, skip: !canUnshare && 'needs unshare -u (root) for a second host name' }, async () => {
  const directory = path.join(scratch.dir, 'other-host');
  const { first, second } = await stoppedWhileSending(directory, 'lock-other-host-1', { otherHost: true });
  let b;
  try {
    b = await second.done; // it takes the lock over once the stopped holder is silent past staleMs
  } finally {
    first.proc.kill('SIGCONT');
  }
  assert.deepEqual(b.settled, ['lock-other-host-1'], 'the new holder settles it');
  assert.deepEqual(ordersIn(directory), []);
  first.proc.stdin.write('go\n');
  const a = await first.done;
  assert.deepEqual(a.settled, [], 'the old holder reports nothing settled');
  assert.equal(a.outcome.status, 'billed', "the old holder's guest is told the service's decision");
  assert.deepEqual(ordersIn(directory), [], 'the settled order is not written back');
  // The next replay finds nothing to settle again.
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf('u_1003');
  const c = await child(script(index, token, key), ['replay', service.url, directory]).done;
  assert.deepEqual(c.settled, []);
});
