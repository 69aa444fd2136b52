// loyalty-qualifier/worker (browsers, bundlers): a qualifier whose engine runs in a module Web
// Worker. Types: web/worker/worker.d.ts; the guide: docs/workers.md.
import { QualifyError } from '../engine/qualify_error.js';
import { DisposedError } from '../engine/disposed_error.js';
import { createQualifierIn, startWorkerIn } from './worker_qualifier.js';

export { DisposedError, QualifyError };

// Written as one literal expression, so that Vite and webpack emit the worker script (and the
// engine it imports) as one chunk of its own.
function startWorker() {
  if (typeof Worker !== 'function') {
    throw new TypeError('this runtime has no Web Worker: pass options.worker (in Node, the node export starts a worker thread)');
  }
  return new Worker(new URL('./qualifier_worker.js', import.meta.url), { type: 'module' });
}

/**
 * Loads a snapshot into a qualifier running in a Web Worker (a new one, or options.worker);
 * every method returns a promise; errors are QualifyError as in createQualifier.
 */
export function createQualifierWorker(snapshot, options) {
  return createQualifierIn({ startWorker, QualifyError, DisposedError }, snapshot, options);
}

/**
 * Starts a Web Worker for qualifiers (pass it as createQualifierWorker's options.worker), its engine
 * loading at once from options.wasm; end it with terminate().
 */
export function startQualifierWorker(options) {
  return startWorkerIn({ startWorker, QualifyError, DisposedError }, options);
}
