// The sandbox fraud rule (API spec 7) as the service emulates it, over real HTTP: a standard test
// card (or a card shared between users) on a user silently withholds grants and campaign earns of
// the fraud-protected reward types (intro, birthday, winback, signup), with the answer of an
// activated reward and one log line each; points products and free_item / promotion rewards are
// unaffected; a unique card works; production mode has no rule. Then `sandbox doctor` (the CLI,
// spawned against the service) says which rewards would fail and how to fix it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FIXED_NOW, call, consumer, root, scratchDir, serviceBinary, startService, waitFor } from '../harness.js';

const MERCHANT = { id: 'm_fraud', merchant_key: 'mk_fraud_51d2', time_zone: 'America/New_York', points_experience_id: 'points', locations: [{ uid: 'fraud-main', id: 'loc_main' }] };
const CLIENT_ID = 'cl_fraud_pos';
// Another merchant of the same service: its users are none of m_fraud's business.
const OTHER_MERCHANT = { id: 'm_other', merchant_key: 'mk_other_7a3e', time_zone: 'America/New_York', points_experience_id: 'points', locations: [{ uid: 'other-main', id: 'loc_other' }] };
const OTHER_CLIENT_ID = 'cl_other_pos';
const STANDARD_CARD = '4111111111111111';
const UNIQUE_CARD = '4111 1198 7654 1111';
const SHARED_UNIQUE_CARD = '4242425555554242';

const user = (id, cards, merchantId = MERCHANT.id) => ({ id, merchant_id: merchantId, access_token: `at_${id}`, points: [{ points_experience_id: 'points', balance: 1000 }], ...(cards ? { cards } : {}) });
const amountOff = (label) => ({ value: 5, minimum: null, maximum: null, label, type: 'amount', products: [], fine_print: '', retire_at: null, restriction_location_ids: [] });
const freeItem = (label) => ({ ...amountOff(label), value: 0, type: 'item', products: ['drip'], item_kind: 'free_item' });
const campaign = (id, hashid, rewardType, reward, extra = {}) => ({
  id, external_uid_hashid: hashid, merchant_id: MERCHANT.id, ...(rewardType ? { reward_type: rewardType } : {}), reward, ...extra,
});

const FIXTURE = {
  merchants: [MERCHANT, OTHER_MERCHANT],
  clients: [{ client_id: CLIENT_ID, merchant_id: MERCHANT.id }, { client_id: OTHER_CLIENT_ID, merchant_id: OTHER_MERCHANT.id }],
  users: [
    user('u_shared', [STANDARD_CARD]),
    user('u_unique', [UNIQUE_CARD]),
    user('u_nocard'),
    user('u_twin_a', [SHARED_UNIQUE_CARD]),
    user('u_twin_b', [SHARED_UNIQUE_CARD]),
    user('u_trigger', ['5555 5555 5555 4444']),
    user('u_loyal', ['4111 1122 2222 1111']),
    user('u_probe'),
    user('u_neighbour', ['4111 1144 4444 1111']),
    user('u_elsewhere', null, OTHER_MERCHANT.id),
    user('u_prober', null, OTHER_MERCHANT.id),
    user('u_far', ['4111 1155 5555 1111'], OTHER_MERCHANT.id),
  ],
  campaigns: [
    campaign(1, 'cmp_intro', 'intro', amountOff('Intro $5')),
    campaign(2, 'cmp_birthday', 'birthday', amountOff('Birthday $5')),
    campaign(3, 'cmp_winback', 'winback', amountOff('Winback $5'), { trigger: { type: 'purchase', minimum_amount: '10.00' } }),
    campaign(4, 'cmp_signup', 'signup', amountOff('Signup $5')),
    campaign(5, 'cmp_free', 'free_item', freeItem('Free drip'), { trigger: { type: 'purchase', minimum_amount: '10.00' } }),
    campaign(6, 'cmp_promo', null, amountOff('Promo $5')),
  ],
  points_products: [{ id: 'pp_one', merchant_id: MERCHANT.id, points: 100, value: 1, minimum: null, maximum: null, label: '$1 off', type: 'amount', products: [], fine_print: '', restriction_location_ids: [] }],
};
const PROTECTED = ['cmp_intro', 'cmp_birthday', 'cmp_winback', 'cmp_signup'];

const scratch = scratchDir();
let sandbox;
let production;

before(async () => {
  serviceBinary();
  sandbox = await startService({ db: path.join(scratch.dir, 'sandbox.db'), fixture: FIXTURE, now: true, delay: 0 });
  production = await startService({ db: path.join(scratch.dir, 'production.db'), fixture: FIXTURE, now: true, mode: 'production' });
}, { timeout: 900_000 });

after(async () => {
  if (sandbox) await sandbox.crash();
  if (production) await production.crash();
  scratch.cleanup();
});

const OTHERS = new Set(['u_elsewhere', 'u_prober', 'u_far']);
const as = (userId) => ({ token: `at_${userId}`, clientId: OTHERS.has(userId) ? OTHER_CLIENT_ID : CLIENT_ID });
const grant = (service, userId, campaignId) =>
  consumer(service, 'POST', '/rewards/grant', { ...as(userId), body: { campaign_id: campaignId, user_id: userId } });
const rewardsOf = async (service, userId) => (await consumer(service, 'GET', '/rewards', as(userId))).body.rewards;
const registerCard = (service, userId, body) => consumer(service, 'POST', '/emulator/cards', { ...as(userId), body });
const loyalty = (userId) => ({ token: `at_${userId}`, key: MERCHANT.merchant_key });
const accountOf = async (service, userId) => (await call(service, 'GET', '/api/account', loyalty(userId))).body;

/** The fraud rule's log lines in the service's stderr. */
const fraudLines = (service) => service.stderr.split('\n').filter((line) => line.includes('sandbox fraud rule:'));

describe('grants (sandbox mode)', () => {
  test('a standard test card withholds intro, birthday, winback and signup grants, answering as if they activated', async () => {
    const seen = fraudLines(sandbox).length;
    for (const campaignId of PROTECTED) {
      const withheld = await grant(sandbox, 'u_shared', campaignId);
      const activated = await grant(sandbox, 'u_unique', campaignId);
      // The same answer: status, the record's fields, state and campaign.
      assert.equal(withheld.status, 201, withheld.text);
      assert.equal(activated.status, 201, activated.text);
      assert.deepEqual(Object.keys(withheld.body.reward), Object.keys(activated.body.reward));
      assert.equal(withheld.body.reward.state, 'redeemable');
      assert.equal(withheld.body.reward.campaign_id, campaignId);
      assert.match(withheld.body.reward.id, /^rw_[0-9A-Za-z]{12}$/);
      assert.equal(withheld.body.reward.user_id, 'u_shared');
    }
    // Nothing activated for u_shared: not in GET /rewards, the account, or the qualifying set.
    const held = await rewardsOf(sandbox, 'u_shared');
    assert.deepEqual(held.filter((r) => PROTECTED.includes(r.campaign_id)), []);
    assert.deepEqual((await accountOf(sandbox, 'u_shared')).rewards, []);
    const qualifying = await call(sandbox, 'POST', '/api/baskets/qualifying', { ...loyalty('u_shared'), body: { subtotal: '20.00', items: [{ id: 'drip', price: '3.00' }] } });
    assert.deepEqual(qualifying.body.rewards, []);
    // u_unique's are there, one per grant.
    const unique = await rewardsOf(sandbox, 'u_unique');
    assert.deepEqual(unique.map((r) => r.campaign_id).sort(), [...PROTECTED].sort());
    // One log line per withheld reward, naming the user, the campaign and the card's rule.
    const lines = await waitFor(() => (fraudLines(sandbox).length >= seen + 4 ? fraudLines(sandbox).slice(seen) : null), 5_000, 20);
    assert.ok(lines, `four log lines expected:\n${sandbox.stderr}`);
    assert.equal(lines.length, 4);
    for (const [i, campaignId] of PROTECTED.entries()) {
      assert.match(lines[i], new RegExp(`campaign ${campaignId} \\(program ${i + 1}, ${campaignId.slice(4)}\\) did not activate for user u_shared: card 411111\\*{6}1111 is high-risk \\(the standard test card 4111111111111111 \\(Visa\\)`));
    }
  });

  test('free_item and promotion grants activate on a standard test card', async () => {
    const seen = fraudLines(sandbox).length;
    for (const campaignId of ['cmp_free', 'cmp_promo']) {
      const granted = await grant(sandbox, 'u_shared', campaignId);
      assert.equal(granted.status, 201, granted.text);
      const listed = await rewardsOf(sandbox, 'u_shared');
      assert.ok(listed.some((r) => r.id === granted.body.reward.id), `${campaignId} not activated`);
    }
    assert.equal(fraudLines(sandbox).length, seen);
  });

  test('a card registered to two users is shared, so high-risk', async () => {
    const withheld = await grant(sandbox, 'u_twin_a', 'cmp_signup');
    assert.equal(withheld.status, 201);
    assert.deepEqual(await rewardsOf(sandbox, 'u_twin_a'), []);
    assert.ok(await waitFor(() => fraudLines(sandbox).find((l) => /user u_twin_a: card 424242\*{6}4242 is high-risk \(registered to another user of this merchant too\)/.test(l)), 5_000, 20));
  });
});

describe('campaign earns and points products (sandbox mode)', () => {
  test('a purchase earns the free_item campaign but silently not the winback one', async () => {
    const purchase = await consumer(sandbox, 'POST', '/purchases', {
      ...as('u_trigger'),
      body: { purchase: { merchant_id: MERCHANT.id, user_id: 'u_trigger', amount: '12.00', purchased_at: FIXED_NOW } },
    });
    assert.equal(purchase.status, 202, purchase.text);
    const landed = await waitFor(async () => (await consumer(sandbox, 'GET', '/purchases', as('u_trigger'))).body.purchases[0], 10_000, 50);
    assert.ok(landed, 'the purchase never landed');
    const held = await rewardsOf(sandbox, 'u_trigger');
    assert.deepEqual(held.map((r) => r.campaign_id), ['cmp_free']);
    assert.deepEqual(landed.triggered_rewards, [held[0].id]);
    assert.ok(await waitFor(() => fraudLines(sandbox).find((l) => /campaign cmp_winback \(program 3, winback\) did not activate for user u_trigger: card 555555\*{6}4444 is high-risk \(the standard test card 5555555555554444 \(Mastercard\)/.test(l)), 5_000, 20));
  });

  test('a unique card earns the winback campaign', async () => {
    await consumer(sandbox, 'POST', '/purchases', {
      ...as('u_unique'),
      body: { purchase: { merchant_id: MERCHANT.id, user_id: 'u_unique', amount: '15.00', purchased_at: FIXED_NOW } },
    });
    const earned = await waitFor(async () => {
      const list = await rewardsOf(sandbox, 'u_unique');
      return list.filter((r) => r.campaign_id === 'cmp_winback').length === 2 ? list : null;
    }, 10_000, 50);
    assert.ok(earned, 'the triggered winback reward never came');
  });

  test('a points product is billed on a standard test card', async () => {
    const billed = await call(sandbox, 'POST', '/api/baskets', {
      ...loyalty('u_shared'),
      body: { id: 'b-points', state: 'billed', points_products: ['pp_one'], subtotal: '4.00', items: [{ id: 'drip', price: '4.00' }] },
    });
    assert.equal(billed.status, 201, billed.text);
    assert.deepEqual(billed.body.offer, { kind: 'points_product', id: 'pp_one' });
    assert.equal(billed.body.discount, '1.00');
    // 100 points debited; the $3.00 paid accrues 3 once the purchase lands.
    const balance = await waitFor(async () => {
      const points = (await accountOf(sandbox, 'u_shared')).points[0].balance;
      return points === 903 ? points : null;
    }, 10_000, 50);
    assert.equal(balance, 903);
  });
});

describe('registering a card (the emulator helper)', () => {
  test('a standard test card registered later withholds; a unique one in its place lets the grant activate', async () => {
    const registered = await registerCard(sandbox, 'u_nocard', { card_number: STANDARD_CARD });
    assert.equal(registered.status, 201, registered.text);
    assert.deepEqual(registered.body.card, { card: '411111******1111', brand: 'Visa', user_id: 'u_nocard', registered_at: FIXED_NOW });
    await grant(sandbox, 'u_nocard', 'cmp_intro');
    assert.deepEqual(await rewardsOf(sandbox, 'u_nocard'), []);

    const replaced = await registerCard(sandbox, 'u_nocard', { card_number: '4111-1100-0000-1111', replace: true });
    assert.equal(replaced.status, 201, replaced.text);
    const granted = await grant(sandbox, 'u_nocard', 'cmp_intro');
    assert.deepEqual((await rewardsOf(sandbox, 'u_nocard')).map((r) => r.id), [granted.body.reward.id]);
  });

  test('a number without the first 6 and last 4 digits of a test card is 400 naming card_number', async () => {
    for (const card_number of ['4111111111111112', '1234567890123456', '4111 1111', 'visa', 42]) {
      const refused = await registerCard(sandbox, 'u_nocard', { card_number });
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.body.message, /^card_number /);
    }
    const other = await registerCard(sandbox, 'u_nocard', { card_number: UNIQUE_CARD, user_id: 'u_shared' });
    assert.equal(other.status, 403, other.text);
  });

  test('an invalid fixture card stops the start, naming its path', async () => {
    const bad = { ...FIXTURE, users: [user('u_bad', ['4000 0000 0000 0000'])] };
    await assert.rejects(
      startService({ db: path.join(scratch.dir, 'bad.db'), fixture: bad, now: true }),
      /users\[0\]\.cards\[0\] must be 12 to 19 digits/,
    );
    const badType = { ...FIXTURE, users: [], campaigns: [campaign(9, 'cmp_x', 'vip', amountOff('x'))] };
    await assert.rejects(
      startService({ db: path.join(scratch.dir, 'bad-type.db'), fixture: badType, now: true }),
      /campaigns\[0\]\.reward_type must be one of: intro, birthday, winback, signup, free_item, promotion/,
    );
  });
});

describe('only the merchant\'s own users count (another merchant\'s users neither affect nor learn)', () => {
  test('a user of another merchant registering the same card does not stop this user\'s winback grant', async () => {
    const registered = await registerCard(sandbox, 'u_elsewhere', { card_number: '4111 1122 2222 1111' });
    assert.equal(registered.status, 201, registered.text);
    const granted = await grant(sandbox, 'u_loyal', 'cmp_winback');
    assert.equal(granted.status, 201, granted.text);
    assert.deepEqual((await rewardsOf(sandbox, 'u_loyal')).map((r) => r.id), [granted.body.reward.id]);
    assert.ok(!fraudLines(sandbox).some((line) => /user u_loyal:/.test(line)), sandbox.stderr);
    // Nor does the doctor of either user call the card shared.
    for (const userId of ['u_loyal', 'u_elsewhere']) {
      const report = await consumer(sandbox, 'GET', '/emulator/fraud_report', as(userId));
      assert.equal(report.status, 200, report.text);
      assert.deepEqual(report.body.cards.map((c) => c.high_risk), [false], `${userId}: ${report.text}`);
    }
  });

  test('registering a card answers the same whether or not another user has it', async () => {
    // Numbers with one mask (411111******1111): held by nobody, by u_neighbour (m_fraud) and by
    // u_far (m_other).
    const NOBODY = '4111113333331111';
    const NEIGHBOUR = '4111114444441111';
    const FAR = '4111115555551111';
    for (const [prober, otherMerchant, sameMerchant] of [['u_probe', FAR, NEIGHBOUR], ['u_prober', NEIGHBOUR, FAR]]) {
      const answers = {};
      const reports = {};
      for (const [whose, number] of Object.entries({ nobody: NOBODY, otherMerchant, sameMerchant })) {
        const res = await registerCard(sandbox, prober, { card_number: number, replace: true });
        answers[whose] = { status: res.status, body: res.body, type: res.headers.get('content-type') };
        // And what the prober's doctor says about the card afterwards.
        const report = await consumer(sandbox, 'GET', '/emulator/fraud_report', as(prober));
        assert.equal(report.status, 200, report.text);
        reports[whose] = report.body.cards;
      }
      assert.equal(answers.nobody.status, 201, JSON.stringify(answers));
      assert.deepEqual(answers.otherMerchant, answers.nobody, prober);
      assert.deepEqual(answers.sameMerchant, answers.nobody, prober);
      // Another merchant's user holding the card shows nowhere.
      assert.deepEqual(reports.nobody, [{ card: '411111******1111', brand: 'Visa', high_risk: false, reason: null }], prober);
      assert.deepEqual(reports.otherMerchant, reports.nobody, prober);
      // Within one merchant (the integrator's own test users) the doctor explains the rule.
      assert.equal(reports.sameMerchant[0].reason, 'registered to another user of this merchant too', prober);
    }
  });
});

describe('production mode', () => {
  test('no fraud rule: a standard test card earns the winback campaign; the emulator helpers are 404', async () => {
    const billed = await call(production, 'POST', '/api/baskets', {
      ...loyalty('u_shared'),
      body: { id: 'b-prod', state: 'billed', subtotal: '20.00', items: [{ id: 'drip', price: '20.00' }] },
    });
    assert.equal(billed.status, 201, billed.text);
    const earned = await waitFor(async () => {
      const rewards = (await accountOf(production, 'u_shared')).rewards;
      return rewards.length === 2 ? rewards : null;
    }, 10_000, 50);
    assert.ok(earned, 'the triggered rewards never came');
    assert.deepEqual(earned.map((r) => r.label).sort(), ['Free drip', 'Winback $5']);
    assert.deepEqual(fraudLines(production), []);
    for (const [method, route] of [['POST', '/emulator/cards'], ['GET', '/emulator/fraud_report']]) {
      const res = await consumer(production, method, route, { ...as('u_shared'), body: method === 'POST' ? { card_number: UNIQUE_CARD } : undefined });
      assert.equal(res.status, 404, res.text);
      assert.match(res.body.message, /sandbox operation, disabled in production mode/);
    }
  });
});

/** Runs `loyalty-qualifier sandbox doctor` against a service; resolves { code, stdout, stderr }. */
function doctor(service, userId, extra = []) {
  return new Promise((resolve) => {
    execFile(process.execPath, [
      path.join(root, 'web/local/cli/cli.js'), 'sandbox', 'doctor',
      '--url', service.url, '--token', `at_${userId}`, '--client-id', CLIENT_ID, ...extra,
    ], { cwd: root, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

describe('sandbox doctor', () => {
  test('names each reward that would silently fail and the fix; exit 5', async () => {
    const report = await doctor(sandbox, 'u_shared');
    assert.equal(report.code, 5, report.stderr);
    assert.match(report.stdout, /^sandbox doctor: user u_shared \(merchant m_fraud\)$/m);
    assert.match(report.stdout, /411111\*{6}1111 \(Visa\): HIGH-RISK, the standard test card 4111111111111111 \(Visa\)/);
    for (const [id, type] of [['cmp_intro', 'intro'], ['cmp_birthday', 'birthday'], ['cmp_signup', 'signup']]) {
      assert.match(report.stdout, new RegExp(`${id} \\(program \\d, ${type}\\) "[^"]+": WOULD SILENTLY FAIL to activate \\(grant\\)`));
    }
    assert.match(report.stdout, /cmp_winback \(program 3, winback\) "Winback \$5": WOULD SILENTLY FAIL to activate \(grant or purchase trigger\)/);
    assert.match(report.stdout, /cmp_free \(program 5, free_item\) "Free drip": activates \(not fraud-protected\)/);
    assert.match(report.stdout, /cmp_promo \(program 6, promotion\) "Promo \$5": activates \(not fraud-protected\)/);
    assert.match(report.stdout, /^4 campaign rewards would silently fail/m);
    const fix = /register-card --user u_shared --number (4111\d{2}\d{6}1111) --replace/.exec(report.stdout);
    assert.ok(fix, report.stdout);
    assert.notEqual(fix[1], STANDARD_CARD);

    // Following the advice fixes it: the doctor is then silent, and the grant activates.
    const registered = await registerCard(sandbox, 'u_shared', { card_number: fix[1], replace: true });
    assert.equal(registered.status, 201);
    const fixed = await doctor(sandbox, 'u_shared');
    assert.equal(fixed.code, 0, fixed.stdout);
    assert.match(fixed.stdout, /^no reward would silently fail\.$/m);
    assert.match(fixed.stdout, /cmp_intro \(program 1, intro\) "Intro \$5": activates \(fraud-protected, no high-risk card\)/);
    const granted = await grant(sandbox, 'u_shared', 'cmp_intro');
    assert.ok((await rewardsOf(sandbox, 'u_shared')).some((r) => r.id === granted.body.reward.id));
  });

  test('--json prints the report; a user without cards has nothing to fix', async () => {
    const report = await doctor(sandbox, 'u_twin_b', ['--json']);
    assert.equal(report.code, 5);
    const body = JSON.parse(report.stdout);
    assert.equal(body.silent_failures, 4);
    assert.deepEqual(body.cards, [{ card: '424242******4242', brand: 'Visa', high_risk: true, reason: 'registered to another user of this merchant too' }]);
    const clean = await doctor(sandbox, 'u_unique');
    assert.equal(clean.code, 0, clean.stdout);
  });

  test('against production mode the doctor reports the 404 (exit 1)', async () => {
    const refused = await doctor(production, 'u_shared');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /"code":404/);
  });
});
