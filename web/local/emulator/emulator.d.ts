// Types of `loyalty-qualifier/emulator` (web/local/emulator/emulator.js): the local service and the
// store hub as in-process emulators (docs/emulator.md).
import type { Clock, WasmSource } from '../../engine/engine.js';

/**
 * A running emulator: the native program's routes, answered in this process. Its functions are
 * bound to it: `emulator.fetch` alone is a fetch (the `fetch` option of LoyaltyClient).
 */
export interface Emulator {
  /**
   * Answers a request as the native program answers it over HTTP: the same status, headers and
   * body bytes. Any base URL: only the path and query count. As fetch(): an aborted signal
   * rejects with its reason, and the response's `url` is the request's. Rejects after close().
   */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Back to the start: a fresh database (the service: seeded from the fixture again). */
  readonly reset: () => Promise<void>;
  /** Frees the emulator's memory; fetch() and reset() then reject. Idempotent. */
  readonly close: () => Promise<void>;
}

/** Options of createEmulator; every one is optional. */
export interface EmulatorOptions {
  /** A fixture object (docs/service.md), or where to read one (a URL; in Node also a path). Default: the demo fixture. */
  fixture?: object | string | URL | null;
  /** The clock every time the emulator reads: order times, processing delays, generated_at. Default Date.now. */
  now?: Clock | Date | number;
  /** Seconds until a billed basket or purchase lands (default 900 in sandbox mode, 0 in production). */
  processingDelay?: number;
  /** 'sandbox' (the default: the sandbox operations on) or 'production'. */
  mode?: 'sandbox' | 'production';
  /** Where the emulator's wasm module comes from; default the file beside the package. */
  wasm?: WasmSource;
  /** Gets the emulator's log lines (the native program's stderr). */
  onLog?: (line: string) => void;
  /** The access log: 'off' (the default) or '-' (its lines go to onLog). */
  accessLog?: 'off' | '-';
}

/** Options of createStoreHubEmulator; storeKey is required. */
export interface StoreHubEmulatorOptions {
  /** The key every call must carry (header Store-Key): 1 to 512 visible ASCII characters, no spaces. */
  storeKey: string;
  /** The hub's clock (claims' expiry, health's now). Default Date.now. */
  now?: Clock | Date | number;
  /** A claim's lifetime when it asks for none: a duration such as '7d', '36h' or '90m'. */
  claimTtl?: string;
  wasm?: WasmSource;
  onLog?: (line: string) => void;
  accessLog?: 'off' | '-';
}

/** The local service in memory (the loyalty API, the account read, the sandbox operations). */
export function createEmulator(options?: EmulatorOptions): Promise<Emulator>;

/** The store hub in memory (/hub/claims, spend, release, health). */
export function createStoreHubEmulator(options: StoreHubEmulatorOptions): Promise<Emulator>;
