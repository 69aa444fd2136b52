// The glue's `wasmModule` option (wasm/module_reuse.js): a WebAssembly.Module compiled once gives
// any number of independent instances (one per page, worker or test), each a working engine.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './support.js';

const dist = path.join(root, 'web/dist');

function engineOf(module) {
  const encoder = new TextEncoder();
  const handle = new module.SnapshotHandle();
  const write = (text) => {
    const bytes = encoder.encode(text);
    module.HEAPU8.set(bytes, handle.input_buffer(bytes.length));
    return bytes.length;
  };
  return { handle, write };
}

test('one compiled module, two instances: each loads and qualifies on its own', async () => {
  const { default: createModule } = await import('../../web/dist/loyalty_qualifier.mjs');
  const compiled = await WebAssembly.compile(readFileSync(path.join(dist, 'loyalty_qualifier.wasm')));
  const first = await createModule({ wasmModule: compiled });
  const second = await createModule({ wasmModule: compiled });
  assert.notEqual(first.HEAPU8.buffer, second.HEAPU8.buffer);

  const snapshot = readFileSync(path.join(root, 'examples/snapshot.json'), 'utf8');
  const basket = readFileSync(path.join(root, 'examples/basket.json'), 'utf8');
  const answers = [];
  for (const module of [first, second]) {
    const { handle, write } = engineOf(module);
    assert.equal(module.live_handle_count(), 1);
    const status = handle.load(write(snapshot));
    assert.equal(status, 0, status === 0 ? '' : handle.error_message());
    assert.equal(handle.qualify_json(write(basket), Date.parse('2026-11-24T13:15:00Z')), 0);
    answers.push(handle.text());
    assert.equal(handle.qualify_json(write('{"items":7}'), 0), 400);
    assert.match(handle.error_message(), /items/);
    handle.delete();
    assert.equal(handle.isDeleted(), true);
    assert.equal(module.live_handle_count(), 0);
  }
  assert.equal(answers[0], answers[1]);
  assert.ok(JSON.parse(answers[0]).rewards.length > 0);
});
