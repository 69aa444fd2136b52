// The order outboxes on their own, on real files and real processes: damaged entries (truncated,
// garbled, not an order, a directory, a FIFO, a dangling link, a file the process may not read)
// are quarantined and reported by damaged(), never returned and never in the way; an order's file
// is in its guest's folder, named within NAME_MAX for any basket id, and files of the two earlier
// layouts are still read, removed and moved by put(); listOwner() reads one guest's orders and
// changeStamp() moves with every change of them; put() throws the file system's ENOSPC unchanged
// on a real full tmpfs and leaves no half file, and a damaged entry there is still reported;
// exclusive() is one holder at a time across two Node processes (per guest with { owner }: two
// guests never wait for each other), a lock left by a killed process is taken over, and so is one
// whose holder is alive but silent past its lease. The IndexedDB outbox's:
// order_outbox.chromium.test.js.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { fileOrderOutbox } from '../../../web/offline/orders/outbox/file_outbox.js';
import { memoryOrderOutbox } from '../../../web/offline/orders/outbox/memory_outbox.js';
import { directoryLock } from '../../../web/offline/orders/outbox/outbox_lock.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outboxUrl = pathToFileURL(path.join(root, 'web/offline/orders/outbox/file_outbox.js')).href;
const lockUrl = pathToFileURL(path.join(root, 'web/offline/orders/outbox/outbox_lock.js')).href;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-outbox-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let sequence = 0;
function orderOf(owner, basketId, extra = {}) {
  sequence += 1;
  return { owner, basketId, sequence, queuedAt: 1_700_000_000_000 + sequence, body: { id: basketId, items: [{ sku: 'latte', qty: 1 }] }, ...extra };
}
const OWNER = JSON.stringify(['m_harbor', 'u_1001']);
const freshDirectory = (name) => mkdtempSync(path.join(scratch, `${name}-`));
// The order files below `directory` (its guests' folders and the earlier layouts; quarantine left out).
const orderFiles = (directory) =>
  readdirSync(directory, { recursive: true }).filter((name) => !name.startsWith('quarantine') && name.endsWith('.order.json')).sort();
const GUEST_FILE = /^guest-[0-9a-f]{64}\/[0-9a-f]{64}\.order\.json$/;

/** Runs `code` (an ES module) in a new Node process; resolves { status, signal, stdout, stderr }. */
function runNode(code, { args = [], prefix = [], onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const command = prefix.length > 0 ? prefix[0] : process.execPath;
    const commandArgs = [...prefix.slice(1), ...(prefix.length > 0 ? [process.execPath] : []), '--input-type=module', '-e', code, ...args];
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    onSpawn?.(child);
  });
}

async function waitFor(condition, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 50)) {
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

describe('damaged entries of the file outbox', () => {
  test('are quarantined with their reason, kept whole, and never block list() or put()', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('damaged');
    const outbox = fileOrderOutbox({ directory });
    const first = orderOf(OWNER, 'b-first');
    const second = orderOf(OWNER, 'b-second');
    await outbox.put(first);
    await outbox.put(second);
    const good = JSON.stringify(orderOf(OWNER, 'b-truncated'));
    const truncated = good.slice(0, good.length - 7);
    writeFileSync(path.join(directory, 'truncated.order.json'), truncated);
    writeFileSync(path.join(directory, 'garbled.order.json'), Buffer.from([0x7b, 0x22, 0xff, 0x00, 0x13, 0x37]));
    writeFileSync(path.join(directory, 'stranger.order.json'), '{"hello":"world"}');
    mkdirSync(path.join(directory, 'folder.order.json'));
    writeFileSync(path.join(directory, 'folder.order.json', 'inside.txt'), 'kept');
    execFileSync('mkfifo', [path.join(directory, 'fifo.order.json')]);
    symlinkSync(path.join(directory, 'nowhere'), path.join(directory, 'dangling.order.json'));
    // A whole order under a name that is not its own: remove() would never find it.
    writeFileSync(path.join(directory, 'misnamed.order.json'), JSON.stringify(orderOf(OWNER, 'b-misnamed')));
    // Inside a guest's folder: a garbled file, and another guest's order.
    const guest = path.dirname(orderFiles(directory).find((name) => GUEST_FILE.test(name)));
    writeFileSync(path.join(directory, guest, 'torn.order.json'), '{"owner":');
    const stranger = orderOf(JSON.stringify(['m_harbor', 'u_other']), 'b-stranger');
    await outbox.put(stranger);
    const strangerFile = orderFiles(directory).find((name) => !name.startsWith(guest));
    writeFileSync(path.join(directory, guest, path.basename(strangerFile)), JSON.stringify(stranger));
    await outbox.remove(stranger);

    assert.deepEqual(await outbox.list(), [first, second]);
    const third = orderOf(OWNER, 'b-third');
    await outbox.put(third);
    assert.deepEqual(await outbox.list(), [first, second, third]);

    const damaged = await outbox.damaged();
    const byKey = Object.fromEntries(damaged.map((entry) => [entry.key, entry]));
    assert.deepEqual(Object.keys(byKey).sort(), [
      'dangling.order.json', 'fifo.order.json', 'folder.order.json', 'garbled.order.json',
      `${guest}/${path.basename(strangerFile)}`, `${guest}/torn.order.json`,
      'misnamed.order.json', 'stranger.order.json', 'truncated.order.json',
    ].sort());
    assert.match(byKey[`${guest}/torn.order.json`].reason, /^not JSON/);
    assert.match(byKey[`${guest}/${path.basename(strangerFile)}`].reason, /name is not the file name of the order/);
    assert.match(byKey['truncated.order.json'].reason, /^not JSON \(truncated or garbled/);
    assert.match(byKey['garbled.order.json'].reason, /^not JSON/);
    assert.match(byKey['stranger.order.json'].reason, /^not an order: no owner/);
    assert.match(byKey['folder.order.json'].reason, /^unreadable: a directory/);
    assert.match(byKey['fifo.order.json'].reason, /^unreadable: a FIFO/);
    assert.match(byKey['dangling.order.json'].reason, /^unreadable: a symbolic link to nothing/);
    assert.match(byKey['misnamed.order.json'].reason, /name is not the file name of the order/);
    for (const entry of damaged) {
      assert.equal(typeof entry.quarantinedAt, 'number');
      assert.ok(Math.abs(entry.quarantinedAt - Date.now()) < 60_000);
      assert.equal(path.dirname(path.dirname(entry.path)), path.join(directory, 'quarantine'));
    }
    // Kept as they were, for a person to look at.
    assert.equal(readFileSync(byKey['truncated.order.json'].path, 'utf8'), truncated);
    assert.equal(readFileSync(path.join(byKey['folder.order.json'].path, 'inside.txt'), 'utf8'), 'kept');
    assert.ok(lstatSync(byKey['fifo.order.json'].path).isFIFO());
    assert.ok(lstatSync(byKey['dangling.order.json'].path).isSymbolicLink());
    // Out of the outbox: listing again finds the same orders and quarantines nothing more.
    assert.equal(orderFiles(directory).length, 3);
    assert.deepEqual(await outbox.list(), [first, second, third]);
    assert.deepEqual(await outbox.damaged(), damaged);
  });

  test('a file the process may not read (EACCES, as user nobody) is quarantined too', { timeout: 30_000 }, async (t) => {
    const probe = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', '0']);
    if (process.getuid?.() !== 0 || probe.status !== 0) {
      t.skip(`needs root and setpriv to run a process as nobody (${probe.error?.message ?? probe.stderr?.toString().trim() ?? 'not root'})`);
      return;
    }
    const directory = path.join(scratch, 'eacces');
    mkdirSync(directory, { mode: 0o777 });
    chmodSync(scratch, 0o755);
    chmodSync(directory, 0o777);
    const outbox = fileOrderOutbox({ directory });
    const readable = orderOf(OWNER, 'b-readable');
    const secret = orderOf(OWNER, 'b-secret');
    await outbox.put(readable);
    await outbox.put(secret);
    const [readableName, secretName] = await Promise.all([readable, secret].map(async (order) => {
      const names = orderFiles(directory);
      for (const name of names) if (readFileSync(path.join(directory, name), 'utf8').includes(order.basketId)) return name;
      throw new Error('not found');
    }));
    chmodSync(path.join(directory, path.dirname(readableName)), 0o777); // the guest's folder, as the directory
    chmodSync(path.join(directory, readableName), 0o644);
    chmodSync(path.join(directory, secretName), 0o000);
    const code = `
      const { fileOrderOutbox } = await import(${JSON.stringify(outboxUrl)});
      const outbox = fileOrderOutbox({ directory: process.argv[1] });
      const listed = await outbox.list();
      process.stdout.write(JSON.stringify({ listed, damaged: await outbox.damaged() }));`;
    const run = await runNode(code, { args: [directory], prefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] });
    assert.equal(run.status, 0, run.stderr);
    const { listed, damaged } = JSON.parse(run.stdout);
    assert.deepEqual(listed, [readable]);
    assert.equal(damaged.length, 1);
    assert.equal(damaged[0].key, secretName);
    assert.match(damaged[0].reason, /^unreadable: EACCES/);
    assert.ok(existsSync(damaged[0].path));
    assert.deepEqual(orderFiles(directory), [readableName]);
  });
});

describe('file names', () => {
  test('any owner and basket id give a name within NAME_MAX; the content says whose order it is', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('names');
    const outbox = fileOrderOutbox({ directory });
    const longOwner = JSON.stringify(['marché-центр-東京'.repeat(8), 'ユーザー'.repeat(30)]);
    const orders = [
      orderOf(longOwner, 'é'.repeat(80)),
      orderOf(OWNER, 'корзина-'.repeat(40)),
      orderOf(OWNER, 'x'.repeat(2000)),
      orderOf('a/b', '../../etc/passwd'),
    ];
    for (const order of orders) await outbox.put(order);
    assert.deepEqual(await outbox.list(), orders);
    for (const name of orderFiles(directory)) {
      assert.match(name, GUEST_FILE);
      for (const part of name.split('/')) assert.ok(Buffer.byteLength(part) <= 255);
    }
    assert.equal(orderFiles(directory).length, orders.length);
    assert.equal(new Set(orderFiles(directory).map((name) => path.dirname(name))).size, 3, 'one folder per guest');
    for (const order of orders) await outbox.remove(order);
    assert.deepEqual(await outbox.list(), []);
    assert.deepEqual(orderFiles(directory), []);
    assert.deepEqual(await outbox.damaged(), []);
  });

  test('files of the first layout are still listed, removed, and replaced by put()', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('layout');
    const firstName = (order) => `${encodeURIComponent(order.owner)}~${encodeURIComponent(order.basketId)}.order.json`;
    const kept = orderOf('u_1001', 'b 1/old');
    const settled = orderOf('u_1001', 'b-2');
    const retried = orderOf(OWNER, 'b-3');
    for (const order of [kept, settled, retried]) writeFileSync(path.join(directory, firstName(order)), JSON.stringify(order));
    const outbox = fileOrderOutbox({ directory });
    assert.deepEqual(await outbox.list(), [kept, settled, retried]);
    await outbox.remove(settled);
    const attempted = { ...retried, attempts: 1 };
    await outbox.put(attempted);
    assert.deepEqual(await outbox.list(), [kept, attempted]);
    const names = orderFiles(directory);
    assert.equal(names.length, 2);
    assert.ok(names.includes(firstName(kept)), 'an untouched old file stays where it is');
    assert.ok(names.some((name) => GUEST_FILE.test(name)), "the rewritten order is in its guest's folder");
    assert.ok(!names.includes(firstName(retried)) && !names.includes(firstName(settled)));
    assert.deepEqual(await outbox.damaged(), []);
  });

  test('files of the second layout (the SHA-256 name directly in the directory) are read by list(), listOwner() and get(), and moved by put()', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('second-layout');
    const { createHash } = await import('node:crypto');
    const secondName = (order) => `${createHash('sha256').update(JSON.stringify([order.owner, order.basketId])).digest('hex')}.order.json`;
    const old = orderOf(OWNER, 'b-old');
    const other = orderOf(JSON.stringify(['m_harbor', 'u_1002']), 'b-other');
    for (const order of [old, other]) writeFileSync(path.join(directory, secondName(order)), JSON.stringify(order));
    const outbox = fileOrderOutbox({ directory });
    assert.deepEqual(await outbox.listOwner(OWNER), [old]);
    assert.deepEqual(await outbox.get(old), old);
    assert.deepEqual(await outbox.list(), [old, other]);
    const moved = { ...old, attempts: 1 };
    await outbox.put(moved);
    assert.deepEqual(await outbox.listOwner(OWNER), [moved]);
    assert.ok(!orderFiles(directory).includes(secondName(old)), 'moved to the guest folder');
    assert.ok(orderFiles(directory).includes(secondName(other)), 'the other stays until written');
    await outbox.remove(other);
    assert.deepEqual(await outbox.list(), [moved]);
  });
});

describe('one guest\'s orders', () => {
  test('listOwner() gives that guest\'s orders only, and changeStamp() moves with each of their changes, not with another guest\'s', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('by-guest');
    const mine = JSON.stringify(['m_harbor', 'u_mine']);
    const theirs = JSON.stringify(['m_harbor', 'u_theirs']);
    const settled = async (outbox, owner) => {
      // A stamp read within the file system's settling time is null (read again): wait for one.
      for (let i = 0; i < 200; i += 1) {
        const stamp = await outbox.changeStamp(owner);
        if (stamp !== null) return stamp;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the stamp never settled');
    };
    for (const outbox of [memoryOrderOutbox(), fileOrderOutbox({ directory })]) {
      const a = orderOf(mine, 'b-a');
      const b = orderOf(theirs, 'b-b');
      const empty = await settled(outbox, mine);
      await outbox.put(a);
      const one = await settled(outbox, mine);
      assert.notEqual(one, empty, `${outbox.kind}: a put changes the stamp`);
      await outbox.put(b);
      assert.deepEqual(await outbox.listOwner(mine), [a]);
      assert.deepEqual(await outbox.listOwner(theirs), [b]);
      assert.equal(await settled(outbox, mine), one, `${outbox.kind}: another guest's order leaves it`);
      await outbox.put({ ...a, attempts: 1 });
      const two = await settled(outbox, mine);
      assert.notEqual(two, one, `${outbox.kind}: a rewrite changes it`);
      await outbox.remove(a);
      assert.notEqual(await settled(outbox, mine), two, `${outbox.kind}: a removal changes it`);
      assert.deepEqual(await outbox.listOwner(mine), []);
      await outbox.remove(b);
    }
  });

  test('exclusive({ owner }): one holder per guest across processes; two guests never wait for each other', { timeout: 60_000 }, async () => {
    const directory = freshDirectory('guest-locks');
    const marker = path.join(scratch, `guest-lock-${process.pid}`);
    const code = `
      import { writeFileSync } from 'node:fs';
      const { fileOrderOutbox } = await import(${JSON.stringify(outboxUrl)});
      await fileOrderOutbox({ directory: process.argv[1] }).exclusive(() => {
        writeFileSync(process.argv[2], String(process.pid));
        return new Promise(() => { setInterval(() => {}, 1000); });
      }, { owner: 'guest-a' });`;
    let child;
    const exited = runNode(code, { args: [directory, marker], onSpawn: (spawned) => { child = spawned; } });
    try {
      await waitFor(() => existsSync(marker), 'the child to hold guest-a\'s lock');
      const outbox = fileOrderOutbox({ directory });
      assert.equal(await outbox.exclusive(() => 'b at once', { owner: 'guest-b' }), 'b at once');
      let ran = false;
      const waiting = outbox.exclusive(() => { ran = true; return 'a after'; }, { owner: 'guest-a' });
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(ran, false, "guest-a's lock is the child's");
      child.kill('SIGKILL');
      assert.equal(await waiting, 'a after');
    } finally {
      child?.kill('SIGKILL');
      await exited;
    }
  });
});

describe('put() on a full disk', () => {
  test('a real full tmpfs: ENOSPC unchanged, no half file, the earlier orders intact', { timeout: 30_000 }, async (t) => {
    const mountPoint = freshDirectory('tmpfs');
    const probe = spawnSync('unshare', ['--mount', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs '${mountPoint}'`]);
    if (probe.error || probe.status !== 0) {
      t.skip(`unshare --mount with a tmpfs mount is refused here: ${probe.error?.message ?? probe.stderr.toString().trim()}`);
      return;
    }
    const code = `
      import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
      const { fileOrderOutbox } = await import(${JSON.stringify(outboxUrl)});
      const directory = process.argv[1] + '/orders';
      mkdirSync(directory);
      writeFileSync(directory + '/truncated.order.json', '{"owner":"o","basketId":"b0","seq');
      const outbox = fileOrderOutbox({ directory });
      const stored = [];
      let failure = null;
      for (let i = 1; i <= 64 && failure === null; i += 1) {
        const order = { owner: 'o', basketId: 'b' + i, sequence: i, body: { id: 'b' + i, note: 'x'.repeat(6000) } };
        try {
          await outbox.put(order);
          stored.push(order);
        } catch (e) {
          failure = { code: e.code, message: e.message, syscall: e.syscall };
        }
      }
      // Every file left (a temporary one too), in the guests' folders and beside them.
      const files = readdirSync(directory, { recursive: true }).filter((name) => statSync(directory + '/' + name).isFile()).sort();
      const sizes = files.map((name) => readFileSync(directory + '/' + name).length);
      const listed = await outbox.list();
      const damaged = await outbox.damaged();
      process.stdout.write(JSON.stringify({ stored, failure, listed, damaged, files, sizes }));`;
    const run = await runNode(code, {
      args: [mountPoint],
      prefix: ['unshare', '--mount', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "$1" && shift && exec "$@"`, 'sh', mountPoint],
    });
    assert.equal(run.status, 0, run.stderr);
    const { stored, failure, listed, damaged, files, sizes } = JSON.parse(run.stdout);
    assert.ok(stored.length >= 2, `some orders fit before the disk filled (${stored.length})`);
    assert.equal(failure?.code, 'ENOSPC', JSON.stringify(failure));
    assert.equal(files.length, stored.length + 1, `only whole orders remain: ${files.join(', ')}`);
    assert.ok(files.every((name) => name.endsWith('.order.json')));
    files.forEach((name, i) => assert.ok(name === 'truncated.order.json' || sizes[i] > 6000, `${name}: ${sizes[i]} bytes`));
    // On the full disk, a damaged entry is still reported (moved to quarantine, or where it is
    // when not even that fits) and the orders are still listed.
    assert.deepEqual(listed, stored);
    assert.deepEqual(damaged.map((entry) => entry.key), ['truncated.order.json']);
    assert.match(damaged[0].reason, /^not JSON/);
  });
});

// A child that takes exclusive() `rounds` times, writing "start <id>" and "end <id>" lines to
// `log` inside, with some asynchronous file work between them.
const contender = `
  import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
  import { readdir } from 'node:fs/promises';
  const { fileOrderOutbox } = await import(${JSON.stringify(outboxUrl)});
  const [directory, log, id, rounds, other] = process.argv.slice(1);
  const outbox = fileOrderOutbox({ directory });
  writeFileSync(log + '.' + id + '.ready', '');
  const deadline = Date.now() + 20000;
  while (!existsSync(log + '.' + other + '.ready')) {
    if (Date.now() > deadline) throw new Error('the other contender never started');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  for (let round = 0; round < Number(rounds); round += 1) {
    await outbox.exclusive(async () => {
      appendFileSync(log, 'start ' + id + '\\n');
      for (let i = 0; i < 100; i += 1) await readdir(directory);
      appendFileSync(log, 'end ' + id + '\\n');
    });
  }`;

describe('exclusive()', () => {
  test('two Node processes on one directory never hold it at once', { timeout: 120_000 }, async () => {
    const directory = freshDirectory('contended');
    const log = path.join(scratch, `contended-${process.pid}.log`);
    writeFileSync(log, '');
    const rounds = 25;
    const [a, b] = await Promise.all([
      runNode(contender, { args: [directory, log, 'A', String(rounds), 'B'] }),
      runNode(contender, { args: [directory, log, 'B', String(rounds), 'A'] }),
    ]);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    assert.equal(lines.length, 4 * rounds);
    for (let i = 0; i < lines.length; i += 2) {
      const [start, end] = [lines[i], lines[i + 1]];
      assert.match(start, /^start [AB]$/, `line ${i + 1}: ${start}`);
      assert.equal(end, `end ${start.slice(6)}`, `line ${i + 2}: the other process entered while ${start.slice(6)} held the lock`);
    }
    assert.deepEqual(readdirSync(directory), [], 'the lock directory is gone once released');
  });

  test('resolves and rejects with fn\'s result, one caller at a time in a process', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('results');
    for (const outbox of [memoryOrderOutbox(), fileOrderOutbox({ directory }), fileOrderOutbox({ directory })]) {
      assert.equal(await outbox.exclusive(() => 42), 42);
      await assert.rejects(outbox.exclusive(async () => { throw new RangeError('boom'); }), RangeError);
      await assert.rejects(outbox.exclusive(() => { throw new TypeError('sync boom'); }), TypeError);
    }
    const inside = [];
    const outboxes = [fileOrderOutbox({ directory }), fileOrderOutbox({ directory })];
    let holders = 0;
    await Promise.all([0, 1, 0, 1].map((which, i) => outboxes[which].exclusive(async () => {
      holders += 1;
      inside.push(holders);
      for (let k = 0; k < 5; k += 1) await new Promise((resolve) => setImmediate(resolve));
      holders -= 1;
      return i;
    })));
    assert.deepEqual(inside, [1, 1, 1, 1]);
    const memory = memoryOrderOutbox();
    assert.deepEqual(memory.damaged(), []);
    // The directory is made when missing, and the lock leaves nothing behind.
    const missing = path.join(directory, 'not', 'yet');
    assert.equal(await fileOrderOutbox({ directory: missing }).exclusive(() => 'made'), 'made');
    assert.deepEqual(readdirSync(missing), []);
  });

  test('a lock left by a process killed with SIGKILL is taken over at once', { timeout: 60_000 }, async () => {
    const directory = freshDirectory('killed');
    const marker = path.join(scratch, `holding-${process.pid}`);
    const code = `
      import { writeFileSync } from 'node:fs';
      const { fileOrderOutbox } = await import(${JSON.stringify(outboxUrl)});
      await fileOrderOutbox({ directory: process.argv[1] }).exclusive(() => {
        writeFileSync(process.argv[2], String(process.pid));
        setInterval(() => {}, 1000);
        return new Promise(() => {});
      });`;
    let child;
    const exited = runNode(code, { args: [directory, marker], onSpawn: (spawned) => { child = spawned; } });
    await waitFor(() => existsSync(marker), 'the child to hold the lock');
    assert.ok(existsSync(path.join(directory, 'replay.lock', 'holder.json')));
    const outbox = fileOrderOutbox({ directory });
    let ranAt = null;
    const waiting = outbox.exclusive(() => {
      ranAt = Date.now();
      return 'mine';
    });
    // While the holder lives, the lock stays its own.
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ranAt, null);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    assert.equal((await exited).signal, 'SIGKILL');
    assert.equal(await waiting, 'mine');
    assert.ok(ranAt >= killedAt, 'not before the holder died');
    assert.ok(ranAt - killedAt < 10_000, `taken over ${ranAt - killedAt} ms after the kill (the staleness time is 30 s)`);
    assert.deepEqual(readdirSync(directory), []);
  });

  test('a live holder that keeps it longer than the staleness time keeps it (its heartbeat)', { timeout: 60_000 }, async () => {
    const directory = freshDirectory('heartbeat');
    const log = path.join(scratch, `heartbeat-${process.pid}.log`);
    const code = `
      import { appendFileSync } from 'node:fs';
      import { readdir } from 'node:fs/promises';
      const { directoryLock } = await import(${JSON.stringify(lockUrl)});
      const [directory, log] = process.argv.slice(1);
      await directoryLock(directory, { staleMs: 1500 }).exclusive(async () => {
        appendFileSync(log, 'start\\n');
        // Three staleness times; a lease wide enough that a loaded machine's pause of the child
        // (a second, under CI's parallel lanes) is not taken for a dead holder.
        const until = Date.now() + 4500;
        while (Date.now() < until) await readdir(directory);
        appendFileSync(log, 'end\\n');
      });`;
    const exited = runNode(code, { args: [directory, log] });
    await waitFor(() => existsSync(log), 'the child to hold the lock');
    const seen = await directoryLock(directory, { staleMs: 1500 }).exclusive(() => readFileSync(log, 'utf8'));
    assert.equal(seen, 'start\nend\n', 'taken only once the holder released it');
    assert.equal((await exited).status, 0);
  });

  test('a lock of another host nobody touched for longer than the staleness time is taken over', { timeout: 30_000 }, async () => {
    const directory = freshDirectory('abandoned');
    const lock = path.join(directory, 'replay.lock');
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'holder.json'), JSON.stringify({ pid: 1, host: 'another-host', token: 'x', since: 0 }));
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hourAgo, hourAgo);
    assert.equal(await fileOrderOutbox({ directory }).exclusive(() => 'taken'), 'taken');
    assert.deepEqual(readdirSync(directory), []);
  });
});
