// Issue 19, item 7: two Node processes replaying one file outbox send and settle each order once.
// Orders are queued while the real service is down (nothing reaches it), then two processes start
// on the same directory as the service comes back; every POST /api/baskets they send and every
// onOrderSettled they fire is counted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { account, credentialsOf, root } from '../../service/harness.js';
import { latte, orderFiles, scratch, service, startServiceAgain, useOrderService } from './order_service.js';

const BLAIR = 'u_1002';
const ORDERS = 3;

useOrderService('two-replayers');

// A child process with a HybridQualifier on `directory`: in 'queue' mode it reads the account,
// then (service stopped by the parent meanwhile) queues ORDERS orders; in 'replay' mode it
// replays until the outbox holds no order, then prints its sends and settlements.
const script = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const fs = await import('node:fs');
  const [mode, baseUrl, directory] = process.argv.slice(1);
  let sends = 0;
  const fetch = (url, init) => {
    if (url.endsWith('/api/baskets')) sends += 1;
    return globalThis.fetch(url, init);
  };
  const client = new lq.LoyaltyClient({ baseUrl, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, fetch, timeoutMs: 10_000 });
  const outbox = lq.fileOrderOutbox({ directory });
  const settled = [];
  const hybrid = new lq.HybridQualifier({ client, outbox, backoff: { initialMs: 50, maxMs: 200 },
    onOrderSettled: (order, outcome) => settled.push(order.basketId) });
  if (mode === 'queue') {
    await hybrid.ready();
    console.log('ready');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    for (let i = 1; i <= ${ORDERS}; ++i) {
      const outcome = await hybrid.checkout(${JSON.stringify(latte)}, { basketId: 'two-replayers-' + i });
      if (outcome.status !== 'queued') throw new Error('expected queued, got ' + outcome.status);
    }
    hybrid.dispose();
    console.log(JSON.stringify({ queued: ${ORDERS} }));
    process.exit(0);
  }
  const deadline = Date.now() + 60_000;
  const pending = () => fs.readdirSync(directory, { recursive: true }).filter((name) => !name.startsWith('quarantine') && name.endsWith('.order.json')).length;
  while (pending() > 0 && Date.now() < deadline) await hybrid.flush();
  hybrid.dispose();
  console.log(JSON.stringify({ sends, settled }));
  process.exit(0);
`;

function child(code, args, { input = false } = {}) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], {
    cwd: root,
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const lines = [];
  const waiters = [];
  proc.stdout.on('data', (chunk) => {
    out += chunk;
    for (const line of out.split('\n').slice(lines.length, -1)) {
      lines.push(line);
      for (const w of waiters.splice(0)) w();
    }
  });
  proc.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 90_000);
  const done = new Promise((resolve, reject) => {
    proc.on('close', (status) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(lines.at(-1)));
      else reject(new Error(`child exited with ${status}: ${err}`));
    });
  });
  const line = async (text) => {
    while (!lines.includes(text)) {
      if (proc.exitCode !== null) throw new Error(`child exited before printing ${text}: ${err}`);
      await new Promise((resolve) => waiters.push(resolve));
    }
  };
  return { proc, done, line };
}

test('two processes on one outbox directory: each order is sent once and settled once', { timeout: 180_000 }, async () => {
  const directory = path.join(scratch.dir, 'outbox');
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const { token, key } = credentialsOf(BLAIR);
  const code = script(index, token, key);
  const balance = async () => Number((await account(service, BLAIR)).body.points[0].balance);
  const before = await balance();

  // Queue ORDERS orders while the service is down (the account was read before it went).
  const queue = child(code, ['queue', service.url, directory], { input: true });
  await queue.line('ready');
  await service.stop();
  queue.proc.stdin.end('go\n');
  assert.deepEqual(await queue.done, { queued: ORDERS });
  assert.equal(orderFiles(directory).length, ORDERS);

  // The service comes back on the same port; two processes replay the same directory at once.
  await startServiceAgain();
  const first = child(code, ['replay', service.url, directory]);
  const second = child(code, ['replay', service.url, directory]);
  const [a, b] = await Promise.all([first.done, second.done]);

  assert.equal(a.sends + b.sends, ORDERS, `each order sent once (sends: ${a.sends} + ${b.sends})`);
  const settled = [...a.settled, ...b.settled].sort();
  assert.deepEqual(settled, Array.from({ length: ORDERS }, (_, i) => `two-replayers-${i + 1}`), 'onOrderSettled once per order');
  assert.equal(await balance(), before, 'queued at full price, nothing debited twice');
});
