// Type-level use of `loyalty-qualifier/react` (web/react/react.d.ts), checked by `npm test`: the
// hooks take the package's sources and baskets, and their state narrows on `status`.
import { LoyaltyClient, createQualifier, type QualifyResult, type Snapshot } from 'loyalty-qualifier';
import { createQualifierWorker } from 'loyalty-qualifier/worker';
import { useHybridQualifier, useOffers, type OffersState, type OfferSource } from 'loyalty-qualifier/react';

const client = new LoyaltyClient({ baseUrl: 'https://loyalty.example.test', merchantKey: 'mk_1', accessToken: 'at_1' });
const basket = { subtotal: '4.75', items: [{ id: 'latte', price: '4.75' }] };

export function Offers(): string {
  const hybrid = useHybridQualifier({ client }, [client]);
  const state: OffersState = useOffers(hybrid, basket, { explain: true });
  if (state.status === 'error') {
    state.result satisfies null;
    return String(state.error);
  }
  const result: QualifyResult | null = state.result;
  const best = state.explanation?.best ?? null;
  // @ts-expect-error 'done' is no status
  if (state.status === 'done') return '';
  return `${result?.rewards.length ?? 0} ${best}`;
}

const snapshot: Snapshot = { schema_version: 1, merchant: { id: 'm_1' }, user: { id: 'u_1' }, rewards: [] };
const sources: OfferSource[] = [await createQualifier(snapshot), await createQualifierWorker(JSON.stringify(snapshot))];
useOffers(sources[0], JSON.stringify(basket));
useOffers(null, null);
// @ts-expect-error a client is no source of offers
useOffers(client, basket);
