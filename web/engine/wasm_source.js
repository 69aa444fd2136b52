// Where the wasm module comes from (the `wasm` option of createQualifier and initQualifier) and
// how it is compiled: at most one download, compiled while streaming when the server says
// application/wasm, and every failure a QualifyError that names what was tried.
import { QualifyError } from './qualify_error.js';
import { serverModule } from './server_module.js';

/** QualifyError code of a module that could not be loaded. */
const MODULE_UNAVAILABLE = 503;

/**
 * Node, Bun and Deno (which all set process.versions.node or Deno.version): the wasm file is
 * read from disk there. Decided by the runtime, never by `window`, which jsdom and happy-dom
 * define inside Node.
 */
export function isServerRuntime() {
  const versions = globalThis.process?.versions;
  return (
    (typeof versions === 'object' && versions !== null && typeof versions.node === 'string') ||
    typeof globalThis.Deno?.version?.deno === 'string'
  );
}

function isCompiledModule(source) {
  return typeof WebAssembly === 'object' && source instanceof WebAssembly.Module;
}

// Checked by tag rather than instanceof: a buffer from another realm (a worker, jsdom) counts.
function isBytes(source) {
  return (
    ArrayBuffer.isView(source) || Object.prototype.toString.call(source) === '[object ArrayBuffer]'
  );
}

function isUrl(source) {
  return source instanceof URL || (typeof source === 'object' && typeof source?.href === 'string');
}

function isResponse(source) {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof source.arrayBuffer === 'function' &&
    typeof source.ok === 'boolean' &&
    typeof source.headers?.get === 'function'
  );
}

function isPromise(source) {
  return typeof source?.then === 'function';
}

/**
 * How a wasm source is named in error messages; a TypeError for anything that is not one: a URL,
 * a string (URL or, in Node, a file path), bytes, a Response or a Promise of one, a compiled
 * WebAssembly.Module.
 */
export function describeWasmSource(source) {
  if (typeof source === 'string') return source;
  if (isUrl(source)) return source.href;
  if (isCompiledModule(source)) return 'the given WebAssembly.Module';
  if (isBytes(source)) return `the given bytes (${source.byteLength} bytes)`;
  if (isResponse(source)) return source.url ? source.url : 'the given Response';
  if (isPromise(source)) return 'the given Promise of a Response';
  throw new TypeError(
    'options.wasm must be a URL or string, an ArrayBuffer or typed array, a Response or a ' +
      'Promise of one, or a WebAssembly.Module',
  );
}

function reasonOf(cause) {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause;
  const detail =
    inner === undefined || inner === null ? '' : ` (${inner.code ?? inner.message ?? inner})`;
  return `${cause.name}: ${cause.message}${detail}`;
}

/** The QualifyError of a module that could not be loaded from `where` (503, MODULE_LOAD_FAILED). */
export function loadFailure(where, cause) {
  const error = new QualifyError(
    MODULE_UNAVAILABLE,
    `MODULE_LOAD_FAILED: cannot load the wasm module from ${where}: ${reasonOf(cause)}`,
  );
  error.cause = cause;
  return error;
}

// In Node a file: URL or a path is read from disk (Node's fetch cannot read files); null for a
// location that is fetched.
async function localFile(source) {
  if (!isServerRuntime()) return null;
  const href = typeof source === 'string' ? source : source.href;
  if (href.startsWith('file:')) {
    const { fileURLToPath } = await serverModule('node:url');
    return fileURLToPath(href);
  }
  // A scheme has two letters or more; "C:\..." is a Windows path.
  if (typeof source === 'string' && !/^[a-z][a-z0-9+.-]+:/i.test(source)) return source;
  return null;
}

function mimeEssence(response) {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

async function compileResponse(response) {
  if (!isResponse(response)) {
    throw new TypeError('options.wasm: the promise did not resolve to a Response');
  }
  const where = response.url ? `${response.url}: ` : '';
  if (!response.ok) {
    throw new Error(`${where}HTTP ${response.status} ${response.statusText}`.trim());
  }
  // Streaming compiles while the bytes arrive, but only from an application/wasm response; any
  // other type is read once and compiled from the bytes, never downloaded twice.
  if (mimeEssence(response) === 'application/wasm' && typeof WebAssembly.compileStreaming === 'function') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * The compiled WebAssembly.Module of `source`: downloaded (or read) and compiled without the
 * glue's imports, so that it can start before the glue is loaded.
 */
export async function compiledModule(source) {
  if (isCompiledModule(source)) return source;
  if (isBytes(source)) return WebAssembly.compile(source);
  if (typeof source === 'string' || isUrl(source)) {
    const file = await localFile(source);
    if (file !== null) {
      // Read at once: fs/promises reads in 512 KB chunks, each waiting for a free main thread,
      // so a busy start (the emulator's warm-up) held the compile back by 8-10 ms.
      const { readFileSync } = await serverModule('node:fs');
      return WebAssembly.compile(readFileSync(file));
    }
    return compileResponse(await fetch(typeof source === 'string' ? source : source.href));
  }
  return compileResponse(await source);
}
