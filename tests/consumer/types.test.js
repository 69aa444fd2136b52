// The package's types and JSON Schemas as a consumer installs them (issue 38): the consumer files of
// tests/package/types/ compiled by tsc against the packed package under each lib (ES2022 with Node's
// types, DOM, WebWorker), with skipLibCheck false, exactOptionalPropertyTypes and
// noUncheckedIndexedAccess; the schemas imported by their subpath export and checked against the
// installed examples. A file that imports loyalty-qualifier/msw has MSW beside it (its optional peer
// dependency, linked from the checkout for that compilation only): the other entries need none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { after, before, test } from 'node:test';

import { consumerProject, root } from './consumer_project.js';

const typesDir = path.join(root, 'tests/package/types');
const CONFIGS = { 'ES2022 with Node\'s types': 'tsconfig.es2022.json', DOM: 'tsconfig.json', WebWorker: 'tsconfig.webworker.json' };
/** Each config's lib, as the issue lists them: ES2022 alone (with Node's types), with DOM, with WebWorker. */
const LIBS = { 'tsconfig.es2022.json': ['es2022'], 'tsconfig.json': ['es2022', 'dom'], 'tsconfig.webworker.json': ['es2022', 'webworker'] };
/** The optional peer dependencies a config's files import (through the package's entries). */
const PEERS = { 'tsconfig.json': ['msw'] };
const configOf = (name) => JSON.parse(readFileSync(path.join(typesDir, name), 'utf8'));

let project;
before(() => {
  const files = { 'tsconfig.base.json': readFileSync(path.join(typesDir, 'tsconfig.base.json'), 'utf8') };
  for (const name of Object.values(CONFIGS)) {
    const config = configOf(name);
    // Node's types from the checkout: the consumer project installs nothing but the tarballs.
    config.compilerOptions.typeRoots = [path.join(root, 'node_modules/@types')];
    files[name] = JSON.stringify(config);
    for (const file of config.files) files[file] = readFileSync(path.join(typesDir, file), 'utf8');
  }
  project = consumerProject('lq-consumer-types-', { files });
});
after(() => project?.cleanup());

for (const [lib, config] of Object.entries(CONFIGS)) {
  test(`the types compile against the installed package under ${lib}`, { timeout: 180_000 }, () => {
    assert.ok(configOf(config).files.includes('exact_usage.ts'), `${config} compiles the exact types' consumer file`);
    assert.deepEqual(configOf(config).compilerOptions.lib, LIBS[config]);
    const base = configOf('tsconfig.base.json').compilerOptions;
    assert.deepEqual([base.skipLibCheck, base.exactOptionalPropertyTypes, base.noUncheckedIndexedAccess, base.strict], [false, true, true, true]);
    const peers = (PEERS[config] ?? []).map((name) => path.join(project.dir, 'node_modules', name));
    try {
      for (const [i, link] of peers.entries()) {
        mkdirSync(path.dirname(link), { recursive: true });
        symlinkSync(path.join(root, 'node_modules', PEERS[config][i]), link, 'dir');
      }
      const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', config], { cwd: project.dir, env: project.env, encoding: 'utf8', timeout: 170_000 });
      assert.equal(result.status, 0, result.stdout + result.stderr);
    } finally {
      for (const link of peers) rmSync(link, { force: true });
    }
  });
}

test('the schemas are the subpath exports loyalty-qualifier/schemas/*.schema.json; the shipped examples are valid by them', { timeout: 60_000 }, () => {
  const script = `
import snapshotSchema from 'loyalty-qualifier/schemas/snapshot.schema.json' with { type: 'json' };
import basketSchema from 'loyalty-qualifier/schemas/basket.schema.json' with { type: 'json' };
import snapshot from 'loyalty-qualifier/examples/snapshot.json' with { type: 'json' };
import basket from 'loyalty-qualifier/examples/basket.json' with { type: 'json' };
import { createRequire } from 'node:module';
const Ajv2020 = createRequire(${JSON.stringify(path.join(root, 'package.json'))})('ajv/dist/2020.js');
const ajv = new Ajv2020({ allErrors: true });
const { rewards, points_products, ...neither } = snapshot;
console.log(JSON.stringify({
  snapshot: ajv.validate(snapshotSchema, snapshot),
  basket: ajv.validate(basketSchema, basket),
  neither: ajv.validate(snapshotSchema, neither),
}));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], { cwd: project.dir, env: project.env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { snapshot: true, basket: true, neither: false });
});
