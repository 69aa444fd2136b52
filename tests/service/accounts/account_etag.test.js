// GET /api/account's validator: a strong ETag that changes exactly when the account's snapshot
// does, and 304 Not Modified (no body) to a matching If-None-Match, over real HTTP with SQLite.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { account, basket, call, scratchDir, startService } from '../harness.js';

const scratch = scratchDir('lq-etag-');
let service;

before(async () => {
  service = await startService({ db: path.join(scratch.dir, 'etag.db'), now: true, delay: 3600 });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.stop();
  scratch.cleanup();
});

const latte = {
  redemption_venue: 'instore',
  subtotal: '4.75',
  items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
};

test('a strong ETag on every answer; the same bytes, the same tag', async () => {
  const first = await account(service, 'u_1001');
  assert.equal(first.status, 200);
  const etag = first.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]{32}-[0-9a-f]+"$/, 'strong (no W/), quoted');
  assert.equal(first.headers.get('cache-control'), 'private, no-cache');
  const again = await account(service, 'u_1001');
  assert.equal(again.headers.get('etag'), etag);
  assert.equal(again.text, first.text);
  const other = await account(service, 'u_1002');
  assert.notEqual(other.headers.get('etag'), etag, 'another account, another tag');
});

test('If-None-Match: 304 without a body when it matches, in every form RFC 9110 allows', async () => {
  const etag = (await account(service, 'u_1003')).headers.get('etag');
  for (const value of [etag, `W/${etag}`, `"nope", ${etag}`, ` ${etag} ,"x"`, '*']) {
    const answer = await account(service, 'u_1003', { headers: { 'If-None-Match': value } });
    assert.equal(answer.status, 304, value);
    assert.equal(answer.text, '');
    assert.equal(answer.headers.get('etag'), etag);
  }
  for (const value of ['"nope"', 'W/"nope"', etag.slice(1, -1), `${etag.slice(0, -2)}"`, '"unterminated', ',,', '']) {
    const answer = await account(service, 'u_1003', { headers: { 'If-None-Match': value } });
    assert.equal(answer.status, 200, `not a match: ${JSON.stringify(value)}`);
    assert.equal(answer.body.user.id, 'u_1003');
  }
});

test('the ETag changes exactly when the account changes', async () => {
  const before = await account(service, 'u_1002');
  const etag = before.headers.get('etag');
  const neighbour = (await account(service, 'u_1001')).headers.get('etag');
  // A dry run and a basket left open change nothing.
  assert.equal((await basket(service, 'u_1002', { ...latte, id: 'etag-open', state: 'checkout' })).status, 201);
  const unchanged = await account(service, 'u_1002', { headers: { 'If-None-Match': etag } });
  assert.equal(unchanged.status, 304);

  // Billing with a points product debits the balance: a new snapshot, a new tag.
  assert.equal((await basket(service, 'u_1002', { ...latte, id: 'etag-bill', state: 'billed', points_products: ['pp_two_off'] })).status, 201);
  const changed = await account(service, 'u_1002', { headers: { 'If-None-Match': etag } });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get('etag'), etag);
  assert.equal(changed.body.points[0].balance, before.body.points[0].balance - 200);
  assert.equal((await account(service, 'u_1002', { headers: { 'If-None-Match': changed.headers.get('etag') } })).status, 304);
  // Another user's account did not change.
  assert.equal((await account(service, 'u_1001', { headers: { 'If-None-Match': neighbour } })).status, 304);
});

test('errors come before the validator: a wrong token is 401 whatever If-None-Match says', async () => {
  const answer = await account(service, 'u_1001', { token: 'at_nobody', headers: { 'If-None-Match': '*' } });
  assert.equal(answer.status, 401);
});

test("every account answer (200, 304, narrowed) carries Date: the service's clock (--now), to the second", async () => {
  const whole = await account(service, 'u_1001');
  assert.equal(whole.headers.get('date'), 'Tue, 24 Nov 2026 13:15:00 GMT');
  const unchanged = await account(service, 'u_1001', { headers: { 'If-None-Match': whole.headers.get('etag') } });
  assert.equal(unchanged.status, 304);
  assert.equal(unchanged.headers.get('date'), 'Tue, 24 Nov 2026 13:15:00 GMT');
  const narrowed = await call(service, 'GET', '/api/account?redemption_venue=instore', { as: 'u_1001' });
  assert.equal(narrowed.status, 200);
  assert.equal(narrowed.headers.get('date'), 'Tue, 24 Nov 2026 13:15:00 GMT');
});
