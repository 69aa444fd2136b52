// The wire between the wasm module's bindings and the qualifier: how answers cross as numbers in
// wasm memory, declared once on this side (the module reports its own layout, wire_layout(), and
// the repository's tests check this table against it). Offers have one numbering on both sides:
// rewards first, then points products.

/** The layout constants, as the wasm module's bindings declare them. */
export const WIRE = Object.freeze({
  // Offer table, per offer number: [entity address, entity bytes, id address, id bytes].
  offer_fields: 4,
  // Explanation header words.
  header_words: 4,
  entry_count: 0,
  best_entry: 1,
  text_address: 2,
  text_bytes: 3,
  // Entry head flag; reason word: code in the low byte, flags above.
  qualifies: 1,
  reason_code_mask: 0xff,
  has_remaining: 1 << 8,
  has_points_needed: 1 << 9,
});

const OFFER_FIELDS = WIRE.offer_fields;
const HEADER_WORDS = WIRE.header_words;
const QUALIFIES = WIRE.qualifies;
const REASON_CODE_MASK = WIRE.reason_code_mask;
const HAS_REMAINING = WIRE.has_remaining;
const HAS_POINTS_NEEDED = WIRE.has_points_needed;
const TWO_32 = 4294967296;

const decoder = new TextDecoder();

/** UTF-8 text the engine keeps in wasm memory. */
export function wasmText(module, address, length) {
  return decoder.decode(module.HEAPU8.subarray(address, address + length));
}

/** The offer table of a loaded snapshot, copied out of wasm memory. */
export function readOfferTable(module, address, count) {
  const at = address >>> 2;
  return module.HEAPU32.slice(at, at + OFFER_FIELDS * count);
}

/** Offer `number`'s entity JSON text. */
export function entityText(module, table, number) {
  const at = OFFER_FIELDS * number;
  return wasmText(module, table[at], table[at + 1]);
}

/** Offer `number`'s id. */
export function idText(module, table, number) {
  const at = OFFER_FIELDS * number;
  return wasmText(module, table[at + 2], table[at + 3]);
}

/** The qualifying set: `offerOf(number)` for every offer number of the answer at `address`. */
export function decodeQualify(module, address, offerOf) {
  const heap = module.HEAPU32;
  let at = address >>> 2;
  const rewardCount = heap[at];
  const pointsProductCount = heap[at + 1];
  at += 2;
  const rewards = new Array(rewardCount);
  for (let i = 0; i < rewardCount; ++i) rewards[i] = offerOf(heap[at + i]);
  at += rewardCount;
  const pointsProducts = new Array(pointsProductCount);
  for (let i = 0; i < pointsProductCount; ++i) pointsProducts[i] = offerOf(heap[at + i]);
  return { rewards, points_products: pointsProducts };
}

// ---- Reasons: names and message templates, read once per module from wire_layout(). ----------

const FIELD = /\{(remaining|points_needed)\}/;
const reasonTables = new WeakMap();

/**
 * Per reason code: its name and message template, cut around its figure's field
 * ({ code, field: 'remaining' | 'points_needed' | null, before, after }).
 */
function reasonTable(module) {
  let table = reasonTables.get(module);
  if (table === undefined) {
    table = JSON.parse(module.wire_layout()).reasons.map(({ code, message }) => {
      const match = FIELD.exec(message);
      if (match === null) return { code, field: null, before: message, after: '' };
      return {
        code,
        field: match[1],
        before: message.slice(0, match.index),
        after: message.slice(match.index + match[0].length),
      };
    });
    reasonTables.set(module, table);
  }
  return table;
}

/** An int64 the engine wrote as two int32 words: a number when exact, else a BigInt. */
function int64Of(low, high) {
  if (high >= -0x200000 && high < 0x200000) return high * TWO_32 + (low >>> 0);
  return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low >>> 0));
}

/**
 * The explanation at `address` (docs/reference.md#explain): `idOf(number)` names an offer, and
 * `rewardCount` tells rewards (lower numbers) from points products.
 */
export function decodeExplanation(module, address, idOf, rewardCount) {
  const table = reasonTable(module);
  const words = module.HEAP32;
  let at = address >>> 2;
  const count = words[at + WIRE.entry_count];
  const bestEntry = words[at + WIRE.best_entry];
  // The money figures, as the engine formats them, one after the other.
  const text = wasmText(module, words[at + WIRE.text_address] >>> 0, words[at + WIRE.text_bytes]);
  let cursor = 0;
  at += HEADER_WORDS;
  const entries = new Array(count);
  let best = null;
  for (let e = 0; e < count; ++e) {
    const head = words[at];
    const number = words[at + 1];
    const id = idOf(number);
    const discount = text.slice(cursor, (cursor += words[at + 2]));
    const reasonCount = words[at + 3];
    at += 4;
    const reasons = new Array(reasonCount);
    for (let r = 0; r < reasonCount; ++r) {
      const word = words[at++];
      const kind = table[word & REASON_CODE_MASK];
      let remaining;
      let pointsNeeded;
      if (word & HAS_REMAINING) remaining = text.slice(cursor, (cursor += words[at++]));
      if (word & HAS_POINTS_NEEDED) {
        pointsNeeded = int64Of(words[at], words[at + 1]);
        at += 2;
      }
      let message = kind.before;
      if (kind.field === 'remaining') {
        message += (remaining ?? '0.00') + kind.after;
      } else if (kind.field === 'points_needed') {
        message += String(pointsNeeded ?? 0) + kind.after;
      }
      const reason = { code: kind.code, message };
      if (remaining !== undefined) reason.remaining = remaining;
      if (pointsNeeded !== undefined) reason.points_needed = Number(pointsNeeded);
      reasons[r] = reason;
    }
    entries[e] = {
      id,
      kind: number < rewardCount ? 'reward' : 'points_product',
      qualifies: (head & QUALIFIES) !== 0,
      discount,
      reasons,
    };
    if (e === bestEntry) best = id;
  }
  return { entries, best };
}
