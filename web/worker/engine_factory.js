// Where HybridQualifier's engine runs. `worker: true`: the HybridQualifiers of a page share one
// Web Worker (loyalty-qualifier/worker, imported only then), started by the first one, so that
// the engine loads while the account is fetched, and ended by the last one's release().
// `worker: aWorker` (a Worker running loyalty-qualifier/worker/script that the page started
// itself, e.g. from a script inside its service worker's scope): the hybrids given it share it,
// and the page ends it. A worker that cannot start (its script or the engine's modules cannot be
// fetched) leaves the engine in this thread, for this page's life, with a console warning: offers
// still show. `worker: false`: this thread; a createQualifierWorker function: a worker each.
import { createQualifier } from '../engine/qualifier.js';
import { QualifyError } from '../engine/qualify_error.js';

const pageWorkers = new Map(); // true or the page's Worker -> { starting, users, unavailable }

/** Whether `value` is a Worker (has postMessage). */
export function isWorker(value) {
  return value !== null && typeof value === 'object' && typeof value.postMessage === 'function';
}

function sharedWorkerEngine(key, wasm) {
  let shared = pageWorkers.get(key);
  if (shared === undefined) {
    shared = { starting: null, users: 0, unavailable: false };
    pageWorkers.set(key, shared);
  }
  shared.users += 1;
  if (shared.starting === null) {
    shared.starting = import('./worker.js').then((api) => ({
      api,
      worker: key === true ? api.startQualifierWorker({ wasm }) : key,
    }));
    shared.starting.catch(() => {}); // reported by the first snapshot load
  }
  const starting = shared.starting;
  let released = false;
  return {
    async create(snapshot, options) {
      if (!shared.unavailable) {
        try {
          const { api, worker } = await starting;
          return { qualifier: await api.createQualifierWorker(snapshot, { ...options, worker }), location: 'worker' };
        } catch (e) {
          // 503: the worker (or the engine in it) could not load; the thread's engine says why, if it cannot either.
          if (e instanceof QualifyError && e.code !== 503) throw e;
          shared.unavailable = true;
          console.warn(`loyalty-qualifier: the qualifier worker could not start (${e?.message ?? e}); ` +
            'HybridQualifier runs the engine in this thread instead (docs/workers.md)');
        }
      }
      return { qualifier: await createQualifier(snapshot, options), location: 'thread' };
    },
    release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0 || shared.starting !== starting) return;
      pageWorkers.delete(key);
      if (key === true) starting.then(({ worker }) => worker.terminate(), () => {});
    },
  };
}

/**
 * How the local engine is made, `worker` as HybridQualifier's option: { create(snapshot, options)
 * resolving { qualifier, location: 'worker' | 'thread' }, release() }.
 */
export function engineFactory(worker, qualifierOptions) {
  if (worker === true || isWorker(worker)) return sharedWorkerEngine(worker, qualifierOptions.wasm);
  if (worker === false) {
    return { create: async (snapshot, options) => ({ qualifier: await createQualifier(snapshot, options), location: 'thread' }), release() {} };
  }
  return { create: async (snapshot, options) => ({ qualifier: await worker(snapshot, options), location: 'worker' }), release() {} };
}
