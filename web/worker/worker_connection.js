// The page's side of one qualifier worker: numbered calls and their answers, for a Web Worker or
// a Node worker_threads Worker alike, through a MessagePort of this connection's own (sent to the
// worker in { op: 'connect', port }): what it creates there is reachable by no other connection,
// and answers for another never reach it. Whatever stops the worker (terminate(), a script that
// cannot load, an exit) rejects every call waiting and every later one.
import { QualifyError } from '../engine/qualify_error.js';
import { DisposedError } from '../engine/disposed_error.js';
import { errorFromBody } from './worker_messages.js';

const UNAVAILABLE = 503;

const connections = new WeakMap();

// Calls waiting on a Node worker thread, over every connection to it (another copy of this module
// too, hence a registered symbol): the worker keeps the process alive while one waits, never idle.
const WAITING = Symbol.for('loyalty-qualifier.worker.waiting');

function holdWorker(worker, change) {
  if (typeof worker.ref !== 'function') return;
  const waiting = (worker[WAITING] ?? 0) + change;
  worker[WAITING] = waiting;
  if (waiting === 0) worker.unref();
  else if (waiting === 1 && change > 0) worker.ref();
}

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
  #port;
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
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    port1.addEventListener('message', (event) => this.#answer(event.data));
    port1.start();
    port1.unref?.(); // Node: the port alone never keeps the process alive (pending calls ref the worker)
    if (typeof worker.on === 'function') {
      // Node's worker_threads: an uncaught error ends the thread, and so does an exit.
      worker.on('error', (e) => this.#stop(unavailable(`the qualifier worker failed: ${e?.message ?? e}`)));
      worker.on('exit', (code) => this.#stop(unavailable(`the qualifier worker exited (code ${code})`)));
      holdWorker(worker, 0); // an idle worker never keeps the process alive
    } else {
      // A worker whose script cannot be loaded reports only an 'error' event, with no detail.
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        this.#stop(unavailable(`the qualifier worker failed${event.message ? `: ${event.message}` : ' to start (its script could not be loaded)'}`));
        this.#worker.terminate();
      });
    }
    try {
      worker.postMessage({ op: 'connect', port: port2 }, [port2]);
    } catch (e) {
      this.#stop(unavailable(`the qualifier worker cannot be reached: ${e?.message ?? e}`));
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
      if (this.#pending.size === 1) holdWorker(this.#worker, 1);
      try {
        this.#port.postMessage({ ...message, id }, transfer);
      } catch (e) {
        this.#settle(id);
        reject(e);
      }
    });
  }

  /** Ends the worker: every qualifier in it is gone (DisposedError, a QualifyError 410). */
  terminate() {
    if (this.#stopped === null) this.#stop(new DisposedError('the qualifier worker has been terminated'));
    return Promise.resolve(this.#worker.terminate()).then(() => undefined);
  }

  #answer(message) {
    if (message === null || typeof message !== 'object') return;
    const { id, result, error } = message;
    const call = this.#settle(id);
    if (call === undefined) return;
    if (error !== undefined) call.reject(errorFromBody(error));
    else call.resolve(result);
  }

  #settle(id) {
    const call = this.#pending.get(id);
    if (call !== undefined && this.#pending.delete(id) && this.#pending.size === 0) holdWorker(this.#worker, -1);
    return call;
  }

  #stop(error) {
    if (this.#stopped !== null) return;
    this.#stopped = error;
    this.#port.close();
    const waiting = [...this.#pending.values()];
    if (waiting.length > 0) holdWorker(this.#worker, -1);
    this.#pending.clear();
    for (const call of waiting) call.reject(error);
  }
}

function unavailable(message) {
  return new QualifyError(UNAVAILABLE, `MODULE_LOAD_FAILED: ${message}`);
}
