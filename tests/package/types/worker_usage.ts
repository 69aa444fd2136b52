// Type-level use of `loyalty-qualifier/worker` (web/worker/worker.d.ts), checked by `npm test`.
import {
  QualifyError,
  createQualifierWorker,
  startQualifierWorker,
  type QualifierWorkerHost,
  type WorkerQualifier,
  type WorkerQualifierOptions,
} from 'loyalty-qualifier/worker';
import { HybridQualifier, LoyaltyClient, type QualifyResult, type ExplainResult, type ExplainEntry } from 'loyalty-qualifier';

const options: WorkerQualifierOptions = { now: () => new Date(), wasm: new URL('https://example.test/q.wasm') };
const first: WorkerQualifier = await createQualifierWorker('{"schema_version":1}', options);
const second = await createQualifierWorker(new TextEncoder().encode('{"schema_version":1}'), {
  worker: first.worker,
  now: 0,
});
const answer: QualifyResult = await first.qualify({ subtotal: '10.00', items: [{ id: 'a', price: 5 }] });
const explained: ExplainResult = await second.explain('{}');
const outcome: ExplainEntry = await second.offerOutcome('{}', { kind: 'points_product', id: 'pp_drip' });
await second.setSnapshot({ schema_version: 1, merchant: { id: 'm' }, user: { id: 'u' }, points_products: [] });
const { liveHandles, wasmMemoryBytes }: { liveHandles: number; wasmMemoryBytes: number } = await first.diagnostics();
await second.dispose();
const gone: boolean = second.disposed;
await first.terminate();
const host: QualifierWorkerHost = startQualifierWorker({ wasm: new URL('https://example.test/q.wasm') });
const third = await createQualifierWorker('{"schema_version":1}', { worker: host });
await third.dispose();
// HybridQualifier: true, a started worker, or a createQualifierWorker function; where its engine runs.
const client = new LoyaltyClient({ baseUrl: 'https://loyalty.example.test', merchantKey: 'mk_1', accessToken: 'at_1' });
const same: QualifierWorkerHost = startQualifierWorker({ worker: host });
const hybrids = [true, same, createQualifierWorker].map((worker) => new HybridQualifier({ client, worker }));
const where: 'worker' | 'thread' | null = hybrids[0]!.engineLocation;
// @ts-expect-error: engineLocation is read-only
hybrids[0]!.engineLocation = 'worker';
host.terminate();
try {
  await first.qualify({});
} catch (e) {
  if (e instanceof QualifyError) {
    const body: { code: number; message: string } = e.toJSON();
    void body;
  }
}
// @ts-expect-error: a misspelt request field is a compile error, as for Qualifier
await first.qualify({ subtotl: '1' });
void [answer, explained, outcome, liveHandles, wasmMemoryBytes, gone, where];
