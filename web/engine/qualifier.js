// The qualifier: one loaded snapshot (a wasm handle this object owns), its qualify, explain,
// offerOutcome and setSnapshot; arguments validated, engine errors through checkStatus (engine_status.js). Loading
// the module: engine_module.js; arguments into wasm memory: engine_input.js.

import { QualifyError } from './qualify_error.js';
import { DisposedError } from './disposed_error.js';
import { SnapshotChangeEvent } from '../events/qualifier_events.js';
import { DISPOSE } from '../lifecycle/disposal.js';
import { checkOptions, chooseWasmSource, forgetModule, loadModule } from './engine_module.js';
import { engineInput, snapshotJson, writeInput } from './engine_input.js';
import { checkStatus } from './engine_status.js';
import {
  decodeExplanation,
  decodeQualify,
  entityText,
  idText,
  readOfferTable,
} from './wire.js';

export { initQualifier } from './engine_module.js';

// A qualifier dropped without dispose() still frees its wasm handle once collected.
const handleRegistry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((handle) => {
        if (!handle.isDeleted()) handle.delete();
      })
    : null;

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

function clockOf(now) {
  if (now === undefined) return Date.now;
  if (typeof now === 'function') return now;
  const fixed = epochMs(now);
  return () => fixed;
}

function epochMs(value) {
  const ms =
    value !== null && typeof value === 'object' && typeof value.getTime === 'function'
      ? value.getTime()
      : value;
  // ±8.64e15 ms is the range of a JS Date.
  if (typeof ms !== 'number' || !(Math.abs(ms) <= 8.64e15)) {
    throw new TypeError(
      'options.now must be (or return) a valid Date or a finite number of epoch milliseconds',
    );
  }
  return ms;
}

/** The offer argument of offerOutcome: `{ kind: 'reward' | 'points_product', id: string }`. */
function offerRef(offer) {
  if (
    offer === null ||
    typeof offer !== 'object' ||
    (offer.kind !== 'reward' && offer.kind !== 'points_product') ||
    typeof offer.id !== 'string'
  ) {
    throw new TypeError("offer must be { kind: 'reward' | 'points_product', id: string }");
  }
  return offer;
}

/**
 * A loaded snapshot. Create it with createQualifier(); call dispose() when done. An EventTarget:
 * 'snapshotchange' (reason 'set') after each setSnapshot().
 */
class Qualifier extends EventTarget {
  #module;
  #handle;
  #clock;
  // Per offer number (rewards, then points products, in output order): where the engine keeps
  // its entity JSON and id (wire.js); read once per snapshot.
  #offerTable = new Uint32Array(0);
  #rewardCount = 0;
  // Entities and ids by offer number, decoded on first use: an entity is parsed and frozen the
  // first time an answer includes it, so no caller can alter a later answer.
  #entities = [];
  #ids = [];

  constructor(module, handle, clock) {
    super();
    this.#module = module;
    this.#handle = handle;
    this.#clock = clock;
    this.#readOfferTable();
    if (handleRegistry !== null) handleRegistry.register(this, handle, this);
  }

  /** The qualifying rewards and points products (docs/reference.md#answer) for a basket. */
  qualify(request) {
    const handle = this.#ask(request, (live, size, ms) => live.qualify(size, ms));
    return decodeQualify(this.#module, handle.indices_address(), this.#entityOf);
  }

  /** Every reward and points product with its discount and failing rules (docs/reference.md#explain). */
  explain(request) {
    return this.#explanation(this.#ask(request, (live, size, ms) => live.explain(size, ms)));
  }

  /**
   * How one offer, `{ kind, id }`, fares on a basket (docs/reference.md#offer-outcome): its
   * explain() entry, computed for that offer alone.
   */
  offerOutcome(request, offer) {
    const { kind, id } = offerRef(offer);
    const kindCode = kind === 'reward' ? 0 : 1;
    return this.#explanation(this.#ask(request, (live, size, ms) => live.offer_outcome(size, kindCode, id, ms))).entries[0];
  }

  /** Replaces the snapshot; on error (422) the previous one stays in force. */
  setSnapshot(snapshot) {
    const handle = this.#live();
    const text = snapshotJson(snapshot);
    const status = this.#call(() => handle.load(writeInput(this.#module, handle, text)));
    checkStatus(status, handle);
    this.#readOfferTable();
    this.dispatchEvent(new SnapshotChangeEvent('set'));
  }

  /** Frees the wasm memory of this snapshot; any later call throws DisposedError (a QualifyError 410). */
  dispose() {
    if (this.#handle === null) return;
    if (handleRegistry !== null) handleRegistry.unregister(this);
    if (!this.#handle.isDeleted()) this.#handle.delete();
    this.#handle = null;
    this.#forgetOffers();
  }

  /** `using q = await createQualifier(...)`: dispose() at the end of the block. */
  [DISPOSE]() {
    this.dispose();
  }

  get disposed() {
    return this.#handle === null;
  }

  #live() {
    if (this.#handle === null) {
      throw new DisposedError('this qualifier has been disposed');
    }
    return this.#handle;
  }

  #nowMs() {
    return epochMs(this.#clock());
  }

  // One question about a basket: the request written into the handle, `invoke(handle, size, nowMs)`
  // run, its status checked (a QualifyError otherwise); returns the handle, whose answer is ready.
  #ask(request, invoke) {
    const handle = this.#live();
    const text = engineInput(request, 'request', 400);
    const ms = this.#nowMs();
    const status = this.#call(() => invoke(handle, writeInput(this.#module, handle, text), ms));
    checkStatus(status, handle);
    return handle;
  }

  #explanation(handle) {
    return decodeExplanation(this.#module, handle.explanation_address(), this.#idOf, this.#rewardCount);
  }

  // The offer table of a newly loaded snapshot; entities and ids of the previous one are dropped
  // (answers already returned keep theirs).
  #readOfferTable() {
    const handle = this.#handle;
    const rewardCount = handle.reward_count();
    const count = rewardCount + handle.points_product_count();
    this.#offerTable = readOfferTable(this.#module, handle.offer_table_address(), count);
    this.#rewardCount = rewardCount;
    this.#entities = new Array(count);
    this.#ids = new Array(count);
  }

  #forgetOffers() {
    this.#offerTable = new Uint32Array(0);
    this.#rewardCount = 0;
    this.#entities = [];
    this.#ids = [];
  }

  /** The frozen entity of offer `number`, parsed on first use. */
  #entityOf = (number) => {
    let entity = this.#entities[number];
    if (entity === undefined) {
      entity = deepFreeze(JSON.parse(entityText(this.#module, this.#offerTable, number)));
      this.#entities[number] = entity;
    }
    return entity;
  };

  /** The id of offer `number`, decoded on first use. */
  #idOf = (number) => {
    let id = this.#ids[number];
    if (id === undefined) {
      id = idText(this.#module, this.#offerTable, number);
      this.#ids[number] = id;
    }
    return id;
  };

  // A trap inside wasm (out of memory, a bug) leaves the instance unusable: drop it, so that the
  // next createQualifier() starts a fresh one, and fail this qualifier with a clear error.
  #call(fn) {
    try {
      return fn();
    } catch (e) {
      if (typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError) {
        forgetModule();
        if (handleRegistry !== null) handleRegistry.unregister(this);
        this.#handle = null;
        this.#forgetOffers();
        throw new QualifyError(500, `the engine stopped: ${e.message}`);
      }
      throw e;
    }
  }
}

/**
 * Loads a snapshot (object, JSON string or its UTF-8 bytes) into a new qualifier. Rejects with QualifyError (422)
 * when the snapshot is invalid. `options.now` is the clock used when a request has no
 * order_timestamp: a function returning a Date or epoch milliseconds (default Date.now).
 * `options.wasm` says where the wasm module comes from when it is not loaded yet (initQualifier).
 */
export async function createQualifier(snapshot, options = {}) {
  checkOptions(options);
  const clock = clockOf(options.now);
  chooseWasmSource(options);
  // The module downloads and compiles (on V8's background threads) while the snapshot is
  // serialised; a snapshot that cannot be serialised is still the error reported.
  const moduleLoaded = loadModule();
  let text;
  try {
    text = snapshotJson(snapshot);
  } catch (e) {
    moduleLoaded.catch(() => {});
    throw e;
  }
  const module = await moduleLoaded;
  const handle = new module.SnapshotHandle();
  let status;
  try {
    status = handle.load(writeInput(module, handle, text));
  } catch (e) {
    handle.delete();
    throw e;
  }
  try {
    checkStatus(status, handle);
  } catch (e) {
    handle.delete();
    throw e;
  }
  return new Qualifier(module, handle, clock);
}

/** Counters for leak checks: live wasm snapshot handles and wasm memory size in bytes. */
export async function diagnostics() {
  const module = await loadModule();
  return { liveHandles: module.live_handle_count(), wasmMemoryBytes: module.HEAPU8.byteLength };
}
