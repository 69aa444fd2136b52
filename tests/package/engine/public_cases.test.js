// Every public conformance case through the JS package, with the case's `now` injected.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as api from '../../../web/index.js';
import { caseOutcome } from './case_outcome.js';
import { loadPublicCases, publicCasesPath } from '../../support/support.js';

const cases = loadPublicCases();

test('the public cases are there', () => {
  assert.ok(cases.length > 0, `no case in ${publicCasesPath()}`);
});

for (const testCase of cases) {
  test(testCase.name, { timeout: 30_000 }, async () => {
    const outcome = await caseOutcome(api, testCase);
    const expect = testCase.expect;
    if ('error' in expect) {
      assert.equal(
        outcome.error,
        expect.error,
        `expected error ${expect.error}, got ${JSON.stringify(outcome)}`,
      );
      assert.ok(
        outcome.message.includes(expect.contains),
        `message ${JSON.stringify(outcome.message)} lacks ${JSON.stringify(expect.contains)}`,
      );
    } else {
      assert.equal(
        outcome.error,
        undefined,
        `unexpected error ${outcome.error}: ${outcome.message}`,
      );
      assert.deepEqual(outcome.rewards, expect.rewards, 'rewards');
      assert.deepEqual(outcome.points_products, expect.points_products, 'points_products');
      const qualifying = outcome.explain.entries
        .filter((entry) => entry.qualifies)
        .map((entry) => entry.id);
      assert.deepEqual(
        [...qualifying].sort(),
        [...expect.rewards, ...expect.points_products].sort(),
        'explain marks exactly the qualifying entries',
      );
    }
  });
}
