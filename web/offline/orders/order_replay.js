// The replay of the outbox: every pending order on the device, oldest first, each in a turn of its
// own under its guest's lock (order_attempt.js), so a checkout waits for at most one order of its
// own guest, never for the whole replay nor for other guests' orders. A failure holds back only
// what it concerns: no answer at all holds back the orders of that service for this replay; an
// answer about one order (a 5xx, a 4xx) holds back that order only. Failed replays back off.
// checkout() sends its own order in its own turn (decide()).
import { RetryBackoff } from '../../http/retry_backoff.js';
import { LockLost, OrderAttempt } from './order_attempt.js';
import { LOCK_LOST, queuedOutcome } from './order_outcome.js';
import { adoptedOrder, isGuestsOrder, isLegacy, isUnresolved, keyOf } from './order_record.js';
import { KEPT_LEASE, replayLock } from './outbox/outbox_lock.js';

export class OrderReplay {
  #outbox;
  #lock;
  #guest;
  #attempt;
  #storeCredentials;
  #backoff;
  #running = null;
  #timer = null;
  // The last replay left nothing waiting, and no turn since left an order queued: nothing for a
  // replay in the background to do after a checkout.
  #clean = false;
  #disposed = false;
  #onOnline = () => this.#replaySoon(0);

  /**
   * outbox: an order outbox; guest: an OrderGuest; holds: the guest's GuestHolds; policy:
   * offlinePolicy(); onOrderSettled(order, outcome) or null; storeCredentials: whether an adopted
   * order keeps the on-screen client's credentials; backoff: RetryBackoff options.
   */
  constructor({ outbox, guest, holds, policy, onOrderSettled, storeCredentials, backoff }) {
    this.#outbox = outbox;
    this.#lock = replayLock(outbox);
    this.#guest = guest;
    this.#attempt = new OrderAttempt({ outbox, guest, holds, policy, onOrderSettled });
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

  /**
   * Runs fn(lease) holding the lock of `owner`'s orders (a lease that cannot be lost when the lock
   * cannot be); `background`: a replay's turn, which lets a checkout waiting for the lock go first.
   */
  exclusive(owner, fn, { background = false } = {}) {
    return this.#lock.exclusive(owner, (lease) => fn(lease ?? KEPT_LEASE), { background });
  }

  /** One replay: resolves [{ owner, outcome }], one per pending order ('queued' for those still pending). */
  run() {
    if (this.#running !== null) {
      // A replay is running: it may have listed the outbox before a new order was put. Run again.
      return this.#running.then(() => this.run(), () => this.run());
    }
    this.#running = this.#runOnce().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * The outcome of stored `order`, sent now in a turn of its own (its guest's lock taken here).
   * An order decided meanwhile gives its outcome when this process decided it.
   */
  one(order) {
    return this.exclusive(order.owner, async (lease) => {
      const stored = await this.#attempt.stored(order);
      if (stored === null) {
        return this.#attempt.decided(order) ?? queuedOutcome({ ...order, lastError: 'being decided by another replay' });
      }
      return this.decide(stored, lease);
    });
  }

  /**
   * `order`'s turn while its guest's lock is held (`lease`): checkout's own order, written with
   * its first attempt recorded when `recorded` (then sent without another write). Resolves its
   * outcome; the others are replayed in the background.
   */
  async decide(order, lease, { recorded = false } = {}) {
    const ctx = { lease, clients: new Map(), unanswered: new Map(), lost: false, recorded };
    const { outcome } = await this.#attempt.turn(order, ctx);
    if (outcome.status === 'queued') this.#clean = false;
    if (outcome.status === 'queued' && !ctx.lost) this.#replaySoon(this.#backoff.failed(Date.now()));
    else if (!this.#clean && this.#backoff.ready(Date.now())) this.#replaySoon(0); // the others, in the background
    return outcome;
  }

  /** The outbox's orders, or [] when it cannot be read now. */
  async listQuietly() {
    try {
      return await this.#outbox.list();
    } catch {
      return [];
    }
  }

  // An order not owned yet (unresolved, or of the previous layout) that is this guest's becomes
  // theirs: put under the owner, then removed under the old key (a crash between leaves both; the
  // next turn of the old one finds it owned and removes it). Resolves the order to send.
  async #adopt(order, ctx) {
    const me = this.#guest.known();
    if (me === null || order.owner === me.owner || !(isLegacy(order) || isUnresolved(order))) return order;
    const credentials = await this.#guest.credentials();
    if (!isGuestsOrder(order, me, credentials)) return order;
    const adopted = adoptedOrder(order, me, this.#storeCredentials ? credentials : null);
    try {
      await this.#attempt.hold(ctx);
      const owned = await this.#attempt.stored(adopted);
      if (owned === null) await this.#outbox.put(adopted);
      await this.#outbox.remove(order);
      return owned ?? adopted;
    } catch (e) {
      if (e instanceof LockLost) throw e;
      return order; // kept as it was; adopted next time
    }
  }

  async #runOnce() {
    const entries = [];
    const run = { clients: new Map(), unanswered: new Map() };
    const settled = new Set();
    let retry = false;
    let lost = false;
    for (const listed of await this.#outbox.list()) {
      if (settled.has(keyOf(listed))) continue;
      if (this.#disposed) {
        entries.push({ owner: listed.owner, outcome: queuedOutcome(listed) });
        continue;
      }
      // A turn of its own, in the background: the guest's lock is free between two orders, and a
      // checkout waiting for it, in any process, takes it then. An order adopted (its owner now
      // known) has its turn under its guest's lock, as every order of that guest.
      const turnOf = (order, { adopt }) => this.exclusive(order.owner, async (lease) => {
        const ctx = { lease, ...run, lost: false };
        if (await this.#attempt.removeUnremoved(order)) return null; // settled here before: never re-sent
        const stored = await this.#attempt.stored(order).catch(() => order);
        if (stored === null) return null; // decided meanwhile (a checkout, another replayer)
        try {
          const owned = adopt ? await this.#adopt(stored, ctx) : stored;
          if (owned.owner !== stored.owner) return { adopted: owned };
          const { outcome, settledKeys } = await this.#attempt.turn(owned, ctx);
          for (const key of settledKeys ?? []) settled.add(key);
          lost ||= ctx.lost;
          return { owner: owned.owner, outcome };
        } catch (e) {
          if (!(e instanceof LockLost)) throw e;
          lost = true;
          return { owner: stored.owner, outcome: queuedOutcome({ ...stored, lastError: LOCK_LOST }) };
        }
      }, { background: true });
      let entry = await turnOf(listed, { adopt: true });
      if (entry?.adopted) entry = await turnOf(entry.adopted, { adopt: false });
      if (entry === null) continue;
      if (entry.outcome.status === 'queued') retry = true;
      entries.push(entry);
    }
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#clean = !retry && !lost;
    if (!retry) {
      this.#backoff.succeeded();
    } else if (!this.#disposed && !lost) {
      this.#replaySoon(this.#backoff.failed(Date.now()));
    }
    return entries;
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

