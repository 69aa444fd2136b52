// What the guest on screen has promised away, in one room: the offers of the guest's undecided
// orders (read from the outbox, the durable truth every tab and process shares; with them the
// orders queued before the account was read with this client's credentials), of the guest's orders
// billed with their offer that the snapshot in hand does not show yet (the outbox's billing
// records, billed_holds.js), and of the store's live claims of other baskets (store_claims.js).
// The hybrid hands it to the order path (checkout's withheld check, the offline policy's promise,
// the billing record of an order billed with its offer) and to the snapshot's life cycle (derive:
// the snapshot its engine loads, held_snapshot.js; beforeRead/afterRead around each account read).
//
// Local answers (sync) read the guest's orders again only when the outbox's change stamp moved,
// and the claims as last known: they never wait for the hub. A decision (withheld, promise) reads
// the guest's orders as they are now, under the guest's lock that the order path holds.
import { isGuestsOrder, mergedOrders, ownerOfSnapshot, requestOf, unresolvedOwnersOf } from '../orders/order_record.js';
import { BilledHolds, billedAtOf, holdsAgainstSnapshot, saidToTheSecond } from './billed_holds.js';
import { heldPoints, heldSnapshot, experienceOf } from './held_snapshot.js';
import { pendingHolds } from './pending_holds.js';

const HOLD_CODES = new Set(['PENDING_ORDER', 'CLAIMED_ELSEWHERE']);
const recordKey = (record) => JSON.stringify([record.owner, record.basketId]);

export class GuestHolds {
  #outbox;
  #claims;
  #snapshots;
  #guest;
  #billedHolds;
  #owner = null;
  #orders = [];
  #billed = [];
  #stamp = null;
  #liveClaims = [];
  // Snapshot -> keys of the billing records that existed when the read of that snapshot started.
  #shownBy = new WeakMap();
  // Snapshot -> the latest service time a read confirmed it unchanged at (a 304's Date), in ms.
  #confirmedAt = new WeakMap();
  // Snapshot -> basket ids of other kiosks' claims known spent when a read of it started.
  #spentShownBy = new WeakMap();
  #key = '';
  // sync() and withheld() take turns: a local answer's read of the outbox never replaces the
  // orders a checkout's decision read under the guest's lock while that decision runs.
  #turn = Promise.resolve();
  // { key, owners } of the on-screen client's credentials last seen: the owners of the orders
  // queued before an account was read that may be this guest's (unresolvedOwnersOf).
  #unresolved = null;

  /**
   * outbox: the order outbox; claims: StoreClaims or null (no hub); snapshots: the LocalSnapshot
   * whose engine answers (its derive() is this object's); guest: the OrderGuest whose credentials
   * tell which orders queued before the account was read are this guest's (null: none are).
   */
  constructor({ outbox, claims = null, snapshots, guest = null }) {
    this.#outbox = outbox;
    this.#claims = claims;
    this.#snapshots = snapshots;
    this.#guest = guest;
    this.#billedHolds = new BilledHolds({ outbox, keptMs: () => snapshots.maxStaleMs });
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
    const { orders, billed } = this.#lastRead(snapshot);
    return heldSnapshot(snapshot, this.#holds(null, orders, billed, snapshot));
  }

  // The orders and billing records last read, when they are of `snapshot`'s guest (else none yet).
  #lastRead(snapshot) {
    const mine = this.#owner !== null && ownerOfSnapshot(snapshot)?.owner === this.#owner;
    return mine ? { orders: this.#orders, billed: this.#billed } : { orders: [], billed: [] };
  }

  /**
   * Brings the holds up to date for a local answer: the guest's orders and billing records read
   * again when the outbox says they changed (or cannot say), the claims as last known; the engine
   * reloads when what is held changed. An unreadable outbox keeps them as last read.
   */
  sync() {
    return this.#inTurn(() => this.#sync());
  }

  async #sync() {
    const me = ownerOfSnapshot(this.#snapshots.current());
    if (me === null) return;
    try {
      const stamp = await this.#stampOf(me);
      if (this.#owner !== me.owner || stamp === null || stamp !== this.#stamp) {
        const { orders, billed } = await this.#read(me);
        this.#orders = orders;
        this.#billed = billed;
        this.#owner = me.owner;
        this.#stamp = stamp;
      }
    } catch {
      this.#stamp = null; // read again next time
    }
    await this.#apply(me);
  }

  // The change stamps of the guest's orders and of those queued before an account was read, or
  // null when the outbox cannot say.
  async #stampOf(me) {
    if (typeof this.#outbox.changeStamp !== 'function') return null;
    // The credentials last seen (a new token is a new guest: the snapshot's owner changes first).
    const owners = this.#unresolved?.owners ?? (await this.#unresolvedOwners((await this.#guest?.credentials()) ?? null));
    const stamps = await Promise.all([me.owner, ...owners].map((owner) => this.#outbox.changeStamp(owner)));
    return stamps.includes(null) ? null : JSON.stringify(stamps);
  }

  // The owners of the orders queued before an account was read with `credentials` (kept per credentials).
  async #unresolvedOwners(credentials) {
    const key = credentials === null ? 'none' : JSON.stringify([credentials.merchantKey, credentials.accessToken]);
    if (this.#unresolved?.key !== key) this.#unresolved = { key, owners: await unresolvedOwnersOf(credentials) };
    return this.#unresolved.owners;
  }

  /**
   * The orders that may be the guest's (`owner`: theirs, or the unknown owner of orders placed
   * with `credentials`): `owner`'s, and those queued before an account was read with these
   * credentials (and earlier versions' of unknown owner; the caller keeps isGuestsOrder()'s), one
   * guest's reads, never the whole outbox. Those of unknown owner are read first: an order adopted
   * meanwhile (written under its guest, then removed from them) is read at least once.
   */
  async readGuestOrders(owner, me, credentials) {
    const others = (await this.#unresolvedOwners(credentials)).filter((o) => o !== owner);
    const unresolved = (await Promise.all(others.map((o) => this.readOrders(o)))).flat();
    return mergedOrders(unresolved, await this.readOrders(owner));
  }

  /** The orders of `owner` in the outbox now (its listOwner(), else its whole list filtered). */
  async readOrders(owner) {
    if (typeof this.#outbox.listOwner === 'function') return this.#outbox.listOwner(owner);
    return (await this.#outbox.list()).filter((order) => order.owner === owner);
  }

  /**
   * What `me` has in the outbox now: { orders: undecided, oldest first; billed: billing records }:
   * the guest's own (`orders` when given: read under the guest's lock), and those queued before
   * the account was read with the on-screen client's merchant key and token.
   */
  async #read(me, { orders = null } = {}) {
    const credentials = (await this.#guest?.credentials()) ?? null;
    const owners = await this.#unresolvedOwners(credentials);
    const mine = (entry) => isGuestsOrder(entry, me, credentials);
    const [guestOrders, billed, billedUnresolved] = await Promise.all([
      orders ?? this.readGuestOrders(me.owner, me, credentials),
      this.#billedHolds.read(me.owner),
      Promise.all(owners.map((o) => this.#billedHolds.read(o))).then((lists) => lists.flat()),
    ]);
    return { orders: guestOrders.filter(mine), billed: [...billed, ...billedUnresolved.filter(mine)] };
  }

  /**
   * Why a new order of `me` may not promise `offer` on `request` ({ kind, id, code, message }), or
   * null: the local explain on the snapshot with every hold of `orders` (the guest's undecided
   * orders, read under the guest's lock) and of the guest's billing records taken off; then, with
   * a store hub, the claim of basket `basketId`.
   */
  async withheld({ me, orders, request, offer, basketId }) {
    // The same basket checked out again after it was billed here with this offer (a retry after
    // an abort or a reload): its own hold is no reason to withhold it; the service answers what it billed.
    if (this.#billed.some((b) => b.owner === me.owner && b.basketId === basketId && b.offer?.kind === offer.kind && b.offer?.id === offer.id)) return null;
    let local = null;
    try {
      local = await this.#inTurn(async () => {
        const read = await this.#read(me, { orders });
        this.#orders = read.orders;
        this.#billed = read.billed;
        this.#owner = me.owner;
        this.#stamp = null;
        await this.#apply(me);
        // This very basket billed with this offer (checked out again: a retry after a reload): its
        // own record is no reason to withhold it, the service answers what it billed.
        if (read.billed.some((r) => r.basketId === basketId && r.offer.kind === offer.kind && r.offer.id === offer.id)) return null;
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
   * billed that the snapshot does not show; other baskets' claims), read now under the guest's
   * lock. Only for an order of the guest on screen (another guest's: null).
   */
  async discountFor(order) {
    const snapshot = this.#snapshots.current();
    const me = ownerOfSnapshot(snapshot);
    // Another guest's order (the replay sends every order on the device): not this snapshot's guest, nothing promised.
    if (snapshot === null || order.offer === null || me?.owner !== order.owner) return null;
    const { orders, billed } = await this.#read(me);
    const derived = heldSnapshot(snapshot, this.#holds(order, orders, billed, snapshot));
    return this.#snapshots.discountOn(derived, requestOf(order), order.offer);
  }

  /**
   * `order` was billed: with its offer, its billing record is written (before the order leaves
   * the outbox), so that every tab and process on the outbox holds the offer until its snapshot
   * shows the billing.
   */
  async billed(order, outcome) {
    if (outcome.status !== 'billed' || !order.offer || order.derivedFrom) return;
    const record = await this.#billedHolds.keep(order);
    // Known at once to the next read of the account (beforeRead), whatever sync() read last.
    if (record.owner === this.#owner) this.#billed = [...this.#billed.filter((r) => r.basketId !== record.basketId), record];
  }

  /** An order was decided: the outbox changed, and with a store hub its claim is settled. */
  settled(order, outcome) {
    this.#stamp = null; // the outbox changed
    this.#claims?.settle(order, outcome, ownerOfSnapshot(this.#snapshots.current())).catch(() => {});
  }

  /**
   * Before an account read of the guest in hand: which of the guest's billing records, as last
   * read (or kept here since), have no billing time yet (the read will bound it: they exist
   * before it starts), and when the read starts (`startedAt`, the hybrid's clock). Reads nothing:
   * a record it does not know of yet keeps holding until a later read.
   */
  beforeRead(startedAt) {
    const me = ownerOfSnapshot(this.#snapshots.current());
    const records = me !== null && me.owner === this.#owner ? this.#billed : [];
    // Claims spent before the read starts were billed before it: the read shows them, whatever its time says.
    const spent = this.#liveClaims.filter((claim) => claim.state === 'spent').map((claim) => claim.basket_id);
    return { me, startedAt, keys: records.map(recordKey), spent, unresolved: this.#billedHolds.unresolved(records) };
  }

  /**
   * The read `mark` (beforeRead's) answered `snapshot`, generated at its generated_at on the
   * service's clock: the billings before the read are in it, so that time (billedAtOf: the last
   * millisecond of its second when it is an HTTP Date) is their billing time, in the outbox's
   * records and for the claims they spent at a store hub. `confirmedAt` (a 304's servedAt, RFC
   * 3339): the account was still that snapshot at that service time, so another kiosk's spend
   * billed before it is in it too. Never rejects.
   */
  async afterRead(mark, snapshot, confirmedAt = null) {
    if (mark.me === null || ownerOfSnapshot(snapshot)?.owner !== mark.me.owner) return;
    // A Date is said to the second: the start of that second is a time the answer came after.
    const confirmed = Date.parse(confirmedAt ?? '');
    if (Number.isFinite(confirmed) && confirmed > (this.#confirmedAt.get(snapshot) ?? 0)) this.#confirmedAt.set(snapshot, confirmed);
    // This very snapshot was read after those records were written: it shows their billings,
    // whatever its time says (said to the second, it could not tell).
    this.#shownBy.set(snapshot, new Set([...(this.#shownBy.get(snapshot) ?? []), ...mark.keys]));
    this.#spentShownBy.set(snapshot, new Set([...(this.#spentShownBy.get(snapshot) ?? []), ...(mark.spent ?? [])]));
    const generatedAt = snapshot?.generated_at ?? null;
    // A 'loyalty-api' snapshot's time is its answer's HTTP Date: a whole second.
    const toTheSecond = this.#snapshots.timesToTheSecond && saidToTheSecond(generatedAt);
    await this.#billedHolds.resolve(mark.unresolved, generatedAt, { toTheSecond }).catch(() => {});
    this.#billedHolds.forgetShown(snapshot);
    this.#stamp = null; // records changed
    this.#claims?.serviceTime(billedAtOf(generatedAt, { toTheSecond }), mark.startedAt, mark.me).catch(() => {});
  }

  /** { pendingOrders, billedSinceSnapshot, claims } as last read (claims: null without a hub). */
  diagnostics() {
    const snapshot = this.#snapshots.current();
    const me = ownerOfSnapshot(snapshot);
    const mine = this.#owner === me?.owner;
    return {
      pendingOrders: mine ? this.#orders.length : 0,
      billedSinceSnapshot: mine ? this.#billed.filter((r) => !this.#shownBy.get(snapshot)?.has(recordKey(r)) && holdsAgainstSnapshot(r, snapshot)).length : 0,
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

  // The holds counted against `order` (null: a new order, or the local answers) on `snapshot`:
  // the guest's undecided `orders`, the `billed` records the snapshot does not show, and other
  // baskets' live claims.
  #holds(order, orders, billed, snapshot) {
    const mine = pendingHolds(orders, order);
    // A billed order's record holds, unless the order is still listed (removed a moment later).
    const listed = new Set(orders.map((o) => o.basketId));
    const readAfter = (snapshot && this.#shownBy.get(snapshot)) ?? new Set();
    const shown = billed.filter((r) => !listed.has(r.basketId) && r.basketId !== order?.basketId && !readAfter.has(recordKey(r)) && holdsAgainstSnapshot(r, snapshot));
    const billedHolds = pendingHolds(shown.map((r) => ({ basketId: r.basketId, offer: r.offer, policyApplied: true })));
    // Claims of other baskets: another kiosk's, or this one's for orders already settled.
    const own = new Set([...billed, ...orders].map((o) => o.basketId));
    if (order !== null) own.add(order.basketId);
    const spentShown = (snapshot && this.#spentShownBy.get(snapshot)) ?? new Set();
    const asOf = Math.max(Date.parse(snapshot?.generated_at ?? '') || 0, (snapshot && this.#confirmedAt.get(snapshot)) || 0);
    const claimedRewards = [];
    const claimedPoints = {};
    for (const claim of this.#liveClaims) {
      if (own.has(claim.basket_id)) continue;
      // The snapshot shows it: billed before its time, or spent before a read of it started.
      if (claim.state === 'spent' && ((claim.billed_at && Date.parse(claim.billed_at) <= asOf) || spentShown.has(claim.basket_id))) continue;
      if (claim.reward_id) claimedRewards.push(claim.reward_id);
      else if (claim.points_experience_id) claimedPoints[claim.points_experience_id] = (claimedPoints[claim.points_experience_id] ?? 0) + (Number(claim.points) || 0);
    }
    return {
      rewards: [...mine.rewards, ...billedHolds.rewards],
      pointsProducts: [...mine.pointsProducts, ...billedHolds.pointsProducts],
      claimedRewards,
      claimedPoints,
    };
  }

  #keyNow() {
    const snapshot = this.#snapshots.current();
    const { orders, billed } = this.#lastRead(snapshot);
    const { rewards, pointsProducts, claimedRewards, claimedPoints } = this.#holds(null, orders, billed, snapshot);
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
    if (!(heldPoints(snapshot, this.#holds(null, this.#orders, this.#billed, snapshot))[experienceOf(snapshot, product)] > 0)) return null;
    return { kind: offer.kind, id: offer.id, code: short.code, message: `${short.message} (points are held by orders not confirmed yet)` };
  }
}
