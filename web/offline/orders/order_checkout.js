// Checkout that is safe to retry: every order gets one basket id, is written to a durable outbox
// before it is sent, and stays there until the service decides it (order_replay.js sends it, now
// and until it is 'billed' or 'refused'; the service treats a repeated id as the same basket: a
// billed basket answers with what it billed and is never billed again). Once durably queued,
// checkout never rejects. Whose order it is and which client replays it come from an OrderGuest;
// what the guest has promised away from the GuestHolds handed in (web/offline/holds/). The whole
// decision is taken under the guest's lock, against the guest's orders as the outbox holds them
// at that moment: every tab and process on one outbox decides alike. An aborted options.signal
// places nothing when it comes before the order is written, and takes nothing back after.
// HybridQualifier owns one OrderCheckout (internal module).
import { QualifyError } from '../../engine/qualify_error.js';
import { sameJson } from '../storage/json_equality.js';
import { checkBasketId, newBasketId } from './basket_id.js';
import { recordFirstAttempt } from './order_attempt.js';
import { basketIdInUse, describeError, notPlaced, ownerUnknown, queuedOutcome } from './order_outcome.js';
import { OrderReplay } from './order_replay.js';
import { billingBody, checkOffer, checkRequest, isGuestsOrder, newOrder, requestOf, unresolvedOwnerOf, withholdOffer } from './order_record.js';

// Whether the guest's lock is no longer this checkout's (a lease that cannot be read counts as lost).
const leaseLost = async (lease) => !(await lease.held().catch(() => false));

export class OrderCheckout {
  #outbox;
  #guest;
  #holds;
  #storeCredentials;
  #replay;

  /**
   * outbox: an order outbox; guest: an OrderGuest (the guest on screen, their client); holds: the
   * guest's GuestHolds (web/offline/holds/: the withheld check, the offline policy's discount, the claims
   * of a store hub); policy: offlinePolicy(); onOrderSettled(order, outcome) or null;
   * storeCredentials: whether an order keeps the credentials it was placed with; backoff:
   * RetryBackoff options.
   */
  constructor({ outbox, guest, holds, policy, onOrderSettled, storeCredentials = true, backoff }) {
    this.#outbox = outbox;
    this.#guest = guest;
    this.#holds = holds;
    this.#storeCredentials = storeCredentials;
    this.#replay = new OrderReplay({ outbox, guest, holds, policy, onOrderSettled, storeCredentials, backoff });
  }

  /** Replays what an earlier run left (start-up), and again whenever the browser is back online. */
  start() {
    this.#replay.start();
  }

  dispose() {
    this.#replay.dispose();
  }

  async checkout(request, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('checkout options must be an object');
    if (typeof this.#guest.client.saveBasket !== 'function') {
      throw new TypeError('checkout needs a client with saveBasket(body) (a LoyaltyClient)');
    }
    const body = checkRequest(request);
    const offer = checkOffer(options.offer);
    const basketId = checkBasketId(options.basketId) ?? (await newBasketId());
    const me = await this.#guest.identify();
    // No token now: the order is replayed by its guest's client.
    const credentials = this.#storeCredentials ? await this.#guest.credentials() : null;
    if (me === null && credentials === null) throw ownerUnknown();
    // Not known yet: kept with the orders placed with the same merchant key and token.
    const owner = me?.owner ?? (await unresolvedOwnerOf(credentials));
    let placed = { again: true };
    // Decided again (at most twice more) when the lock was lost before the order was written.
    for (let tries = 0; placed.again && tries < 3; ++tries) placed = await this.#place({ owner, me, credentials, body, offer, basketId, options });
    if (placed.again) throw notPlaced(new Error('the lock of the guest\'s orders was lost three times while checkout decided'));
    if (placed.written) return this.#decideAgain(placed.written, { me, credentials, offer });
    return placed.outcome ?? this.#replay.one(placed.existing);
  }

  // One decision under the guest's lock: { outcome } once the order is written and decided,
  // { existing } for a pending order of another owner with this basket id, { written } when the
  // lock was lost after the write, { again } when it was lost before.
  async #place({ owner, me, credentials, body, offer, basketId, options }) {
    const taking = this.#replay.exclusive(owner, async (lease) => {
      if (options.signal?.aborted) throw options.signal.reason; // aborted while it waited for the lock
      let orders;
      let existing;
      try {
        ({ orders, existing } = await this.#ownOrders(owner, basketId, me, credentials));
      } catch (e) {
        throw notPlaced(e);
      }
      if (existing) {
        const existingOffer = existing.derivedFrom ? existing.derivedFrom.offer : existing.requestedOffer ?? null;
        if (!sameJson(requestOf(existing), body) || !sameJson(existingOffer ?? null, offer)) throw basketIdInUse(basketId);
        // Stored under another owner (queued before the account was read): its own guest's turn.
        if (existing.owner !== owner) return { existing };
        return { outcome: await this.#decideQuietly(existing, lease, false) };
      }
      // An offer already held (by a pending order, or at another kiosk) is not promised: the
      // order is placed without it, at full price, and its outcome says why (`withheld`).
      const withheld = offer === null ? null : await this.#withheld({ me, orders, request: body, offer, basketId });
      const order = newOrder({ owner: me, unresolvedOwner: owner, basketId, request: body, offer: withheld ? null : offer, replay: credentials });
      if (withheld) withholdOffer(order, offer, withheld);
      // Written once, with the attempt it is about to get: the send needs no second write.
      recordFirstAttempt(order);
      if (options.signal?.aborted) {
        // Aborted before it was written: nothing placed, a claim made for it given back.
        await this.#holds.claims?.release(order).catch(() => {});
        throw options.signal.reason;
      }
      // The lock lost while it decided (this process stopped past its lease): another holder may
      // have promised the same offer meanwhile. Nothing written yet: decided again from the start.
      if (order.offer !== null && (await leaseLost(lease))) {
        await this.#holds.claims?.release(order).catch(() => {});
        return { again: true };
      }
      try {
        // Written before it is sent: from now on it is never lost, whatever happens to the answer.
        await this.#outbox.put(order);
      } catch (e) {
        // Not placed: a claim made for it is given back before checkout() says so.
        await this.#holds.claims?.release(order).catch(() => {});
        throw notPlaced(e);
      }
      // Durably queued: from here on checkout never rejects (a failure is a 'queued' outcome).
      // The lock lost while the order was written (this process stopped past its lease): another
      // holder may have promised the same offer meanwhile. Decided again under the lock first.
      if (order.offer !== null && (await leaseLost(lease))) return { written: order };
      return { outcome: await this.#decideQuietly(order, lease, true) };
    });
    // The lock itself could not be taken (its folder unwritable, full): nothing placed.
    return taking.catch((e) => {
      throw e instanceof QualifyError || (options.signal?.aborted && e === options.signal.reason) ? e : notPlaced(e);
    });
  }

  // `order`, written with its offer after this checkout's lock was lost, under the lock again: the
  // offer stays promised only if the guest's other orders, as the outbox holds them now, leave it
  // free; else the order is written again without it (withheld), unless someone sent it meanwhile
  // (an attempt this checkout did not make: it is then sent as it is, its outcome the service's).
  async #decideAgain(order, { me, credentials, offer }) {
    const decided = await this.#replay.exclusive(order.owner, async (lease) => {
      let orders;
      let stored;
      try {
        ({ orders, existing: stored } = await this.#ownOrders(order.owner, order.basketId, me, credentials));
      } catch {
        return null;
      }
      if (stored === null || !sameJson(stored, order)) return null;
      const others = orders.filter((o) => o !== stored);
      const withheld = await this.#withheld({ me, orders: others, request: order.request, offer, basketId: order.basketId });
      if (withheld === null) return { outcome: await this.#decideQuietly(order, lease, true) };
      const without = { ...structuredClone(order), body: billingBody(order.request, null, order.basketId), offer: null };
      withholdOffer(without, offer, withheld);
      try {
        await this.#outbox.put(without);
      } catch (e) {
        return { outcome: queuedOutcome({ ...order, lastError: `the order could not be written again without its offer: ${describeError(e)}` }) };
      }
      await this.#holds.claims?.release(order).catch(() => {});
      return { outcome: await this.#decideQuietly(without, lease, true) };
    });
    return decided?.outcome ?? this.#replay.one(order);
  }

  // The order's turn; a failure after it was stored is a 'queued' outcome, never a rejection.
  async #decideQuietly(order, lease, recorded) {
    try {
      return await this.#replay.decide(order, lease, { recorded });
    } catch (e) {
      order.lastError = `the replay failed: ${describeError(e)}`;
      return queuedOutcome(order);
    }
  }

  // Why the new order may not promise its offer, or null: a failure to decide promises nothing.
  async #withheld(args) {
    if (args.me === null) {
      // Nobody to claim it for: with a store hub nothing is promised without a claim.
      if (this.#holds.claims === null) return null;
      const message = 'Not redeemed: the account could not be read to claim the offer at the store hub, so no offer is promised.';
      return { kind: args.offer.kind, id: args.offer.id, code: 'HUB_UNREACHABLE', message };
    }
    try {
      return (await this.#holds.withheld(args)) ?? null;
    } catch (e) {
      if (this.#holds.claims === null) return null;
      const message = `Not redeemed: the offer could not be claimed at the store hub (${describeError(e)}), so no offer is promised.`;
      return { kind: args.offer.kind, id: args.offer.id, code: 'HUB_UNREACHABLE', message };
    }
  }

  // The guest's orders as the outbox holds them now, with those queued before the account was
  // read with these credentials (one read: the withheld check counts them), and the pending order
  // with this basket id among them (or the sale derived from it), or null.
  async #ownOrders(owner, basketId, me, credentials) {
    const orders = (await this.#holds.readGuestOrders(owner, me, credentials)).filter((o) => isGuestsOrder(o, me, credentials));
    const existing = orders.find((o) => o.basketId === basketId || o.derivedFrom?.basketId === basketId) ?? null;
    return { orders, existing };
  }

  /** The orders of the guest on screen (all: every order on the device) not decided yet, oldest first. */
  async pendingOrders({ all = false } = {}) {
    if (all) return this.#outbox.list();
    const me = await this.#guest.identify();
    const credentials = await this.#guest.credentials();
    if (me === null && credentials === null) return [];
    const owner = me?.owner ?? (await unresolvedOwnerOf(credentials));
    return (await this.#holds.readGuestOrders(owner, me, credentials)).filter((order) => isGuestsOrder(order, me, credentials));
  }

  /** The outbox's damaged entries ([] when it does not report any). */
  async damagedOrders() {
    return (await this.#outbox.damaged?.()) ?? [];
  }

  /**
   * Sends every pending order on the device now, oldest first, each once, skipping the rest of a
   * service that stays unreachable. Resolves one outcome per pending order ('queued' for those
   * still pending).
   */
  async flush() {
    return (await this.#replay.run()).map(({ outcome }) => outcome);
  }
}
