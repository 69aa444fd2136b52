// What the page sells, and a basket as the loyalty service reads it (the qualifying body).

export const MENU = [
  { id: 'latte', name: 'Latte', price: '4.75', categories: ['coffee'] },
  { id: 'drip_coffee', name: 'Drip coffee', price: '2.50', categories: ['coffee'] },
  { id: 'croissant', name: 'Croissant', price: '3.75', categories: ['pastry'] },
];

const cents = (price) => Math.round(Number(price) * 100);
const money = (amount) => (amount / 100).toFixed(2);

/** The basket of `quantities` ({ [item id]: count }) at the store, in store. */
export function basketOf(quantities) {
  const items = MENU.filter((item) => quantities[item.id] > 0).map((item) => ({ ...item, quantity: quantities[item.id] }));
  const subtotal = items.reduce((sum, item) => sum + cents(item.price) * item.quantity, 0);
  return { redemption_venue: 'instore', location_uid: 'harbor-downtown', subtotal: money(subtotal), items };
}
