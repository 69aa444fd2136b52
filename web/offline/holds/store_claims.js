// A kiosk's side of the store hub (docs/hub.md): with a hub, every redemption holds a claim first,
// online or not; a claim refused, or a hub that cannot be reached or refuses the kiosk, means the
// offer is not promised (`withheld`). Settling an order releases its claim (refused, or billed
// without the offer) or spends it (billed with it, with the loyalty service's time of a read made
// after the billing); a settlement the hub does not take is kept (kept_settlements.js) and sent
// again later. The guest's live claims are known from the last answer, refreshed in the
// background: a slow or stopped hub never delays a local answer. An EventTarget: 'change' when an
// answer brings live claims other than those known (the hybrid then takes them off its snapshot).
import { experienceOf } from './held_snapshot.js';

// Live claims older than this are asked for again (in the background) at the next look.
const CLAIMS_FRESH_MS = 2_000;
// A spend waits at most this long (this device's clock, from when it was kept) for the service's
// time of a read of its guest's account; then it is sent at the hub's time of receipt, so that a
// guest who left (their hybrid disposed, their account never read again here) keeps no claim held.
export const SERVICE_TIME_WAIT_MS = 60_000;
// A claim held by one of these was never granted to this basket: nothing to settle.
const NOT_CLAIMED = new Set(['PENDING_ORDER', 'CLAIMED_ELSEWHERE', 'INSUFFICIENT_POINTS']);

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

// Whether the hub took a settlement: done, or nothing to do (no claim: 404; settled the other way:
// 409). Kept for later: no answer, the store key refused, or a hub busy or failing (408, 429, 5xx).
const taken = (answer) => !answer.unreachable && ![401, 408, 429].includes(answer.status) && answer.status < 500;

const basketBody = (order) => ({ merchant_id: order.merchantId, user_id: order.userId, basket_id: order.derivedFrom?.basketId ?? order.basketId });
const basketKey = (c) => JSON.stringify([c.merchant_id, c.user_id, c.basket_id]);

export class StoreClaims extends EventTarget {
  #hub;
  #kept;
  #now;
  #live = null; // { owner, at, claims, truncated } of the last answer
  #stale = false;
  #fetching = null;
  #lastError = null;
  #retrying = null;
  #again = false;
  // Baskets whose claims this kiosk gave back -> null while the hub may not know yet, else how many
  // requests for the live claims had started when the hub took it: never counted here until an
  // answer to a request started later (one that knows) replaces the claims in hand.
  #givenBack = new Map();
  #asks = 0;
  // The spends being kept: serviceTime() waits for them (a read after the billing finds them kept).
  #keeping = Promise.resolve();
  // Sends the spends that waited SERVICE_TIME_WAIT_MS for the service's time (until dispose()).
  #waitTimer = null;
  #disposed = false;

  /** hub: a StoreHubClient; kept: KeptSettlements; now: the clock of ages (epoch ms). */
  constructor({ hub, kept, now = Date.now }) {
    super();
    this.#hub = hub;
    this.#kept = kept;
    this.#now = now;
  }

  /**
   * Claims `offer` for basket `basketId` of `me` ({ merchantId, userId }), pricing a points product
   * from `snapshot` (the service's, whose generated_at is when it computed the balance): null when
   * granted, else the withheld offer.
   */
  async claim(me, basketId, offer, snapshot) {
    const body = { merchant_id: me.merchantId, user_id: me.userId, basket_id: basketId };
    if (offer.kind === 'reward') {
      body.reward_id = offer.id;
    } else {
      if (typeof snapshot?.generated_at !== 'string') {
        const message = 'Not redeemed: the account snapshot does not say when the loyalty service computed its balance (generated_at), so its points cannot be claimed and no offer is promised.';
        return { kind: offer.kind, id: offer.id, code: 'HUB_REFUSED', message };
      }
      const product = (snapshot.points_products ?? []).find((p) => p?.id === offer.id);
      const experience = experienceOf(snapshot, product);
      const balance = (snapshot.points ?? []).find((p) => p?.points_experience_id === experience)?.balance;
      Object.assign(body, {
        points_product_id: offer.id,
        points: Math.max(1, points(product?.points)),
        points_experience_id: experience,
        balance: Math.max(0, Math.trunc(points(balance))),
        balance_as_of: snapshot.generated_at, // the service's time, never this kiosk's clock
      });
    }
    const answer = await this.#hub.claim(body);
    this.#stale = true;
    const state = answer.body?.claim?.state;
    if ((answer.status === 200 || answer.status === 201) && (state === 'held' || state === 'spent')) return null;
    return refusal(offer, answer);
  }

  /**
   * The claim of `order`'s basket, whose offer it carried or asked for, is given back: released
   * now (an order refused, billed without the offer, or never placed), kept when the hub does not
   * take it. A claim that a hold refused was never granted: nothing to do.
   */
  async release(order) {
    if (!order.requestedOffer || !order.merchantId || !order.userId || NOT_CLAIMED.has(order.withheld?.code)) return;
    await this.#settleNow({ op: 'release', body: basketBody(order), keptAt: this.#now() });
  }

  /**
   * The order settled: billed with its offer, its claim is spent, once the service's time of a
   * read of its guest's account made after the billing is known (serviceTime(); kept durably
   * meanwhile); else released. `me`: the guest whose account this kiosk reads ({ merchantId,
   * userId } or null); another guest's order (the replay sends every order on the device) is
   * spent at once at the hub's own time of receipt, this kiosk reading no account of theirs.
   */
  async settle(order, outcome, me = null) {
    if (!order.requestedOffer || !order.merchantId || !order.userId || NOT_CLAIMED.has(order.withheld?.code)) return;
    if (outcome.status === 'billed' && order.offer && !order.derivedFrom) {
      if (me?.merchantId !== order.merchantId || me?.userId !== order.userId) {
        await this.#settleNow({ op: 'spend', body: basketBody(order), keptAt: this.#now(), billedAt: undefined });
        return;
      }
      const kept = this.#kept.keep({ op: 'spend', body: basketBody(order), keptAt: this.#now(), billedAt: null }).catch(() => {});
      this.#keeping = this.#keeping.then(() => kept);
      this.#stale = true;
      await kept;
      // No read of the guest's account within the wait (the service down, the guest gone): sent anyway.
      clearTimeout(this.#waitTimer);
      this.#waitTimer = setTimeout(() => this.retry(), SERVICE_TIME_WAIT_MS + 1);
      this.#waitTimer.unref?.();
      return;
    }
    await this.release(order);
  }

  /**
   * A read of the account of `me` ({ merchantId, userId }) that started at `readStartedAt` (this
   * device's clock) answered a snapshot generated at `generatedAt` (the service's clock, or null
   * when it does not say): every spend of that guest kept before that read was billed before the
   * service computed it, so generatedAt is its billed_at (without one, the hub's own time). Then
   * the kept settlements are sent.
   */
  async serviceTime(generatedAt, readStartedAt, me) {
    await this.#keeping;
    try {
      for (const { settlement } of await this.#kept.list()) {
        if (settlement.op !== 'spend' || settlement.billedAt !== null || !(settlement.keptAt <= readStartedAt)) continue;
        if (settlement.body.merchant_id !== me?.merchantId || settlement.body.user_id !== me?.userId) continue;
        await this.#kept.keep({ ...settlement, billedAt: typeof generatedAt === 'string' ? generatedAt : undefined });
      }
    } catch {
      // Unreadable now: the next read tries again.
    }
    return this.retry();
  }

  /** Sends the kept settlements whose billing time is known (in the background; one run at a time, again when asked meanwhile). */
  retry() {
    if (this.#retrying !== null) {
      this.#again = true;
      return this.#retrying;
    }
    this.#retrying = (async () => {
      do {
        this.#again = false;
        for (const { key, settlement } of await this.#kept.list()) {
          if (this.#disposed) return; // a disposed hybrid sends nothing more: the next one will
          // Waits for the service's time, at most SERVICE_TIME_WAIT_MS; then the hub's time of receipt.
          const waiting = settlement.op === 'spend' && settlement.billedAt === null && Number.isFinite(settlement.keptAt) && this.#now() - settlement.keptAt < SERVICE_TIME_WAIT_MS;
          if (waiting) continue;
          if (settlement.op === 'release') this.#givenBack.set(basketKey(settlement.body), null);
          if (!taken(await this.#send(settlement))) continue;
          await this.#kept.forget(key);
          this.#tookBack(settlement);
        }
      } while (this.#again);
    })()
      .catch(() => {})
      .finally(() => {
        this.#retrying = null;
      });
    return this.#retrying;
  }

  /**
   * The hybrid is disposed: stops the timer of the spends waiting for the service's time, and a
   * run of retry() in progress sends nothing more (they stay kept for the next hybrid).
   */
  dispose() {
    this.#disposed = true;
    clearTimeout(this.#waitTimer);
    this.#waitTimer = null;
  }

  /**
   * The guest's live claims at the hub as last known (`me`: { owner, merchantId, userId }), at
   * once; null when none is known yet. Asked again in the background when older than 2 s (or
   * changed by this kiosk since), one request at a time, bounded by the hub's timeoutMs.
   */
  cached(me) {
    const mine = this.#live?.owner === me.owner;
    if (!mine || this.#stale || this.#now() - this.#live.at > CLAIMS_FRESH_MS) this.#refresh(me);
    if (!mine) return null;
    return this.#givenBack.size === 0 ? this.#live.claims : this.#live.claims.filter((c) => !this.#givenBack.has(basketKey(c)));
  }

  /** { ageMs, refreshing, truncated, lastError } of the live claims (ageMs null: none known yet). */
  diagnostics(me) {
    const mine = me !== null && this.#live?.owner === me.owner;
    return {
      ageMs: mine ? this.#now() - this.#live.at : null,
      refreshing: this.#fetching !== null,
      truncated: mine ? this.#live.truncated : false,
      lastError: this.#lastError,
    };
  }

  #refresh(me) {
    if (this.#fetching !== null) return;
    this.#stale = false;
    const askedAt = this.#now();
    const ask = ++this.#asks;
    this.#fetching = this.#hub
      .claims(me.merchantId, me.userId)
      .then((answer) => {
        if (answer.status === 200 && Array.isArray(answer.body?.claims)) {
          const changed = this.#live?.owner !== me.owner || JSON.stringify(this.#live.claims) !== JSON.stringify(answer.body.claims);
          this.#live = { owner: me.owner, at: askedAt, claims: answer.body.claims, truncated: answer.body.truncated === true };
          // Releases the hub took before this request was sent: its answer knows them.
          for (const [basket, takenBy] of this.#givenBack) if (takenBy !== null && takenBy < ask) this.#givenBack.delete(basket);
          this.#lastError = null;
          if (changed) this.dispatchEvent(new Event('change'));
        } else {
          // The last claims known stay in use (their age says how old they are).
          this.#lastError = answer.message ?? `the store hub answered ${answer.status}: ${answer.body?.message ?? 'no message'}`;
        }
      })
      .finally(() => {
        this.#fetching = null;
      });
  }

  async #settleNow(settlement) {
    this.#stale = true;
    // Given back: this kiosk's local answers stop counting it at once, whenever the hub hears of it.
    if (settlement.op === 'release') this.#givenBack.set(basketKey(settlement.body), null);
    if (taken(await this.#send(settlement))) {
      this.#tookBack(settlement);
      return;
    }
    await this.#kept.keep(settlement).catch(() => {}); // best effort: an unsettled claim expires after its TTL anyway
  }

  // The hub took the release `settlement`: the claims asked for from now on know it.
  #tookBack(settlement) {
    if (settlement.op === 'release') this.#givenBack.set(basketKey(settlement.body), this.#asks);
  }

  #send({ op, body, billedAt }) {
    return op === 'spend' ? this.#hub.spend(billedAt ? { ...body, billed_at: billedAt } : body) : this.#hub.release(body);
  }
}
