// The replay of the outbox: every pending order on the device, oldest first, sent with the same
// basket id and body until the service decides it ('billed' or 'refused'). A network failure, a
// timeout or a 5xx says nothing about whether the service billed the order, so the order stays
// queued. One replayer per outbox at a time (its replay lock, outbox_lock.js); a service that
// stays unreachable holds back only its own orders; failed replays back off. A provisional
// order whose offer the service refuses on replay is billed without the offer under a derived,
// stable basket id.
import { QualifyError } from '../engine/qualify_error.js';
import { isServiceUnavailable, wasNotSent } from '../http/loyalty_client.js';
import { RetryBackoff } from '../http/retry_backoff.js';
import { derivedBasketId } from './basket_id.js';
import { applyOfflinePolicy } from './offline_policy.js';
import { billedOutcome, describeError, queuedOutcome, refusedOutcome } from './order_outcome.js';
import { adoptedOrder, isGuestsOrder, isLegacy, isUnresolved, keyOf, maybeSent, orderWithoutOffer } from './order_record.js';
import { replayLock } from './outbox_lock.js';

// Resolves the error of fn() (or null): a write that fails leaves the order as it was.
async function quietly(fn) {
  try {
    await fn();
    return null;
  } catch (e) {
    return e;
  }
}

export class OrderReplay {
  #outbox;
  #lock;
  #guest;
  #policy;
  #onSettled;
  #storeCredentials;
  #backoff;
  #unremoved = new Set();
  #running = null;
  #timer = null;
  #disposed = false;
  #onOnline = () => this.#replaySoon(0);

  /**
   * outbox: an order outbox; guest: an OrderGuest; policy: offlinePolicy(); onOrderSettled(order,
   * outcome) or null; storeCredentials: whether an adopted order keeps the on-screen client's
   * credentials; backoff: RetryBackoff options.
   */
  constructor({ outbox, guest, policy, onOrderSettled, storeCredentials, backoff }) {
    this.#outbox = outbox;
    this.#lock = replayLock(outbox);
    this.#guest = guest;
    this.#policy = policy;
    this.#onSettled = onOrderSettled ?? null;
    this.#storeCredentials = storeCredentials;
    this.#backoff = new RetryBackoff(backoff);
  }

  /** Replays what an earlier run left (start-up), and again whenever the browser is back online. */
  start() {
    globalThis.addEventListener?.('online', this.#onOnline);
    this.#replaySoon(0);
  }

  dispose() {
    this.#disposed = true;
    globalThis.removeEventListener?.('online', this.#onOnline);
    clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One replay: resolves [{ owner, outcome }], one per pending order ('queued' for those still pending). */
  run() {
    if (this.#running !== null) {
      // A replay is running: it may have listed the outbox before a new order was put. Run again.
      return this.#running.then(() => this.run(), () => this.run());
    }
    this.#running = this.#lock.exclusive(() => this.#runOnce()).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** The outbox's orders, or [] when it cannot be read now. */
  async listQuietly() {
    try {
      return await this.#outbox.list();
    } catch {
      return [];
    }
  }

  // Orders not owned yet (unresolved, or of the previous layout) that are this guest's become
  // theirs: put under the owner, then removed under the old key (a crash between leaves both;
  // the next listing removes the old one).
  async #adopt(orders) {
    const me = this.#guest.known();
    if (me === null) return orders;
    const credentials = await this.#guest.credentials();
    const owned = new Set(orders.filter((o) => !isLegacy(o) && !isUnresolved(o)).map(keyOf));
    const result = [];
    for (const order of orders) {
      if (order.owner === me.owner || !(isLegacy(order) || isUnresolved(order)) || !isGuestsOrder(order, me, credentials)) {
        result.push(order);
        continue;
      }
      const adopted = adoptedOrder(order, me, this.#storeCredentials ? credentials : null);
      try {
        if (!owned.has(keyOf(adopted))) await this.#outbox.put(adopted);
        await this.#outbox.remove(order);
      } catch {
        result.push(order); // kept as it was; adopted next time
        continue;
      }
      if (!owned.has(keyOf(adopted))) result.push(adopted);
    }
    return result;
  }

  async #runOnce() {
    const entries = [];
    const unreachable = new Set();
    const clients = new Map();
    const settled = new Set();
    let retry = false;
    const orders = await this.#adopt(await this.#outbox.list());
    for (const order of orders) {
      const key = keyOf(order);
      if (settled.has(key)) continue;
      if (this.#unremoved.has(key)) {
        // Settled in this process, but its removal failed: remove it again, never re-send it.
        await quietly(() => this.#outbox.remove(order)).then((failed) => failed || this.#unremoved.delete(key));
        continue;
      }
      if (this.#disposed) {
        entries.push({ owner: order.owner, outcome: queuedOutcome(order) });
        continue;
      }
      const route = await this.#guest.replayClient(order, clients);
      if (route.error || unreachable.has(route.key)) {
        // It waits (behind an undecided order of the same service, or for credentials): nothing
        // was sent, so the offline policy may still decide what it promises.
        if (route.error) order.lastError = route.error;
        if ((await applyOfflinePolicy(order, this.#policy, this.#guest)) || route.error) await quietly(() => this.#outbox.put(order));
        entries.push({ owner: order.owner, outcome: queuedOutcome(order) });
        retry = true;
        continue;
      }
      const { outcome, answered, settledKeys } = await this.#send(order, route.client);
      for (const k of settledKeys ?? []) settled.add(k);
      if (!answered) unreachable.add(route.key);
      if (outcome.status === 'queued') retry = true;
      entries.push({ owner: order.owner, outcome });
    }
    clearTimeout(this.#timer);
    this.#timer = null;
    if (!retry && unreachable.size === 0) {
      this.#backoff.succeeded();
    } else if (!this.#disposed) {
      this.#replaySoon(this.#backoff.failed(Date.now()));
    }
    return entries;
  }

  // One attempt: { outcome, answered, settledKeys }, answered false when no answer came (the
  // service is not reachable now).
  async #send(order, client) {
    const sentBefore = maybeSent(order);
    const firstAttempt = order.attempts === 0 && !order.policyApplied && !order.derivedFrom;
    order.attempts += 1;
    order.lastAttemptAt = Date.now();
    order.maybeSent = true;
    const unrecorded = await quietly(() => this.#outbox.put(order));
    if (unrecorded) {
      // Not sent: an attempt is sent only once it is recorded (so the body is never changed
      // after an attempt that may have reached the service).
      order.attempts -= 1;
      order.maybeSent = sentBefore;
      order.lastError = `not sent: the attempt could not be recorded on this device (${describeError(unrecorded)})`;
      return { outcome: queuedOutcome(order), answered: true };
    }
    let answer;
    try {
      answer = await client.saveBasket(order.body);
    } catch (e) {
      return this.#failed(order, e, { sentBefore, firstAttempt, client });
    }
    const billed = billedOutcome(order, answer);
    await this.#settle(order, billed);
    return { outcome: billed, answered: true, settledKeys: [keyOf(order)] };
  }

  // The attempt failed with `e`: what that says about the order.
  async #failed(order, e, { sentBefore, firstAttempt, client }) {
    if (!(e instanceof QualifyError) || isServiceUnavailable(e)) {
      // Unknown outcome (unless it provably never left): the service may have billed it. Keep
      // it, same id, same basket.
      if (wasNotSent(e)) order.maybeSent = sentBefore;
      order.lastError = e?.message ?? String(e);
      await applyOfflinePolicy(order, this.#policy, this.#guest);
      const failed = await quietly(() => this.#outbox.put(order));
      if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
      return { outcome: queuedOutcome(order), answered: false };
    }
    if ((e.code === 401 || e.code === 403) && !firstAttempt) {
      // The credentials are refused (a rotated token): that says nothing about the order.
      return this.#keep(order, `the service refused the credentials (${e.code}: ${e.message})`);
    }
    if (sentBefore && e.code !== 400) {
      // An earlier attempt may have reached the service, so it may have billed the basket. A
      // 409 (another till completed, refunded or voided the basket since) or a 404/406 does not
      // say whether it did: the order stays queued, never 'refused'. A 400 does say it: the
      // service judges the contents only of a basket it has not billed (a billed one answers a
      // re-send with what it billed), and the re-sent body is the one first sent.
      return this.#keep(order, `an earlier attempt got no answer, and the service now answers ${e.code}: ${e.message}`);
    }
    if (e.code === 400 && order.offer !== null && !firstAttempt && !order.derivedFrom) {
      // The guest left with the order believing it queued with its offer: the sale is billed
      // without it rather than dropped.
      return this.#billWithoutOffer(order, e, client);
    }
    const refused = await this.#settle(order, refusedOutcome(order, e.message));
    return { outcome: refused, answered: true, settledKeys: [keyOf(order)] };
  }

  async #keep(order, lastError) {
    order.lastError = lastError;
    const failed = await quietly(() => this.#outbox.put(order));
    if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
    return { outcome: queuedOutcome(order), answered: true };
  }

  // The order's offer was refused (400) on replay: the same sale, without the offer, as its own
  // order under the derived basket id, stored before the original is removed and before it is
  // sent (a crash anywhere gives the same derived order again, never a second sale).
  async #billWithoutOffer(order, refusal, client) {
    const basketId = await derivedBasketId(order.basketId);
    const stored = (await this.listQuietly()).find((o) => o.owner === order.owner && o.basketId === basketId);
    const derived = stored ?? orderWithoutOffer(order, basketId, refusal.message);
    if (!stored) {
      const failed = await quietly(() => this.#outbox.put(derived));
      if (failed) {
        return this.#keep(order, `its offer was refused (${refusal.message}), and the sale without it could not be stored (${describeError(failed)})`);
      }
    }
    await quietly(() => this.#outbox.remove(order)); // if it stays, the next replay finds the derived order
    const sent = await this.#send(derived, client);
    return { ...sent, settledKeys: [keyOf(order), ...(sent.settledKeys ?? [])] };
  }

  async #settle(order, outcome) {
    const failed = await quietly(() => this.#outbox.remove(order));
    if (failed) this.#unremoved.add(keyOf(order)); // never re-sent by this process
    try {
      this.#onSettled?.(structuredClone(order), outcome);
    } catch {
      // A failing listener must not stop the replay of the other orders.
    }
    return outcome;
  }

  #replaySoon(delayMs) {
    if (this.#disposed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      // A replay already running covers this trigger (it lists the outbox afresh each time).
      if (this.#running !== null) return;
      this.run().catch(() => {
        // An unreadable outbox: the next trigger tries again.
      });
    }, delayMs);
    // Node: a replay waiting out a backoff does not keep the process alive (the orders wait in
    // the outbox for the next run); the start-up replay does.
    if (delayMs > 0) this.#timer?.unref?.();
  }
}
