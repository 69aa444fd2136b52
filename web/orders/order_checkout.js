// Checkout that is safe to retry: every order gets one basket id, is written to a durable outbox
// before it is sent, and stays there until the service decides it (order_replay.js sends it, now
// and until it is 'billed' or 'refused'; the service treats a repeated id as the same basket: a
// billed basket answers with what it billed and is never billed again). Once durably queued,
// checkout never rejects. Whose order it is and which client replays it come from an OrderGuest.
// HybridQualifier owns one OrderCheckout (internal module).
import { sameJson } from '../storage/json_equality.js';
import { checkBasketId, derivedBasketId, newBasketId } from './basket_id.js';
import { basketIdInUse, describeError, notPlaced, ownerUnknown, queuedOutcome } from './order_outcome.js';
import { OrderReplay } from './order_replay.js';
import { UNRESOLVED_OWNER, checkOffer, checkRequest, isGuestsOrder, keyOf, newOrder, requestOf, withholdOffer } from './order_record.js';

export class OrderCheckout {
  #outbox;
  #guest;
  #storeCredentials;
  #replay;

  /**
   * outbox: an order outbox; guest: an OrderGuest (the guest on screen, their client, the local
   * discount); policy: offlinePolicy(); onOrderSettled(order, outcome) or null; storeCredentials:
   * whether an order keeps the credentials it was placed with; backoff: RetryBackoff options.
   */
  constructor({ outbox, guest, policy, onOrderSettled, storeCredentials = true, backoff }) {
    this.#outbox = outbox;
    this.#guest = guest;
    this.#storeCredentials = storeCredentials;
    this.#replay = new OrderReplay({ outbox, guest, policy, onOrderSettled, storeCredentials, backoff });
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
    let existing;
    try {
      existing = await this.#existing(basketId, me, credentials);
    } catch (e) {
      throw notPlaced(e);
    }
    let order;
    if (existing) {
      const existingOffer = existing.derivedFrom ? existing.derivedFrom.offer : existing.requestedOffer ?? null;
      if (!sameJson(requestOf(existing), body) || !sameJson(existingOffer ?? null, offer)) throw basketIdInUse(basketId);
      order = existing;
    } else {
      // An offer already held (by a pending order, or at another kiosk) is not promised: the
      // order is placed without it, at full price, and its outcome says why (`withheld`).
      const withheld = await this.#guest.withheld(body, offer, basketId);
      order = newOrder({ owner: me, basketId, request: body, offer: withheld ? null : offer, replay: credentials });
      if (withheld) withholdOffer(order, offer, withheld);
      try {
        // Written before it is sent: from now on it is never lost, whatever happens to the answer.
        await this.#outbox.put(order);
      } catch (e) {
        throw notPlaced(e);
      }
    }
    // Durably queued: from here on checkout never rejects (a failure is a 'queued' outcome).
    // Only this order is sent now: the others wait for the replay (and never hold this one back).
    try {
      return await this.#replay.one(order);
    } catch (e) {
      order.lastError = `the replay failed: ${describeError(e)}`;
      return queuedOutcome(order);
    }
  }

  // The guest's pending order with this basket id (or the sale derived from it), or null: looked
  // up by key (outbox.get) when the outbox can, so a checkout reads no other order.
  async #existing(basketId, me, credentials) {
    const derived = await derivedBasketId(basketId);
    const owners = [...(me === null ? [] : [me.owner]), UNRESOLVED_OWNER];
    const keys = owners.flatMap((owner) => [{ owner, basketId }, { owner, basketId: derived }]);
    let found;
    if (typeof this.#outbox.get === 'function') {
      // At once: each is a read of its own (a file, a row), and none depends on another.
      found = await Promise.all(keys.map((key) => this.#outbox.get(key)));
    } else {
      const wanted = new Set(keys.map(keyOf));
      found = (await this.#outbox.list()).filter((o) => wanted.has(keyOf(o)));
    }
    return (
      found.find(
        (o) => o && isGuestsOrder(o, me, credentials) && (o.basketId === basketId || o.derivedFrom?.basketId === basketId),
      ) ?? null
    );
  }

  /** The orders of the guest on screen (all: every order on the device) not decided yet, oldest first. */
  async pendingOrders({ all = false } = {}) {
    const orders = await this.#outbox.list();
    if (all) return orders;
    const me = await this.#guest.identify();
    const credentials = await this.#guest.credentials();
    return orders.filter((order) => isGuestsOrder(order, me, credentials));
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
