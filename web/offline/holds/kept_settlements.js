// The settlements of claims (a spend, a release) that the store hub did not take when they were
// sent, kept until it does. Each is an entry of its own in the hybrid's snapshot store, under
// "hub-settlement:<kioskId>:<SHA-256 of its basket>", written and removed whole: nothing is ever
// read, changed and written back, so every hybrid sharing a store and a kiosk id (the kiosk page
// makes one per guest) keeps and sends them without losing one. Entries have the store's shape:
// { snapshot: { settlement }, savedAt }. A store without keys(prefix) (a caller's own) cannot say
// which entries it holds: its settlements are kept in this object's memory only.
import { sha256Hex } from '../storage/sha256_hex.js';

const PREFIX = 'hub-settlement:';
// The shared list of earlier versions, read once and turned into entries of their own.
const LIST_KEY = 'hub-settlements:';

const basketOf = ({ body }) => JSON.stringify([body.merchant_id, body.user_id, body.basket_id]);

export class KeptSettlements {
  #store;
  #prefix;
  #listKey;
  #memory = null; // key -> settlement, for a store without keys()
  #converted = null;

  /** store: a snapshot store; kioskId: this kiosk's id at the hub. */
  constructor({ store, kioskId }) {
    this.#store = store;
    this.#prefix = `${PREFIX}${kioskId}:`;
    this.#listKey = `${LIST_KEY}${kioskId}`;
    if (typeof store.keys !== 'function') this.#memory = new Map();
  }

  /** Whether they survive the process (the store can list its keys). */
  get durable() {
    return this.#memory === null;
  }

  /** Keeps `settlement` ({ op, body, keptAt, ... }) under its basket's key (a later one of the same basket replaces it). */
  async keep(settlement) {
    const key = await this.#keyOf(settlement);
    if (this.#memory !== null) {
      this.#memory.set(key, structuredClone(settlement));
      return;
    }
    await this.#store.save(key, { snapshot: { settlement }, savedAt: Date.now() });
  }

  /** The kept settlements: [{ key, settlement }] (an unreadable entry is skipped; the next look tries again). */
  async list() {
    if (this.#memory !== null) return [...this.#memory].map(([key, settlement]) => ({ key, settlement: structuredClone(settlement) }));
    await this.#convertList();
    const found = [];
    for (const key of await this.#store.keys(this.#prefix)) {
      const settlement = (await Promise.resolve(this.#store.load(key)).catch(() => null))?.snapshot?.settlement;
      if (typeof settlement?.op === 'string' && settlement.body) found.push({ key, settlement });
    }
    return found;
  }

  /** Forgets the entry `key` (sent, and taken by the hub). */
  async forget(key) {
    if (this.#memory !== null) this.#memory.delete(key);
    else await this.#store.remove(key);
  }

  async #keyOf(settlement) {
    return `${this.#prefix}${await sha256Hex(basketOf(settlement))}`;
  }

  // The list an earlier version kept under one key: each settlement becomes an entry, then the list goes.
  #convertList() {
    this.#converted ??= (async () => {
      const stored = (await Promise.resolve(this.#store.load(this.#listKey)).catch(() => null))?.snapshot?.settlements;
      if (!Array.isArray(stored)) return;
      for (const settlement of stored) if (settlement?.body) await this.keep(settlement);
      await this.#store.remove(this.#listKey);
    })().catch(() => {
      this.#converted = null; // tried again at the next look
    });
    return this.#converted;
  }
}
