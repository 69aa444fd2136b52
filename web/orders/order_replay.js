// The replay of the outbox: every pending order on the device, oldest first, sent with the same
// basket id and body until the service decides it ('billed' or 'refused'). A network failure, a
// timeout, a 5xx or an answer that is not the billed basket says nothing about whether the
// service billed the order, so the order stays queued. A failure holds back only what it
// concerns: no answer at all holds back the orders of that service for this replay; an answer
// about one order (a 5xx, a 4xx) holds back that order only. One replayer per outbox at a time
// (its replay lock, outbox_lock.js), which it re-checks before each send, settle and write: a
// replayer whose lock was taken over stops, and reports nothing settled. Failed replays back off.
// A provisional order whose offer the service refuses on replay is billed without the offer under
// a derived, stable basket id. checkout() replays its own order only (one()).
import { QualifyError } from '../engine/qualify_error.js';
import { NETWORK_ERROR, TIMEOUT, wasNotSent } from '../http/loyalty_client.js';
import { RetryBackoff } from '../http/retry_backoff.js';
import { derivedBasketId } from './basket_id.js';
import { applyOfflinePolicy } from './offline_policy.js';
import {
  LOCK_LOST,
  behindUnanswered,
  billedOutcome,
  describeError,
  isBilledAnswer,
  queuedOutcome,
  refusedOutcome,
  unknownAnswer,
} from './order_outcome.js';
import { adoptedOrder, isGuestsOrder, isLegacy, isUnresolved, keyOf, maybeSent, orderWithoutOffer } from './order_record.js';
import { KEPT_LEASE, replayLock } from './outbox_lock.js';

// How many outcomes of orders settled in this process are kept for a checkout of the same basket id.
const DECIDED_KEPT = 256;

// No answer at all: the service is not reachable now, for every order behind this one.
const isNoAnswer = (e) => !(e instanceof QualifyError) || e.code === NETWORK_ERROR || e.code === TIMEOUT;

// Resolves the error of fn() (or null): a write that fails leaves the order as it was.
async function quietly(fn) {
  try {
    await fn();
    return null;
  } catch (e) {
    return e;
  }
}

class LockLost extends Error {}

export class OrderReplay {
  #outbox;
  #lock;
  #guest;
  #policy;
  #onSettled;
  #storeCredentials;
  #backoff;
  #unremoved = new Set();
  #decided = new Map();
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
    this.#running = this.#lock.exclusive((lease) => this.#runOnce(lease ?? KEPT_LEASE)).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * The outcome of one stored order, sent now under the lock (checkout: its cost does not grow
   * with the orders waiting). An order decided meanwhile gives its outcome when this process
   * decided it.
   */
  one(order) {
    return this.#lock.exclusive(async (lease) => {
      const ctx = { lease: lease ?? KEPT_LEASE, clients: new Map(), unanswered: new Map(), lost: false };
      const stored = await this.#stored(order);
      if (stored === null) {
        return this.#decided.get(keyOf(order)) ?? queuedOutcome({ ...order, lastError: 'being decided by another replay' });
      }
      const { outcome } = await this.#replayOrder(stored, ctx);
      if (outcome.status === 'queued' && !ctx.lost) this.#replaySoon(this.#backoff.failed(Date.now()));
      else if (this.#backoff.ready(Date.now())) this.#replaySoon(0); // the others, in the background
      return outcome;
    });
  }

  /** The outbox's orders, or [] when it cannot be read now. */
  async listQuietly() {
    try {
      return await this.#outbox.list();
    } catch {
      return [];
    }
  }

  // The order as stored now, or null when it is gone (decided).
  async #stored(order) {
    if (typeof this.#outbox.get === 'function') return (await this.#outbox.get({ owner: order.owner, basketId: order.basketId })) ?? null;
    return (await this.#outbox.list()).find((o) => keyOf(o) === keyOf(order)) ?? null;
  }

  // Throws LockLost when the replay lock is no longer this replayer's.
  async #hold(ctx) {
    if (ctx.lost || !(await ctx.lease.held())) {
      ctx.lost = true;
      throw new LockLost();
    }
  }

  // Writes the order unless the lock was lost; the write's error, or null.
  async #put(order, ctx) {
    await this.#hold(ctx);
    return quietly(() => this.#outbox.put(order));
  }

  // Orders not owned yet (unresolved, or of the previous layout) that are this guest's become
  // theirs: put under the owner, then removed under the old key (a crash between leaves both;
  // the next listing removes the old one).
  async #adopt(orders, ctx) {
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
        await this.#hold(ctx);
        if (!owned.has(keyOf(adopted))) await this.#outbox.put(adopted);
        await this.#outbox.remove(order);
      } catch (e) {
        if (e instanceof LockLost) throw e;
        result.push(order); // kept as it was; adopted next time
        continue;
      }
      if (!owned.has(keyOf(adopted))) result.push(adopted);
    }
    return result;
  }

  async #runOnce(lease) {
    const entries = [];
    const ctx = { lease, clients: new Map(), unanswered: new Map(), lost: false };
    const settled = new Set();
    let retry = false;
    let orders = await this.#outbox.list();
    try {
      orders = await this.#adopt(orders, ctx);
    } catch (e) {
      if (!(e instanceof LockLost)) throw e;
    }
    for (const order of orders) {
      const key = keyOf(order);
      if (settled.has(key)) continue;
      if (ctx.lost) {
        entries.push({ owner: order.owner, outcome: queuedOutcome({ ...order, lastError: LOCK_LOST }) });
        continue;
      }
      if (this.#unremoved.has(key)) {
        // Settled in this process, but its removal failed: remove it again, never re-send it.
        await quietly(() => this.#outbox.remove(order)).then((failed) => failed || this.#unremoved.delete(key));
        continue;
      }
      if (this.#disposed) {
        entries.push({ owner: order.owner, outcome: queuedOutcome(order) });
        continue;
      }
      const { outcome, settledKeys } = await this.#replayOrder(order, ctx);
      for (const k of settledKeys ?? []) settled.add(k);
      if (outcome.status === 'queued') retry = true;
      entries.push({ owner: order.owner, outcome });
    }
    clearTimeout(this.#timer);
    this.#timer = null;
    if (ctx.lost) return entries; // the new holder replays from here
    if (!retry) {
      this.#backoff.succeeded();
    } else if (!this.#disposed) {
      this.#replaySoon(this.#backoff.failed(Date.now()));
    }
    return entries;
  }

  // One order of a replay (ctx: the lease, clients by credentials, services that gave no answer
  // in this replay): { outcome, settledKeys }. A lost lock ends with 'queued' (LOCK_LOST), unwritten.
  async #replayOrder(order, ctx) {
    try {
      const route = await this.#guest.replayClient(order, ctx.clients);
      const silent = route.key !== undefined && !route.noAnswer ? ctx.unanswered.get(route.key) : undefined;
      if (route.error || silent !== undefined) {
        // It waits: nothing was sent, so the offline policy may still decide what it promises.
        if (route.noAnswer) ctx.unanswered.set(route.key, route.error);
        const before = order.lastError;
        order.lastError = route.error ?? behindUnanswered(route.key, silent);
        const changed = await applyOfflinePolicy(order, this.#policy, this.#guest);
        if (changed || order.lastError !== before) await this.#put(order, ctx);
        return { outcome: queuedOutcome(order) };
      }
      const sent = await this.#send(order, route.client, ctx);
      if (sent.noAnswer) ctx.unanswered.set(route.key, order.lastError);
      return sent;
    } catch (e) {
      if (!(e instanceof LockLost)) throw e;
      return { outcome: queuedOutcome({ ...order, lastError: LOCK_LOST }) };
    }
  }

  // One attempt: { outcome, noAnswer, settledKeys }, noAnswer true when no answer came (the
  // service is not reachable now).
  async #send(order, client, ctx) {
    const sentBefore = maybeSent(order);
    const firstAttempt = order.attempts === 0 && !order.policyApplied && !order.derivedFrom;
    order.attempts += 1;
    order.lastAttemptAt = Date.now();
    order.maybeSent = true;
    const unrecorded = await this.#put(order, ctx);
    if (unrecorded) {
      // Not sent: an attempt is sent only once it is recorded (so the body is never changed
      // after an attempt that may have reached the service).
      order.attempts -= 1;
      order.maybeSent = sentBefore;
      order.lastError = `not sent: the attempt could not be recorded on this device (${describeError(unrecorded)})`;
      return { outcome: queuedOutcome(order) };
    }
    let answer;
    try {
      await this.#hold(ctx);
      answer = await client.saveBasket(order.body);
    } catch (e) {
      if (e instanceof LockLost) throw e;
      return this.#failed(order, e, { sentBefore, firstAttempt, client, ctx });
    }
    // Billed means the service said so: the basket, with this id, state 'billed'.
    if (!isBilledAnswer(answer, order.basketId)) return this.#keep(order, unknownAnswer(answer, order.basketId), ctx);
    const billed = billedOutcome(order, answer);
    await this.#settle(order, billed, ctx);
    return { outcome: billed, settledKeys: [keyOf(order)] };
  }

  // The attempt failed with `e`: what that says about the order.
  async #failed(order, e, { sentBefore, firstAttempt, client, ctx }) {
    if (!(e instanceof QualifyError) || e.code === NETWORK_ERROR || e.code >= 500) {
      // Unknown outcome (unless it provably never left): the service may have billed it. Keep
      // it, same id, same basket. No answer holds back the service's other orders in this
      // replay; a 5xx is an answer about this order only.
      if (wasNotSent(e)) order.maybeSent = sentBefore;
      order.lastError = e?.message ?? String(e);
      await applyOfflinePolicy(order, this.#policy, this.#guest);
      const failed = await this.#put(order, ctx);
      if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
      return { outcome: queuedOutcome(order), noAnswer: isNoAnswer(e) };
    }
    if ((e.code === 401 || e.code === 403) && !firstAttempt) {
      // The credentials are refused (a rotated token): that says nothing about the order.
      return this.#keep(order, `the service refused the credentials (${e.code}: ${e.message})`, ctx);
    }
    if (sentBefore && e.code !== 400) {
      // An earlier attempt may have reached the service, so it may have billed the basket. A
      // 409 (another till completed, refunded or voided the basket since) or a 404/406 does not
      // say whether it did: the order stays queued, never 'refused'. A 400 does say it: the
      // service judges the contents only of a basket it has not billed (a billed one answers a
      // re-send with what it billed), and the re-sent body is the one first sent.
      return this.#keep(order, `an earlier attempt got no answer, and the service now answers ${e.code}: ${e.message}`, ctx);
    }
    if (e.code === 400 && order.offer !== null && !firstAttempt && !order.derivedFrom) {
      // The guest left with the order believing it queued with its offer: the sale is billed
      // without it rather than dropped.
      return this.#billWithoutOffer(order, e, client, ctx);
    }
    const refused = await this.#settle(order, refusedOutcome(order, e.message), ctx);
    return { outcome: refused, settledKeys: [keyOf(order)] };
  }

  async #keep(order, lastError, ctx) {
    order.lastError = lastError;
    const failed = await this.#put(order, ctx);
    if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
    return { outcome: queuedOutcome(order) };
  }

  // The order's offer was refused (400) on replay: the same sale, without the offer, as its own
  // order under the derived basket id, stored before the original is removed and before it is
  // sent (a crash anywhere gives the same derived order again, never a second sale).
  async #billWithoutOffer(order, refusal, client, ctx) {
    const basketId = await derivedBasketId(order.basketId);
    const stored = await this.#stored({ owner: order.owner, basketId }).catch(() => null);
    const derived = stored ?? orderWithoutOffer(order, basketId, refusal.message);
    if (!stored) {
      const failed = await this.#put(derived, ctx);
      if (failed) {
        return this.#keep(order, `its offer was refused (${refusal.message}), and the sale without it could not be stored (${describeError(failed)})`, ctx);
      }
    }
    await this.#hold(ctx);
    await quietly(() => this.#outbox.remove(order)); // if it stays, the next replay finds the derived order
    const sent = await this.#send(derived, client, ctx);
    if (sent.outcome.status !== 'queued') this.#remember(order, sent.outcome);
    return { ...sent, settledKeys: [keyOf(order), ...(sent.settledKeys ?? [])] };
  }

  // The order is decided: removed, remembered, reported once. A replayer that lost the lock
  // does none of it (the new holder sends it again and reports it).
  async #settle(order, outcome, ctx) {
    if (ctx.lost || !(await ctx.lease.held())) {
      ctx.lost = true;
      return outcome;
    }
    const failed = await quietly(() => this.#outbox.remove(order));
    if (failed) this.#unremoved.add(keyOf(order)); // never re-sent by this process
    this.#remember(order, outcome);
    try {
      this.#onSettled?.(structuredClone(order), outcome);
    } catch {
      // A failing listener must not stop the replay of the other orders.
    }
    return outcome;
  }

  // Kept for a checkout of the same basket id that finds the order decided.
  #remember(order, outcome) {
    this.#decided.delete(keyOf(order));
    this.#decided.set(keyOf(order), outcome);
    if (this.#decided.size > DECIDED_KEPT) this.#decided.delete(this.#decided.keys().next().value);
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
