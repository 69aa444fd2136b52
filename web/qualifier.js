// The qualifier: loads the wasm module once (from the `wasm` option or the file beside it),
// validates arguments, turns engine errors into QualifyError and owns the wasm handles. Runs
// unchanged in Node >= 18, browsers, web workers, bundlers and jsdom.

import { QualifyError } from './qualify_error.js';
import { toJsonText } from './json_text.js';
import { describeWasmSource, loadFailure, wasmInstance } from './wasm_source.js';

const DISPOSED = 410;

let modulePromise = null;
// Where the module comes from: the `wasm` option of the first load (initQualifier or
// createQualifier), else the file beside this package. Once compiled, the WebAssembly.Module is
// kept, so that a restart after an engine trap downloads nothing.
let wasmSource;
let compiledWasm = null;

// The default location, written as a literal so that bundlers (Vite, webpack, Parcel) emit
// exactly this one file and nothing else from dist/.
function defaultWasmUrl() {
  return new URL('./dist/loyalty_qualifier.wasm', import.meta.url);
}

async function instantiate(source) {
  let createModule;
  try {
    ({ default: createModule } = await import('./dist/loyalty_qualifier.mjs'));
  } catch (e) {
    throw loadFailure('./dist/loyalty_qualifier.mjs (the module glue)', e);
  }
  let wasm = compiledWasm ?? source;
  if (wasm === undefined) {
    try {
      wasm = defaultWasmUrl();
    } catch (e) {
      // import.meta.url is no URL in some bundle formats (iife): only options.wasm can help.
      throw loadFailure('./dist/loyalty_qualifier.wasm (pass options.wasm)', e);
    }
  }
  const where = describeWasmSource(wasm);
  // The glue hands its imports to instantiateWasm and waits for receiveInstance: we do the
  // fetching and compiling, so that every failure is ours to report (the glue's own fallback
  // aborts with "both async and sync fetching of the wasm failed", naming nothing).
  let failInstantiation;
  const instantiationFailed = new Promise((_, reject) => {
    failInstantiation = reject;
  });
  const options = {
    instantiateWasm(imports, receiveInstance) {
      wasmInstance(wasm, imports)
        .then(({ instance, module }) => {
          receiveInstance(instance, module);
          compiledWasm = module;
        })
        .catch((e) => failInstantiation(loadFailure(where, e)));
      return {};
    },
  };
  try {
    return await Promise.race([createModule(options), instantiationFailed]);
  } catch (e) {
    throw e instanceof QualifyError ? e : loadFailure(where, e);
  }
}

/** The wasm module, instantiated once and shared by every qualifier. */
function loadModule() {
  if (modulePromise === null) {
    modulePromise = instantiate(wasmSource).catch((e) => {
      modulePromise = null;
      throw e;
    });
  }
  return modulePromise;
}

// The `wasm` option: taken by the first load; later loads reuse the module already compiled.
function chooseWasmSource(options) {
  if (options.wasm === undefined) return;
  describeWasmSource(options.wasm); // a TypeError for anything that is not a wasm source
  if (modulePromise === null && compiledWasm === null) wasmSource = options.wasm;
}

function checkOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('options must be an object');
  }
  return options;
}

/**
 * Loads the wasm module once, up front, from `options.wasm` (default: the file beside the
 * package). Rejects with QualifyError (503, MODULE_LOAD_FAILED) when it cannot be loaded.
 */
export async function initQualifier(options = {}) {
  chooseWasmSource(checkOptions(options));
  await loadModule();
}

// A qualifier dropped without dispose() still frees its wasm handle once collected.
const handleRegistry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((handle) => {
        if (!handle.isDeleted()) handle.delete();
      })
    : null;

const encoder = new TextEncoder();

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

// Writes JSON text as UTF-8 straight into the handle's wasm input buffer; returns its size in
// bytes. Far cheaper than passing a JS string through Embind (bench/boundary-design.md).
function writeInput(module, handle, text) {
  const capacity = text.length * 3;
  const address = handle.input_buffer(capacity);
  return encoder.encodeInto(text, module.HEAPU8.subarray(address, address + capacity)).written;
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

/** A loaded snapshot. Create it with createQualifier(); call dispose() when done. */
class Qualifier {
  #module;
  #handle;
  #clock;
  #rewards = [];
  #pointsProducts = [];

  constructor(module, handle, clock) {
    this.#module = module;
    this.#handle = handle;
    this.#clock = clock;
    this.#readEntities();
    if (handleRegistry !== null) handleRegistry.register(this, handle, this);
  }

  /** The qualifying rewards and points products (API spec 2.2) for a basket. */
  qualify(request) {
    const handle = this.#live();
    const text = toJsonText(request, 'request', 400);
    const ms = this.#nowMs();
    const status = this.#call(() => handle.qualify(writeInput(this.#module, handle, text), ms));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    const heap = this.#module.HEAPU32;
    let at = handle.indices_address() >>> 2;
    const rewardCount = heap[at];
    const pointsProductCount = heap[at + 1];
    at += 2;
    const rewards = new Array(rewardCount);
    for (let i = 0; i < rewardCount; ++i) rewards[i] = this.#rewards[heap[at + i]];
    at += rewardCount;
    const pointsProducts = new Array(pointsProductCount);
    for (let i = 0; i < pointsProductCount; ++i) {
      pointsProducts[i] = this.#pointsProducts[heap[at + i]];
    }
    return { rewards, points_products: pointsProducts };
  }

  /** Every reward and points product with its discount and failing rules (contract section 4). */
  explain(request) {
    const handle = this.#live();
    const text = toJsonText(request, 'request', 400);
    const ms = this.#nowMs();
    const status = this.#call(() => handle.explain(writeInput(this.#module, handle, text), ms));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    return JSON.parse(handle.text());
  }

  /** Replaces the snapshot; on error (422) the previous one stays in force. */
  setSnapshot(snapshot) {
    const handle = this.#live();
    const text = toJsonText(snapshot, 'snapshot', 422);
    const status = this.#call(() => handle.load(writeInput(this.#module, handle, text)));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    this.#readEntities();
  }

  /** Frees the wasm memory of this snapshot; any later call throws QualifyError (410). */
  dispose() {
    if (this.#handle === null) return;
    if (handleRegistry !== null) handleRegistry.unregister(this);
    if (!this.#handle.isDeleted()) this.#handle.delete();
    this.#handle = null;
    this.#rewards = [];
    this.#pointsProducts = [];
  }

  get disposed() {
    return this.#handle === null;
  }

  #live() {
    if (this.#handle === null) {
      throw new QualifyError(DISPOSED, 'this qualifier has been disposed');
    }
    return this.#handle;
  }

  #nowMs() {
    return epochMs(this.#clock());
  }

  // Entities are parsed once per snapshot and frozen, so no caller can alter a later answer.
  #readEntities() {
    const entities = JSON.parse(this.#handle.entities_json());
    this.#rewards = deepFreeze(entities.rewards);
    this.#pointsProducts = deepFreeze(entities.points_products);
  }

  // A trap inside wasm (out of memory, a bug) leaves the instance unusable: drop it, so that the
  // next createQualifier() starts a fresh one, and fail this qualifier with a clear error.
  #call(fn) {
    try {
      return fn();
    } catch (e) {
      if (typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError) {
        modulePromise = null;
        if (handleRegistry !== null) handleRegistry.unregister(this);
        this.#handle = null;
        throw new QualifyError(500, `the engine stopped: ${e.message}`);
      }
      throw e;
    }
  }
}

/**
 * Loads a snapshot (object or JSON string) into a new qualifier. Rejects with QualifyError (422)
 * when the snapshot is invalid. `options.now` is the clock used when a request has no
 * order_timestamp: a function returning a Date or epoch milliseconds (default Date.now).
 * `options.wasm` says where the wasm module comes from when it is not loaded yet (initQualifier).
 */
export async function createQualifier(snapshot, options = {}) {
  checkOptions(options);
  const clock = clockOf(options.now);
  chooseWasmSource(options);
  const text = toJsonText(snapshot, 'snapshot', 422);
  const module = await loadModule();
  const handle = new module.SnapshotHandle();
  let status;
  try {
    status = handle.load(writeInput(module, handle, text));
  } catch (e) {
    handle.delete();
    throw e;
  }
  if (status !== 0) {
    const error = new QualifyError(status, handle.error_message());
    handle.delete();
    throw error;
  }
  return new Qualifier(module, handle, clock);
}

/** Counters for leak checks: live wasm snapshot handles and wasm memory size in bytes. */
export async function diagnostics() {
  const module = await loadModule();
  return { liveHandles: module.live_handle_count(), wasmMemoryBytes: module.HEAPU8.byteLength };
}
