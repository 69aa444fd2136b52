// docs/architecture.md kept true (scripts/check-house.mjs, run by `npm test`): a folder table that
// leaves out a folder of its part, or lists one twice, is named, and so is a cited path, a row's
// file or a link that does not exist; what the checkout's doc says holds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { GENERATED, architectureProblems } from '../../scripts/check-house.mjs';
import { root } from '../support/support.js';

function tree(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-architecture-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const CODE = {
  'web/index.js': '',
  'web/engine/qualifier.js': '',
  'web/hub/hub_client.js': '',
  'web/messages/messages.js': '',
  'web/dist/loyalty_qualifier.mjs': '',
  'include/lq/qualifier.hpp': '',
  'include/lq/time/instant.hpp': '',
  'include/lq/json/json_reader.hpp': '',
  'service/options.cpp': '',
  'service/http/routes.cpp': '',
  'docs/emulator.md': '',
};

const GOOD = `# Architecture

The faces include \`include/lq/\` only (\`service/options.*\`, \`service/options\`, \`web/index\`,
\`service/{options.cpp,http/routes.cpp}\`; \`web/dist/loyalty_qualifier.wasm\` is built).
See [the emulator](emulator.md#start).

| \`include/lq/\` | what |
|---|---|
| \`qualifier.hpp\` | the qualifier |
| \`time/instant.hpp\`, \`json/json_reader.hpp\` | values |

| folder | what |
|---|---|
| \`web/engine/\` | the engine (\`qualifier.js\`) |
| \`web/hub/\` | the hub (\`hub_client.js\`) |
| \`web/messages/\` | the messages |
`;

test('a folder table that leaves out a folder or lists one twice is named; cited paths, row files and links must exist', () => {
  const bad = GOOD
    .replace('| `web/messages/` | the messages |\n', '| `web/hub/` | the hub again |\n')
    .replace('(`qualifier.js`)', '(`qualifier.js`, `engine_module.js`)')
    .replace('| `time/instant.hpp`, `json/json_reader.hpp` | values |\n', '| `time/instant.hpp` | values |\n')
    .replace('`web/index`,', '`web/index`, `service/http/json_body.hpp`, `src/`,')
    .replace('(emulator.md#start)', '(emulator.md#start) and [the kiosk](kiosk.md)');
  const dir = tree({ ...CODE, 'docs/architecture.md': bad, 'docs/good.md': GOOD });
  try {
    assert.deepEqual(architectureProblems(dir, { doc: 'docs/good.md', generated: ['web/dist'] }), []);
    assert.deepEqual(architectureProblems(dir, { generated: ['web/dist'] }).sort(), [
      'docs/architecture.md cites service/http/json_body.hpp, which does not exist',
      'docs/architecture.md cites src/, which does not exist',
      'docs/architecture.md links to kiosk.md, which does not exist',
      'docs/architecture.md: the row of web/engine/ cites engine_module.js, which is not in web/engine/',
      'docs/architecture.md: the table of include/lq/ leaves out include/lq/json/',
      'docs/architecture.md: the table of web/ leaves out web/messages/',
      'docs/architecture.md: the table of web/ lists web/hub/ 2 times',
    ]);
    // A folder that a build makes is no part's folder.
    assert.ok(architectureProblems(dir, { doc: 'docs/good.md' }).includes('docs/good.md: the table of web/ leaves out web/dist/'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the checkout: docs/architecture.md lists every folder of its tables\' parts and cites only what exists', () => {
  assert.deepEqual(architectureProblems(root, { generated: GENERATED }), []);
});
