// What checkout tells its caller: the outcome of an order ('billed' and 'refused' are final,
// 'queued' is not decided yet) and the errors of a checkout that placed nothing, each with its
// message. Every sentence a guest or a clerk reads about an order is written here.
import { QualifyError } from '../../engine/qualify_error.js';

/** Status of a checkout that could not store the order: nothing was placed, nothing was sent. */
export const NOT_PLACED = 507;

/** An error as one line, its code first when the message does not say it. */
export function describeError(e) {
  const text = e?.message ?? String(e);
  return e?.code !== undefined && !text.includes(String(e.code)) ? `${e.code}: ${text}` : text;
}

/** 507: the order could not be stored on this device (`cause`); nothing was placed or sent. */
export function notPlaced(cause) {
  const error = new QualifyError(
    NOT_PLACED,
    `The order was not placed and nothing was sent: it could not be stored on this device (${describeError(cause)}). ` +
      'Free space (or fix the storage) and check out again.',
  );
  error.cause = cause;
  return error;
}

/** 503: nobody knows whose order it is (the account cannot be read) and no credentials may be stored. */
export function ownerUnknown() {
  return new QualifyError(
    503,
    'The order was not placed and nothing was sent: the account could not be read to learn whose order it is, ' +
      'and no credentials are stored to replay it (storeCredentials: false).',
  );
}

/** 409: `basketId` is a pending order's with another basket or offer. */
export function basketIdInUse(basketId) {
  return new QualifyError(
    409,
    `basket id ${basketId} is already used by a pending order with another basket or offer: ` +
      'nothing was sent (give each order its own basket id; the same basket again returns its outcome)',
  );
}

/** The outcome's `withheld` member of an order placed without its held offer ({} otherwise). */
export function withheldFields(order) {
  return order.withheld ? { withheld: order.withheld } : {};
}

function derivedFields(order) {
  if (!order.derivedFrom) return withheldFields(order);
  return {
    originalBasketId: order.derivedFrom.basketId,
    offerRefused: { kind: order.derivedFrom.offer.kind, id: order.derivedFrom.offer.id, message: order.derivedFrom.message },
    shortfall: order.derivedFrom.promisedDiscount,
  };
}

/** The outcome of an order not decided yet: what is promised, and why it waits. */
export function queuedOutcome(order) {
  let discount;
  let offerNote = '';
  if (order.offer === null) {
    discount = order.promisedDiscount ?? '0.00';
    if (order.withheld) {
      offerNote = ` It is queued at full price: ${order.withheld.kind} ${order.withheld.id} is not redeemed (${order.withheld.message}).`;
    } else if (order.requestedOffer && !order.derivedFrom) {
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
    ...withheldFields(order),
    discount,
    message:
      'The loyalty service has not confirmed this order yet' +
      `${order.lastError ? ` (${order.lastError})` : ''}. It is kept and sent again with the same basket id ` +
      `until the service decides it; if the service already received it, it counts once.${offerNote}`,
    lastError: order.lastError ?? null,
  };
}

/** The outcome of an order the service refused with `message`. */
export function refusedOutcome(order, message) {
  return { status: 'refused', basketId: order.basketId, ...derivedFields(order), discount: '0.00', message };
}

/** The outcome of an order the service billed, from its answer ({ discount, offer? }). */
export function billedOutcome(order, answer) {
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
      : order.withheld
        ? `Billed by the loyalty service at full price: ${order.withheld.kind} ${order.withheld.id} was not redeemed (${order.withheld.message}).`
        : 'Billed by the loyalty service.',
  };
  if (answer && typeof answer === 'object' && Object.hasOwn(answer, 'offer')) billed.offer = answer.offer;
  return billed;
}

/**
 * Whether the service's answer to POST /api/baskets says it billed basket `basketId`: only the
 * basket itself, with this id and state 'billed'. Anything else (an empty answer, a 204, an
 * array, another basket) leaves the order's outcome unknown.
 */
export function isBilledAnswer(answer, basketId) {
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer) && answer.id === basketId && answer.state === 'billed';
}

/** lastError of an order whose answer was not the billed basket. */
export function unknownAnswer(answer, basketId) {
  let what;
  if (answer === undefined) what = 'an empty answer';
  else if (answer === null || typeof answer !== 'object') what = `${JSON.stringify(answer)}`;
  else if (Array.isArray(answer)) what = 'an array, not the basket';
  else if (answer.id !== basketId) what = `basket ${JSON.stringify(answer.id ?? null)}, not ${basketId}`;
  else what = `state ${JSON.stringify(answer.state ?? null)}, not "billed"`;
  return `the service answered with ${what}: that does not say this order was billed, so it is sent again with the same basket id`;
}

/** lastError of an order left by a replayer whose replay lock was taken over. */
export const LOCK_LOST =
  'this replay was paused longer than the replay lock allows and another replayer took the lock over: that one decides this order';

/** lastError of an order not sent because its service gave no answer to an earlier one. */
export const behindUnanswered = (service, reason) =>
  `not sent: the service at ${service} gave no answer to an earlier order of this replay (${reason}); it is sent at the next replay`;
