// Checkout that is safe to retry: every order gets one basket id, is written to a durable outbox
// before it is sent, and stays there until the service decides it. A network failure, a timeout
// or a 5xx says nothing about whether the service billed the order, so the order is re-sent
// with the same id (the service treats a repeated id as the same basket: a billed basket answers
// with what it billed and is never billed again) until it is 'billed' or 'refused'.
//
// An order belongs to the (merchant, user) of the account read (never to a token or a URL), and
// keeps what its replay needs (by default the credentials it was placed with), so every order on
// the device is replayed whichever guest is on screen. Once durably queued, checkout never
// rejects; an order is never altered after an attempt that may have reached the service. A
// provisional order whose offer the service refuses on replay is billed without the offer under
// a derived, stable basket id. HybridQualifier owns one OrderCheckout (internal module).
import { centsOf, decimalOfCents } from '../account/money_text.js';
import { QualifyError } from '../engine/qualify_error.js';
import { LoyaltyClient, isServiceUnavailable, wasNotSent } from '../http/loyalty_client.js';
import { RetryBackoff } from '../http/retry_backoff.js';
import { sameJson } from '../storage/json_equality.js';
import { sha256Hex } from '../storage/sha256_hex.js';

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
    maxDiscountCents = centsOf(maxDiscount, { round: 'up' }); // never over-promise
    if (maxDiscountCents === null) {
      throw new TypeError('offline.maxDiscount must be a non-negative decimal amount, e.g. "5.00" or 5');
    }
  }
  return { redeem, maxDiscountCents };
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


/** Status of a checkout that could not store the order: nothing was placed, nothing was sent. */
export const NOT_PLACED = 507;

/** The owner of the orders of (merchant, user): JSON.stringify([merchantId, userId]). */
export function ownerOf(merchantId, userId) {
  return JSON.stringify([merchantId, userId]);
}

/** { owner, merchantId, userId } of an account snapshot, or null when it names no user. */
export function ownerOfSnapshot(snapshot) {
  const merchantId = snapshot?.merchant?.id;
  const userId = snapshot?.user?.id;
  if (typeof merchantId !== 'string' || merchantId === '' || typeof userId !== 'string' || userId === '') return null;
  return { owner: ownerOf(merchantId, userId), merchantId, userId };
}

// An order queued before its guest's account could be read (the first checkout of a guest during
// an outage): its owner is settled by the first client with the same credentials that knows it.
const UNRESOLVED_OWNER = ownerOf(null, null);

// Orders of the previous layout: owner = a 32-bit fingerprint of (base URL, merchant key, token),
// no stored credentials. A fingerprint is not an identity (collisions were found), so no client
// claims them by it: they are listed with every pending order and replayed only with the
// credentials credentialsFor(order) gives (or settled by hand).
const isLegacy = (order) => !order.owner.startsWith('[');
const isUnresolved = (order) => order.owner === UNRESOLVED_OWNER;
const keyOf = (order) => JSON.stringify([order.owner, order.basketId]);
const sameCredentials = (a, b) =>
  a != null && b != null && a.baseUrl === b.baseUrl && a.merchantKey === b.merchantKey && a.accessToken === b.accessToken;

// The qualifying body of an order as checkout() was given it.
function requestOf(order) {
  if (order.request) return order.request;
  const { rewards, points_products: pointsProducts, id, state, ...request } = order.body;
  return request;
}

// An attempt that may have reached the service was made (orders of the previous layout: any).
const maybeSent = (order) => order.maybeSent ?? order.attempts > 0;

const DERIVED_SUFFIX = '~without-offer';

/**
 * The basket id of the sale of `basketId` billed without its offer: `<id>~without-offer`, or,
 * when that would pass the service's 200 bytes, `without-offer~<SHA-256 hex of the id>`. The same
 * id gives the same derived id, in every process.
 */
export async function derivedBasketId(basketId) {
  const bytes = new TextEncoder().encode(basketId).length;
  if (bytes + DERIVED_SUFFIX.length <= MAX_BASKET_ID_BYTES) return basketId + DERIVED_SUFFIX;
  return `without-offer~${await sha256Hex(basketId)}`;
}

function describeError(e) {
  const text = e?.message ?? String(e);
  return e?.code !== undefined && !text.includes(String(e.code)) ? `${e.code}: ${text}` : text;
}

function notPlaced(cause) {
  const error = new QualifyError(
    NOT_PLACED,
    `The order was not placed and nothing was sent: it could not be stored on this device (${describeError(cause)}). ` +
      'Free space (or fix the storage) and check out again.',
  );
  error.cause = cause;
  return error;
}

function derivedFields(order) {
  if (!order.derivedFrom) return {};
  return {
    originalBasketId: order.derivedFrom.basketId,
    offerRefused: { kind: order.derivedFrom.offer.kind, id: order.derivedFrom.offer.id, message: order.derivedFrom.message },
    shortfall: order.derivedFrom.promisedDiscount,
  };
}

function queuedOutcome(order) {
  let discount;
  let offerNote = '';
  if (order.offer === null) {
    discount = order.promisedDiscount ?? '0.00';
    if (order.requestedOffer && !order.derivedFrom) {
      offerNote = ' It is queued at full price: no offer is redeemed (nothing was sent before the offline policy took it off).';
    }
  } else if (order.promisedDiscount !== null) {
    discount = order.promisedDiscount;
    offerNote = ` It is queued with the offer, provisionally (${order.promisedDiscount} off).`;
  } else {
    discount = null;
    offerNote =
      ' The offer may or may not be redeemed: an attempt may have reached the service, so the order is re-sent unchanged, and its discount is known once the service answers.';
  }
  return {
    status: 'queued',
    basketId: order.basketId,
    ...(order.derivedFrom ? { originalBasketId: order.derivedFrom.basketId } : {}),
    discount,
    message:
      'The loyalty service has not confirmed this order yet' +
      `${order.lastError ? ` (${order.lastError})` : ''}. It is kept and sent again with the same basket id ` +
      `until the service decides it; if the service already received it, it counts once.${offerNote}`,
    lastError: order.lastError ?? null,
  };
}

// One replay at a time per outbox object in this process, for outboxes without exclusive().
const inProcessLocks = new WeakMap();

function exclusively(outbox, run) {
  if (typeof outbox.exclusive === 'function') return Promise.resolve(outbox.exclusive(run));
  const locks = globalThis.navigator?.locks;
  if (typeof locks?.request === 'function') return locks.request('loyalty-qualifier-outbox', run); // across tabs
  const previous = inProcessLocks.get(outbox) ?? Promise.resolve();
  const result = previous.then(run, run);
  inProcessLocks.set(outbox, result.then(() => undefined, () => undefined));
  return result;
}

export class OrderCheckout {
  #client;
  #outbox;
  #identify;
  #knownOwner;
  #policy;
  #onSettled;
  #credentialsFor;
  #storeCredentials;
  #backoff;
  #localDiscount;
  #unremoved = new Set();
  #flushing = null;
  #timer = null;
  #disposed = false;
  #onOnline = () => this.#replaySoon(0);

  /**
   * client: has saveBasket(body) (and, a LoyaltyClient, credentials() and withCredentials());
   * outbox: an order outbox; identify(): resolves { owner, merchantId, userId } of the guest on
   * screen or null (may read the account); knownOwner(): the same, without reading, or null;
   * policy: offlinePolicy(); onOrderSettled(order, outcome) or null; credentialsFor(order) or
   * null; storeCredentials; backoff options; localDiscount(request, offer): the local engine's
   * discount text for the offer, or null (or a promise of it: an engine in a worker).
   */
  constructor({ client, outbox, identify, knownOwner, policy, onOrderSettled, credentialsFor, storeCredentials = true, backoff, localDiscount }) {
    this.#client = client;
    this.#outbox = outbox;
    this.#identify = identify;
    this.#knownOwner = knownOwner;
    this.#policy = policy;
    this.#onSettled = onOrderSettled ?? null;
    this.#credentialsFor = credentialsFor ?? null;
    this.#storeCredentials = storeCredentials;
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
    const me = await this.#identify();
    let credentials = null;
    if (this.#storeCredentials && typeof this.#client.credentials === 'function') {
      try {
        credentials = await this.#client.credentials();
      } catch {
        credentials = null; // no token now: the order is replayed by its guest's client
      }
    }
    if (me === null && credentials === null) {
      throw new QualifyError(
        503,
        'The order was not placed and nothing was sent: the account could not be read to learn whose order it is, ' +
          'and no credentials are stored to replay it (storeCredentials: false).',
      );
    }
    let orders;
    try {
      orders = await this.#outbox.list();
    } catch (e) {
      throw notPlaced(e);
    }
    const mine = (order) => this.#isMine(order, me, credentials);
    const existing = orders.find((o) => mine(o) && (o.basketId === basketId || o.derivedFrom?.basketId === basketId));
    let order;
    if (existing) {
      const existingOffer = existing.derivedFrom ? existing.derivedFrom.offer : existing.requestedOffer ?? null;
      if (!sameJson(requestOf(existing), body) || !sameJson(existingOffer ?? null, offer)) {
        throw new QualifyError(
          409,
          `basket id ${basketId} is already used by a pending order with another basket or offer: ` +
            'nothing was sent (give each order its own basket id; the same basket again returns its outcome)',
        );
      }
      order = existing;
    } else {
      order = {
        owner: me?.owner ?? UNRESOLVED_OWNER,
        merchantId: me?.merchantId ?? null,
        userId: me?.userId ?? null,
        basketId,
        sequence: orders.reduce((max, o) => Math.max(max, o.sequence), 0) + 1,
        queuedAt: Date.now(),
        request: body,
        body: billingBody(body, offer, basketId),
        requestedOffer: offer,
        offer,
        promisedDiscount: null,
        policyApplied: false,
        attempts: 0,
        maybeSent: false,
        lastError: null,
      };
      if (credentials !== null) order.replay = credentials;
      try {
        // Written before it is sent: from now on it is never lost, whatever happens to the answer.
        await this.#outbox.put(order);
      } catch (e) {
        throw notPlaced(e);
      }
    }
    // Durably queued: from here on checkout never rejects (a failure is a 'queued' outcome).
    let outcomes;
    try {
      outcomes = await this.#flushEntries();
    } catch (e) {
      order.lastError = `the replay failed: ${describeError(e)}`;
      return queuedOutcome(order);
    }
    const outcome = outcomes.find(
      (o) => o.owner === order.owner && (o.outcome.basketId === order.basketId || o.outcome.originalBasketId === basketId),
    )?.outcome;
    if (outcome) return outcome;
    // Not in this flush: decided by another replayer meanwhile, or skipped.
    const left = (await this.#listQuietly()).find((o) => o.owner === order.owner && o.basketId === order.basketId);
    return queuedOutcome(left ?? { ...order, lastError: 'being decided by another replay' });
  }

  /** The orders of the guest on screen (all: every order on the device) not decided yet, oldest first. */
  async pendingOrders({ all = false } = {}) {
    const orders = await this.#outbox.list();
    if (all) return orders;
    const me = await this.#identify();
    const credentials = await this.#clientCredentials();
    return orders.filter((order) => this.#isMine(order, me, credentials));
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
    return (await this.#flushEntries()).map(({ outcome }) => outcome);
  }

  // The flush, each outcome with its order's owner (checkout() finds its own order by both).
  #flushEntries() {
    if (this.#flushing !== null) {
      // A flush is running: it may have listed the outbox before a new order was put. Run again.
      return this.#flushing.then(() => this.#flushEntries(), () => this.#flushEntries());
    }
    this.#flushing = exclusively(this.#outbox, () => this.#flushOnce()).finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #listQuietly() {
    try {
      return await this.#outbox.list();
    } catch {
      return [];
    }
  }

  // Whether `order` is the guest's on screen: its owner; or, not known yet (queued before the
  // account could be read), placed with exactly this client's credentials.
  #isMine(order, me, credentials) {
    if (me !== null && order.owner === me.owner) return true;
    if (isUnresolved(order)) return sameCredentials(order.replay, credentials);
    return false;
  }

  // Orders not owned yet (unresolved, or of the previous layout) that are this guest's become
  // theirs: put under the owner, then removed under the old key (a crash between leaves both;
  // the next listing removes the old one).
  // The on-screen client's credentials now, or null (a client without them, or a token that fails).
  async #clientCredentials() {
    if (typeof this.#client.credentials !== 'function') return null;
    try {
      return await this.#client.credentials();
    } catch {
      return null;
    }
  }

  async #adopt(orders) {
    const me = this.#knownOwner();
    if (me === null) return orders;
    const credentials = await this.#clientCredentials();
    const owned = new Set(orders.filter((o) => !isLegacy(o) && !isUnresolved(o)).map(keyOf));
    const result = [];
    for (const order of orders) {
      if (order.owner === me.owner || !(isLegacy(order) || isUnresolved(order)) || !this.#isMine(order, me, credentials)) {
        result.push(order);
        continue;
      }
      const adopted = { ...structuredClone(order), owner: me.owner, merchantId: me.merchantId, userId: me.userId };
      if (adopted.maybeSent === undefined) adopted.maybeSent = maybeSent(order);
      if (!adopted.replay && credentials !== null && this.#storeCredentials) adopted.replay = credentials;
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

  // Which client replays `order`: credentialsFor(order) when it gives some; the guest on
  // screen's client for their own orders; else the credentials stored with the order.
  async #replayClient(order, clients) {
    let credentials = null;
    if (this.#credentialsFor !== null) {
      try {
        credentials = await this.#credentialsFor(structuredClone(order));
      } catch (e) {
        return { error: `credentialsFor() failed: ${describeError(e)}` };
      }
    }
    if (credentials == null) {
      const me = this.#knownOwner();
      if (me !== null && order.owner === me.owner) {
        return { client: this.#client, key: this.#client.baseUrl ?? 'client' };
      }
      credentials = order.replay ?? null;
    }
    if (credentials == null) {
      return { error: 'no credentials to replay it: it waits for its guest (or a credentialsFor option that knows them)' };
    }
    const key = JSON.stringify([credentials.baseUrl, credentials.merchantKey, credentials.accessToken]);
    if (!clients.has(key)) {
      clients.set(key, typeof this.#client.withCredentials === 'function' ? this.#client.withCredentials(credentials) : new LoyaltyClient(credentials));
    }
    return { client: clients.get(key), key: credentials.baseUrl };
  }

  async #flushOnce() {
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
        await this.#quietly(() => this.#outbox.remove(order)).then((failed) => failed || this.#unremoved.delete(key));
        continue;
      }
      if (this.#disposed) {
        entries.push({ owner: order.owner, outcome: queuedOutcome(order) });
        continue;
      }
      const route = await this.#replayClient(order, clients);
      if (route.error || unreachable.has(route.key)) {
        // It waits (behind an undecided order of the same service, or for credentials): nothing
        // was sent, so the offline policy may still decide what it promises.
        if (route.error) order.lastError = route.error;
        if ((await this.#applyPolicy(order)) || route.error) await this.#quietly(() => this.#outbox.put(order));
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

  // Resolves the error of fn() (or null): a write that fails leaves the order as it was.
  async #quietly(fn) {
    try {
      await fn();
      return null;
    } catch (e) {
      return e;
    }
  }

  // One attempt: { outcome, answered, settledKeys }, answered false when no answer came (the
  // service is not reachable now).
  async #send(order, client) {
    const sentBefore = maybeSent(order);
    const firstAttempt = order.attempts === 0 && !order.policyApplied && !order.derivedFrom;
    order.attempts += 1;
    order.lastAttemptAt = Date.now();
    order.maybeSent = true;
    const unrecorded = await this.#quietly(() => this.#outbox.put(order));
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
      if (!(e instanceof QualifyError) || isServiceUnavailable(e)) {
        // Unknown outcome (unless it provably never left): the service may have billed it. Keep
        // it, same id, same basket.
        if (wasNotSent(e)) order.maybeSent = sentBefore;
        order.lastError = e?.message ?? String(e);
        await this.#applyPolicy(order);
        const failed = await this.#quietly(() => this.#outbox.put(order));
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
      const refused = await this.#settle(order, {
        status: 'refused',
        basketId: order.basketId,
        ...derivedFields(order),
        discount: '0.00',
        message: e.message,
      });
      return { outcome: refused, answered: true, settledKeys: [keyOf(order)] };
    }
    const billed = {
      status: 'billed',
      basketId: order.basketId,
      ...derivedFields(order),
      discount: typeof answer?.discount === 'string' ? answer.discount : '0.00',
      message: order.derivedFrom
        ? `Billed by the loyalty service without the offer: ${order.derivedFrom.offer.kind} ${order.derivedFrom.offer.id} ` +
          `was refused on replay (${order.derivedFrom.message}). The sale is recorded as basket ${order.basketId} ` +
          `(was ${order.derivedFrom.basketId}); the guest was promised ` +
          `${order.derivedFrom.promisedDiscount === null ? 'an unknown discount' : `${order.derivedFrom.promisedDiscount} off`}.`
        : 'Billed by the loyalty service.',
    };
    if (answer && typeof answer === 'object' && Object.hasOwn(answer, 'offer')) billed.offer = answer.offer;
    await this.#settle(order, billed);
    return { outcome: billed, answered: true, settledKeys: [keyOf(order)] };
  }

  async #keep(order, lastError) {
    order.lastError = lastError;
    const failed = await this.#quietly(() => this.#outbox.put(order));
    if (failed) order.lastError += `; and the order could not be updated on this device (${describeError(failed)})`;
    return { outcome: queuedOutcome(order), answered: true };
  }

  // The order's offer was refused (400) on replay: the same sale, without the offer, as its own
  // order under the derived basket id, stored before the original is removed and before it is
  // sent (a crash anywhere gives the same derived order again, never a second sale).
  async #billWithoutOffer(order, refusal, client) {
    const basketId = await derivedBasketId(order.basketId);
    const stored = (await this.#listQuietly()).find((o) => o.owner === order.owner && o.basketId === basketId);
    const derived = stored ?? {
      ...structuredClone(order),
      basketId,
      request: requestOf(order),
      body: billingBody(requestOf(order), null, basketId),
      offer: null,
      promisedDiscount: '0.00',
      policyApplied: true,
      attempts: 0,
      maybeSent: false,
      lastError: null,
      derivedFrom: {
        basketId: order.basketId,
        offer: order.offer,
        promisedDiscount: order.promisedDiscount,
        message: refusal.message,
      },
    };
    delete derived.lastAttemptAt;
    if (!stored) {
      const failed = await this.#quietly(() => this.#outbox.put(derived));
      if (failed) {
        return this.#keep(order, `its offer was refused (${refusal.message}), and the sale without it could not be stored (${describeError(failed)})`);
      }
    }
    await this.#quietly(() => this.#outbox.remove(order)); // if it stays, the next replay finds the derived order
    const sent = await this.#send(derived, client);
    return { ...sent, settledKeys: [keyOf(order), ...(sent.settledKeys ?? [])] };
  }

  // What the kiosk may promise for an order it cannot confirm now, decided while no attempt may
  // have reached the service (never after: the body is then frozen): 'never' sends it at full
  // price; 'provisional' keeps the offer when the local engine gives it a discount of at most
  // maxDiscount. True when it changed the order.
  // Once an attempt may have reached the service the body is frozen, but 'provisional' may still
  // promise the offer it carries (so a refusal later has a known shortfall).
  async #applyPolicy(order) {
    if (order.policyApplied) return false;
    order.policyApplied = true;
    const cents = await this.#provisionalCents(order);
    if (cents !== null) order.promisedDiscount = decimalOfCents(cents);
    if (maybeSent(order)) return true;
    if (cents === null) {
      order.offer = null;
      order.promisedDiscount = '0.00';
      delete order.body.rewards;
      delete order.body.points_products;
    }
    return true;
  }

  // The local engine's discount for the order's offer when 'provisional' may promise it (above 0,
  // at most maxDiscount), in cents; else null.
  async #provisionalCents(order) {
    if (!order.offer || this.#policy.redeem !== 'provisional') return null;
    const discount = await this.#localDiscount(requestOf(order), order.offer);
    const cents = discount === null ? null : centsOf(discount, { round: 'up' });
    return cents !== null && cents > 0 && cents <= this.#policy.maxDiscountCents ? cents : null;
  }

  async #settle(order, outcome) {
    const failed = await this.#quietly(() => this.#outbox.remove(order));
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
