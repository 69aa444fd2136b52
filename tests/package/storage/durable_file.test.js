// writeFileDurably, through which the file snapshot store and the file order outbox write: a
// replaced file holds the new text whole, a failed replace leaves the old file and no temporary
// one, and both stores leave only their own files behind.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { writeFileDurably } from '../../../web/offline/storage/durable_file.js';
import { fileOrderOutbox } from '../../../web/offline/orders/outbox/file_outbox.js';
import { fileSnapshotStore } from '../../../web/offline/snapshots/file_snapshot_store.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-durable-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const temporaries = (directory) => readdirSync(directory).filter((name) => name.endsWith('.tmp'));

test('a write creates the directory, and a second write replaces the whole file', async () => {
  const directory = path.join(scratch, 'fresh', 'nested');
  await writeFileDurably(directory, 'entry.json', '{"long":"' + 'x'.repeat(100_000) + '"}');
  await writeFileDurably(`${directory}/`, 'entry.json', '{"short":1}');
  assert.equal(readFileSync(path.join(directory, 'entry.json'), 'utf8'), '{"short":1}');
  assert.equal(statSync(path.join(directory, 'entry.json')).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(directory), ['entry.json']);
});

test('a replace that fails leaves the old file and no temporary file', async () => {
  const directory = path.join(scratch, 'failing');
  mkdirSync(directory);
  writeFileSync(path.join(directory, 'keep.json'), 'old');
  // A non-empty directory where the file would go: the rename fails.
  mkdirSync(path.join(directory, 'blocked.json'));
  writeFileSync(path.join(directory, 'blocked.json', 'inside'), 'x');
  await assert.rejects(writeFileDurably(directory, 'blocked.json', 'new'), (e) => ['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(e.code));
  assert.deepEqual(temporaries(directory), []);
  assert.equal(readFileSync(path.join(directory, 'keep.json'), 'utf8'), 'old');
  assert.equal(readFileSync(path.join(directory, 'blocked.json', 'inside'), 'utf8'), 'x');
});

test('the file snapshot store and the file outbox write through it and leave no temporary file', async () => {
  const snapshots = path.join(scratch, 'snapshots');
  const store = fileSnapshotStore({ directory: snapshots });
  const entry = { snapshot: { schema_version: 1, user: { id: 'u 1' } }, savedAt: 1_700_000_000_000, etag: '"abc"' };
  await store.save('user/1', entry);
  await store.save('user/1', { ...entry, savedAt: entry.savedAt + 1 });
  assert.deepEqual(await store.load('user/1'), { ...entry, savedAt: entry.savedAt + 1 });
  assert.deepEqual(readdirSync(snapshots), [`${encodeURIComponent('user/1')}.json`]);
  assert.equal(statSync(path.join(snapshots, readdirSync(snapshots)[0])).mode & 0o777, 0o600);

  const orders = path.join(scratch, 'orders');
  const outbox = fileOrderOutbox({ directory: orders });
  const order = {
    owner: 'u_1',
    basketId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    sequence: 1,
    body: { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', items: [] },
  };
  await outbox.put(order);
  const listed = await outbox.list();
  assert.deepEqual(listed, [order]);
  assert.deepEqual(temporaries(orders), []);
  await outbox.remove(listed[0]);
  assert.deepEqual(await outbox.list(), []);
});
