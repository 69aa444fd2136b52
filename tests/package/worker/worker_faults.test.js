// loyalty-qualifier/worker against hostile or careless neighbours of its worker thread (the node
// export, a real worker_threads thread running the package's worker script):
// - malformed messages posted to the worker (null, a number, a string, an object without an op,
//   an unknown op, a bad id, bad fields) are answered with an error when they say where to
//   answer (`{ id: null }` when they have no usable id) and the worker keeps serving: the same
//   qualifier still answers, and a new one can be made in it;
// - qualifiers are per connection: a second copy of the package sharing the worker (its own
//   connection), or any code posting to the Worker directly, can neither use nor dispose another
//   connection's qualifier, whatever handle number it tries, and answers never cross.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';

import { exampleRewards, root } from '../../support/support.js';
import { ensureWasm } from '../../service/harness.js';

const NOW = Date.parse('2026-03-02T10:00:00Z');
const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');
// Another guest's snapshot: only the free latte, so its answers cannot pass for the first one's.
const latteOnly = (() => {
  const parsed = JSON.parse(snapshot);
  parsed.rewards = parsed.rewards.filter((reward) => reward.id === 'rw_free_latte');
  return JSON.stringify(parsed);
})();

let api;
let scratch;

before(async () => {
  ensureWasm();
  api = await import('../../../web/worker/worker.node.js');
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-worker-faults-'));
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const rewardIds = async (qualifier) => (await qualifier.qualify(basket)).rewards.map((entry) => entry.id);

// The answers the worker posts on its own channel (to anyone holding the Worker), until `done`
// says they are all there; rejects as soon as the thread ends (the old worker died on `null`), or
// after 30 s without them (the deadline also keeps this process waiting for an unref'd worker).
function collectAnswers(worker, done) {
  const answers = [];
  let onMessage;
  let onExit;
  let deadline;
  const complete = new Promise((resolve, reject) => {
    onMessage = (message) => {
      answers.push(message);
      if (done(answers)) resolve(answers);
    };
    onExit = (code) => reject(new Error(`the worker thread ended (code ${code}) with ${answers.length} answers`));
    deadline = setTimeout(() => reject(new Error(`${answers.length} answers in 30 s: ${JSON.stringify(answers)}`)), 30_000);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
  return complete.finally(() => {
    clearTimeout(deadline);
    worker.off('message', onMessage);
    worker.off('exit', onExit);
  });
}

test('malformed messages get an error answer and the worker keeps serving', { timeout: 60_000 }, async () => {
  const worker = api.startQualifierWorker();
  try {
    const qualifier = await api.createQualifierWorker(snapshot, { worker, now: NOW });
    assert.deepEqual(await rewardIds(qualifier), exampleRewards);
    // Without a usable id: answered with id null.
    const anonymous = [null, undefined, 42, 'qualify', [1, 2], {}, { op: 'diagnostics' }, { id: 'x', op: 'diagnostics' }, { id: 1.5, op: 'diagnostics' }, { id: { n: 1 }, op: 'dispose', qualifier: 1 }];
    // With one: answered to it.
    const addressed = [
      [{ id: 101 }, 'op'],
      [{ id: 102, op: 'nope' }, 'op'],
      [{ id: 103, op: 'toString' }, 'op'],
      [{ id: 104, op: 'qualify', qualifier: 'one', request: basket }, 'qualifier'],
      [{ id: 105, op: 'dispose', qualifier: { number: 1 } }, 'qualifier'],
      [{ id: 106, op: 'create', snapshot: 5 }, 'snapshot'],
      [{ id: 107, op: 'setSnapshot', qualifier: 1, snapshot: 'text' }, 'qualifier'],
      [{ id: 108, op: 'connect', port: 'a port' }, 'port'],
    ];
    const answered = collectAnswers(
      worker,
      (answers) => answers.filter((a) => a.id === null).length >= anonymous.length && addressed.every(([m]) => answers.some((a) => a.id === m.id)),
    );
    for (const message of anonymous) worker.postMessage(message);
    for (const [message] of addressed) worker.postMessage(message);
    const answers = await answered;

    const nulls = answers.filter((a) => a.id === null);
    assert.equal(nulls.length, anonymous.length, JSON.stringify(nulls));
    for (const { error } of nulls) {
      assert.equal(error.code, 400, error.message);
      assert.match(error.message, /^worker message: (`message` must be an object|`op`|`id` must be an integer)/);
    }
    for (const [message, field] of addressed) {
      const { error, result } = answers.find((a) => a.id === message.id);
      assert.equal(result, undefined);
      // qualifier 1 of the worker's own channel does not exist: 410, as for a disposed one.
      if (message.op === 'setSnapshot') assert.equal(error.code, 410, error.message);
      else assert.match(error.message, new RegExp(`^worker message: \`${field}\``), JSON.stringify(message));
    }
    // Still serving: the same qualifier, a new one, and the worker's counters.
    assert.deepEqual(await rewardIds(qualifier), exampleRewards);
    const second = await api.createQualifierWorker(latteOnly, { worker, now: NOW });
    assert.deepEqual(await rewardIds(second), ['rw_free_latte']);
    assert.equal((await qualifier.diagnostics()).liveHandles, 2);
  } finally {
    await worker.terminate();
  }
});

test('code posting to the worker cannot use or dispose a connection\'s qualifier by its number', { timeout: 60_000 }, async () => {
  const worker = api.startQualifierWorker();
  try {
    const first = await api.createQualifierWorker(snapshot, { worker, now: NOW });
    const second = await api.createQualifierWorker(latteOnly, { worker, now: NOW });
    const guesses = Array.from({ length: 20 }, (_, i) => i - 2);
    const answered = collectAnswers(worker, (answers) => answers.length >= 2 * guesses.length + 1);
    for (const number of guesses) {
      worker.postMessage({ id: 1000 + number, op: 'qualify', qualifier: number, request: basket });
      worker.postMessage({ id: 2000 + number, op: 'dispose', qualifier: number });
    }
    worker.postMessage({ id: 3000, op: 'diagnostics' });
    const answers = await answered;
    for (const number of guesses) {
      const used = answers.find((a) => a.id === 1000 + number);
      assert.equal(used.result, undefined, `qualifier ${number} answered a stranger`);
      assert.equal(used.error.code, 410);
    }
    assert.equal(answers.find((a) => a.id === 3000).result.liveHandles, 2, 'nothing was disposed');
    assert.deepEqual(await rewardIds(first), exampleRewards);
    assert.deepEqual(await rewardIds(second), ['rw_free_latte']);
  } finally {
    await worker.terminate();
  }
});

test('two copies of the package share one worker: each connection\'s qualifiers are its own', { timeout: 60_000 }, async () => {
  // A second copy of the package (as two versions in node_modules would be): its own modules,
  // so its own connection to the same worker.
  const copy = path.join(scratch, 'copy');
  cpSync(path.join(root, 'web'), path.join(copy, 'web'), { recursive: true });
  writeFileSync(path.join(copy, 'package.json'), '{ "type": "module" }\n');
  const other = await import(pathToFileURL(path.join(copy, 'web/worker/worker.node.js')).href);
  assert.notEqual(other.createQualifierWorker, api.createQualifierWorker);

  const worker = api.startQualifierWorker();
  try {
    // Made at once: each connection numbers its calls from 1, and both get their own answers.
    const [mine, theirs] = await Promise.all([
      api.createQualifierWorker(snapshot, { worker, now: NOW }),
      other.createQualifierWorker(latteOnly, { worker, now: NOW }),
    ]);
    const rounds = await Promise.all(Array.from({ length: 10 }, () => Promise.all([rewardIds(mine), rewardIds(theirs)])));
    for (const [a, b] of rounds) {
      assert.deepEqual(a, exampleRewards);
      assert.deepEqual(b, ['rw_free_latte']);
    }
    // Both are qualifier 1 of their connection: disposing one leaves the other.
    await theirs.dispose();
    assert.deepEqual(await rewardIds(mine), exampleRewards);
    await assert.rejects(theirs.qualify(basket), (e) => e.code === 410);
    const again = await other.createQualifierWorker(latteOnly, { worker, now: NOW });
    await mine.dispose();
    assert.deepEqual(await rewardIds(again), ['rw_free_latte']);
    assert.equal((await again.diagnostics()).liveHandles, 1);
  } finally {
    await worker.terminate();
  }
});
