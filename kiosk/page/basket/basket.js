// The basket: lines of one menu item with its chosen modifiers and a quantity, and the qualifying
// request (API spec 2.1, contract 2) it stands for.
import { centsToDecimal, parseCents } from './money.js';

/** One line per distinct item + modifier set; adding the same again raises its quantity. */
export class Basket {
  #lines = [];

  get lines() {
    return this.#lines;
  }

  get isEmpty() {
    return this.#lines.length === 0;
  }

  get count() {
    return this.#lines.reduce((sum, line) => sum + line.quantity, 0);
  }

  /** item: a menu item; modifiers: menu modifiers ({id, name, price}). Returns the line. */
  add(item, modifiers = [], quantity = 1) {
    const ids = modifiers.map((m) => m.id).sort();
    const key = [item.id, ...ids].join('+');
    let line = this.#lines.find((l) => l.key === key);
    if (line) {
      line.quantity += quantity;
    } else {
      line = { key, item, modifiers: [...modifiers], quantity };
      this.#lines.push(line);
    }
    return line;
  }

  /** Sets a line's quantity; 0 or less removes it. */
  setQuantity(key, quantity) {
    const index = this.#lines.findIndex((l) => l.key === key);
    if (index < 0) return;
    if (quantity <= 0) this.#lines.splice(index, 1);
    else this.#lines[index].quantity = quantity;
  }

  clear() {
    this.#lines = [];
  }

  /** The full price of one unit of a line (item + its modifiers), in cents. */
  static unitCents(line) {
    return line.modifiers.reduce((sum, m) => sum + parseCents(m.price), parseCents(line.item.price));
  }

  static lineCents(line) {
    return Basket.unitCents(line) * line.quantity;
  }

  get subtotalCents() {
    return this.#lines.reduce((sum, line) => sum + Basket.lineCents(line), 0);
  }

  /** The items of the qualifying request: one unit price, its modifiers and a quantity. */
  requestItems() {
    return this.#lines.map(({ item, modifiers, quantity }) => ({
      id: item.id,
      name: item.name,
      price: centsToDecimal(parseCents(item.price)),
      categories: [...(item.categories ?? [])],
      modifiers: modifiers.map((m) => ({
        id: m.id,
        name: m.name,
        price: centsToDecimal(parseCents(m.price)),
        item_base_price: centsToDecimal(parseCents(item.price)),
      })),
      quantity,
    }));
  }

  /**
   * The qualifying request for this basket and order setup. An empty basket sends neither items
   * nor subtotal (the contract's empty-basket rule then gives no offers).
   */
  request({ venue, locationUid, handoff, orderTimestamp }) {
    const request = { redemption_venue: venue };
    if (orderTimestamp) request.order_timestamp = orderTimestamp;
    if (locationUid) request.location_uid = locationUid;
    if (handoff) request.handoff = handoff;
    if (!this.isEmpty) {
      request.subtotal = centsToDecimal(this.subtotalCents);
      request.items = this.requestItems();
    }
    return request;
  }
}
