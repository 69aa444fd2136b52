// One order's turn, under its guest's lock: sent with the same basket id and body until the
// service decides it ('billed' or 'refused'). A network failure, a timeout, a 5xx or an answer
// that is not the billed basket says nothing about whether the service billed the order, so the
// order stays queued (and the offline policy decides, once, what it promises). A lock can be lost
// (outbox_lock.js): before each send, settle and write the lease is asked, and a turn whose lock
// was taken over stops, writes nothing and reports nothing. A provisional order whose offer the
// service refuses on replay is billed without the offer under a derived, stable basket id.
import { QualifyError } from '../../engine/qualify_error.js';
import { NETWORK_ERROR, isNoAnswer, wasNotSent } from '../../http/service_failure.js';
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
import { keyOf, maybeSent, orderWithoutOffer } from './order_record.js';

// How many outcomes of orders settled in this process are kept for a checkout of the same basket id.
const DECIDED_KEPT = 256;

// Resolves the error of fn() (or null): a write that fails leaves the order as it was.
export async function quietly(fn) {
  try {
    await fn();
    return null;
  } catch (e) {
    return e;
  }
}

/** Thrown inside a turn whose lock was taken over. */
export class LockLost extends Error {}

/** Marks `order`'s first attempt as made before it is written (checkout writes an order once, then sends it). */
export function recordFirstAttempt(order) {
  order.attempts = 1;
  order.lastAttemptAt = Date.now();
  order.maybeSent = true;
}

export class OrderAttempt {
  #outbox;
  #guest;
  #holds;
  #policy;
  #onSettled;
  #unremoved = new Set();
  #decided = new Map();

  /**
   * outbox: an order outbox; guest: an OrderGuest; holds: the guest's GuestHolds (the offline
   * policy's discount); policy: offlinePolicy(); onOrderSettled(order, outcome) or null.
   */
  constructor({ outbox, guest, holds, policy, onOrderSettled }) {
    this.#outbox = outbox;
    this.#guest = guest;
    this.#holds = holds;
    this.#policy = policy;
    this.#onSettled = onOrderSettled ?? null;
  }

  /** The outcome this process gave an order decided meanwhile, or undefined. */
  decided(order) {
    return this.#decided.get(keyOf(order));
  }

  /** Whether the order was settled here but its removal failed (removed again, never re-sent). */
  async removeUnremoved(order) {
    if (!this.#unremoved.has(keyOf(order))) return false;
    if ((await quietly(() => this.#outbox.remove(order))) === null) this.#unremoved.delete(keyOf(order));
    return true;
  }

  /** The order as stored now (by key), or null when it is gone (decided). */
  async stored({ owner, basketId }) {
    if (typeof this.#outbox.get === 'function') return (await this.#outbox.get({ owner, basketId })) ?? null;
    return (await this.#outbox.list()).find((o) => o.owner === owner && o.basketId === basketId) ?? null;
  }

  /** Throws LockLost when the lock is no longer this turn's (ctx.lease). */
  async hold(ctx) {
    if (ctx.lost || !(await ctx.lease.held())) {
      ctx.lost = true;
      throw new LockLost();
    }
  }

  /** Writes the order unless the lock was lost; the write's error, or null. */
  async put(order, ctx) {
    await this.hold(ctx);
    return quietly(() => this.#outbox.put(order));
  }

  /**
   * One order's turn (ctx: { lease, clients by credentials, services that gave no answer in this
   * replay, lost, recorded: its first attempt is written already }): { outcome, settledKeys }. A
   * lost lock ends with 'queued' (LOCK_LOST), unwritten.
   */
  async turn(order, ctx) {
    try {
      const route = await this.#guest.replayClient(order, ctx.clients);
      const silent = route.key !== undefined && !route.noAnswer ? ctx.unanswered.get(route.key) : undefined;
      if (route.error || silent !== undefined) {
        // It waits: nothing was sent (an attempt recorded but not made is undone), so the offline
        // policy may still decide what it promises.
        const recorded = ctx.recorded === true;
        if (recorded) {
          order.attempts = 0;
          order.maybeSent = false;
          delete order.lastAttemptAt;
        }
        if (route.noAnswer) ctx.unanswered.set(route.key, route.error);
        const before = order.lastError;
        order.lastError = route.error ?? behindUnanswered(route.key, silent);
        const changed = await applyOfflinePolicy(order, this.#policy, this.#holds);
        if (recorded || changed || order.lastError !== before) await this.put(order, ctx);
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
  // service is not reachable now). An attempt is sent only once it is recorded (so the body is
  // never changed after an attempt that may have reached the service).
  async #send(order, client, ctx) {
    const recorded = ctx.recorded === true;
    ctx.recorded = false;
    const sentBefore = recorded ? false : maybeSent(order);
    const firstAttempt = recorded || (order.attempts === 0 && !order.policyApplied && !order.derivedFrom);
    if (!recorded) {
      order.attempts += 1;
      order.lastAttemptAt = Date.now();
      order.maybeSent = true;
      const unrecorded = await this.put(order, ctx);
      if (unrecorded) {
        order.attempts -= 1;
        order.maybeSent = sentBefore;
        order.lastError = `not sent: the attempt could not be recorded on this device (${describeError(unrecorded)})`;
        return { outcome: queuedOutcome(order) };
      }
    }
    let answer;
    try {
      await this.hold(ctx);
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
      const stored = structuredClone(order);
      if (wasNotSent(e)) order.maybeSent = sentBefore;
      order.lastError = e?.message ?? String(e);
      await applyOfflinePolicy(order, this.#policy, this.#holds);
      const failed = await this.put(order, ctx);
      if (failed) {
        // What the outbox holds is what will be sent: the outcome says that, not the unwritten change.
        Object.assign(order, stored, { lastError: `${order.lastError}; and the order could not be updated on this device (${describeError(failed)})` });
      }
      // No answer at all: the service is not reachable now, for every order behind this one.
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
    const failed = await this.put(order, ctx);
    if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
    return { outcome: queuedOutcome(order) };
  }

  // The order's offer was refused (400) on replay: the same sale, without the offer, as its own
  // order under the derived basket id, stored before the original is removed and before it is
  // sent (a crash anywhere gives the same derived order again, never a second sale).
  async #billWithoutOffer(order, refusal, client, ctx) {
    const basketId = await derivedBasketId(order.basketId);
    const stored = await this.stored({ owner: order.owner, basketId }).catch(() => null);
    const derived = stored ?? orderWithoutOffer(order, basketId, refusal.message);
    if (!stored) {
      const failed = await this.put(derived, ctx);
      if (failed) {
        return this.#keep(order, `its offer was refused (${refusal.message}), and the sale without it could not be stored (${describeError(failed)})`, ctx);
      }
    }
    await this.hold(ctx);
    await quietly(() => this.#outbox.remove(order)); // if it stays, the next replay finds the derived order
    const sent = await this.#send(derived, client, ctx);
    if (sent.outcome.status !== 'queued') this.#remember(order, sent.outcome);
    return { ...sent, settledKeys: [keyOf(order), ...(sent.settledKeys ?? [])] };
  }

  // The order is decided: removed, remembered, reported once. A turn that lost the lock does
  // none of it (the new holder sends it again and reports it). Billed with its offer, its
  // billing record is written first (the holds': web/offline/holds/), so that the outbox holds the offer
  // all along.
  async #settle(order, outcome, ctx) {
    if (ctx.lost || !(await ctx.lease.held())) {
      ctx.lost = true;
      return outcome;
    }
    await quietly(() => this.#holds.billed?.(order, outcome));
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
}
