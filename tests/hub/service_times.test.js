// The service's facts carry the service's times, also in the 'loyalty-api' shape, whose account
// read has no time of its own: the snapshot's generated_at is the answer's HTTP Date (the
// service's clock, to the second), so a points claim's balance_as_of at the store hub is the
// service's time even on a kiosk whose clock is an hour behind, and the spend's billed_at is the
// last millisecond of the second the read after the billing was answered in (never before the
// billing). Through the public API against the real local service on its own clock and a real hub.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { credentialsOf, ensureWasm, serviceBinary, startService } from '../service/harness.js';
import { STORE_KEY, hubCall, scratchDir, startHub, waitFor } from './harness.js';

const scratch = scratchDir('lq-service-times-');
let lq;
let service;
let hub;

before(async () => {
  ensureWasm();
  serviceBinary();
  lq = await import('../../web/index.js');
  service = await startService({ db: path.join(scratch.dir, 'service.db'), delay: 3600 }); // the service's own clock
  hub = await startHub({ db: path.join(scratch.dir, 'hub.db') });
}, { timeout: 900_000 });

after(async () => {
  await service?.crash();
  await hub?.stop();
  scratch.cleanup();
});

// The service's time now, from the Date of a raw account read (to the second).
async function serviceTime() {
  const { token, key } = credentialsOf('u_1002');
  const answer = await fetch(`${service.url}/api/account`, { headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json' } });
  await answer.text();
  return Date.parse(answer.headers.get('date'));
}

test("a 'loyalty-api' kiosk an hour behind claims points with the service's balance time and spends them at the service's billing time", { timeout: 120_000 }, async () => {
  const TWO_OFF = { kind: 'points_product', id: 'pp_two_off' }; // 200 beans: Blair has 2,600
  const { token, key } = credentialsOf('u_1002');
  const hybrid = new lq.HybridQualifier({
    client: new lq.LoyaltyClient({ baseUrl: service.url, accessToken: token, merchantKey: key, timeoutMs: 10_000 }),
    accountShape: 'loyalty-api',
    context: { merchantId: 'm_harbor_coffee', locationUid: 'harbor-downtown', venue: 'instore', timeZone: 'America/New_York' },
    now: () => Date.now() - 3_600_000, // the kiosk's clock, an hour behind
    outbox: lq.memoryOrderOutbox(),
    backoff: { initialMs: 600_000 },
    hub: { url: hub.url, storeKey: STORE_KEY, kioskId: 'kiosk-behind', timeoutMs: 5_000 },
  });
  try {
    const from = await serviceTime();
    await hybrid.ready();
    const { generated_at: generatedAt } = hybrid.currentSnapshot();
    assert.match(generatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'said to the second, as the Date header says it');
    const latte = {
      redemption_venue: 'instore',
      order_timestamp: new Date().toISOString(),
      location_uid: 'harbor-downtown',
      subtotal: '4.75',
      items: [{ id: 'latte', price: '4.75', categories: ['coffee'] }],
    };
    const outcome = await hybrid.checkout(latte, { offer: TWO_OFF, basketId: 'loyalty-api-1' });
    assert.deepEqual([outcome.status, outcome.discount], ['billed', '2.00'], JSON.stringify(outcome));
    const to = await serviceTime();
    assert.ok(Date.parse(generatedAt) >= from && Date.parse(generatedAt) <= to, `generated_at ${generatedAt} is the service's time`);

    const claims = async () => (await hubCall(hub, 'GET', '/hub/claims?merchant_id=m_harbor_coffee&user_id=u_1002')).body;
    const [beans] = (await claims()).points;
    assert.equal(beans.balance_as_of, generatedAt, "balance_as_of is the snapshot's: the service's time, not the kiosk's");
    // Spent once the read after the billing answered: at the last millisecond of its second.
    const spent = await waitFor(async () => (await claims()).claims.find((c) => c.basket_id === 'loyalty-api-1' && c.state === 'spent'), 20_000, 50);
    assert.ok(spent, 'spent at the hub');
    assert.match(spent.billed_at, /:\d\d\.999Z$/);
    const billedAt = Date.parse(spent.billed_at);
    assert.ok(billedAt >= from && billedAt <= (await serviceTime()) + 999, `billed_at ${spent.billed_at} is the service's time`);
  } finally {
    hybrid.dispose();
  }
});
