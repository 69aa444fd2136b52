// Type-level use of `loyalty-qualifier/worker` (web/worker/worker.d.ts), checked by `npm test`.
import {
  QualifyError,
  createQualifierWorker,
  startQualifierWorker,
  type QualifierWorkerHost,
  type WorkerQualifier,
  type WorkerQualifierOptions,
} from 'loyalty-qualifier/worker';
import type { QualifyResult, ExplainResult } from 'loyalty-qualifier';

const options: WorkerQualifierOptions = { now: () => new Date(), wasm: new URL('https://example.test/q.wasm') };
const first: WorkerQualifier = await createQualifierWorker('{"schema_version":1}', options);
const second = await createQualifierWorker(new TextEncoder().encode('{"schema_version":1}'), {
  worker: first.worker,
  now: 0,
});
const answer: QualifyResult = await first.qualify({ subtotal: '10.00', items: [{ id: 'a', price: 5 }] });
const explained: ExplainResult = await second.explain('{}');
await second.setSnapshot({ schema_version: 1 });
const { liveHandles, wasmMemoryBytes }: { liveHandles: number; wasmMemoryBytes: number } = await first.diagnostics();
await second.dispose();
const gone: boolean = second.disposed;
await first.terminate();
const host: QualifierWorkerHost = startQualifierWorker({ wasm: new URL('https://example.test/q.wasm') });
const third = await createQualifierWorker('{"schema_version":1}', { worker: host });
await third.dispose();
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
void [answer, explained, liveHandles, wasmMemoryBytes, gone];
