// A schema-v1 snapshot (docs/reference.md#snapshot; the mapping: #account-read) from the loyalty service's own account read
// (GET /api/account), so that local answers work against the real service and not only against
// the local one, which serves the snapshot itself.
//
// The account read is already filtered by the service: it returns the rewards usable now, at the
// location and venue it was asked for. So rewards carry their discount fields and no restrictions
// of their own; a points product whose discount is not given (no `type`, or no `value` for a type
// that needs one) is kept with `cost` as its `points` and marked `discount_unknown`: it never
// qualifies locally (explain: DISCOUNT_UNKNOWN) and is left to the service's confirmation.
import { QualifyError } from '../engine/qualify_error.js';
import { tzRuleFromIntl } from './intl_tz_rule.js';

const SNAPSHOT_ERROR = 422;

// The discount fields of a reward (the reward entity without its location restriction, docs/reference.md#answer).
const REWARD_FIELDS = ['value', 'minimum', 'maximum', 'label', 'state', 'type', 'products', 'fine_print', 'retire_at'];
// The same for a points product whose discount is known (the points product entity).
const PRODUCT_DISCOUNT_FIELDS = ['value', 'minimum', 'maximum', 'type', 'products'];
// What every points product keeps.
const PRODUCT_FIELDS = ['label', 'state', 'fine_print', 'points_experience_id'];

const DECIMAL_FIELDS = new Set(['value', 'minimum', 'maximum']);
const STRING_FIELDS = new Set(['label', 'state', 'type', 'fine_print', 'retire_at', 'points_experience_id']);
const VENUES = ['instore', 'online'];

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const absent = (value) => value === undefined || value === null;

function reject(message) {
  throw new QualifyError(SNAPSHOT_ERROR, message);
}

// A list of the account body: absent or null is empty.
function listOf(account, key) {
  const list = account[key];
  if (absent(list)) return [];
  if (!Array.isArray(list)) reject(`account.${key} must be an array`);
  list.forEach((entry, i) => {
    if (!isObject(entry)) reject(`account.${key}[${i}] must be an object`);
  });
  return list;
}

function idOf(record, path) {
  const id = record.id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isInteger(id)) return String(id);
  return reject(`${path}.id is required (a string)`);
}

// A whole number of points from a number or an integer string; a fractional balance counts down.
function pointsOf(value, path, { floor }) {
  const number = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) {
    reject(`${path} must be a non-negative number (a JSON number or numeric string)`);
  }
  if (!floor && !Number.isInteger(number)) reject(`${path} must be a whole number of points`);
  return Math.floor(number);
}

// Copies the known fields present in `record`, checking their JSON type; the engine checks the
// decimal and timestamp formats when the snapshot is loaded.
function copyFields(target, record, fields, path) {
  for (const field of fields) {
    const value = record[field];
    if (absent(value)) continue;
    const at = `${path}.${field}`;
    if (DECIMAL_FIELDS.has(field)) {
      if (typeof value !== 'number' && typeof value !== 'string') {
        reject(`${at} must be a decimal (a JSON number or numeric string)`);
      }
    } else if (STRING_FIELDS.has(field)) {
      if (typeof value !== 'string') reject(`${at} must be a string`);
    } else if (field === 'products') {
      if (!Array.isArray(value) || !value.every((id) => typeof id === 'string')) {
        reject(`${at} must be an array of strings`);
      }
    }
    target[field] = value;
  }
  return target;
}

// A points product's discount can be computed locally when it names its type and, unless the
// type is `item` (whose value is only a cap), its value.
const discountKnown = (record) =>
  typeof record.type === 'string' && record.type !== '' && (!absent(record.value) || record.type === 'item');

// Epoch ms of a time option (a Date, epoch ms or an ISO 8601 string), or a TypeError naming it.
function instantOption(value, name) {
  const ms =
    typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value instanceof Date ? value.getTime() : NaN;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw new TypeError(`context.${name} must be a valid Date, epoch milliseconds or an ISO 8601 string`);
  }
  return ms;
}

function checkContext(context) {
  if (!isObject(context)) throw new TypeError('context must be an object with at least merchantId');
  const { merchantId, locationUid, venue, timeZone, fetchedAt, servedAt } = context;
  if (typeof merchantId !== 'string' || merchantId === '') {
    throw new TypeError('context.merchantId must be the merchant id (a non-empty string)');
  }
  if (!absent(locationUid) && (typeof locationUid !== 'string' || locationUid === '')) {
    throw new TypeError('context.locationUid must be a non-empty string');
  }
  if (!absent(venue) && !VENUES.includes(venue)) {
    throw new TypeError('context.venue must be one of: instore, online');
  }
  if (!absent(timeZone) && typeof timeZone !== 'string') {
    throw new TypeError('context.timeZone must be an IANA time zone name');
  }
  const fetchedMs = absent(fetchedAt) ? Date.now() : instantOption(fetchedAt, 'fetchedAt');
  const servedMs = absent(servedAt) ? null : instantOption(servedAt, 'servedAt');
  return { merchantId, locationUid, venue, timeZone, fetchedMs, servedMs };
}

// The snapshot's generated_at: the service's time when it said it (servedAt: an HTTP Date, to the
// second, written without a fraction so that readers know it stands for that whole second), else
// the kiosk's clock when it fetched the read.
function generatedAtOf(fetchedMs, servedMs) {
  if (servedMs === null) return new Date(fetchedMs).toISOString();
  const text = new Date(servedMs).toISOString();
  return servedMs % 1000 === 0 ? text.replace(/\.000Z$/, 'Z') : text;
}

/**
 * A schema-v1 snapshot from an account-read body of the loyalty service (object or JSON text).
 * `context`: `{ merchantId, locationUid?, venue?, timeZone?, fetchedAt?, servedAt? }`, what the
 * read was made for; `servedAt` (the service's time of the answer, its HTTP Date) is the
 * snapshot's generated_at when given, else `fetchedAt` (default now: this device's clock). Every account field is optional and unknown ones are ignored; decimals may be numbers
 * or numeric strings. Throws QualifyError (422) naming the field for a body that cannot be read,
 * TypeError for a bad context and RangeError for a time zone the runtime does not know.
 */
export function snapshotFromAccount(account, context) {
  const { merchantId, locationUid, venue, timeZone, fetchedMs, servedMs } = checkContext(context);
  let body = account;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch (e) {
      reject(`account is not valid JSON: ${e.message}`);
    }
  }
  if (!isObject(body)) reject('account must be a JSON object');

  const zone = {};
  if (!absent(timeZone)) {
    zone.time_zone = timeZone;
    zone.tz_rule = tzRuleFromIntl(timeZone, { at: servedMs ?? fetchedMs });
  }
  // The user's id; a read without one still gives a snapshot (its rewards are the user's anyway).
  let userId = '';
  if (!absent(body.id)) {
    if (typeof body.id !== 'string' && typeof body.id !== 'number') reject('account.id must be a string');
    userId = String(body.id);
  }

  // points_balances (later versions) or points (earlier ones), both [{points_experience_id, balance}].
  const balancesKey = absent(body.points_balances) ? 'points' : 'points_balances';
  const points = listOf(body, balancesKey).map((entry, i) => {
    const path = `account.${balancesKey}[${i}]`;
    if (typeof entry.points_experience_id !== 'string' || entry.points_experience_id === '') {
      reject(`${path}.points_experience_id is required (a string)`);
    }
    const balance = absent(entry.balance) ? 0 : pointsOf(entry.balance, `${path}.balance`, { floor: true });
    return { points_experience_id: entry.points_experience_id, balance };
  });

  const rewards = listOf(body, 'rewards').map((record, i) => {
    const path = `account.rewards[${i}]`;
    const reward = copyFields({ id: idOf(record, path) }, record, REWARD_FIELDS, path);
    // Read for one venue: usable there; at another, only the service can tell.
    if (!absent(venue)) reward.redemption_venue = venue;
    return reward;
  });

  const pointsProducts = listOf(body, 'points_products').map((record, i) => {
    const path = `account.points_products[${i}]`;
    const product = { id: idOf(record, path) };
    // `cost` (later versions) or `points` (earlier ones, as in the points product entity).
    const costKey = absent(record.cost) ? 'points' : 'cost';
    product.points = absent(record[costKey]) ? 0 : pointsOf(record[costKey], `${path}.${costKey}`, { floor: false });
    copyFields(product, record, PRODUCT_FIELDS, path);
    if (discountKnown(record)) {
      copyFields(product, record, PRODUCT_DISCOUNT_FIELDS, path);
      if (!absent(venue)) product.redemption_venue = venue;
    } else {
      product.discount_unknown = true;
    }
    return product;
  });

  const snapshot = {
    schema_version: 1,
    generated_at: generatedAtOf(fetchedMs, servedMs),
    merchant: { id: merchantId, ...zone },
    locations: absent(locationUid) ? [] : [{ uid: locationUid, merchant_id: merchantId, ...zone }],
    user: { id: userId },
    points,
    rewards,
    points_products: pointsProducts,
  };
  return snapshot;
}
