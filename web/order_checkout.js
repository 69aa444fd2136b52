// Checkout that is safe to retry: every order gets one basket id, is written to a durable outbox
// before it is sent, and stays there until the service decides it. A network failure, a timeout
// or a 5xx says nothing about whether the service billed the order, so the order is re-sent
// with the same id (the service treats a repeated id as the same basket: a billed basket answers
// with what it billed and is never billed again) until it is 'billed' or 'refused'.
// HybridQualifier owns one OrderCheckout (internal module).
import { QualifyError } from './qualify_error.js';
import { isServiceUnavailable } from './loyalty_client.js';
import { RetryBackoff } from './retry_backoff.js';

const MAX_BASKET_ID_BYTES = 200;
const OFFER_KINDS = new Set(['reward', 'points_product']);

/** A random UUID (RFC 9562 version 4). */
export async function newBasketId() {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  let bytes;
  if (typeof webCrypto?.getRandomValues === 'function') {
    bytes = webCrypto.getRandomValues(new Uint8Array(16));
  } else {
    const cryptoModule = 'node:crypto';
    bytes = new Uint8Array((await import(/* @vite-ignore */ /* webpackIgnore: true */ cryptoModule)).randomBytes(16));
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Validated `offline` policy: { redeem: 'never' | 'provisional', maxDiscountCents } (internal). */
export function offlinePolicy(offline = {}) {
  if (offline === null || typeof offline !== 'object') throw new TypeError('offline must be an object');
  const { redeem = 'never', maxDiscount } = offline;
  if (redeem !== 'never' && redeem !== 'provisional') {
    throw new TypeError("offline.redeem must be 'never' or 'provisional'");
  }
  let maxDiscountCents = Infinity;
  if (maxDiscount !== undefined && maxDiscount !== Infinity) {
    maxDiscountCents = centsOf(maxDiscount);
    if (maxDiscountCents === null) {
      throw new TypeError('offline.maxDiscount must be a non-negative decimal amount, e.g. "5.00" or 5');
    }
  }
  return { redeem, maxDiscountCents };
}

/** "5.25" or 5.25 -> 525; null for anything else. Sub-cent digits round up (never over-promise). */
export function centsOf(amount) {
  const text = typeof amount === 'number' && Number.isFinite(amount) ? String(amount) : amount;
  const match = typeof text === 'string' ? /^(\d{1,13})(?:\.(\d{1,2})(\d*))?$/.exec(text.trim()) : null;
  if (match === null) return null;
  const [, whole, cents = '', rest = ''] = match;
  return Number(whole) * 100 + Number(cents.padEnd(2, '0')) + (/[1-9]/.test(rest) ? 1 : 0);
}

function decimalOf(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function checkRequest(request) {
  let value = request;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new QualifyError(400, 'request must be a JSON object (the qualifying body)');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new QualifyError(400, 'request must be a JSON object (the qualifying body)');
  }
  for (const field of ['id', 'state', 'rewards', 'points_products']) {
    if (Object.hasOwn(value, field)) {
      throw new QualifyError(400, `request must not carry ${field}: checkout sets it (use the offer and basketId options)`);
    }
  }
  return structuredClone(value);
}

function checkOffer(offer) {
  if (offer === null || offer === undefined) return null;
  if (typeof offer !== 'object' || !OFFER_KINDS.has(offer.kind) || typeof offer.id !== 'string' || offer.id === '') {
    throw new QualifyError(400, "offer must be null or { kind: 'reward' | 'points_product', id }");
  }
  return { kind: offer.kind, id: offer.id };
}

function checkBasketId(basketId) {
  if (basketId === undefined || basketId === null) return null;
  if (typeof basketId !== 'string' || basketId.length === 0 || new TextEncoder().encode(basketId).length > MAX_BASKET_ID_BYTES) {
    throw new QualifyError(400, `basketId must be a non-empty string of at most ${MAX_BASKET_ID_BYTES} bytes`);
  }
  return basketId;
}

/** The POST /api/baskets body that bills `request` as basket `basketId` with `offer`. */
function billingBody(request, offer, basketId) {
  const body = { ...request, id: basketId, state: 'billed' };
  if (offer) body[offer.kind === 'reward' ? 'rewards' : 'points_products'] = [offer.id];
  return body;
}

function queuedOutcome(order) {
  const offerNote = order.requestedOffer && order.offer === null
    ? ' It is queued at full price: no offer is redeemed while the service cannot confirm it.'
    : '';
  return {
    status: 'queued',
    basketId: order.basketId,
    discount: order.promisedDiscount ?? '0.00',
    message:
      'The loyalty service has not confirmed this order yet' +
      `${order.lastError ? ` (${order.lastError})` : ''}. It is kept and sent again with the same basket id ` +
      `until the service decides it; if the service already received it, it counts once.${offerNote}`,
  };
}

export class OrderCheckout {
  #client;
  #outbox;
  #owner;
  #policy;
  #onSettled;
  #backoff;
  #localDiscount;
  #flushing = null;
  #timer = null;
  #disposed = false;
  #onOnline = () => this.#replaySoon(0);

  /**
   * client: has saveBasket(body); outbox: an order outbox; owner: whose orders (the client's
   * identity); policy: offlinePolicy(); onOrderSettled(order, outcome) or null; backoff options;
   * localDiscount(request, offer): the local engine's discount text for the offer, or null.
   */
  constructor({ client, outbox, owner, policy, onOrderSettled, backoff, localDiscount }) {
    this.#client = client;
    this.#outbox = outbox;
    this.#owner = owner;
    this.#policy = policy;
    this.#onSettled = onOrderSettled ?? null;
    this.#backoff = new RetryBackoff(backoff);
    this.#localDiscount = localDiscount;
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

  async checkout(request, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('checkout options must be an object');
    if (typeof this.#client.saveBasket !== 'function') {
      throw new TypeError('checkout needs a client with saveBasket(body) (a LoyaltyClient)');
    }
    const body = checkRequest(request);
    const offer = checkOffer(options.offer);
    const basketId = checkBasketId(options.basketId) ?? (await newBasketId());
    const pending = await this.#pending();
    if (!pending.some((order) => order.basketId === basketId)) {
      const sequence = pending.reduce((max, order) => Math.max(max, order.sequence), 0) + 1;
      // Written before it is sent: from now on it is never lost, whatever happens to the answer.
      await this.#outbox.put({
        owner: this.#owner,
        basketId,
        sequence,
        queuedAt: Date.now(),
        body: billingBody(body, offer, basketId),
        requestedOffer: offer,
        offer,
        promisedDiscount: null,
        policyApplied: false,
        attempts: 0,
        lastError: null,
      });
    }
    const outcomes = await this.flush();
    const outcome = outcomes.find((o) => o.basketId === basketId);
    if (outcome) return outcome;
    const order = (await this.#pending()).find((o) => o.basketId === basketId);
    // Not in the outbox any more and not in this flush: decided by a concurrent flush.
    return order ? queuedOutcome(order) : { status: 'queued', basketId, discount: '0.00', message: 'The order is being decided by another replay.' };
  }

  /** The orders of this owner not decided yet, oldest first. */
  async pendingOrders() {
    return this.#pending();
  }

  /**
   * Sends the pending orders now, oldest first, each once, stopping at the first one whose outcome
   * stays unknown (the service is not reachable: the rest would fail alike). Resolves one outcome
   * per pending order, 'queued' for those still pending.
   */
  flush() {
    if (this.#flushing !== null) {
      // A flush is running: it may have listed the outbox before a new order was put. Run again.
      return this.#flushing.then(() => this.flush(), () => this.flush());
    }
    const run = () => this.#flushOnce();
    const locks = globalThis.navigator?.locks;
    const exclusive = typeof locks?.request === 'function'
      ? locks.request(`loyalty-qualifier-outbox:${this.#owner}`, run)  // one replay across tabs
      : run();
    this.#flushing = exclusive.finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #pending() {
    return (await this.#outbox.list()).filter((order) => order.owner === this.#owner);
  }

  async #flushOnce() {
    const outcomes = [];
    let reachable = true;
    for (const order of await this.#pending()) {
      if (!reachable || this.#disposed) {
        if (!order.policyApplied) {
          this.#applyPolicy(order); // it waits behind an undecided order: queued, as offline
          await this.#outbox.put(order);
        }
        outcomes.push(queuedOutcome(order));
        continue;
      }
      const { outcome, answered } = await this.#send(order);
      if (!answered) reachable = false;
      outcomes.push(outcome);
    }
    clearTimeout(this.#timer);
    this.#timer = null;
    if (reachable) {
      this.#backoff.succeeded();
    } else if (!this.#disposed) {
      this.#replaySoon(this.#backoff.failed(Date.now()));
    }
    return outcomes;
  }

  // One attempt: { outcome, answered }, answered false when no answer came (the service is not
  // reachable now).
  async #send(order) {
    order.attempts += 1;
    order.lastAttemptAt = Date.now();
    await this.#outbox.put(order);
    let answer;
    try {
      answer = await this.#client.saveBasket(order.body);
    } catch (e) {
      if (!(e instanceof QualifyError) || isServiceUnavailable(e)) {
        // Unknown outcome: the service may have billed it. Keep it, same id, same basket.
        order.lastError = e?.message ?? String(e);
        this.#applyPolicy(order);
        await this.#outbox.put(order);
        return { outcome: queuedOutcome(order), answered: false };
      }
      if (order.attempts > 1 && e.code !== 400) {
        // An earlier attempt got no answer (lost, or the process stopped while it was sent), so
        // it may have billed the basket. A 409 (another till completed, refunded or voided the
        // basket since) or a 401/404/406 does not say whether it did: the order stays queued,
        // never 'refused'. A 400 does say it: the service judges the contents only of a basket
        // it has not billed (a billed one answers a re-send with what it billed), and the
        // re-sent body is the one first sent, at most without its offer.
        order.lastError = `an earlier attempt got no answer, and the service now answers ${e.code}: ${e.message}`;
        await this.#outbox.put(order);
        return { outcome: queuedOutcome(order), answered: true };
      }
      const refused = await this.#settle(order, {
        status: 'refused',
        basketId: order.basketId,
        discount: '0.00',
        message: e.message,
      });
      return { outcome: refused, answered: true };
    }
    const billed = await this.#settle(order, {
      status: 'billed',
      basketId: order.basketId,
      discount: typeof answer?.discount === 'string' ? answer.discount : '0.00',
      message: 'Billed by the loyalty service.',
    });
    return { outcome: billed, answered: true };
  }

  // What the kiosk may promise for an order it cannot confirm now (applied once, at the first
  // unknown outcome): 'never' sends it again at full price; 'provisional' keeps the offer when the
  // local engine gives it a discount of at most maxDiscount. A basket the service already billed
  // is frozen, so a re-send with another offer answers with what was billed.
  #applyPolicy(order) {
    if (order.policyApplied) return;
    order.policyApplied = true;
    let keep = false;
    if (order.offer && this.#policy.redeem === 'provisional') {
      const { rewards, points_products: pointsProducts, id, state, ...request } = order.body;
      const discount = this.#localDiscount(request, order.offer);
      const cents = discount === null ? null : centsOf(discount);
      keep = cents !== null && cents > 0 && cents <= this.#policy.maxDiscountCents;
      if (keep) order.promisedDiscount = decimalOf(cents);
    }
    if (!keep) {
      order.offer = null;
      order.promisedDiscount = '0.00';
      delete order.body.rewards;
      delete order.body.points_products;
    }
  }

  async #settle(order, outcome) {
    await this.#outbox.remove(order);
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
      if (this.#flushing !== null) return;
      this.flush().catch(() => {
        // An unreadable outbox: the next trigger tries again.
      });
    }, delayMs);
    // Node: a replay waiting out a backoff does not keep the process alive (the orders wait in
    // the outbox for the next run); the start-up replay does.
    if (delayMs > 0) this.#timer?.unref?.();
  }
}
