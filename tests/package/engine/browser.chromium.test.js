// The package in Chromium (playwright-core, Debian's /usr/bin/chromium): a page and a module web
// worker import web/index.js from a local static server and run every public case; the answers
// must equal the Node answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import * as api from '../../../web/index.js';
import { caseOutcome } from './case_outcome.js';
import { contentType, loadPublicCases, openPackagePage } from '../../support/support.js';

// The worker runs the same case code as the page and posts the outcomes back.
const WORKER = `
import * as api from '/web/index.js';
import { caseOutcome } from '/tests/package/engine/case_outcome.js';
self.onmessage = async (event) => {
  try {
    const outcomes = [];
    for (const testCase of event.data) outcomes.push(await caseOutcome(api, testCase));
    self.postMessage({ outcomes });
  } catch (e) {
    self.postMessage({ failure: String(e && e.stack || e) });
  }
};
`;

let opened;
let page;
const cases = loadPublicCases();

// The worker's script, at /__test__/worker.js beside the checkout's files.
function workerScript(url, response) {
  if (url.pathname !== '/__test__/worker.js') return false;
  response.writeHead(200, { 'content-type': contentType('worker.js') });
  response.end(WORKER);
  return true;
}

before(async () => {
  opened = await openPackagePage('loyalty-qualifier', workerScript, { files: 'repository' });
  page = opened.page;
});

after(() => opened?.close());

async function nodeOutcomes() {
  const outcomes = [];
  for (const testCase of cases) outcomes.push(await caseOutcome(api, testCase));
  return outcomes;
}

test('a page computes every public case exactly as Node does', { timeout: 120_000 }, async () => {
  const outcomes = await page.evaluate(async (testCases) => {
    const api = await import('/web/index.js');
    const { caseOutcome } = await import('/tests/package/engine/case_outcome.js');
    const results = [];
    for (const testCase of testCases) results.push(await caseOutcome(api, testCase));
    return results;
  }, cases);
  assert.equal(outcomes.length, cases.length);
  assert.deepEqual(outcomes, await nodeOutcomes());
});

test(
  'a module web worker computes every public case exactly as Node does',
  { timeout: 120_000 },
  async () => {
    const reply = await page.evaluate(
      (testCases) =>
        new Promise((resolve) => {
          const worker = new Worker('/__test__/worker.js', { type: 'module' });
          worker.onmessage = (event) => {
            worker.terminate();
            resolve(event.data);
          };
          worker.onerror = (event) => {
            worker.terminate();
            resolve({ failure: `worker error: ${event.message}` });
          };
          worker.postMessage(testCases);
        }),
      cases,
    );
    assert.equal(reply.failure, undefined, reply.failure);
    assert.deepEqual(reply.outcomes, await nodeOutcomes());
  },
);
