// The qualifier: loads the wasm module once (from the `wasm` option or the file beside it),
// validates arguments, turns engine errors into QualifyError and owns the wasm handles. Runs
// unchanged in Node >= 18, browsers, web workers, bundlers and jsdom.

import { QualifyError } from './qualify_error.js';
import { toJsonText } from './json_text.js';
import { compiledModule, describeWasmSource, loadFailure } from './wasm_source.js';
import {
  decodeExplanation,
  decodeQualify,
  entityText,
  idText,
  readOfferTable,
} from './wire.js';

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
  return new URL('../dist/loyalty_qualifier.wasm', import.meta.url);
}

async function instantiate(source) {
  let wasm = compiledWasm ?? source;
  if (wasm === undefined) {
    try {
      wasm = defaultWasmUrl();
    } catch (e) {
      // import.meta.url is no URL in some bundle formats (iife): only options.wasm can help.
      throw loadFailure('../dist/loyalty_qualifier.wasm (pass options.wasm)', e);
    }
  }
  const where = describeWasmSource(wasm);
  // The wasm downloads and compiles while the glue loads; its failure is reported below.
  const compiling = compiledModule(wasm);
  compiling.catch(() => {});
  let createModule;
  try {
    ({ default: createModule } = await import('../dist/loyalty_qualifier.mjs'));
  } catch (e) {
    throw loadFailure('../dist/loyalty_qualifier.mjs (the module glue)', e);
  }
  // The glue hands its imports to instantiateWasm and waits for receiveInstance: we do the
  // fetching and compiling, so that every failure is ours to report (the glue's own fallback
  // aborts with "both async and sync fetching of the wasm failed", naming nothing).
  let failInstantiation;
  const instantiationFailed = new Promise((_, reject) => {
    failInstantiation = reject;
  });
  const options = {
    instantiateWasm(imports, receiveInstance) {
      compiling
        .then(async (module) => {
          receiveInstance(await WebAssembly.instantiate(module, imports), module);
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
// bytes. Far cheaper than encoding a JS string into wasm memory in JS (the repository's benchmarks).
// JSON is mostly ASCII (one byte per UTF-16 unit), so the buffer is first asked for that much;
// text that does not fit is written again into room for the worst case, 3 bytes per unit. (Asking
// 3x for a 1.4 MB snapshot made a fresh instance touch, and page in, 4.2 MB, as measured.)
function writeInput(module, handle, text) {
  if (text instanceof Uint8Array) return writeBytes(module, handle, text);
  if (typeof text !== 'string') return writePieces(module, handle, text);
  const length = text.length;
  let address = handle.input_buffer(length);
  const { read, written } = encoder.encodeInto(text, module.HEAPU8.subarray(address, address + length));
  if (read === length) return written;
  const capacity = length * 3;
  address = handle.input_buffer(capacity);
  return encoder.encodeInto(text, module.HEAPU8.subarray(address, address + capacity)).written;
}

// The same for UTF-8 bytes, copied as they are: the engine judges every byte, as the service's
// engine judges the bytes of a request body.
function writeBytes(module, handle, bytes) {
  const address = handle.input_buffer(bytes.length);
  module.HEAPU8.set(bytes, address);
  return bytes.length;
}

// The same for JSON text in pieces (snapshotJson), written one after the other.
function writePieces(module, handle, pieces) {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  for (const capacity of [length, length * 3]) {
    const address = handle.input_buffer(capacity);
    const heap = module.HEAPU8;
    const end = address + capacity;
    let at = address;
    let fits = true;
    for (const piece of pieces) {
      const { read, written } = encoder.encodeInto(piece, heap.subarray(at, end));
      at += written;
      if (read < piece.length) {
        fits = false;
        break;
      }
    }
    if (fits) return at - address;
  }
  throw new Error('unreachable: 3 bytes per UTF-16 unit always fit');
}

// ---- Snapshots as JSON text: an account's offers written one by one. ---------------------------

// An array member of a snapshot this long or longer (its offer lists) is written element by
// element; JSON pieces are cut at about this many UTF-16 units.
const PIECEWISE_MIN_ELEMENTS = 64;
const PIECE_UNITS = 16384;

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** JSON.stringify(element) as it reads at `index` of an array (toJSON gets the index as key). */
function elementJson(element, index) {
  if (element !== null && typeof element === 'object' && typeof element.toJSON !== 'function') {
    return JSON.stringify(element);
  }
  const text = JSON.stringify({ [index]: element });
  return text.length === 2 ? 'null' : text.slice(String(index).length + 4, -1);
}

/**
 * JSON.stringify(snapshot) as a list of pieces of about PIECE_UNITS each, the same text: every
 * member, and every element of a long array member, stringified on its own with the key
 * JSON.stringify would give its toJSON. V8 returns a large JSON.stringify result as a tree of
 * parts that encodeInto must first flatten into a new string: for 5,000 rewards 1.4 MB twice,
 * in fresh pages of V8's large-object space every time, about as long as the stringify itself
 * (as measured by the repository's benchmarks). Small pieces stay in the young generation.
 */
function jsonPieces(snapshot) {
  const pieces = [];
  let piece = '{';
  let separator = '';
  for (const key of Object.keys(snapshot)) {
    const value = snapshot[key];
    if (
      Array.isArray(value) &&
      value.length >= PIECEWISE_MIN_ELEMENTS &&
      typeof value.toJSON !== 'function'
    ) {
      piece += `${separator}${JSON.stringify(key)}:[`;
      for (let i = 0; i < value.length; ++i) {
        piece += i === 0 ? elementJson(value[i], i) : `,${elementJson(value[i], i)}`;
        if (piece.length >= PIECE_UNITS) {
          pieces.push(piece);
          piece = '';
        }
      }
      piece += ']';
    } else {
      // `"key":value`, or nothing when JSON.stringify leaves the member out (undefined, a function).
      const member = JSON.stringify({ [key]: value });
      if (member.length === 2) continue;
      piece += separator + member.slice(1, -1);
    }
    separator = ',';
  }
  pieces.push(`${piece}}`);
  return pieces;
}

/**
 * A request or snapshot argument given as UTF-8 bytes (a Uint8Array, e.g. a Buffer read from a
 * file) goes to the engine as it is; anything else through toJsonText.
 */
function engineInput(value, what, code) {
  return value instanceof Uint8Array ? value : toJsonText(value, what, code);
}

/**
 * A snapshot argument as JSON text: a string or UTF-8 bytes as they are, a plain object (the
 * usual: parsed from an API response) in pieces, anything else through toJsonText. Errors are
 * toJsonText's (422).
 */
function snapshotJson(snapshot) {
  if (isPlainObject(snapshot) && typeof snapshot.toJSON !== 'function') {
    try {
      return jsonPieces(snapshot);
    } catch {
      // Serialised whole again, so that the error (a cycle, a BigInt) reads as JSON.stringify's.
    }
  }
  return engineInput(snapshot, 'snapshot', 422);
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
  // Per offer number (rewards, then points products, in output order): where the engine keeps
  // its entity JSON and id (wire.js); read once per snapshot.
  #offerTable = new Uint32Array(0);
  #rewardCount = 0;
  // Entities and ids by offer number, decoded on first use: an entity is parsed and frozen the
  // first time an answer includes it, so no caller can alter a later answer.
  #entities = [];
  #ids = [];

  constructor(module, handle, clock) {
    this.#module = module;
    this.#handle = handle;
    this.#clock = clock;
    this.#readOfferTable();
    if (handleRegistry !== null) handleRegistry.register(this, handle, this);
  }

  /** The qualifying rewards and points products (docs/reference.md#answer) for a basket. */
  qualify(request) {
    const handle = this.#live();
    const text = engineInput(request, 'request', 400);
    const ms = this.#nowMs();
    const status = this.#call(() => handle.qualify(writeInput(this.#module, handle, text), ms));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    return decodeQualify(this.#module, handle.indices_address(), this.#entityOf);
  }

  /** Every reward and points product with its discount and failing rules (docs/reference.md#explain). */
  explain(request) {
    const handle = this.#live();
    const text = engineInput(request, 'request', 400);
    const ms = this.#nowMs();
    const status = this.#call(() => handle.explain(writeInput(this.#module, handle, text), ms));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    return decodeExplanation(this.#module, handle.explanation_address(), this.#idOf, this.#rewardCount);
  }

  /** Replaces the snapshot; on error (422) the previous one stays in force. */
  setSnapshot(snapshot) {
    const handle = this.#live();
    const text = snapshotJson(snapshot);
    const status = this.#call(() => handle.load(writeInput(this.#module, handle, text)));
    if (status !== 0) throw new QualifyError(status, handle.error_message());
    this.#readOfferTable();
  }

  /** Frees the wasm memory of this snapshot; any later call throws QualifyError (410). */
  dispose() {
    if (this.#handle === null) return;
    if (handleRegistry !== null) handleRegistry.unregister(this);
    if (!this.#handle.isDeleted()) this.#handle.delete();
    this.#handle = null;
    this.#forgetOffers();
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
        modulePromise = null;
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
