// Type-level use of the events, { signal } and disposal (web/events/events.d.ts,
// web/lifecycle/lifecycle.d.ts), checked by `npm test` (tsc --noEmit): each listener gets its
// event's own fields, a misspelt event name or field is an error, DisposedError is a QualifyError.
import {
  DisposedError,
  HybridQualifier,
  LoyaltyClient,
  QualifyError,
  createQualifier,
  type CallOptions,
  type CheckoutOutcome,
  type HubReachabilityEvent,
  type OrderSettledEvent,
  type PendingOrder,
  type SnapshotChangeEvent,
  type SnapshotChangeReason,
  type Snapshot,
} from 'loyalty-qualifier';
import { createQualifierWorker, DisposedError as WorkerDisposedError } from 'loyalty-qualifier/worker';

const client = new LoyaltyClient({ baseUrl: 'https://loyalty.example.test', merchantKey: 'mk_1', accessToken: 'at_1' });
const hybrid = new HybridQualifier({ client });
const basket = { subtotal: '4.75', items: [{ id: 'latte', price: '4.75' }] };

hybrid.addEventListener('snapshotchange', (event) => {
  event.reason satisfies SnapshotChangeReason;
  event satisfies SnapshotChangeEvent;
});
hybrid.addEventListener('ordersettled', ({ order, outcome }) => {
  order satisfies PendingOrder;
  outcome satisfies CheckoutOutcome;
});
const onHub = (event: HubReachabilityEvent) => (event.reachable ? null : event.message);
hybrid.addEventListener('hubreachabilitychange', onHub, { once: true });
hybrid.removeEventListener('hubreachabilitychange', onHub);
hybrid.addEventListener('ordersettled', { handleEvent: (event: OrderSettledEvent) => event.outcome.status });
// @ts-expect-error a misspelt event name
hybrid.addEventListener('snapshotchanged', () => {});
// @ts-expect-error a snapshotchange carries no outcome
hybrid.addEventListener('snapshotchange', (event) => event.outcome);

const controller = new AbortController();
const options: CallOptions = { signal: controller.signal };
await hybrid.qualify(basket, options);
await hybrid.explain(basket, { signal: AbortSignal.timeout(500) });
await hybrid.checkout(basket, { offer: { kind: 'reward', id: 'rw_1' }, basketId: 'b-1', signal: controller.signal });
await hybrid.confirm(basket, options);
hybrid[Symbol.dispose]();
await hybrid[Symbol.asyncDispose]();

try {
  await hybrid.qualify(basket);
} catch (e) {
  if (e instanceof DisposedError) {
    e.code satisfies 410;
    e.name satisfies 'DisposedError';
    e satisfies QualifyError;
  }
}

// The least snapshot the engine loads: it names a list (a misspelt one is a type error).
const snapshot: Snapshot = { schema_version: 1, merchant: { id: 'm_1' }, user: { id: 'u_1' }, rewards: [] };
const q = await createQualifier(snapshot);
q.addEventListener('snapshotchange', (event) => event.reason);
// @ts-expect-error a Qualifier settles no orders
q.addEventListener('ordersettled', () => {});
q[Symbol.dispose]();

const worker = await createQualifierWorker(JSON.stringify(snapshot));
await worker.qualify(basket, { signal: controller.signal });
worker.addEventListener('snapshotchange', (event) => event.reason);
await worker[Symbol.asyncDispose]();
DisposedError satisfies typeof WorkerDisposedError;
