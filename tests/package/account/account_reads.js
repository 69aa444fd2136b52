// Account-read bodies of the loyalty service written from its documented field lists, and the
// code that runs them through snapshotFromAccount and the engine. Shared by the Node and the
// Chromium tests, which must get the same outcomes.

export const CONTEXT = {
  merchantId: 'm_harbor_coffee',
  locationUid: 'harbor-downtown',
  venue: 'instore',
  timeZone: 'America/New_York',
  fetchedAt: '2026-11-24T13:15:00Z',
};

/** The documented fields (issue 14 / vendor docs), numbers as JSON numbers, plus unknown ones. */
export const DOCUMENTED = {
  id: 'u_1001',
  email: 'guest@example.com',
  tier: { name: 'gold' }, // unknown: ignored
  rewards: [
    {
      id: 'rw_five_off',
      value: 5,
      minimum: 15,
      maximum: null,
      label: '$5 off $15',
      state: 'redeemable',
      type: 'amount',
      products: [],
      fine_print: 'One per visit',
      retire_at: '2026-12-31T23:59:59Z',
      barcode: 'XYZ', // unknown: ignored
    },
    {
      id: 'rw_latte',
      value: 6,
      minimum: null,
      maximum: null,
      label: 'A free latte',
      state: 'redeemable',
      type: 'item',
      products: ['latte'],
      fine_print: '',
      retire_at: null,
    },
    {
      id: 'rw_ten_pct',
      value: 10,
      maximum: 2,
      label: '10% off, up to $2',
      state: 'redeemable',
      type: 'percent',
      retire_at: '2026-12-01T05:00:00Z',
    },
    { id: 'rw_expired', value: 3, label: '$3 off', state: 'redeemable', type: 'amount', retire_at: '2026-11-01T00:00:00Z' },
  ],
  points_products: [
    // The documented list: id, label, cost; no discount fields.
    { id: 'pp_mug', label: 'A mug', cost: 300 },
    // With discount fields, it is computed locally.
    { id: 'pp_two_off', label: '$2 off', cost: 200, value: 2, type: 'amount', state: 'redeemable' },
    // Dear, unaffordable.
    { id: 'pp_ten_off', label: '$10 off', cost: 5000, value: 10, type: 'amount', minimum: 20 },
  ],
  points_balances: [{ points_experience_id: 'beans', balance: 450, currency: { name: 'Bean' } }],
  progress: { percentage: 20, towards: '$5 off next purchase' },
};

/** The same body with every decimal and count as a numeric string. */
export const DOCUMENTED_STRINGS = JSON.parse(
  JSON.stringify(DOCUMENTED, (key, value) =>
    typeof value === 'number' && ['value', 'minimum', 'maximum', 'cost', 'balance'].includes(key)
      ? value.toFixed(key === 'cost' || key === 'balance' ? 0 : 2)
      : value,
  ),
);

/** Only rewards: no points products, no balances. */
export const REWARDS_ONLY = { id: 'u_1003', email: 'x@example.com', rewards: [DOCUMENTED.rewards[0]] };

/** The shape of the vendor's published example: `points` lists and points on the products. */
export const VENDOR_EXAMPLE = {
  id: 'wer23gtTT',
  email: 'john.smith@example.com',
  rewards: [
    {
      id: 'gheTfR',
      value: 10,
      minimum: 20,
      maximum: 20,
      label: 'Ten off twenty',
      state: 'redeemable',
      type: 'amount',
      products: [],
      fine_print: 'Reward fine print',
      retire_at: '2027-05-01T20:00:00Z',
      restriction_location_ids: ['a', 'b'],
    },
  ],
  points_products: [
    {
      id: '9xw6543wh8jmde0',
      points_experience_id: '590485d6f0',
      points: 10,
      value: 10,
      minimum: 20,
      maximum: 20,
      label: 'Onion rings',
      state: 'redeemable',
      products: ['234234-23423423'],
      fine_print: 'Points product fine print',
    },
  ],
  progress: { percentage: 20, towards: '$5 off next purchase' },
  points: [{ points_experience_id: '590485d6f0', currency: { name: 'Star', plural: 'Stars' }, balance: 10.0 }],
};

export const BASKETS = {
  instore: {
    redemption_venue: 'instore',
    order_timestamp: '2026-11-24T13:20:00Z',
    location_uid: 'harbor-downtown',
    subtotal: '24.00',
    items: [
      { id: 'latte', price: '5.50', categories: ['coffee'] },
      { id: 'sandwich', price: '9.25', quantity: 2 },
    ],
  },
  online: {
    redemption_venue: 'online',
    order_timestamp: '2026-11-24T13:20:00Z',
    subtotal: '24.00',
    items: [{ id: 'latte', price: '5.50' }],
  },
  small: { redemption_venue: 'instore', order_timestamp: '2026-11-24T13:20:00Z', subtotal: '5.50', items: [{ id: 'latte', price: '5.50' }] },
};

const summary = (explained) =>
  explained.entries.map((e) => ({ id: e.id, qualifies: e.qualifies, discount: e.discount, codes: e.reasons.map((r) => r.code) }));

/** The snapshot, and per basket the qualifying ids and the explanation, of a body in a context. */
export async function accountOutcome(api, body, context = CONTEXT) {
  const snapshot = api.snapshotFromAccount(body, context);
  const qualifier = await api.createQualifier(snapshot);
  try {
    const baskets = {};
    for (const [name, basket] of Object.entries(BASKETS)) {
      const answer = qualifier.qualify(basket);
      baskets[name] = {
        rewards: answer.rewards.map((r) => r.id),
        points_products: answer.points_products.map((p) => p.id),
        entities: answer,
        explain: summary(qualifier.explain(basket)),
      };
    }
    return { snapshot, baskets };
  } finally {
    qualifier.dispose();
  }
}

/** The error snapshotFromAccount throws, as { name, code, message }. */
export function accountError(api, body, context = CONTEXT) {
  try {
    api.snapshotFromAccount(body, context);
  } catch (e) {
    return { name: e.name, code: e.code, message: e.message };
  }
  return null;
}
