// The order record as the outbox keeps it: who owns it, the body re-sent on every attempt, and
// what is known of its attempts. An order belongs to the (merchant, user) of the account read
// (never to a token or a URL) and keeps what its replay needs (by default the credentials it was
// placed with). An order is never altered after an attempt that may have reached the service.
import { QualifyError } from '../../engine/qualify_error.js';
import { sha256Hex } from '../storage/sha256_hex.js';

const OFFER_KINDS = new Set(['reward', 'points_product']);

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
// Such orders are kept under an owner of their own per merchant key and token (unresolvedOwnerOf),
// so that a guest's decision reads those placed with the guest's credentials only, never every
// guest's; UNRESOLVED_OWNER holds those that earlier versions queued, all in one.
export const UNRESOLVED_OWNER = ownerOf(null, null);
const UNRESOLVED_PREFIX = '[null,null,';

/** The owner of the orders queued before an account was read with `credentials` (their merchant key and token, at any base URL). */
export async function unresolvedOwnerOf(credentials) {
  return JSON.stringify([null, null, await sha256Hex(JSON.stringify([credentials.merchantKey, credentials.accessToken]))]);
}

/** The owners whose orders may be those queued before an account was read with `credentials` (null: earlier versions' only). */
export async function unresolvedOwnersOf(credentials) {
  return credentials == null ? [UNRESOLVED_OWNER] : [await unresolvedOwnerOf(credentials), UNRESOLVED_OWNER];
}

/**
 * `lists` of one guest's orders merged, oldest first, an order listed twice (adopted meanwhile:
 * written under its guest, then removed from the orders of unknown owner) counted once, as its guest's.
 */
export function mergedOrders(...lists) {
  const byBasket = new Map();
  for (const order of lists.flat()) if (!byBasket.has(order.basketId) || isUnresolved(byBasket.get(order.basketId))) byBasket.set(order.basketId, order);
  return [...byBasket.values()].sort((a, b) => a.sequence - b.sequence);
}

// Orders of the previous layout: owner = a 32-bit fingerprint of (base URL, merchant key, token),
// no stored credentials. A fingerprint is not an identity (collisions were found), so no client
// claims them by it: they are listed with every pending order and replayed only with the
// credentials credentialsFor(order) gives (or settled by hand).
export const isLegacy = (order) => !order.owner.startsWith('[');
export const isUnresolved = (order) => order.owner === UNRESOLVED_OWNER || order.owner.startsWith(UNRESOLVED_PREFIX);
/** An order's identity in the outbox: (owner, basket id). */
export const keyOf = (order) => JSON.stringify([order.owner, order.basketId]);
/** The same guest's credentials: the same merchant key and token, at whatever base URL the service moved to. */
export const sameGuestCredentials = (a, b) => a != null && b != null && a.merchantKey === b.merchantKey && a.accessToken === b.accessToken;

let lastSequence = 0;
/** The next order's sequence: increasing in this process, after every order of earlier runs (epoch ms). */
export function nextSequence() {
  lastSequence = Math.max(Date.now(), lastSequence + 1);
  return lastSequence;
}

/** The qualifying body of an order as checkout() was given it. */
export function requestOf(order) {
  if (order.request) return order.request;
  const { rewards, points_products: pointsProducts, id, state, ...request } = order.body;
  return request;
}

/** An attempt that may have reached the service was made (orders of the previous layout: any). */
export const maybeSent = (order) => order.maybeSent ?? order.attempts > 0;

/** The checkout's `request`: a copy of the qualifying body (object or JSON text) without the fields checkout sets. */
export function checkRequest(request) {
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

/** The checkout option `offer`: null, or { kind, id } of a reward or points product. */
export function checkOffer(offer) {
  if (offer === null || offer === undefined) return null;
  if (typeof offer !== 'object' || !OFFER_KINDS.has(offer.kind) || typeof offer.id !== 'string' || offer.id === '') {
    throw new QualifyError(400, "offer must be null or { kind: 'reward' | 'points_product', id }");
  }
  return { kind: offer.kind, id: offer.id };
}

/** The POST /api/baskets body that bills `request` as basket `basketId` with `offer`. */
export function billingBody(request, offer, basketId) {
  const body = { ...request, id: basketId, state: 'billed' };
  if (offer) body[offer.kind === 'reward' ? 'rewards' : 'points_products'] = [offer.id];
  return body;
}

/**
 * A new order of `owner` ({ owner, merchantId, userId } or null: not known yet, then stored under
 * `unresolvedOwner`), queued after every order before it (nextSequence()); `replay`: the
 * credentials stored with it, or null.
 */
export function newOrder({ owner, unresolvedOwner = UNRESOLVED_OWNER, basketId, request, offer, replay }) {
  const order = {
    owner: owner?.owner ?? unresolvedOwner,
    merchantId: owner?.merchantId ?? null,
    userId: owner?.userId ?? null,
    basketId,
    sequence: nextSequence(),
    queuedAt: Date.now(),
    request,
    body: billingBody(request, offer, basketId),
    requestedOffer: offer,
    offer,
    promisedDiscount: null,
    policyApplied: false,
    attempts: 0,
    maybeSent: false,
    lastError: null,
  };
  if (replay !== null) order.replay = replay;
  return order;
}

/** Marks a new order placed without `offer` because it is held (`withheld`: { kind, id, code, message }). */
export function withholdOffer(order, offer, withheld) {
  order.requestedOffer = offer;
  order.withheld = withheld;
  order.promisedDiscount = '0.00';
  order.policyApplied = true;
}

/** The sale of `order` without its offer, refused with `message`, as its own order under `basketId`. */
export function orderWithoutOffer(order, basketId, message) {
  const derived = {
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
    derivedFrom: { basketId: order.basketId, offer: order.offer, promisedDiscount: order.promisedDiscount, message },
  };
  delete derived.lastAttemptAt;
  return derived;
}

/** `order` as the order of `owner` ({ owner, merchantId, userId }), replayed with `credentials` when it stores none. */
export function adoptedOrder(order, owner, credentials) {
  const adopted = { ...structuredClone(order), owner: owner.owner, merchantId: owner.merchantId, userId: owner.userId };
  if (adopted.maybeSent === undefined) adopted.maybeSent = maybeSent(order);
  if (!adopted.replay && credentials !== null) adopted.replay = credentials;
  return adopted;
}

/**
 * Whether `order` is the guest's on screen (`me`: { owner } or null): its owner; or, not known
 * yet (queued before the account could be read), placed with these `credentials`' merchant key
 * and token (at any base URL).
 */
export function isGuestsOrder(order, me, credentials) {
  if (me !== null && order.owner === me.owner) return true;
  if (isUnresolved(order)) return sameGuestCredentials(order.replay, credentials);
  return false;
}
