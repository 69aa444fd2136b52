// One runtime in the emulator's module, the local service or the store hub, behind fetch(): made
// from the native program's own command-line arguments, answering each request at the instant
// its clock gives, reset to a fresh database, closed. The module does the work; this only moves
// bytes in and out of its memory.
import { instantiateEmulatorModule } from './emulator_module.js';
import { plainRequest, requestBytes, requestParts, responseOf } from './http_bytes.js';

const encoder = new TextEncoder();

/** The clock of `options.now` as a function of epoch milliseconds (default: the system clock). */
export function clockOption(now, caller) {
  const read = typeof now === 'function' ? now : now === undefined ? Date.now : () => now;
  return () => {
    const value = read();
    const ms = typeof value?.getTime === 'function' ? value.getTime() : value;
    if (typeof ms !== 'number' || !(Math.abs(ms) <= 8.64e15)) {
      throw new TypeError(`${caller}: now must be (or return) a valid Date or a finite number of epoch milliseconds`);
    }
    return ms;
  };
}

// fetch() sets a response's url (and its clones') to the request's, without its fragment; a
// Response made here has "" (a read-only getter), so the instance gets its own, configurable as
// MSW's interceptors expect.
function withUrl(response, url) {
  const href = new URL(url);
  href.hash = '';
  Object.defineProperties(response, {
    url: { value: href.href, enumerable: true, configurable: true },
    clone: { value: () => withUrl(Response.prototype.clone.call(response), href), configurable: true, writable: true },
  });
  return response;
}

// The C entry points of each kind (the repository's emulator/emulator_exports.cpp).
const KINDS = {
  service: { create: '_lq_service_create', createSeeded: '_lq_service_create_seeded', answer: '_lq_service_answer', destroy: '_lq_service_destroy', file: 'loyalty' },
  hub: { create: '_lq_hub_create', answer: '_lq_hub_answer', destroy: '_lq_hub_destroy', file: 'hub' },
};

export class EmulatedRuntime {
  #module;
  #kind;
  #args;
  #secret;
  #files;
  #image;
  #nowMs;
  #handle = 0;
  #generation = 0;
  #database = null;
  #closed = false;

  /**
   * Starts a runtime. kind: 'service' | 'hub'; args: the program's arguments without --db (a
   * database of the module's memory is added); secret: the hub's store key; files: { path:
   * text } written into the module's memory first (a fixture); image: the service's database
   * to start from instead, a seeded image (seeded_image.js) whose seeding times the module
   * stamps at now. Each of args, files and image may be a promise: read while the module loads.
   */
  static async start({ kind, args, secret = null, files = {}, image = null, nowMs, wasm, onLog }) {
    const [module, argList, written, bytes] = await Promise.all([instantiateEmulatorModule({ wasm, nowMs, onLog }), args, files, image]);
    const runtime = new EmulatedRuntime(module, kind, argList, secret, written, bytes, nowMs);
    runtime.#open();
    return runtime;
  }

  constructor(module, kind, args, secret, files, image, nowMs) {
    this.#module = module;
    this.#kind = KINDS[kind];
    this.#args = args;
    this.#secret = secret;
    this.#files = files;
    this.#image = image;
    this.#nowMs = nowMs;
  }

  // fetch, reset and close are own bound functions, not methods: a test passes `emulator.fetch`
  // alone as a fetch (LoyaltyClient calls it as fetchImpl.call(globalThis, ...)).

  /**
   * Answers a request as the native program would (any base URL: only the path counts), as
   * fetch() would: an aborted signal rejects with its reason, the response's url is the request's.
   */
  fetch = async (input, init) => {
    // A plain call is read as it is; any other through a Request, which reads every form fetch takes.
    let request = plainRequest(input, init);
    if (request === null) {
      const built = new Request(input, init);
      built.signal.throwIfAborted();
      request = await requestParts(built);
      built.signal.throwIfAborted();
    }
    return withUrl(responseOf(this.answer(requestBytes(request)), request.method), request.url);
  };

  /**
   * The response bytes to the HTTP/1.1 request `bytes` from the client at address `peer` (a copy,
   * the runtime's own memory reused): the per-client limits (the hub's brake on wrong keys) count
   * it as the native front counts a socket's peer.
   */
  answer(bytes, peer = '127.0.0.1') {
    this.#checkOpen();
    const m = this.#module;
    return this.#withBytes([bytes, encoder.encode(`${peer}\0`)], ([request, size, address]) => {
      const sizeOut = m._malloc(4);
      try {
        const at = m[this.#kind.answer](this.#handle, request, size, address, this.#nowMs(), sizeOut);
        if (at === 0) throw new Error(`emulator: ${this.#lastError()}`);
        return m.HEAPU8.slice(at, at + m.HEAPU32[sizeOut >> 2]);
      } finally {
        m._free(sizeOut);
        m._lq_emulator_release();
      }
    });
  }

  /** Back to the start: a fresh database, seeded again (or copied again from the seeded image). */
  reset = async () => {
    this.#checkOpen();
    this.#destroy();
    this.#open();
  };

  /** Frees the runtime; fetch() and reset() then reject. Idempotent. */
  close = async () => {
    if (this.#closed) return;
    this.#closed = true;
    this.#destroy();
    this.#module = null;
  };

  #checkOpen() {
    if (this.#closed) throw new Error('emulator: closed (close() was called)');
  }

  #open() {
    const m = this.#module;
    for (const [path, text] of Object.entries(this.#files)) this.#writeFile(path, encoder.encode(text));
    this.#generation += 1;
    this.#database = `/${this.#kind.file}-${this.#generation}.db`;
    if (this.#image !== null) this.#writeFile(this.#database, this.#image);
    const args = encoder.encode([...this.#args, '--db', this.#database].join('\0'));
    const extra = this.#secret === null ? [] : [encoder.encode(`${this.#secret}\0`)];
    const create = this.#image === null ? this.#kind.create : this.#kind.createSeeded;
    this.#handle = this.#withBytes([args, ...extra], ([at, size, key]) =>
      this.#secret === null
        ? m[create](at, size, this.#nowMs())
        : m[create](at, size, key, this.#nowMs()),
    );
    if (this.#handle === 0) {
      // exitCode: the native program's for the same refusal (2: its command line), which the
      // launchers' wasm runtime gives as its own.
      throw Object.assign(new Error(this.#lastError()), { exitCode: this.#module._lq_emulator_exit_code() });
    }
  }

  #writeFile(path, bytes) {
    this.#withBytes([encoder.encode(`${path}\0`), bytes], ([at, , data, size]) => {
      if (!this.#module._lq_emulator_write_file(at, data, size)) throw new Error(`emulator: cannot write ${path}`);
    });
  }

  #destroy() {
    const m = this.#module;
    if (this.#handle !== 0) m[this.#kind.destroy](this.#handle);
    this.#handle = 0;
    if (this.#database !== null) {
      this.#withBytes([encoder.encode(`${this.#database}\0`)], ([at]) => m._lq_emulator_remove_database(at));
    }
  }

  #lastError() {
    return this.#module.UTF8ToString(this.#module._lq_emulator_error());
  }

  // Copies each byte array into the module's memory, calls fn([pointer, size, ...]), frees them.
  #withBytes(arrays, fn) {
    const m = this.#module;
    const placed = [];
    try {
      for (const bytes of arrays) {
        const at = m._malloc(Math.max(bytes.length, 1));
        m.HEAPU8.set(bytes, at);
        placed.push(at, bytes.length);
      }
      return fn(placed);
    } finally {
      for (let i = 0; i < placed.length; i += 2) m._free(placed[i]);
    }
  }
}
