// The wire (wasm/wire.hpp, web/engine/wire.js): both sides declare the layout once, and the
// engine's wire_layout() must say exactly what the JS side declares.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { WIRE } from '../../../web/engine/wire.js';
import { root } from '../../support/support.js';

async function engineLayout() {
  const { default: createModule } = await import('../../../web/dist/loyalty_qualifier.mjs');
  const module = await createModule({
    wasmBinary: readFileSync(path.join(root, 'web/dist/loyalty_qualifier.wasm')),
  });
  return JSON.parse(module.wire_layout());
}

test('the engine and web/engine/wire.js declare the same layout constants', async () => {
  const { reasons, ...constants } = await engineLayout();
  assert.deepEqual(constants, { ...WIRE });
});

test('every reason code has a name and a message template with at most one known figure', async () => {
  const { reasons } = await engineLayout();
  assert.equal(reasons.length, 22);
  assert.equal(new Set(reasons.map((r) => r.code)).size, reasons.length);
  for (const { code, message } of reasons) {
    assert.match(code, /^[A-Z_]+$/);
    const fields = message.match(/\{[^}]*\}/g) ?? [];
    assert.ok(fields.length <= 1, `${code}: ${message}`);
    for (const field of fields) assert.ok(['{remaining}', '{points_needed}'].includes(field), `${code}: ${field}`);
  }
  const byCode = Object.fromEntries(reasons.map((r) => [r.code, r.message]));
  assert.equal(byCode.BELOW_MINIMUM, 'Spend ${remaining} more to unlock.');
  assert.equal(byCode.INSUFFICIENT_POINTS, '{points_needed} more points needed.');
  assert.equal(byCode.NOT_REDEEMABLE, 'The reward is not in the redeemable state.');
});
