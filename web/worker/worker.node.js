// loyalty-qualifier/worker in Node: the same qualifier, its engine in a worker_threads thread.
import { Worker } from 'node:worker_threads';

// Errors are the QualifyError of the package's Node entry (a bundle with a class of its own).
import { DisposedError, QualifyError } from '../index.node.mjs';
import { createQualifierIn, startWorkerIn } from './worker_qualifier.js';

export { DisposedError, QualifyError };

function startWorker() {
  return new Worker(new URL('./qualifier_worker.node.js', import.meta.url));
}

/**
 * Loads a snapshot into a qualifier running in a worker thread (a new one, or options.worker);
 * every method returns a promise; errors are QualifyError as in createQualifier.
 */
export function createQualifierWorker(snapshot, options) {
  return createQualifierIn({ startWorker, QualifyError, DisposedError }, snapshot, options);
}

/**
 * Starts a worker thread for qualifiers (pass it as createQualifierWorker's options.worker), its engine
 * loading at once from options.wasm; end it with terminate().
 */
export function startQualifierWorker(options) {
  return startWorkerIn({ startWorker, QualifyError, DisposedError }, options);
}
