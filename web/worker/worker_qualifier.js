// A qualifier whose engine runs in a worker: the methods of a qualifier, as promises. The
// snapshot crosses once, as transferred UTF-8 (worker_messages.js); requests cross as JSON text;
// the page's clock is read on the page with every request. A qualifier made without
// options.worker runs in a worker of its own, ended by dispose(); several qualifiers may share a
// worker (options.worker), which its owner ends with terminate(). qualify, explain and
// offerOutcome take { signal }; calls in flight when it is disposed reject with DisposedError.
import { toJsonText } from '../engine/json_text.js';
import { SnapshotChangeEvent } from '../events/qualifier_events.js';
import { abortable, signalOption } from '../lifecycle/abortable.js';
import { ASYNC_DISPOSE, DISPOSE } from '../lifecycle/disposal.js';
import { connectionTo } from './worker_connection.js';
import { asErrorOf, disposedError, snapshotBuffer } from './worker_messages.js';

/** A qualifier in a worker (an EventTarget: 'snapshotchange' after setSnapshot()). Create it with createQualifierWorker(). */
class WorkerQualifier extends EventTarget {
  #runtime;
  #connection;
  #number;
  #clock;
  #ownsWorker;
  #disposed = false;
  // Aborted by dispose() and terminate(): the calls in flight reject with DisposedError at once.
  #lifetime = new AbortController();

  constructor(runtime, connection, number, clock, ownsWorker) {
    super();
    this.#runtime = runtime;
    this.#connection = connection;
    this.#number = number;
    this.#clock = clock;
    this.#ownsWorker = ownsWorker;
  }

  /** The qualifying rewards and points products for a basket (docs/reference.md#answer). */
  qualify(request, options) {
    return this.#ask('qualify', request, {}, options);
  }

  /** Every reward and points product with its discount and failing rules (docs/reference.md#explain). */
  explain(request, options) {
    return this.#ask('explain', request, {}, options);
  }

  /** How one offer, `{ kind, id }`, fares on a basket (docs/reference.md#offer-outcome). */
  offerOutcome(request, offer, options) {
    // Only its kind and id cross; the engine in the worker checks them (a TypeError crosses back).
    const ref = offer !== null && typeof offer === 'object' ? { kind: offer.kind, id: offer.id } : offer;
    return this.#ask('offerOutcome', request, { offer: ref }, options);
  }

  /** Replaces the snapshot; on error (422) the previous one stays in force. */
  setSnapshot(snapshot) {
    return this.#settled(async () => {
      if (this.#disposed) throw disposedError();
      const buffer = snapshotBuffer(snapshot);
      await this.#connection.call({ op: 'setSnapshot', qualifier: this.#number, snapshot: buffer }, [buffer]);
      this.dispatchEvent(new SnapshotChangeEvent('set'));
    });
  }

  /** Frees the snapshot in the worker (and ends the worker when it is this qualifier's own). */
  async dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#lifetime.abort(disposedError());
    const connection = this.#connection;
    connection.hosted -= 1;
    try {
      await connection.call({ op: 'dispose', qualifier: this.#number });
    } catch {
      // A worker already gone holds nothing.
    }
    if (this.#ownsWorker && connection.hosted === 0) await connection.terminate();
  }

  /** `using q = ...`: dispose() begins at the end of the block (the worker frees the snapshot after it). */
  [DISPOSE]() {
    this.dispose();
  }

  /** `await using q = ...`: dispose(), awaited. */
  [ASYNC_DISPOSE]() {
    return this.dispose();
  }

  get disposed() {
    return this.#disposed;
  }

  /** The worker this qualifier runs in: pass it as options.worker to host more qualifiers there. */
  get worker() {
    return this.#connection.worker;
  }

  /** Counters of the worker for leak checks: live wasm snapshot handles and wasm memory bytes. */
  diagnostics() {
    return this.#settled(() => this.#connection.call({ op: 'diagnostics' }));
  }

  /** Ends the worker at once: this qualifier and every other one in it are gone (DisposedError, 410). */
  terminate() {
    this.#disposed = true;
    if (!this.#lifetime.signal.aborted) this.#lifetime.abort(disposedError());
    return this.#connection.terminate();
  }

  #ask(op, request, more, options) {
    return this.#settled(() => {
      if (this.#disposed) throw disposedError();
      const signal = signalOption(options, op);
      const text = toJsonText(request, 'request', 400);
      const message = { ...more, op, qualifier: this.#number, request: text };
      if (this.#clock !== null) message.now = this.#clock();
      // The worker answers anyway; an abort (or dispose()) only stops this call's wait.
      return abortable([signal, this.#lifetime.signal], () => this.#connection.call(message));
    });
  }

  // The result of `call`, its QualifyError as the runtime's entry exports the class.
  async #settled(call) {
    try {
      return await call();
    } catch (e) {
      throw asErrorOf(this.#runtime, e);
    }
  }
}

// Where the worker loads the wasm module from: a URL crosses as its address (a relative string
// is resolved against the page, as fetch would), a Response as its bytes (transferred), a
// compiled WebAssembly.Module and bytes as they are.
async function wasmForWorker(wasm) {
  if (wasm === undefined) return { wasm, transfer: [] };
  if (typeof wasm === 'object' && wasm !== null && typeof wasm.then === 'function') wasm = await wasm;
  if (typeof wasm === 'object' && wasm !== null && typeof wasm.arrayBuffer === 'function' && typeof wasm.href !== 'string') {
    const bytes = await wasm.arrayBuffer();
    return { wasm: bytes, transfer: [bytes] };
  }
  if (typeof wasm === 'object' && wasm !== null && typeof wasm.href === 'string') return { wasm: wasm.href, transfer: [] };
  if (typeof wasm === 'string' && typeof document === 'object' && document !== null && document.baseURI) {
    return { wasm: new URL(wasm, document.baseURI).href, transfer: [] };
  }
  return { wasm, transfer: [] };
}

/**
 * startQualifierWorker for a runtime: a worker for createQualifierWorker's options.worker (a new
 * one, or options.worker: one the caller started running the worker script, connected now so
 * that a script that fails to load is not missed), its engine loading at once (from
 * options.wasm). A failure to load is reported by the first createQualifierWorker in it.
 */
export function startWorkerIn(runtime, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const worker = options.worker ?? runtime.startWorker();
  const connection = connectionTo(worker);
  wasmForWorker(options.wasm)
    .then(({ wasm, transfer }) => connection.call({ op: 'init', wasm }, transfer))
    .catch(() => {});
  return worker;
}

/**
 * createQualifierWorker for a runtime: `runtime.startWorker()` starts a worker running the
 * qualifier script when options.worker gives none; errors are `runtime.QualifyError`s.
 */
export async function createQualifierIn(runtime, snapshot, options = {}) {
  try {
    return await create(runtime, snapshot, options);
  } catch (e) {
    throw asErrorOf(runtime, e);
  }
}

async function create(runtime, snapshot, options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { now, worker } = options;
  const buffer = snapshotBuffer(snapshot);
  const { wasm, transfer } = await wasmForWorker(options.wasm);
  const message = { op: 'create', snapshot: buffer, wasm };
  // A clock function is read on the page, with every request; a fixed Date or number crosses once.
  if (typeof now === 'function') message.clock = 'page';
  else if (now !== undefined) Object.assign(message, { clock: 'fixed', now });
  const ownsWorker = worker === undefined;
  const connection = connectionTo(ownsWorker ? runtime.startWorker() : worker);
  connection.hosted += 1;
  let number;
  try {
    number = await connection.call(message, [buffer, ...transfer]);
  } catch (e) {
    connection.hosted -= 1;
    if (ownsWorker) await connection.terminate();
    throw e;
  }
  return new WorkerQualifier(runtime, connection, number, typeof now === 'function' ? now : null, ownsWorker);
}
