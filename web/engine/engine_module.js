// The wasm module: loaded once (from the `wasm` option or the file beside the package) and shared
// by every qualifier of this realm. A trap inside wasm drops it (forgetModule), so that the next
// qualifier starts a fresh instance from the module already compiled.
import { QualifyError } from './qualify_error.js';
import { compiledModule, describeWasmSource, loadFailure } from './wasm_source.js';

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
export function loadModule() {
  if (modulePromise === null) {
    modulePromise = instantiate(wasmSource).catch((e) => {
      modulePromise = null;
      throw e;
    });
  }
  return modulePromise;
}

// The `wasm` option: taken by the first load; later loads reuse the module already compiled.
export function chooseWasmSource(options) {
  if (options.wasm === undefined) return;
  describeWasmSource(options.wasm); // a TypeError for anything that is not a wasm source
  if (modulePromise === null && compiledWasm === null) wasmSource = options.wasm;
}

/** Drops the instance (after a trap): the next loadModule() instantiates afresh. */
export function forgetModule() {
  modulePromise = null;
}

export function checkOptions(options) {
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

