// The worker side of loyalty-qualifier/worker: hosts any number of qualifiers (one per
// createQualifierWorker call), each known by a number, and answers the page's messages
// { id, op, ... } with { id, result } or { id, error }. The wasm module is loaded once per worker.
import { disposedError, errorBody, snapshotText } from './worker_messages.js';

/**
 * Answers the messages `listen` delivers through `post(message)`, with `engine`'s
 * { createQualifier, diagnostics, initQualifier } (web/engine/qualifier.js, or the browser bundle
 * of it, web/dist/loyalty_qualifier.browser.mjs). Every qualifier reads its
 * clock from the message that asks (`now`: the page's clock, read on the page), or has the fixed
 * `now` it was created with, or the worker's Date.now.
 */
export function hostQualifiers({ createQualifier, diagnostics, initQualifier }, listen, post) {
  const qualifiers = new Map();
  let nextNumber = 1;

  function hosted(number) {
    const entry = qualifiers.get(number);
    if (entry === undefined) throw disposedError();
    return entry;
  }

  const operations = {
    // startQualifierWorker: the engine loads before the first snapshot arrives.
    init({ wasm }) {
      return initQualifier(wasm === undefined ? {} : { wasm });
    },
    async create({ snapshot, now, clock, wasm }) {
      const entry = { now: undefined };
      const options = {};
      if (wasm !== undefined) options.wasm = wasm;
      // 'page': the page reads its clock and sends it with every request; 'fixed': `now` as given.
      if (clock === 'page') options.now = () => entry.now ?? Date.now();
      else if (clock === 'fixed') options.now = now;
      entry.qualifier = await createQualifier(snapshotText(snapshot), options);
      const number = nextNumber++;
      qualifiers.set(number, entry);
      return number;
    },
    qualify({ qualifier, request, now }) {
      const entry = hosted(qualifier);
      entry.now = now;
      return entry.qualifier.qualify(request);
    },
    explain({ qualifier, request, now }) {
      const entry = hosted(qualifier);
      entry.now = now;
      return entry.qualifier.explain(request);
    },
    setSnapshot({ qualifier, snapshot }) {
      hosted(qualifier).qualifier.setSnapshot(snapshotText(snapshot));
    },
    dispose({ qualifier }) {
      qualifiers.get(qualifier)?.qualifier.dispose();
      qualifiers.delete(qualifier);
    },
    diagnostics() {
      return diagnostics();
    },
  };

  listen(async (message) => {
    const { id, op } = message;
    try {
      if (!Object.hasOwn(operations, op)) throw new TypeError(`the qualifier worker has no operation ${op}`);
      const result = await operations[op](message);
      post({ id, result });
    } catch (e) {
      post({ id, error: errorBody(e) });
    }
  });
}
