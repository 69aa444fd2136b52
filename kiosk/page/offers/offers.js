// What the Offers panel shows, from one qualify() and one explain() of the same basket:
// the qualifying offers in the contract's order, the best one, "spend $X more" hints and the
// reasons the other redeemable offers do not apply (the engine's reasons, for formatReason). A points product whose `state` is not
// `redeemable` qualifies in the engine (contract 3.2: state is not a filter) but the service
// refuses to bill it: it is listed apart (`unavailable`), never the best, never selected.
import { parseCents } from '../basket/money.js';

// Reasons that mean "not yours to use any more": such entries are not shown at all.
const GONE = new Set(['NOT_REDEEMABLE', 'EXPIRED', 'NOT_OWNED', 'OTHER_MERCHANT']);

function recordsById(snapshot) {
  const records = new Map();
  for (const r of snapshot?.rewards ?? []) records.set(`reward:${r.id}`, r);
  for (const p of snapshot?.points_products ?? []) records.set(`points_product:${p.id}`, p);
  return records;
}

// The merchant's own words for a record (offer_text.js gives the guest's).
const ownTexts = (record) => ({ label: record.label || record.id, finePrint: record.fine_print ?? '' });

/**
 * snapshot: the account snapshot; qualified: qualify() of the basket; explained: explain() of
 * the same basket; choice: null (the best), 'none', or an offer id the guest picked; textsOf:
 * a record's { label, finePrint } as the guest reads them.
 */
export function offerView(snapshot, qualified, explained, choice = null, textsOf = ownTexts) {
  const records = recordsById(snapshot);
  const entries = new Map(explained.entries.map((e) => [`${e.kind}:${e.id}`, e]));
  const toOffer = (kind) => (entity) => {
    const entry = entries.get(`${kind}:${entity.id}`);
    const { label, finePrint } = textsOf(records.get(`${kind}:${entity.id}`) ?? entity);
    return {
      id: entity.id,
      kind,
      label,
      finePrint,
      discountCents: parseCents(entry?.discount ?? '0'),
      points: kind === 'points_product' ? entity.points : null,
      retireAt: kind === 'reward' ? entity.retire_at : null,
      state: entity.state ?? 'redeemable',
      best: false,
    };
  };
  const all = [
    ...qualified.rewards.map(toOffer('reward')),
    ...qualified.points_products.map(toOffer('points_product')),
  ];
  const offers = all.filter((o) => o.state === 'redeemable');
  const unavailable = all.filter((o) => o.state !== 'redeemable');
  const best = offers.find((o) => o.id === explained.best) ?? bestOf(offers);
  if (best) best.best = true;

  let selected = null;
  if (choice !== 'none') {
    selected = offers.find((o) => o.id === choice) ?? offers.find((o) => o.best) ?? null;
  }

  const hints = [];
  const others = [];
  for (const entry of explained.entries) {
    if (entry.qualifies || entry.reasons.some((r) => GONE.has(r.code))) continue;
    // An empty basket explains nothing: every offer waits for items, so there is no "why not".
    if (entry.reasons.some((r) => r.code === 'EMPTY_BASKET')) continue;
    const record = records.get(`${entry.kind}:${entry.id}`);
    const label = record ? textsOf(record).label : entry.id;
    const belowMinimum = entry.reasons.find((r) => r.code === 'BELOW_MINIMUM');
    if (belowMinimum && entry.reasons.length === 1) {
      hints.push({ id: entry.id, kind: entry.kind, label, remainingCents: parseCents(belowMinimum.remaining) });
      continue;
    }
    others.push({ id: entry.id, kind: entry.kind, label, reasons: entry.reasons });
  }
  hints.sort((a, b) => a.remainingCents - b.remainingCents || (a.id < b.id ? -1 : 1));
  return { offers, unavailable, selected, hints, others };
}

// The engine's rule for `best` (contract 4) among the redeemable offers: the largest discount, then
// the earliest expiry (none last), then the id.
function bestOf(offers) {
  const expiry = (o) => (o.retireAt ? Date.parse(o.retireAt) : Infinity);
  const ranked = offers.filter((o) => o.discountCents > 0).sort((a, b) =>
    b.discountCents - a.discountCents || expiry(a) - expiry(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked[0] ?? null;
}

/** The guest's wallet: how many rewards are still usable at `now` (ms), and the points balance. */
export function walletOf(snapshot, now = Date.now()) {
  const rewards = (snapshot?.rewards ?? []).filter((r) => (r.state ?? 'redeemable') === 'redeemable' &&
    (r.retire_at === null || r.retire_at === undefined || Date.parse(r.retire_at) > now));
  const points = snapshot?.points ?? [];
  return { rewardCount: rewards.length, balance: points.length > 0 ? Number(points[0].balance) : 0 };
}
