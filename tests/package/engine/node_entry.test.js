// The package's Node entry (`exports["."].node`: web/index.node.mjs, one file bundled from
// web/index.js by scripts/build.mjs, so that Node's loader reads one module instead of 16): it is
// what `import 'loyalty-qualifier'` gives in Node, it is current with the sources, it exports
// what web/index.js exports, and it answers every public case as web/index.js does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as modules from '../../../web/index.js';
import { nodeEntryText } from '../../../scripts/build.mjs';
import { caseOutcome } from './case_outcome.js';
import { loadPublicCases } from '../../support/support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const entry = path.join(root, 'web/index.node.mjs');

test("Node resolves the package's name to the one-file entry", () => {
  assert.equal(fileURLToPath(import.meta.resolve('loyalty-qualifier')), entry);
});

test('the entry is the bundle of the current sources (npm run build / npm test rebuild it)', () => {
  assert.equal(readFileSync(entry, 'utf8'), nodeEntryText(), 'web/index.node.mjs is stale: run npm run build');
});

test('it exports the same names as web/index.js, and its own QualifyError is the one it throws', async () => {
  const bundled = await import('loyalty-qualifier');
  assert.deepEqual(Object.keys(bundled).sort(), Object.keys(modules).sort());
  await assert.rejects(bundled.createQualifier('{'), (e) => e instanceof bundled.QualifyError && e.code === 422);
});

test('every public case has the same outcome through both entries', async () => {
  const bundled = await import('loyalty-qualifier');
  const cases = loadPublicCases();
  assert.ok(cases.length > 0);
  for (const testCase of cases) {
    assert.deepEqual(await caseOutcome(bundled, testCase), await caseOutcome(modules, testCase), testCase.name);
  }
});
