// The package in Chromium (playwright-core, Debian's /usr/bin/chromium): a page and a module web
// worker import web/index.js from a local static server and run every public case; the answers
// must equal the Node answers.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import * as api from '../../../web/index.js';
import { caseOutcome } from './case_outcome.js';
import { contentType, launchChromium, loadPublicCases, root, sendFile } from '../../support/support.js';

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

let server;
let origin;
let browser;
let page;
const cases = loadPublicCases();

function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  if (url.pathname === '/__test__/page.html') {
    response.writeHead(200, { 'content-type': contentType('page.html') });
    response.end('<!doctype html><title>loyalty-qualifier</title><p>test page</p>');
    return;
  }
  if (url.pathname === '/__test__/worker.js') {
    response.writeHead(200, { 'content-type': contentType('worker.js') });
    response.end(WORKER);
    return;
  }
  const file = path.join(root, decodeURIComponent(url.pathname));
  if (!file.startsWith(root + path.sep)) {
    response.writeHead(403).end();
    return;
  }
  sendFile(response, file);
}

before(async () => {
  server = http.createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${origin}/__test__/page.html`);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

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
