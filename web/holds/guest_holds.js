// What the guest on screen has promised away, in one room: the offers of the guest's undecided
// orders (read from the outbox, the durable truth every tab and process shares), of orders billed
// with their offer since the snapshot in hand was read (until a refresh brings the service's own
// state), and of the store's live claims of other baskets (store_claims.js). The hybrid hands it to
// the order path (checkout's withheld check, the offline policy's promise) and to the snapshot's
// life cycle (derive: the snapshot its engine loads, held_snapshot.js).
//
// Local answers (sync) read the guest's orders again only when the outbox's change stamp moved,
// and the claims as last known: they never wait for the hub. A decision (withheld, promise) reads
// the guest's orders as they are now, under the guest's lock that the order path holds.
import { ownerOfSnapshot, requestOf } from '../orders/order_record.js';
import { heldPoints, heldSnapshot, experienceOf } from './held_snapshot.js';
import { pendingHolds } from './pending_holds.js';

const HOLD_CODES = new Set(['PENDING_ORDER', 'CLAIMED_ELSEWHERE']);
const keyOf = (order) => JSON.stringify([order.owner, order.basketId]);

export class GuestHolds {
  #outbox;
  #claims;
  #snapshots;
  #owner = null;
  #orders = [];
  #stamp = null;
  #billed = [];
  #liveClaims = [];
  #key = '';
  // sync() and withheld() take turns: a local answer's read of the outbox never replaces the
  // orders a checkout's decision read under the guest's lock while that decision runs.
  #turn = Promise.resolve();

  /**
   * outbox: the order outbox; claims: StoreClaims or null (no hub); snapshots: the LocalSnapshot
   * whose engine answers (its derive() is this object's).
   */
  constructor({ outbox, claims = null, snapshots }) {
    this.#outbox = outbox;
    this.#claims = claims;
    this.#snapshots = snapshots;
    this.#key = this.#keyNow(); // nothing held yet
  }

  /** The holds of the derived snapshot, as one comparable text. */
  get key() {
    return this.#key;
  }

  /** The store's claims, or null without a hub. */
  get claims() {
    return this.#claims;
  }

  /** The snapshot the engine loads: `snapshot` with every hold applied. */
  derive(snapshot) {
    return heldSnapshot(snapshot, this.#holds(null));
  }

  /**
   * Brings the holds up to date for a local answer: the guest's orders read again when the
   * outbox says they changed (or cannot say), the claims as last known; the engine reloads when
   * what is held changed. An unreadable outbox keeps the orders as last read.
   */
  sync() {
    return this.#inTurn(() => this.#sync());
  }

  async #sync() {
    const me = ownerOfSnapshot(this.#snapshots.current());
    if (me === null) return;
    try {
      const stamp = typeof this.#outbox.changeStamp === 'function' ? await this.#outbox.changeStamp(me.owner) : null;
      if (this.#owner !== me.owner || stamp === null || stamp !== this.#stamp) {
        const orders = await this.readOrders(me.owner);
        this.#orders = orders;
        this.#owner = me.owner;
        this.#stamp = stamp;
      }
    } catch {
      this.#stamp = null; // read again next time
    }
    await this.#apply(me);
  }

  /** The orders of `owner` in the outbox now (its listOwner(), else its whole list filtered). */
  async readOrders(owner) {
    if (typeof this.#outbox.listOwner === 'function') return this.#outbox.listOwner(owner);
    return (await this.#outbox.list()).filter((order) => order.owner === owner);
  }

  /**
   * Why a new order of `me` may not promise `offer` on `request` ({ kind, id, code, message }), or
   * null: the local explain on the snapshot with every hold of `orders` (the guest's orders, read
   * under the guest's lock) taken off; then, with a store hub, the claim of basket `basketId`.
   */
  async withheld({ me, orders, request, offer, basketId }) {
    // The same basket checked out again after it was billed here with this offer (a retry after
    // an abort or a reload): its own hold is no reason to withhold it; the service answers what it billed.
    if (this.#billed.some((b) => b.owner === me.owner && b.basketId === basketId && b.offer?.kind === offer.kind && b.offer?.id === offer.id)) return null;
    let local = null;
    try {
      local = await this.#inTurn(async () => {
        this.#orders = orders;
        this.#owner = me.owner;
        this.#stamp = null;
        await this.#apply(me);
        const { answer } = await this.#snapshots.localAnswer((engine) => engine.explain(request));
        const entry = answer.entries.find((e) => e.kind === offer.kind && e.id === offer.id);
        return this.#withheldBy(this.#snapshots.current(), entry, offer);
      });
    } catch (e) {
      if (this.#claims === null) throw e;
    }
    if (local !== null || this.#claims === null) return local;
    return this.#claims.claim(me, basketId, offer, this.#snapshots.current());
  }

  /**
   * The local engine's discount text for `order`'s offer when its promise is decided (the
   * offline policy), or null: on the snapshot with only what holds against it taken off (the
   * guest's other orders decided before it or queued before it: pending_holds.js; the orders
   * billed since the snapshot; other baskets' claims), read now under the guest's lock. Only
   * for an order of the guest on screen (another guest's: null).
   */
  async discountFor(order) {
    const snapshot = this.#snapshots.current();
    // Another guest's order (the replay sends every order on the device): not this snapshot's guest, nothing promised.
    if (snapshot === null || order.offer === null || ownerOfSnapshot(snapshot)?.owner !== order.owner) return null;
    const orders = await this.readOrders(order.owner);
    const derived = heldSnapshot(snapshot, this.#holds(order, orders));
    return this.#snapshots.discountOn(derived, requestOf(order), order.offer);
  }

  /** An order was decided: billed with its offer, it stays held until the service's snapshot after it is in hand. */
  settled(order, outcome) {
    this.#stamp = null; // the outbox changed
    if (outcome.status === 'billed' && order.offer && !order.derivedFrom) this.#billed.push(order);
    this.#claims?.settle(order, outcome, ownerOfSnapshot(this.#snapshots.current())).catch(() => {});
  }

  /** How many billed orders are held now: refreshed(mark) forgets those, once a refresh started after them is in hand. */
  mark() {
    return this.#billed.length;
  }

  /**
   * A snapshot read after the first `mark` billings is in hand, generated at `generatedAt` (the
   * service's clock) by a read that started at `readStartedAt` (this device's): those billings
   * are in it, and the claims they spent get that time.
   */
  refreshed(mark, generatedAt, readStartedAt) {
    this.#billed = this.#billed.slice(mark);
    this.#claims?.serviceTime(generatedAt, readStartedAt, ownerOfSnapshot(this.#snapshots.current()));
  }

  /** { pendingOrders, billedSinceSnapshot, claims } as last read (claims: null without a hub). */
  diagnostics() {
    const me = ownerOfSnapshot(this.#snapshots.current());
    return {
      pendingOrders: this.#owner === me?.owner ? this.#orders.length : 0,
      billedSinceSnapshot: this.#billed.length,
      claims: this.#claims === null ? null : this.#claims.diagnostics(me),
    };
  }

  // fn() once every earlier turn ended; its result.
  #inTurn(fn) {
    const run = this.#turn.then(fn);
    this.#turn = run.catch(() => {});
    return run;
  }

  // The claims as last known, then the engine reloaded when what is held changed.
  async #apply(me) {
    if (this.#claims !== null) this.#liveClaims = this.#claims.cached(me) ?? [];
    const key = this.#keyNow();
    if (key !== this.#key) {
      this.#key = key;
      await this.#snapshots.rederive();
    }
  }

  // The holds counted against `order` (null: a new order, or the local answers): pending orders
  // of the guest (`orders`, default as last read), billed ones, and other baskets' live claims.
  #holds(order = null, orders = this.#orders) {
    const mine = pendingHolds(orders, order);
    // A billed order always holds (it redeemed), unless it is still listed (removed a moment later).
    const listedKeys = new Set(orders.map(keyOf));
    const billed = pendingHolds(this.#billed.filter((b) => !listedKeys.has(keyOf(b)) && (order === null || keyOf(b) !== keyOf(order))));
    // Claims of other baskets: another kiosk's, or this one's for orders already settled.
    const own = new Set([...this.#billed, ...orders].map((o) => o.basketId));
    if (order !== null) own.add(order.basketId);
    const asOf = Date.parse(this.#snapshots.current()?.generated_at ?? '') || 0;
    const claimedRewards = [];
    const claimedPoints = {};
    for (const claim of this.#liveClaims) {
      if (own.has(claim.basket_id)) continue;
      if (claim.state === 'spent' && claim.billed_at && Date.parse(claim.billed_at) <= asOf) continue; // the snapshot shows it
      if (claim.reward_id) claimedRewards.push(claim.reward_id);
      else if (claim.points_experience_id) claimedPoints[claim.points_experience_id] = (claimedPoints[claim.points_experience_id] ?? 0) + (Number(claim.points) || 0);
    }
    return {
      rewards: [...mine.rewards, ...billed.rewards],
      pointsProducts: [...mine.pointsProducts, ...billed.pointsProducts],
      claimedRewards,
      claimedPoints,
    };
  }

  #keyNow() {
    const { rewards, pointsProducts, claimedRewards, claimedPoints } = this.#holds();
    return JSON.stringify([[...rewards].sort(), [...pointsProducts].sort(), [...claimedRewards].sort(), Object.entries(claimedPoints).sort()]);
  }

  // Why `offer` may not be promised, from its explain `entry` on the derived snapshot, or null: a
  // held reward, or points that the holds leave short.
  #withheldBy(snapshot, entry, offer) {
    if (!entry || entry.qualifies) return null;
    const reason = entry.reasons.find((r) => HOLD_CODES.has(r.code));
    if (reason) return { kind: offer.kind, id: offer.id, code: reason.code, message: reason.message };
    const short = entry.reasons.find((r) => r.code === 'INSUFFICIENT_POINTS');
    if (!short || offer.kind !== 'points_product') return null;
    const product = (snapshot.points_products ?? []).find((p) => p?.id === offer.id);
    if (!(heldPoints(snapshot, this.#holds())[experienceOf(snapshot, product)] > 0)) return null;
    return { kind: offer.kind, id: offer.id, code: short.code, message: `${short.message} (points are held by orders not confirmed yet)` };
  }
}
