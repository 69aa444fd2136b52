// The package imported BY ITS NAME from a separate consumer folder, as an installed dependency.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { examplePointsProducts, exampleRewards, root } from './support.js';

let consumer;

before(() => {
  consumer = mkdtempSync(path.join(os.tmpdir(), 'lq-consumer-'));
  mkdirSync(path.join(consumer, 'node_modules'));
  symlinkSync(root, path.join(consumer, 'node_modules/loyalty-qualifier'), 'dir');
  writeFileSync(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  writeFileSync(
    path.join(consumer, 'main.js'),
    `import { readFileSync } from 'node:fs';
import { createQualifier, QualifyError } from 'loyalty-qualifier';
const [snapshotFile, basketFile] = process.argv.slice(2);
const q = await createQualifier(readFileSync(snapshotFile, 'utf8'));
const answer = q.qualify(JSON.parse(readFileSync(basketFile, 'utf8')));
let error = null;
try { q.qualify({ redemption_venue: 'moon' }); } catch (e) { error = { isQualifyError: e instanceof QualifyError, code: e.code }; }
q.dispose();
console.log(JSON.stringify({
  rewards: answer.rewards.map((e) => e.id),
  points_products: answer.points_products.map((e) => e.id),
  error,
}));
`,
  );
  writeFileSync(
    path.join(consumer, 'typed.ts'),
    `import { createQualifier, QualifyError, type QualifyResult } from 'loyalty-qualifier';
const q = await createQualifier({ schema_version: 1 }, { now: () => Date.now() });
const answer: QualifyResult = q.qualify({ subtotal: '8.00' });
const ids: string[] = answer.rewards.map((r) => r.id);
const error: QualifyError = new QualifyError(400, 'x');
console.log(ids, error.code);
`,
  );
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        types: [],
        lib: ['es2022', 'dom'],
      },
      files: ['typed.ts'],
    }),
  );
});

after(() => rmSync(consumer, { recursive: true, force: true }));

test('a consumer imports the package by name in a child Node process', { timeout: 30_000 }, () => {
  const result = spawnSync(
    process.execPath,
    ['main.js', path.join(root, 'examples/snapshot.json'), path.join(root, 'examples/basket.json')],
    { cwd: consumer, encoding: 'utf8', timeout: 30_000 },
  );
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    rewards: exampleRewards,
    points_products: examplePointsProducts,
    error: { isQualifyError: true, code: 400 },
  });
});

test(
  'a TypeScript consumer finds the types through the package exports',
  { timeout: 60_000 },
  () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  },
);
