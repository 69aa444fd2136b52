// The emulator's Node entry (`exports["./emulator"].node`: web/local/emulator/emulator.node.mjs,
// one file bundled from web/local/emulator/emulator.js by scripts/build.mjs, so that Node's loader
// reads one module instead of 12): it is what `import 'loyalty-qualifier/emulator'` gives in Node,
// it is current with the sources, it exports what emulator.js exports, and its emulators answer
// with the same bytes as the sources' (the module, the seeded image and the fixture found beside it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as modules from '../../web/local/emulator/emulator.js';
import { emulatorNodeEntryText } from '../../scripts/build.mjs';
import { credentialsOf } from '../service/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'web/local/emulator/emulator.node.mjs');
const NOW = Date.parse('2026-11-24T13:15:00Z');

test("Node resolves the package's emulator to the one-file entry", () => {
  assert.equal(fileURLToPath(import.meta.resolve('loyalty-qualifier/emulator')), entry);
});

test('the entry is the bundle of the current sources (npm run build / npm test rebuild it)', () => {
  assert.equal(readFileSync(entry, 'utf8'), emulatorNodeEntryText(), 'web/local/emulator/emulator.node.mjs is stale: run npm run build');
});

test('it exports the same names as emulator.js', async () => {
  const bundled = await import('loyalty-qualifier/emulator');
  assert.deepEqual(Object.keys(bundled).sort(), Object.keys(modules).sort());
});

// The same requests to an emulator of each entry at the same clock: the same status and bytes.
async function answers(entryModule) {
  const emulator = await entryModule.createEmulator({ now: NOW });
  const hub = await entryModule.createStoreHubEmulator({ storeKey: 'store-key-0123456789abcdef', now: NOW });
  try {
    const { token, key } = credentialsOf('u_1001');
    const loyalty = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json', 'Content-Type': 'application/json' };
    const basket = { redemption_venue: 'instore', location_uid: 'harbor-downtown', subtotal: '5.25', items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }] };
    const responses = [
      await emulator.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers: loyalty, body: JSON.stringify(basket) }),
      await emulator.fetch('http://emulator.test/api/baskets/qualifying', { method: 'POST', headers: loyalty, body: '{"items":' }),
      await hub.fetch('http://hub.test/hub/health', { headers: { 'Store-Key': 'store-key-0123456789abcdef' } }),
    ];
    return await Promise.all(responses.map(async (res) => [res.status, await res.text()]));
  } finally {
    await emulator.close();
    await hub.close();
  }
}

test('its emulators answer as the sources\' do: the module, the seeded image and the fixture beside it', async () => {
  const bundled = await import('loyalty-qualifier/emulator');
  const [fromBundle, fromSources] = [await answers(bundled), await answers(modules)];
  assert.equal(fromBundle[0][0], 200, fromBundle[0][1]);
  assert.equal(fromBundle[1][0], 400, fromBundle[1][1]);
  assert.deepEqual(fromBundle, fromSources);
});
