// The page's side of one qualifier worker: numbered calls and their answers, for a Web Worker or
// a Node worker_threads Worker alike. Whatever stops the worker (terminate(), a script that
// cannot load, an exit) rejects every call waiting and every later one.
import { QualifyError } from '../engine/qualify_error.js';
import { errorFromBody } from './worker_messages.js';

const GONE = 410;
const UNAVAILABLE = 503;

const connections = new WeakMap();

/** The one connection to `worker`, made on first use (several qualifiers share it). */
export function connectionTo(worker) {
  let connection = connections.get(worker);
  if (connection === undefined) {
    connection = new WorkerConnection(worker);
    connections.set(worker, connection);
  }
  return connection;
}

class WorkerConnection {
  #worker;
  #pending = new Map();
  #nextId = 1;
  #stopped = null;
  /** Qualifiers hosted through this connection that are not disposed yet. */
  hosted = 0;

  constructor(worker) {
    if (worker === null || typeof worker !== 'object' || typeof worker.postMessage !== 'function') {
      throw new TypeError('options.worker must be a Worker running loyalty-qualifier/worker/script');
    }
    this.#worker = worker;
    const answer = (message) => this.#answer(message);
    if (typeof worker.on === 'function') {
      // Node's worker_threads: an uncaught error ends the thread, and so does an exit.
      worker.on('message', answer);
      worker.on('error', (e) => this.#stop(unavailable(`the qualifier worker failed: ${e?.message ?? e}`)));
      worker.on('exit', (code) => this.#stop(unavailable(`the qualifier worker exited (code ${code})`)));
      worker.unref?.(); // an idle worker never keeps the process alive
    } else {
      worker.addEventListener('message', (event) => answer(event.data));
      // A worker whose script cannot be loaded reports only an 'error' event, with no detail.
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        this.#stop(unavailable(`the qualifier worker failed${event.message ? `: ${event.message}` : ' to start (its script could not be loaded)'}`));
        this.#worker.terminate();
      });
    }
  }

  get worker() {
    return this.#worker;
  }

  /** Sends { op, ...fields } (with `transfer`), resolves the worker's result or rejects its error. */
  call(message, transfer = []) {
    if (this.#stopped !== null) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref?.();
      try {
        this.#worker.postMessage({ ...message, id }, transfer);
      } catch (e) {
        this.#settle(id);
        reject(e);
      }
    });
  }

  /** Ends the worker: every qualifier in it is gone (QualifyError 410). */
  terminate() {
    if (this.#stopped === null) this.#stop(new QualifyError(GONE, 'the qualifier worker has been terminated'));
    return Promise.resolve(this.#worker.terminate()).then(() => undefined);
  }

  #answer({ id, result, error }) {
    const call = this.#settle(id);
    if (call === undefined) return;
    if (error !== undefined) call.reject(errorFromBody(error));
    else call.resolve(result);
  }

  #settle(id) {
    const call = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref?.();
    return call;
  }

  #stop(error) {
    if (this.#stopped !== null) return;
    this.#stopped = error;
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const call of waiting) call.reject(error);
  }
}

function unavailable(message) {
  return new QualifyError(UNAVAILABLE, `MODULE_LOAD_FAILED: ${message}`);
}
