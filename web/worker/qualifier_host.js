// The worker side of loyalty-qualifier/worker: hosts any number of qualifiers (one per
// createQualifierWorker call) and answers messages { id, op, ... } with { id, result } or
// { id, error }. Each page-side connection (worker_connection.js) first sends
// { op: 'connect', port } and then calls through that MessagePort: its qualifiers are numbered
// per port and reachable only through it, so no other connection (another copy of the package,
// any code holding the Worker) can use or dispose them. A malformed message is answered with an
// error ({ id: null, ... } when it has no usable id) and the worker keeps serving. The wasm module
// is loaded once per worker.
import { QualifyError } from '../engine/qualify_error.js';
import { disposedError, errorBody, snapshotText } from './worker_messages.js';

/**
 * Answers the messages `listen` delivers through `post(message)`, with `engine`'s
 * { createQualifier, diagnostics, initQualifier } (web/engine/qualifier.js, or the browser bundle
 * of it, web/dist/loyalty_qualifier.browser.mjs). Every qualifier reads its
 * clock from the message that asks (`now`: the page's clock, read on the page), or has the fixed
 * `now` it was created with, or the worker's Date.now.
 */
export function hostQualifiers(engine, listen, post) {
  serveChannel(engine, listen, post);
}

// A value as an error message shows it (short; never throws).
function shown(value) {
  try {
    return JSON.stringify(value)?.slice(0, 100) ?? typeof value;
  } catch {
    return typeof value;
  }
}

// 400 naming the field of a message the worker cannot act on.
function malformed(field, problem, value) {
  return new QualifyError(400, `worker message: \`${field}\` ${problem}; got ${shown(value)}`);
}

function isPort(value) {
  return value !== null && typeof value === 'object' && typeof value.postMessage === 'function' &&
    typeof value.addEventListener === 'function' && typeof value.start === 'function';
}

function checkedSnapshot(snapshot) {
  if (Object.prototype.toString.call(snapshot) !== '[object ArrayBuffer]') {
    throw malformed('snapshot', 'must be an ArrayBuffer of JSON text', snapshot);
  }
  return snapshotText(snapshot);
}

// One channel (the worker's own, or a connection's port) and the qualifiers made through it.
function serveChannel(engine, listen, post) {
  const { createQualifier, diagnostics, initQualifier } = engine;
  const qualifiers = new Map();
  let nextNumber = 1;

  function numberOf({ qualifier }) {
    if (!Number.isSafeInteger(qualifier)) throw malformed('qualifier', 'must be the integer create answered', qualifier);
    return qualifier;
  }

  function hosted(message) {
    const entry = qualifiers.get(numberOf(message));
    if (entry === undefined) throw disposedError();
    return entry;
  }

  const operations = {
    // A page-side connection: its calls come through `port` from now on.
    connect({ port }) {
      if (!isPort(port)) throw malformed('port', 'must be a transferred MessagePort', port);
      serveChannel(
        engine,
        (handle) => {
          port.addEventListener('message', (event) => handle(event.data));
          port.start();
        },
        (message) => port.postMessage(message),
      );
      return null;
    },
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
      entry.qualifier = await createQualifier(checkedSnapshot(snapshot), options);
      const number = nextNumber++;
      qualifiers.set(number, entry);
      return number;
    },
    qualify(message) {
      const entry = hosted(message);
      entry.now = message.now;
      return entry.qualifier.qualify(message.request);
    },
    explain(message) {
      const entry = hosted(message);
      entry.now = message.now;
      return entry.qualifier.explain(message.request);
    },
    offerOutcome(message) {
      const entry = hosted(message);
      entry.now = message.now;
      return entry.qualifier.offerOutcome(message.request, message.offer);
    },
    setSnapshot(message) {
      hosted(message).qualifier.setSnapshot(checkedSnapshot(message.snapshot));
    },
    dispose(message) {
      const number = numberOf(message);
      qualifiers.get(number)?.qualifier.dispose();
      qualifiers.delete(number);
    },
    diagnostics() {
      return diagnostics();
    },
  };

  // Answers one message; never throws (a message that cannot be answered at all is dropped).
  async function answer(message) {
    const isObject = message !== null && typeof message === 'object' && !Array.isArray(message);
    const id = isObject && Number.isSafeInteger(message.id) ? message.id : null;
    let reply;
    try {
      if (!isObject) throw malformed('message', 'must be an object { id, op, ... }', message);
      const { op } = message;
      if (typeof op !== 'string' || !Object.hasOwn(operations, op)) {
        throw new QualifyError(400, `worker message: \`op\`: the qualifier worker has no operation ${shown(op)}`);
      }
      // A connection needs no answer; any other call does, to its id.
      if (id === null && !(op === 'connect' && message.id === undefined)) {
        throw malformed('id', 'must be an integer', message.id);
      }
      const result = await operations[op](message);
      if (id === null) return;
      reply = { id, result };
    } catch (e) {
      reply = { id, error: errorBody(e) };
    }
    try {
      post(reply);
    } catch (e) {
      // A result that cannot be cloned: the caller still gets an answer.
      try {
        post({ id, error: errorBody(e) });
      } catch {
        // The channel is gone.
      }
    }
  }

  listen((message) => {
    answer(message);
  });
}
