// loyalty-qualifier/worker moves a text snapshot to the worker, it does not copy it: the UTF-8 of
// the text is posted in an ArrayBuffer named in the transfer list, so that after postMessage the
// buffer is detached on this side (byteLength 0). Seen on Node's worker_threads (the node export),
// whose postMessage follows the same structured-clone transfer rules as a Web Worker's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { exampleRewards, root } from '../../support/support.js';
import { ensureWasm } from '../../service/harness.js';

test('a text snapshot crosses to the worker as a transferred ArrayBuffer (detached here), on create and setSnapshot', async () => {
  ensureWasm();
  const { createQualifierWorker, startQualifierWorker } = await import('../../../web/worker/worker.node.js');
  const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
  const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');
  // The calls go through the connection's own MessagePort (worker_connection.js): seen there.
  const posted = [];
  const post = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function postMessage(message, transfer) {
    post.call(this, message, transfer);
    posted.push({ message, transfer });
  };
  const worker = startQualifierWorker();
  try {
    const qualifier = await createQualifierWorker(snapshot, { worker, now: Date.parse('2026-03-02T10:00:00Z') });
    await qualifier.setSnapshot(snapshot);
    const moved = posted.filter(({ message }) => message.op === 'create' || message.op === 'setSnapshot');
    assert.deepEqual(moved.map(({ message }) => message.op), ['create', 'setSnapshot']);
    for (const { message, transfer } of moved) {
      assert.ok(message.snapshot instanceof ArrayBuffer, `${message.op}: the snapshot crosses as an ArrayBuffer`);
      assert.deepEqual(transfer, [message.snapshot], `${message.op}: the buffer is in the transfer list`);
      assert.equal(message.snapshot.byteLength, 0, `${message.op}: the buffer is detached: moved, not copied`);
    }
    // The worker got the whole snapshot.
    assert.deepEqual((await qualifier.qualify(basket)).rewards.map((e) => e.id), exampleRewards);
  } finally {
    MessagePort.prototype.postMessage = post;
    await worker.terminate();
  }
});
