// The holds of orders billed with their offer, once the orders have left the outbox: the outbox's
// billing records (web/offline/orders/outbox/billed_order.js), shared by every tab and process on it. A record
// holds its offer against every account snapshot generated before its `billedAt`, the loyalty
// service's time of a read made after the billing (null until one is known: it then holds against
// every snapshot). Who reads the account resolves it: the records of the guest that exist when a
// read starts were billed before that read, so its generated_at bounds their billing (its last
// millisecond when it is an HTTP Date, said to the second: the 'loyalty-api' shape). An outbox
// that cannot keep records (one of your own without putBilled, or a failed write) leaves them in
// this object's memory, as earlier versions did.
import { billedRecord } from '../orders/outbox/billed_order.js';

/** Whether a service time is written to the second (no fraction: an HTTP Date, as a 'loyalty-api' snapshot's time is). */
export const saidToTheSecond = (text) => typeof text === 'string' && /T\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/i.test(text);

/**
 * The billedAt that a read generated at `generatedAt` gives the billings before it, or null when
 * it says no time: that time, or with `toTheSecond` (the time is an HTTP Date, which stands for a
 * whole second) the last millisecond of its second, so that it is never before the billing.
 */
export function billedAtOf(generatedAt, { toTheSecond = false } = {}) {
  const at = typeof generatedAt === 'string' ? Date.parse(generatedAt) : NaN;
  return Number.isNaN(at) ? null : new Date(toTheSecond ? at + 999 : at).toISOString();
}

/** Whether `record` holds its offer against `snapshot`: generated before its billing was known to be in, or saying no time. */
export function holdsAgainstSnapshot(record, snapshot) {
  if (record.billedAt === null) return true;
  const generatedAt = Date.parse(snapshot?.generated_at ?? '');
  return Number.isNaN(generatedAt) || generatedAt < Date.parse(record.billedAt);
}

const keyOf = (record) => JSON.stringify([record.owner, record.basketId]);

export class BilledHolds {
  #outbox;
  #keptMs;
  #unwritten = new Map(); // key -> record the outbox could not keep

  /** outbox: the order outbox; keptMs(): how long a record is kept (the hybrid's maxStaleMs). */
  constructor({ outbox, keptMs }) {
    this.#outbox = outbox;
    this.#keptMs = keptMs;
  }

  /** Whether the outbox keeps records (every tab and process sees them). */
  get durable() {
    return typeof this.#outbox.putBilled === 'function' && typeof this.#outbox.listBilled === 'function';
  }

  /** The records of `owner`: the outbox's, and those kept in memory. */
  async read(owner) {
    const stored = this.durable ? await this.#outbox.listBilled(owner) : [];
    const keys = new Set(stored.map(keyOf));
    return [...stored, ...[...this.#unwritten.values()].filter((r) => r.owner === owner && !keys.has(keyOf(r)))];
  }

  /**
   * `order` was billed with its offer: its record is written before the order leaves the outbox
   * (so that one of the two always holds the offer); in memory when the outbox cannot keep it.
   * Resolves the record.
   */
  async keep(order) {
    const record = billedRecord(order, { keptMs: this.#keptMs() });
    try {
      if (!this.durable) throw new Error('no putBilled()');
      await this.#outbox.putBilled(record);
    } catch {
      this.#unwritten.set(keyOf(record), record);
    }
    return record;
  }

  /** The keys of `records` whose billing time is not known yet (a read starting now will bound it). */
  unresolved(records) {
    return records.filter((r) => r.billedAt === null).map((r) => ({ owner: r.owner, basketId: r.basketId }));
  }

  /**
   * A read that started after the records `keys` were listed answered a snapshot generated at
   * `generatedAt` (the service's clock; `toTheSecond`: an HTTP Date): those still without a
   * billing time get billedAtOf() it. Nothing changes when the read says no time.
   */
  async resolve(keys, generatedAt, { toTheSecond = false } = {}) {
    const billedAt = billedAtOf(generatedAt, { toTheSecond });
    if (billedAt === null || keys.length === 0) return;
    const wanted = new Set(keys.map(keyOf));
    for (const owner of new Set(keys.map((k) => k.owner))) {
      for (const record of await this.read(owner)) {
        if (record.billedAt !== null || !wanted.has(keyOf(record))) continue;
        const resolved = { ...record, billedAt };
        if (this.#unwritten.has(keyOf(record))) this.#unwritten.set(keyOf(record), resolved);
        else await this.#outbox.putBilled(resolved);
      }
    }
  }

  /** Forgets the records in memory that `snapshot` shows (only this hybrid ever counted them). */
  forgetShown(snapshot) {
    for (const [key, record] of this.#unwritten) if (!holdsAgainstSnapshot(record, snapshot)) this.#unwritten.delete(key);
  }
}
