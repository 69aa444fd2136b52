// GET /api/account in both shapes, over real HTTP: the contract's snapshot (what createQualifier
// takes) plus the loyalty service's own account-read fields, narrowed by the account read's
// parameters (location_uid / location_id, redemption_venue, reward_states[] in the bracket
// convention) exactly as the engine's rules say; and a HybridQualifier in 'loyalty-api' shape
// against the same service.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  FIXED_NOW,
  account,
  credentialsOf,
  ensureWasm,
  qualifying,
  scratchDir,
  serviceBinary,
  startService,
} from '../harness.js';
import { offsetAt, parsePosixTz, ruleEvents } from '../../support/tz_footers.js';

const scratch = scratchDir('lq-account-read-');
let service;
let api;

before(async () => {
  ensureWasm();
  serviceBinary();
  api = await import('../../../web/index.js');
  service = await startService({ db: path.join(scratch.dir, 'account.db'), now: true });
}, { timeout: 900_000 });

after(async () => {
  if (service) await service.stop();
  scratch.cleanup();
});

const ids = (list) => list.map((record) => record.id).sort();
// One GET on a fresh connection (agent: false): a pooled keep-alive connection that the service
// closed while a test computed would otherwise fail the next request.
function accountRead(query, as = 'u_1001') {
  const { token, key } = credentialsOf(as);
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${service.url}/api/account${query}`,
      {
        agent: false,
        timeout: 15_000,
        headers: { Authorization: `Bearer ${token}`, 'Merchant-Key': key, Accept: 'application/vnd.service-v1+json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET /api/account${query}: no answer in 15 s`)));
    request.on('error', reject);
  });
}

// u_1001 at FIXED_NOW (a Tuesday, 08:15 in New York, 07:15 in Chicago).
const USABLE_ONLINE = ['rw_bogo_croissant', 'rw_delivery_3', 'rw_free_latte', 'rw_oat_milk', 'rw_welcome5'];
const ALL_PRODUCTS = ['pp_drip', 'pp_pastry', 'pp_pickup_half', 'pp_ten_off', 'pp_tote', 'pp_two_off'];

describe('without parameters: the whole snapshot plus the account-read fields', () => {
  test('both shapes in one body', async () => {
    const { status, body } = await accountRead('');
    assert.equal(status, 200);
    assert.equal(body.schema_version, 1);
    assert.deepEqual(body.user, { id: 'u_1001' });
    // The account read's fields.
    assert.equal(body.id, 'u_1001');
    assert.equal(body.email, null);
    assert.deepEqual(body.points_balances, [{ points_experience_id: 'beans', balance: 450 }]);
    assert.deepEqual(body.points_balances, body.points);
    assert.ok(!('progress' in body));
    for (const product of body.points_products) assert.equal(product.cost, product.points, product.id);
    // Every reward, whatever its state, with its eligibility fields.
    assert.equal(body.rewards.length, 11);
    assert.equal(body.rewards.find((r) => r.id === 'rw_birthday').state, 'redeemed');
    assert.deepEqual(body.rewards.find((r) => r.id === 'rw_downtown_pastry').restriction_location_ids, ['loc_downtown']);
    // Unchanged for the snapshot reader: the same body as before the parameters existed.
    const plain = await account(service, 'u_1001');
    assert.deepEqual(plain.body, body);
  });

  test("the service's tz_rules (system tzdata) and the Intl rules of the same zones agree", async () => {
    const { tzRuleFromIntl } = await import('../../../web/account/intl_tz_rule.js');
    const { body } = await accountRead('');
    const zoned = [body.merchant, ...body.locations];
    assert.deepEqual([...new Set(zoned.map((z) => z.time_zone))].sort(), ['America/Chicago', 'America/New_York']);
    for (const { time_zone: zone, tz_rule: served } of zoned) {
      const service = parsePosixTz(served);
      const intl = parsePosixTz(tzRuleFromIntl(zone, { at: Date.parse(FIXED_NOW) }));
      const instants = [];
      for (let t = Date.UTC(2026, 0, 1) / 1000; t < Date.UTC(2028, 0, 1) / 1000; t += 6 * 3600) instants.push(t);
      for (const tz of [service, intl]) {
        for (const year of [2026, 2027]) for (const { at } of ruleEvents(tz, year)) instants.push(at - 1, at);
      }
      for (const t of instants) {
        if (offsetAt(service, t) !== offsetAt(intl, t)) assert.fail(`${zone} at ${t}: ${served}`);
      }
    }
  });

  test('snapshot shape: createQualifier on it answers as the service', async () => {
    const { body } = await accountRead('');
    const q = await api.createQualifier(body);
    try {
      for (const basket of BASKETS) {
        const remote = await qualifying(service, 'u_1001', basket);
        assert.equal(remote.status, 200);
        assert.deepEqual(JSON.parse(JSON.stringify(q.qualify(basket))), remote.body);
      }
    } finally {
      q.dispose();
    }
  });

  test('loyalty-api shape: snapshotFromAccount reads it, cost and points_balances included', async () => {
    const { body } = await accountRead('');
    const snapshot = api.snapshotFromAccount(body, { merchantId: 'm_harbor_coffee', timeZone: 'America/New_York' });
    assert.deepEqual(snapshot.points, [{ points_experience_id: 'beans', balance: 450 }]);
    assert.deepEqual(ids(snapshot.points_products), ALL_PRODUCTS);
    assert.ok(snapshot.points_products.every((p) => !p.discount_unknown));
    const q = await api.createQualifier(snapshot);
    try {
      // An unrestricted reward and product: the same answer as the service.
      const basket = { ...BASKETS[0], items: [{ id: 'drip_coffee', price: '2.50' }], subtotal: '16.00' };
      const local = q.qualify(basket);
      const remote = (await qualifying(service, 'u_1001', basket)).body;
      assert.ok(local.rewards.some((r) => r.id === 'rw_welcome5'));
      assert.deepEqual(
        remote.points_products.map((p) => p.id),
        ['pp_drip', 'pp_two_off'],
      );
      // The account read carries no categories: "any pastry" matches the coffee locally, which
      // the service's confirmation then corrects.
      assert.deepEqual(
        local.points_products.map((p) => p.id),
        ['pp_drip', 'pp_two_off', 'pp_pastry'],
      );
    } finally {
      q.dispose();
    }
  });
});

const BASKETS = [
  {
    redemption_venue: 'instore',
    order_timestamp: FIXED_NOW,
    location_uid: 'harbor-downtown',
    subtotal: '19.00',
    items: [
      { id: 'latte', price: '5.25', categories: ['coffee'], modifiers: [{ id: 'oat_milk', price: '0.75' }] },
      { id: 'croissant', price: '3.25', categories: ['pastry', 'breakfast'], quantity: 2 },
    ],
  },
  {
    redemption_venue: 'online',
    order_timestamp: FIXED_NOW,
    location_uid: 'harbor-airport',
    handoff: 'delivery',
    subtotal: '30.00',
    items: [{ id: 'latte', price: '5.25' }, { id: 'drip_coffee', price: '2.50' }],
  },
];

describe('the account read parameters narrow rewards and points products', () => {
  test('location_uid and redemption_venue: usable now, there', async () => {
    const { status, body } = await accountRead('?redemption_venue=instore&location_uid=harbor-downtown');
    assert.equal(status, 200);
    assert.deepEqual(ids(body.rewards), [
      'rw_bogo_croissant',
      'rw_breakfast_20',
      'rw_downtown_pastry',
      'rw_free_latte',
      'rw_oat_milk',
      'rw_welcome5',
    ]);
    assert.deepEqual(ids(body.points_products), ['pp_drip', 'pp_pastry', 'pp_ten_off', 'pp_tote', 'pp_two_off']);
    // Kept records are unchanged, eligibility fields included; the rest of the body too.
    const whole = (await accountRead('')).body;
    assert.deepEqual(body.rewards.find((r) => r.id === 'rw_breakfast_20'), whole.rewards.find((r) => r.id === 'rw_breakfast_20'));
    assert.deepEqual(body.locations, whole.locations);
    assert.deepEqual(body.points_balances, whole.points_balances);
  });

  test('the narrowed body is still a snapshot: local answers there equal the service', async () => {
    const { body } = await accountRead('?redemption_venue=instore&location_uid=harbor-downtown');
    const q = await api.createQualifier(body);
    try {
      const remote = await qualifying(service, 'u_1001', BASKETS[0]);
      assert.deepEqual(JSON.parse(JSON.stringify(q.qualify(BASKETS[0]))), remote.body);
      assert.ok(remote.body.rewards.length >= 4);
    } finally {
      q.dispose();
    }
  });

  test('location_id names the location by its hashid; the default venue is online', async () => {
    const byUid = await accountRead('?location_uid=harbor-airport');
    const byId = await accountRead('?location_id=loc_airport');
    assert.deepEqual(byId.body, byUid.body);
    assert.deepEqual(ids(byUid.body.rewards), USABLE_ONLINE);
    // pp_pickup_half is online but only downtown and in Brooklyn, in the afternoon.
    assert.deepEqual(ids(byUid.body.points_products), ['pp_drip', 'pp_pastry', 'pp_ten_off', 'pp_tote', 'pp_two_off']);
  });

  test('an unknown location keeps only unrestricted records', async () => {
    for (const query of ['?location_uid=nowhere', '?location_id=loc_nowhere', '?location_uid=bakery-main']) {
      const { status, body } = await accountRead(query);
      assert.equal(status, 200, query);
      assert.deepEqual(ids(body.rewards), USABLE_ONLINE, query);
      assert.ok(!body.points_products.some((p) => p.id === 'pp_pickup_half'), query);
    }
  });

  test('reward_states[] in the bracket convention; delivered and active are redeemable', async () => {
    assert.deepEqual(ids((await accountRead('?reward_states[]=redeemed')).body.rewards), ['rw_birthday']);
    assert.deepEqual(
      ids((await accountRead('?reward_states%5B%5D=redeemed&reward_states[]=redeemable&redemption_venue=online')).body.rewards),
      [...USABLE_ONLINE, 'rw_birthday', 'rw_downtown_pastry'].sort(),
    );
    // Without brackets the value is one string, which names no state.
    assert.deepEqual((await accountRead('?reward_states=redeemed,redeemable')).body.rewards, []);
    const delivered = await accountRead('?reward_states[]=delivered');
    const active = await accountRead('?reward_states[]=active');
    const redeemable = await accountRead('?reward_states[]=redeemable');
    assert.deepEqual(delivered.body, redeemable.body);
    assert.deepEqual(active.body, redeemable.body);
    // Points products have no reward state: the filter leaves them alone (pp_pickup_half is for
    // the afternoon).
    assert.deepEqual(
      ids((await accountRead('?reward_states[]=redeemed')).body.points_products),
      ALL_PRODUCTS.filter((id) => id !== 'pp_pickup_half'),
    );
  });

  test('a venue other than instore or online is a 400 naming it', async () => {
    for (const query of ['?redemption_venue=drive-thru', '?redemption_venue=', '?redemption_venue=all']) {
      const { status, body } = await accountRead(query);
      assert.equal(status, 400, query);
      assert.deepEqual(body, { code: 400, message: 'redemption_venue must be one of: instore, online' });
    }
  });

  test('another user, another merchant: only their own records', async () => {
    const { body } = await accountRead('?redemption_venue=instore', 'u_2001');
    assert.equal(body.id, 'u_2001');
    assert.ok(body.rewards.every((r) => r.user_id === 'u_2001'));
    assert.deepEqual(ids(body.points_products), ['pp_bakery_cookie']);
  });
});

describe("HybridQualifier in 'loyalty-api' shape over the real service", () => {
  const context = { merchantId: 'm_harbor_coffee', timeZone: 'America/New_York', venue: 'instore' };
  const clientOf = (user) =>
    new api.LoyaltyClient({ baseUrl: service.url, accessToken: credentialsOf(user).token, merchantKey: credentialsOf(user).key });

  test('local answers from the account read, confirmed by the service', async () => {
    const divergences = [];
    const hybrid = new api.HybridQualifier({
      client: clientOf('u_1003'),
      accountShape: 'loyalty-api',
      context,
      onDivergence: (event) => divergences.push(event),
    });
    try {
      const basket = { ...BASKETS[0], items: [{ id: 'latte', price: '5.25' }], subtotal: '5.25' };
      const local = await hybrid.qualify(basket);
      assert.deepEqual(local.rewards.map((r) => r.id), ['rw_1003_welcome']);
      const confirmed = await hybrid.confirm(basket);
      assert.equal(confirmed.source, 'remote');
      assert.deepEqual(JSON.parse(JSON.stringify(local)), confirmed.result);
      assert.deepEqual(divergences, []);
      // What it stored is a snapshot made from the documented fields.
      assert.equal(hybrid.snapshotInfo().expired, false);
    } finally {
      hybrid.dispose();
    }
  });

  test('what the account read cannot tell is settled by the confirmation', async () => {
    const divergences = [];
    const client = clientOf('u_1001');
    const hybrid = new api.HybridQualifier({
      client,
      accountShape: 'loyalty-api',
      context,
      onDivergence: (event) => divergences.push(event),
    });
    try {
      const local = await hybrid.qualify(BASKETS[0]);
      // Without its categories, "any pastry for $1" applies to the latte locally.
      const pastryLocal = local.rewards.find((r) => r.id === 'rw_downtown_pastry');
      assert.ok(pastryLocal);
      const confirmed = await hybrid.confirm(BASKETS[0]);
      const remote = await client.qualify(BASKETS[0]);
      assert.equal(confirmed.source, 'remote');
      assert.deepEqual(confirmed.result, remote);
      // The entity the service returns carries its location restriction, the local one none.
      assert.deepEqual(remote.rewards.find((r) => r.id === 'rw_downtown_pastry').restriction_location_ids, ['loc_downtown']);
      assert.deepEqual(pastryLocal.restriction_location_ids, []);
      assert.equal(divergences.length, 1);
      assert.equal(divergences[0].refreshError, null);
    } finally {
      hybrid.dispose();
    }
  });

  test('options: accountShape and context are checked', () => {
    const client = clientOf('u_1003');
    assert.throws(() => new api.HybridQualifier({ client, accountShape: 'thanx' }), {
      name: 'TypeError',
      message: "accountShape must be 'loyalty-api' or 'snapshot'",
    });
    assert.throws(() => new api.HybridQualifier({ client, accountShape: 'loyalty-api' }), /needs context/);
    assert.throws(() => new api.HybridQualifier({ client, accountShape: 'loyalty-api', context: { merchantId: '' } }), /needs context/);
  });
});
