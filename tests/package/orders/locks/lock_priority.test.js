// Issue 34, a lock safe to lose and a checkout that waits for no replay turn but the one in flight,
// through the package against the real service and real processes on one file outbox:
// - a tab (process) stopped past its lease while it decided to promise the free latte offline (after
//   it read the guest's orders, or while it wrote its order) does not promise it too once it
//   resumes: the other tab took the lock over and promised it meanwhile, so the resumed one
//   decides again and withholds it;
// - in one process (a kiosk page: a hybrid per guest), a checkout goes ahead of every replay turn
//   queued before it, of the memory outbox and of a lock directory alike;
// - a replay turn that polls for a lock directory another process holds steps back for a checkout
//   of its own process, which then takes the lock first;
// - a holder that cannot write its name into the lock directory it made removes the directory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { FIXED_NOW, credentialsOf, root, waitFor } from '../../../service/harness.js';
import { clientOf, latte, lq, qualifierOptions, scratch, useOrderService } from '../order_service.js';
import { child } from './node_child.js';

const STALE_MS = 600;
const GUEST = 'u_1001';
const OFFER = { kind: 'reward', id: 'rw_free_latte' };
const OFFLINE = { redeem: 'provisional', maxDiscount: '10.00' };
// Nothing listens there: every call to the service fails at once (an outage).
const DOWN = 'http://127.0.0.1:9';

useOrderService('lock-priority');

// A tab of the kiosk as a process: a HybridQualifier of GUEST, offline, on a file outbox that stalls
// once during checkout (a slow disk): with 'read', right after its first read of the guest's
// orders (it says "read"); with 'write', at its first write (it says "writing"); it then waits for
// a line on stdin. It checks the latte out with the free latte and prints its outcome.
const tab = (index, token, key) => `
  const lq = await import(${JSON.stringify(index)});
  const { readFileSync } = await import('node:fs');
  const [directory, snapshotFile, basketId, stall] = process.argv.slice(1);
  const files = lq.fileOrderOutbox({ directory, staleMs: ${STALE_MS} });
  const owner = ${JSON.stringify(JSON.stringify(['m_harbor_coffee', GUEST]))};
  let armed = false;
  const stallOnce = async (word) => {
    armed = false;
    console.log(word);
    await new Promise((resolve) => process.stdin.once('data', resolve));
  };
  const outbox = { ...files,
    listOwner: async (of) => {
      const orders = await files.listOwner(of);
      if (armed && stall === 'read' && of === owner) await stallOnce('read');
      return orders;
    },
    put: async (order) => {
      if (armed && stall === 'write') await stallOnce('writing');
      return files.put(order);
    } };
  const client = new lq.LoyaltyClient({ baseUrl: ${JSON.stringify(DOWN)}, accessToken: ${JSON.stringify(token)}, merchantKey: ${JSON.stringify(key)}, timeoutMs: 2000 });
  const hybrid = new lq.HybridQualifier({ client, outbox, snapshot: JSON.parse(readFileSync(snapshotFile, 'utf8')), store: lq.memorySnapshotStore(),
    qualifierOptions: { now: () => new Date(${JSON.stringify(FIXED_NOW)}) }, offline: ${JSON.stringify(OFFLINE)}, backoff: { initialMs: 600_000 } });
  armed = true;
  const outcome = await hybrid.checkout(${JSON.stringify(latte)}, { offer: ${JSON.stringify(OFFER)}, basketId });
  hybrid.dispose();
  console.log(JSON.stringify(outcome));
  process.exit(0);
`;


async function guestSnapshot() {
  const hybrid = new lq.HybridQualifier({ client: clientOf(GUEST), outbox: lq.memoryOrderOutbox(), store: lq.memorySnapshotStore(), qualifierOptions });
  try {
    await hybrid.qualify(latte);
    return hybrid.currentSnapshot();
  } finally {
    hybrid.dispose();
  }
}

for (const [stall, said, when] of [['read', 'read', 'after it read the guest\'s orders'], ['write', 'writing', 'while it wrote its order']]) {
  test(`a tab stopped past its lease ${when} does not promise what the other tab promised meanwhile`, { timeout: 180_000 }, async () => {
    const directory = path.join(scratch.dir, `two-tabs-${stall}`);
    const snapshotFile = path.join(scratch.dir, 'snapshot.json');
    writeFileSync(snapshotFile, JSON.stringify(await guestSnapshot()));
    const { token, key } = credentialsOf(GUEST);
    const a = child(tab(pathToFileURL(path.join(root, 'web/index.js')).href, token, key), [directory, snapshotFile, 'tab-a', stall]);
    // Tab A holds the guest's lock, deciding: it stops there.
    assert.ok(await a.printed(said), `tab A stalled (${said})`);
    a.proc.kill('SIGSTOP');
    let b;
    const hybrid = new lq.HybridQualifier({ client: clientOf(GUEST, { baseUrl: DOWN, timeoutMs: 2000 }), outbox: lq.fileOrderOutbox({ directory, staleMs: STALE_MS }),
      snapshot: await guestSnapshot(), store: lq.memorySnapshotStore(), qualifierOptions, offline: OFFLINE, backoff: { initialMs: 600_000 } });
    try {
      // Tab B waits out A's lease, takes the lock over and promises the latte.
      b = await hybrid.checkout(latte, { offer: OFFER, basketId: 'tab-b' });
    } finally {
      hybrid.dispose();
      a.proc.kill('SIGCONT');
    }
    assert.deepEqual([b.status, b.discount], ['queued', '4.75'], JSON.stringify(b));
    a.proc.stdin.write('go\n');
    const outcomeA = await a.done;
    assert.equal(outcomeA.status, 'queued', JSON.stringify(outcomeA));
    assert.notEqual(outcomeA.discount, '4.75', `tab A promises nothing B promised: ${JSON.stringify(outcomeA)}`);
    assert.ok(outcomeA.withheld, `tab A says why: ${JSON.stringify(outcomeA)}`);
    const orders = await lq.fileOrderOutbox({ directory }).list();
    assert.deepEqual(orders.map((o) => o.basketId).sort(), ['tab-a', 'tab-b']);
    assert.deepEqual(orders.filter((o) => o.offer !== null).map((o) => o.basketId), ['tab-b'], 'one order carries the free latte');
  });
}

// Runs fn under outbox.exclusive as `who`, recording when it ran; `gate`: a promise fn waits for.
function holder(outbox, owner, who, ran, { background = false, gate = null } = {}) {
  return outbox.exclusive(async () => {
    ran.push(who);
    await gate;
  }, background ? { owner, background } : { owner });
}

for (const kind of ['memory', 'file']) {
  test(`${kind} outbox: a checkout goes ahead of the replay turns queued before it in its process`, { timeout: 60_000 }, async () => {
    const outbox = kind === 'memory' ? lq.memoryOrderOutbox() : lq.fileOrderOutbox({ directory: path.join(scratch.dir, `queue-${kind}`) });
    const owner = JSON.stringify(['m_harbor_coffee', GUEST]);
    const ran = [];
    let open;
    const gate = new Promise((resolve) => { open = resolve; });
    const first = holder(outbox, owner, 'turn-1', ran, { background: true, gate });
    assert.ok(await waitFor(() => ran.length === 1, 10_000, 5), 'the first turn holds the lock');
    const queued = [2, 3, 4].map((n) => holder(outbox, owner, `turn-${n}`, ran, { background: true }));
    const checkout = holder(outbox, owner, 'checkout', ran);
    open();
    await Promise.all([first, ...queued, checkout]);
    assert.deepEqual(ran, ['turn-1', 'checkout', 'turn-2', 'turn-3', 'turn-4']);
  });
}

test('a replay turn waiting for a lock directory another process holds lets a checkout of its own process go first', { timeout: 60_000 }, async () => {
  const directory = path.join(scratch.dir, 'step-back');
  const owner = JSON.stringify(['m_harbor_coffee', GUEST]);
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const other = child(`
    const lq = await import(${JSON.stringify(index)});
    await lq.fileOrderOutbox({ directory: process.argv[1] }).exclusive(async () => {
      console.log('holding');
      await new Promise((resolve) => process.stdin.once('data', resolve));
    }, { owner: ${JSON.stringify(owner)} });
    console.log('{}');
    process.exit(0);
  `, [directory]);
  assert.ok(await other.printed('holding'), 'the other process holds the lock');
  const outbox = lq.fileOrderOutbox({ directory });
  const ran = [];
  // The turn polls the directory; the checkout queues behind it in this process.
  const turn = holder(outbox, owner, 'turn', ran, { background: true });
  const checkout = holder(outbox, owner, 'checkout', ran);
  other.proc.stdin.write('go\n');
  await other.done;
  await Promise.all([turn, checkout]);
  assert.deepEqual(ran, ['checkout', 'turn']);
});

test('a lock directory whose holder cannot write its name (a file size limit) is removed, and the next holder does not wait', { timeout: 60_000 }, async () => {
  const directory = path.join(scratch.dir, 'unnamed');
  const owner = JSON.stringify(['m_harbor_coffee', GUEST]);
  const index = pathToFileURL(path.join(root, 'web/index.js')).href;
  const code = `
    process.on('SIGXFSZ', () => {}); // a write past the limit fails with EFBIG instead of ending the process
    const lq = await import(${JSON.stringify(index)});
    try {
      await lq.fileOrderOutbox({ directory: ${JSON.stringify(directory)}, staleMs: 60000 }).exclusive(async () => console.log('ran'), { owner: ${JSON.stringify(owner)} });
    } catch (e) {
      console.log(e.code);
    }`;
  const run = spawnSync('bash', ['-c', `ulimit -f 0; exec "${process.execPath}" --input-type=module -e "$0"`, code], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.stdout.trim(), 'EFBIG', run.stderr);
  assert.deepEqual(readdirSync(path.join(directory, 'locks')), [], 'no lock left behind');
  // With a lease of a minute, a lock left behind would hold the next holder back that long.
  assert.equal(await lq.fileOrderOutbox({ directory, staleMs: 60_000 }).exclusive(() => 'ran', { owner }), 'ran');
});
