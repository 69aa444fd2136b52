// A kiosk's side of the store hub (docs/hub.md): with a hub, every redemption holds a claim
// first, online or not; a claim refused, or a hub that cannot be reached or refuses the kiosk,
// means the offer is not promised (`withheld`). Settling an order releases its claim (refused,
// or billed without the offer) or spends it (billed with it); a release or spend that fails is
// kept in the snapshot store and retried later. The guest's live claims (cached briefly) tell
// the local answers what other baskets hold.
import { experienceOf } from './held_snapshot.js';

const CLAIMS_CACHE_MS = 2_000;
const SETTLEMENTS_KEY = 'hub-settlements';

export const points = (value) => (Number.isFinite(Number(value)) ? Number(value) : 0);

function refusal(offer, answer) {
  const base = { kind: offer.kind, id: offer.id };
  if (answer.unreachable) {
    return { ...base, code: 'HUB_UNREACHABLE', message: `Not redeemed: ${answer.message}, so no offer is promised.` };
  }
  const reason = answer.body?.reason;
  if (answer.status === 409 && reason === 'CLAIMED_ELSEWHERE') return { ...base, code: 'CLAIMED_ELSEWHERE', message: 'Already used at another kiosk.' };
  if (answer.status === 409 && reason === 'INSUFFICIENT_POINTS') {
    return { ...base, code: 'INSUFFICIENT_POINTS', message: `${answer.body.points_needed} more points needed. (points are held by orders at other kiosks)` };
  }
  const why = `${answer.status}: ${answer.body?.message ?? 'no message'}`;
  return { ...base, code: 'HUB_REFUSED', message: `Not redeemed: the store hub refused the claim (${why}), so no offer is promised.` };
}

export class StoreClaims {
  #hub;
  #store;
  #cache = null;
  #retrying = null;
  #kept = Promise.resolve(); // the kept settlements are read and rewritten one change at a time

  /** hub: a StoreHubClient; store: the hybrid's snapshot store (where unsettled claims wait). */
  constructor({ hub, store }) {
    this.#hub = hub;
    this.#store = store;
  }

  /**
   * Claims `offer` for basket `basketId` of `me` ({ merchantId, userId }), pricing a points product
   * from `snapshot` (the service's): null when granted, else the withheld offer.
   */
  async claim(me, basketId, offer, snapshot) {
    const body = { merchant_id: me.merchantId, user_id: me.userId, basket_id: basketId };
    if (offer.kind === 'reward') {
      body.reward_id = offer.id;
    } else {
      const product = (snapshot.points_products ?? []).find((p) => p?.id === offer.id);
      const experience = experienceOf(snapshot, product);
      const balance = (snapshot.points ?? []).find((p) => p?.points_experience_id === experience)?.balance;
      Object.assign(body, {
        points_product_id: offer.id,
        points: Math.max(1, points(product?.points)),
        points_experience_id: experience,
        balance: Math.max(0, Math.trunc(points(balance))),
        balance_as_of: snapshot.generated_at ?? new Date().toISOString(),
      });
    }
    const answer = await this.#hub.claim(body);
    this.#cache = null;
    const state = answer.body?.claim?.state;
    if ((answer.status === 200 || answer.status === 201) && (state === 'held' || state === 'spent')) return null;
    return refusal(offer, answer);
  }

  /** The order settled: its claim is spent (billed with the offer) or released; kept for later when that fails. */
  async settle(order, outcome) {
    if (!order.requestedOffer || !order.merchantId || !order.userId) return;
    // Refused by a hold: no claim was granted. (Withheld because the hub could not answer: a
    // claim may have been granted all the same, so it is released.)
    if (['PENDING_ORDER', 'CLAIMED_ELSEWHERE', 'INSUFFICIENT_POINTS'].includes(order.withheld?.code)) return;
    const billedWithOffer = outcome.status === 'billed' && order.offer && !order.derivedFrom;
    const body = { merchant_id: order.merchantId, user_id: order.userId, basket_id: order.derivedFrom?.basketId ?? order.basketId };
    const settlement = billedWithOffer ? { op: 'spend', body: { ...body, billed_at: new Date().toISOString() } } : { op: 'release', body };
    if (!(await this.#send(settlement))) await this.#change((kept) => [...kept, settlement]);
    this.#cache = null;
  }

  /** Sends the settlements kept earlier (in the background; one run at a time). */
  retry() {
    this.#retrying ??= this.#change(async (kept) => {
      const left = [];
      for (const settlement of kept) if (!(await this.#send(settlement))) left.push(settlement);
      return left;
    })
      .catch(() => {})
      .finally(() => {
        this.#retrying = null;
      });
    return this.#retrying;
  }

  /**
   * The guest's live claims at the hub (`me`: { owner, merchantId, userId }), cached briefly; null
   * when the hub cannot tell (the local answers then count the device's own orders only).
   */
  async live(me) {
    const now = Date.now();
    if (this.#cache === null || this.#cache.user !== me.owner || now - this.#cache.at > CLAIMS_CACHE_MS) {
      const answer = await this.#hub.claims(me.merchantId, me.userId);
      this.#cache = { user: me.owner, at: now, claims: answer.status === 200 && Array.isArray(answer.body?.claims) ? answer.body.claims : null };
    }
    return this.#cache.claims;
  }

  async #send({ op, body }) {
    const answer = await this.#hub[op](body);
    // Kept for later: no answer, the store key refused, or a hub busy or failing (408, 429, 5xx).
    // Else done, or nothing to do: no claim (404), or already settled the other way (409).
    return !answer.unreachable && ![401, 408, 429].includes(answer.status) && answer.status < 500;
  }

  // Rewrites the kept settlements with `update(kept)` (sync or async), after every change begun
  // before it: a settlement kept while a retry runs is never written over. They are kept in the
  // snapshot store as an entry of its own shape ({ snapshot, savedAt }), under a key of this kiosk.
  #change(update) {
    const key = `${SETTLEMENTS_KEY}:${this.#hub.kioskId}`;
    const run = this.#kept.then(async () => {
      let kept = [];
      try {
        const stored = (await this.#store.load(key))?.snapshot?.settlements;
        if (Array.isArray(stored)) kept = stored;
      } catch {
        // Unreadable: nothing kept (an unsettled claim expires at the hub after its time to live).
      }
      const next = await update(kept);
      if (next.length === 0 && kept.length === 0) return;
      try {
        await this.#store.save(key, { snapshot: { settlements: next }, savedAt: Date.now() });
      } catch {
        // Best effort: an unsettled claim expires at the hub after its time to live anyway.
      }
    });
    this.#kept = run.catch(() => {});
    return run;
  }
}
