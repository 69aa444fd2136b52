// The emulator's seeded image (docs/emulator.md, "Start-up"): createEmulator() with the demo
// fixture starts from the database the module seeded of it at build time, its seeding's times
// stamped at the emulator's now. It must answer exactly as the same fixture seeded at start:
// the same fixture under another text (not the image's key) is seeded, and both are asked the
// same reads, at a clock in another year than the image's, and again after a reset at a later one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createEmulator } from '../../web/local/emulator/emulator.js';
import { seededImage } from '../../web/local/emulator/seeded_image.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const demoText = readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8');
const fixture = JSON.parse(demoText);
// The demo fixture with one key the service does not read: the same data, another text.
const sameFixtureOtherText = { ...fixture, note: 'seeded at start, not copied' };

const credentials = (user) => {
  const client = fixture.clients.find((c) => c.merchant_id === user.merchant_id);
  const merchant = fixture.merchants.find((m) => m.id === user.merchant_id);
  return { token: user.access_token, key: merchant.merchant_key, client: client.client_id };
};

// Every user's account read, qualifying answer and sandbox reward list (which shows each
// reward's created_at), and a request of each kind of error.
function reads() {
  const list = [];
  for (const user of fixture.users) {
    const { token, key, client } = credentials(user);
    const loyalty = { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json' };
    const consumer = { Authorization: `Bearer ${token}`, 'X-ClientId': client, 'Accept-Version': 'v4.0', Accept: 'application/json' };
    const location = fixture.merchants.find((m) => m.id === user.merchant_id).locations?.[0]?.uid;
    list.push(['GET', '/api/account', loyalty]);
    list.push(['POST', '/api/baskets/qualifying', { ...loyalty, 'Content-Type': 'application/json' }, JSON.stringify({
      redemption_venue: 'instore',
      ...(location === undefined ? {} : { location_uid: location }),
      subtotal: '19.00',
      items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }, { id: 'croissant', price: '3.25', categories: ['pastry'], quantity: 2 }],
    })]);
    list.push(['GET', '/rewards', consumer]);
    list.push(['GET', '/emulator/fraud_report', consumer]);
  }
  list.push(['GET', '/api/account', { Accept: 'application/vnd.service-v1+json' }]);
  list.push(['POST', '/api/baskets/qualifying', { Authorization: 'Bearer nobody', 'Content-Type': 'application/json' }, '{}']);
  return list;
}

async function answers(emulator) {
  const out = [];
  for (const [method, where, headers, body] of reads()) {
    const res = await emulator.fetch(`http://emulator.test${where}`, { method, headers, body });
    out.push({ request: `${method} ${where} ${headers.Authorization ?? ''}`, status: res.status, headers: [...res.headers], body: await res.text() });
  }
  return out;
}

test('the image answers for the demo fixture\'s own texts only', async () => {
  assert.ok((await seededImage(demoText)) instanceof Uint8Array, 'no image of fixtures/demo.json: run node scripts/build.mjs --only emulator');
  assert.ok((await seededImage(JSON.stringify(fixture))) instanceof Uint8Array, 'the demo fixture given as an object');
  assert.equal(await seededImage(JSON.stringify(sameFixtureOtherText)), null);
  assert.equal(await seededImage(JSON.stringify(fixture, null, 2)), null);
  assert.equal(await seededImage(demoText.replace('"u_1001"', '"u_1009"')), null);
});

let now = Date.parse('2027-03-01T09:30:00.123Z');
let copied;
let seeded;
before(async () => {
  copied = await createEmulator({ now: () => now });
  seeded = await createEmulator({ fixture: sameFixtureOtherText, now: () => now });
});
after(async () => {
  await copied?.close();
  await seeded?.close();
});

test('an emulator from the image answers as one that seeded the fixture, at its own now', async () => {
  const fromImage = await answers(copied);
  assert.deepEqual(fromImage, await answers(seeded));
  const rewards = JSON.parse(fromImage.find((a) => a.request.startsWith('GET /rewards') && a.status === 200).body);
  assert.ok(JSON.stringify(rewards).includes('"created_at":"2027-03-01T09:30:00.123Z"'), 'a reward of the fixture created at the emulator\'s now');
});

test('reset() copies the image again, stamped at the clock\'s new now', async () => {
  now = Date.parse('2028-07-15T18:45:00Z');
  await copied.reset();
  await seeded.reset();
  const fromImage = await answers(copied);
  assert.deepEqual(fromImage, await answers(seeded));
  assert.ok(fromImage.some((a) => a.request.startsWith('GET /rewards') && a.body.includes('"created_at":"2028-07-15T18:45:00Z"')), 'a reward of the fixture created at the new now');
});
