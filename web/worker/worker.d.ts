// Types of loyalty-qualifier/worker: a qualifier whose engine runs in a worker (docs/workers.md).
import type { Clock, ExplainEntry, ExplainResult, QualifyError, QualifyRequest, QualifyResult, WasmSource } from '../engine/engine.js';
import type { Snapshot } from '../engine/snapshot.js';

import type { QualifierEventMap, QualifierEvents } from '../events/events.js';
import type { CallOptions } from '../lifecycle/lifecycle.js';

export { DisposedError, QualifyError } from '../engine/engine.js';

/**
 * A Web Worker (browsers) or a worker_threads Worker (Node) running loyalty-qualifier/worker/script;
 * e.g. `someWorkerQualifier.worker`.
 */
export interface QualifierWorkerHost {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  terminate(): unknown;
}

export interface WorkerQualifierOptions {
  /**
   * Where the worker loads the wasm module from, as for createQualifier (used by the worker's
   * first load). A relative string is resolved against the page; a Response or Promise of one
   * is read on the page and its bytes transferred.
   */
  wasm?: WasmSource;
  /**
   * The clock for requests without order_timestamp. A function is read on the calling thread with
   * every request; a fixed Date or number crosses once. Default: Date.now in the worker.
   */
  now?: Clock | Date | number;
  /**
   * The worker to host this qualifier in (several qualifiers may share one); its owner ends it
   * with terminate(). Default: a new worker of its own, ended by dispose().
   */
  worker?: QualifierWorkerHost;
}

/**
 * A qualifier in a worker: the methods of Qualifier, as promises. Errors are QualifyError with
 * the same code, message and toJSON() as in-thread (DisposedError, 410, after dispose() or
 * terminate(), also for the calls in flight then). Answers are structured clones: not frozen, not
 * shared between answers. An EventTarget: 'snapshotchange' (reason 'set') after setSnapshot().
 * qualify, explain and offerOutcome take { signal }: an abort rejects the call at once with the
 * signal's reason (the worker still computes the answer, and drops it).
 */
export interface WorkerQualifier extends QualifierEvents<QualifierEventMap> {
  /** Rejects with QualifyError (400) for a malformed request. */
  qualify(request: QualifyRequest | string, options?: CallOptions): Promise<QualifyResult>;
  /** Rejects with QualifyError (400) for a malformed request. */
  explain(request: QualifyRequest | string, options?: CallOptions): Promise<ExplainResult>;
  /**
   * How one offer fares on the basket (docs/reference.md#offer-outcome). Rejects with QualifyError
   * (400) for a malformed request, (404) when the snapshot has no such offer; a TypeError when
   * `offer` is not `{ kind, id }`.
   */
  offerOutcome(
    request: QualifyRequest | string,
    offer: Pick<ExplainEntry, 'kind' | 'id'>,
    options?: CallOptions,
  ): Promise<ExplainEntry>;
  /** Rejects with QualifyError (422) for an invalid snapshot; the previous one stays in force. */
  setSnapshot(snapshot: Snapshot | string | ArrayBuffer | ArrayBufferView): Promise<void>;
  /** Frees the snapshot in the worker, and ends the worker when it is this qualifier's own; idempotent. */
  dispose(): Promise<void>;
  /** `using q = ...`: dispose() begins at the end of the block. */
  [Symbol.dispose](): void;
  /** `await using q = ...`: dispose(), awaited. */
  [Symbol.asyncDispose](): Promise<void>;
  readonly disposed: boolean;
  /** The worker this qualifier runs in: pass it as options.worker to host more qualifiers there. */
  readonly worker: QualifierWorkerHost;
  /** The worker's counters: live wasm snapshot handles and its wasm memory size in bytes. */
  diagnostics(): Promise<{ liveHandles: number; wasmMemoryBytes: number }>;
  /** Ends the worker at once, with every qualifier it hosts. */
  terminate(): Promise<void>;
}

/**
 * Loads a snapshot (an object, JSON text, or its UTF-8 bytes) into a qualifier whose engine runs
 * in a worker. Text is encoded once and its buffer transferred; bytes are copied once and
 * transferred; an object is serialised (JSON.stringify) on the calling thread first. Rejects with
 * QualifyError (422) for an invalid snapshot, (503) when the worker or the wasm module cannot be
 * loaded.
 */
export function createQualifierWorker(
  snapshot: Snapshot | string | ArrayBuffer | ArrayBufferView,
  options?: WorkerQualifierOptions,
): Promise<WorkerQualifier>;

/**
 * Starts a worker for qualifiers (a Web Worker; in Node a worker thread), its engine loading at
 * once from `options.wasm`, so that the first createQualifierWorker({ worker }) in it waits for
 * nothing but its snapshot. `options.worker`: a worker you started yourself running
 * loyalty-qualifier/worker/script (e.g. from a script inside your service worker's scope); it is
 * returned, its engine loading. End it with `terminate()` (or any hosted qualifier's terminate()).
 */
export function startQualifierWorker(options?: { wasm?: WasmSource; worker?: QualifierWorkerHost }): QualifierWorkerHost;
