// loyalty-qualifier/worker in Chromium (playwright-core, Debian's /usr/bin/chromium), against
// what else may post to its Web Worker: malformed messages are answered with an error and the
// worker keeps serving; a second copy of the package on the page (its own modules, served under
// another path) shares the worker through a connection of its own, and neither it nor a script
// posting to the Worker can use or dispose the first one's qualifier. The Node side of the same:
// tests/package/worker/worker_faults.test.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { exampleRewards, openPackagePage, root, sendFile } from '../../support/support.js';
import { ensureWasm } from '../../service/harness.js';

const COPY = '/copy';
let opened;
let page;

// The package's files again under /copy/: a second copy of the package on the page.
function secondCopy(url, response) {
  if (!url.pathname.startsWith(`${COPY}/`)) return false;
  const file = path.join(root, decodeURIComponent(url.pathname.slice(COPY.length)));
  if (file.startsWith(path.join(root, 'web') + path.sep)) sendFile(response, file);
  else response.writeHead(403).end();
  return true;
}

before(async () => {
  ensureWasm();
  opened = await openPackagePage('loyalty-qualifier', secondCopy);
  page = opened.page;
});

after(() => opened?.close());

test('a Web Worker answers malformed messages, keeps serving, and keeps each connection\'s qualifiers its own', { timeout: 120_000 }, async () => {
  const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
  const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');
  const outcome = await page.evaluate(async ({ snapshot, basket, copy }) => {
    const first = await import('/web/worker/worker.js');
    const second = await import(`${copy}/web/worker/worker.js`);
    const now = Date.parse('2026-03-02T10:00:00Z');
    const ids = async (qualifier) => (await qualifier.qualify(basket)).rewards.map((entry) => entry.id);
    const latteOnly = JSON.parse(snapshot);
    latteOnly.rewards = latteOnly.rewards.filter((reward) => reward.id === 'rw_free_latte');

    const worker = first.startQualifierWorker();
    try {
      const mine = await first.createQualifierWorker(snapshot, { worker, now });
      const answers = [];
      worker.addEventListener('message', (event) => answers.push(event.data));
      const posted = [null, 42, 'qualify', {}, { id: 7, op: 'nope' }, { id: 8, op: 'dispose', qualifier: 1 }, { id: 9, op: 'qualify', qualifier: 1, request: basket }];
      for (const message of posted) worker.postMessage(message);
      // Bounded: the answers come within a few round trips, or never (the old worker).
      for (let i = 0; i < 500 && answers.length < posted.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const theirs = await second.createQualifierWorker(JSON.stringify(latteOnly), { worker, now });
      const together = await Promise.all([ids(mine), ids(theirs)]);
      await theirs.dispose();
      const after = await ids(mine);
      return {
        answers: answers.map(({ id, error }) => ({ id, code: error?.code, message: error?.message })),
        differentCopies: first.createQualifierWorker !== second.createQualifierWorker,
        together,
        after,
        live: (await mine.diagnostics()).liveHandles,
      };
    } finally {
      worker.terminate();
    }
  }, { snapshot, basket, copy: COPY });

  assert.equal(outcome.answers.length, 7, JSON.stringify(outcome.answers));
  assert.deepEqual(outcome.answers.map((a) => a.id), [null, null, null, null, 7, 8, 9]);
  assert.deepEqual(outcome.answers.map((a) => a.code), [400, 400, 400, 400, 400, undefined, 410], JSON.stringify(outcome.answers));
  assert.ok(outcome.differentCopies);
  assert.deepEqual(outcome.together, [exampleRewards, ['rw_free_latte']]);
  assert.deepEqual(outcome.after, exampleRewards);
  assert.equal(outcome.live, 1);
});
