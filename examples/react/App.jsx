// An ordering page on loyalty-qualifier/react. useHybridQualifier gives the component a
// HybridQualifier for its life (disposed on unmount, StrictMode's double mount included);
// useOffers answers locally for the basket as it is now, and again when the guest's account or
// holds change (a refresh, an order placed or settled). Checkout takes a signal: "Cancel" stops
// waiting, and the basket id chosen up front makes asking again safe (docs/reference.md,
// "Cancellation and disposal").
import { useEffect, useMemo, useState } from 'react';
import { LoyaltyClient, newBasketId } from 'loyalty-qualifier';
import { useHybridQualifier, useOffers } from 'loyalty-qualifier/react';

import { MENU, basketOf } from './menu.js';

// The demo guest of the local service's demo data: Alex, at Harbor Coffee.
const GUEST = { accessToken: 'at_u1001_7Qx2LmN9pR4s', merchantKey: 'mk_harbor_5f1c9a7e2b' };

function Offers({ offers, chosen, onChoose }) {
  if (offers.status === 'error') return <p role="alert">Offers unavailable: {offers.error.message}</p>;
  const entries = offers.explanation?.entries.filter((e) => e.qualifies) ?? [];
  const labels = new Map([...(offers.result?.rewards ?? []), ...(offers.result?.points_products ?? [])].map((o) => [o.id, o.label]));
  return (
    <section aria-busy={offers.status === 'loading'}>
      <h2>Your rewards</h2>
      {entries.length === 0 ? <p>No reward applies to this basket.</p> : null}
      {entries.map((entry) => (
        <label key={entry.id} data-offer={entry.id}>
          <input type="radio" name="offer" checked={chosen?.id === entry.id} onChange={() => onChoose({ kind: entry.kind, id: entry.id })} />
          {labels.get(entry.id) ?? entry.id} (−${entry.discount})
        </label>
      ))}
    </section>
  );
}

export function App({ baseUrl = window.location.origin }) {
  const options = useMemo(() => ({ client: new LoyaltyClient({ baseUrl, ...GUEST }) }), [baseUrl]);
  const hybrid = useHybridQualifier(options, [options]);
  const [quantities, setQuantities] = useState({});
  const [chosen, setChosen] = useState(null);
  const [order, setOrder] = useState(null); // { basketId, controller } while checking out
  const [notice, setNotice] = useState('');
  // A new object each render: useOffers asks again only when its content changes.
  const basket = basketOf(quantities);
  const offers = useOffers(hybrid, basket.items.length > 0 ? basket : null, { explain: true });

  useEffect(() => {
    if (hybrid === null) return undefined;
    const settled = ({ order: placed, outcome }) => setNotice(`Order ${placed.basketId}: ${outcome.status}, $${outcome.discount} off.`);
    hybrid.addEventListener('ordersettled', settled);
    return () => hybrid.removeEventListener('ordersettled', settled);
  }, [hybrid]);

  const add = (id, change) => setQuantities((q) => ({ ...q, [id]: Math.max(0, (q[id] ?? 0) + change) }));

  async function checkout() {
    const controller = new AbortController();
    const basketId = order?.basketId ?? (await newBasketId()); // the same id when asked again
    setOrder({ basketId, controller });
    try {
      const outcome = await hybrid.checkout(basket, { offer: chosen, basketId, signal: controller.signal });
      setNotice(`${outcome.message} Discount: $${outcome.discount}.`);
      setOrder(null);
      setQuantities({});
      setChosen(null);
    } catch (e) {
      if (e.name === 'AbortError') setNotice('Stopped waiting. Pay again to learn what became of the order: it is never billed twice.');
      else if (e.name !== 'DisposedError') setNotice(e.message);
      setOrder((o) => (o === null ? null : { basketId: o.basketId, controller: null }));
    }
  }

  return (
    <main>
      <h1>Harbor Coffee</h1>
      <ul>
        {MENU.map((item) => (
          <li key={item.id}>
            {item.name} ${item.price} × <output data-quantity={item.id}>{quantities[item.id] ?? 0}</output>{' '}
            <button type="button" onClick={() => add(item.id, 1)} aria-label={`Add a ${item.name}`}>+</button>
            <button type="button" onClick={() => add(item.id, -1)} aria-label={`Remove a ${item.name}`}>−</button>
          </li>
        ))}
      </ul>
      <p>Subtotal: $<output data-subtotal>{basket.subtotal}</output></p>
      <Offers offers={offers} chosen={chosen} onChoose={setChosen} />
      <button type="button" onClick={checkout} disabled={hybrid === null || basket.items.length === 0 || Boolean(order?.controller)}>Pay</button>
      {order?.controller ? <button type="button" onClick={() => order.controller.abort()}>Cancel</button> : null}
      <p role="status">{notice}</p>
    </main>
  );
}
