// The qualifier: loads the wasm module once, validates arguments, turns engine errors into
// QualifyError and owns the wasm handles. Runs unchanged in Node >= 18, browsers, web workers and
// bundlers.

import { QualifyError } from './qualify_error.js';

const WASM_FILE = 'loyalty_qualifier.wasm';
const DISPOSED = 410;

let modulePromise = null;

function isNode() {
  return (
    typeof process === 'object' &&
    process !== null &&
    typeof process.versions === 'object' &&
    process.versions !== null &&
    typeof process.versions.node === 'string' &&
    typeof window === 'undefined'
  );
}

async function instantiate() {
  const { default: createModule } = await import('./dist/loyalty_qualifier.mjs');
  const options = {};
  if (isNode()) {
    // Node's fetch() cannot read file: URLs (toolchain trap 4): hand the glue the bytes. The
    // specifier is a variable so that bundlers leave this Node-only import alone.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
    options.wasmBinary = await readFile(new URL(`./dist/${WASM_FILE}`, import.meta.url));
  }
  return createModule(options);
}

/** The wasm module, instantiated once and shared by every qualifier. */
function loadModule() {
  if (modulePromise === null) {
    modulePromise = instantiate().catch((e) => {
      modulePromise = null;
      throw e;
    });
  }
  return modulePromise;
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

function toJsonText(value, what, code) {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new QualifyError(code, `${what} must be a JSON object or a JSON string`);
  }
  try {
    return JSON.stringify(value);
  } catch (e) {
    throw new QualifyError(code, `${what} cannot be serialised to JSON: ${e.message}`);
  }
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
 */
export async function createQualifier(snapshot, options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('options must be an object');
  }
  const clock = clockOf(options.now);
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
