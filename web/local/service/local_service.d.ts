// Types of `loyalty-qualifier/service` (web/local/service/local_service.js): the native local service and
// the store hub as child processes of a Node process.

/**
 * How the launcher runs a native program (the local service, the store hub): options both
 * startLocalService and startStoreHub take.
 */
export interface NativeProcessOptions {
  /** How long to wait for the program to listen before giving up; default 30000; Infinity: no limit. */
  startTimeoutMs?: number;
  /** The executable to run; default serviceBinaryPath() (the service) or hubBinaryPath() (the hub). */
  binary?: string;
  /** More arguments for the program, passed as given (e.g. ['--max-connections', '64']). */
  args?: readonly string[];
  /** A command and its arguments that runs the binary (the binary and its arguments follow). */
  wrapper?: readonly [string, ...string[]];
  /** Gets the program's stderr (its log) as it arrives, from the start on. */
  onStderr?: (chunk: string) => void;
  /** Aborting it stops the program as stop() does, also while it starts (the start then rejects with the signal's reason). */
  signal?: AbortSignal;
  /**
   * true: the running program keeps this process alive until it exits (a foreground command, as
   * `loyalty-qualifier serve`). Default false: once it listens it does not, so a harness that
   * forgets stop() still exits (and the program with it).
   */
  keepAlive?: boolean;
  /**
   * 'native' (the platform package's binary), 'wasm' (the emulator over node:http in this process,
   * its state in memory: no db file; docs/emulator.md) or 'auto' (the default: native where the
   * binary is installed and runs, else wasm, said on stderr).
   */
  runtime?: 'native' | 'wasm' | 'auto';
}

/** Options of startLocalService; every one is optional. */
export interface LocalServiceOptions extends NativeProcessOptions {
  /** A fixture object (written to a temporary file) or the path of a fixture JSON file (passed as given). */
  fixture?: string | object | null;
  /** The SQLite file, created and migrated on start; default ':memory:', a throwaway database. */
  db?: string;
  /** 'sandbox' (the service's default: sandbox operations on) or 'production'. */
  mode?: 'sandbox' | 'production';
  /** Seconds until a billed basket or purchase lands (default 900 in sandbox, 0 in production). */
  processingDelay?: number;
  /** Default 0: a free port. */
  port?: number;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** A fixed service clock: the order time of requests without order_timestamp. */
  now?: string | Date;
  /** Open connections one client (remote address) may hold, 1-1000; default 128; beyond: 503. */
  maxConnectionsPerPeer?: number;
  /** Requests the service handles at once, 1-1000; default 4 x hardware threads (at least 4). */
  workers?: number;
  /** Where the access log goes: a file (rotated at 10 MiB), '-' (stderr, the default) or 'off'. */
  accessLog?: string;
  /**
   * The origins whose pages may call the service from a browser (CORS), e.g.
   * 'http://localhost:5173': exact origins (scheme://host[:port]), never '*'. Default: none.
   */
  corsOrigin?: string | readonly string[];
}

/**
 * How the service ended: `{ code: 0, signal: null }` once stopped (stop(), SIGTERM, SIGINT), its
 * exit code when it ended by itself, or `{ code: null, signal }` for another signal that ended it
 * (`kill('SIGKILL')`). The wasm runtime reports the same for the same call.
 */
export interface LocalServiceExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** A running local service. */
export interface LocalService {
  /** Its base URL, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /**
   * The service's process id; null on the wasm runtime, which runs in this process (there is no
   * process of its own to signal: use kill()).
   */
  readonly pid: number | null;
  /** Settles once the service has exited, its stderr all delivered. */
  readonly exited: Promise<LocalServiceExit>;
  /** True until the service has exited. */
  running(): boolean;
  /**
   * Sends it a signal (default SIGTERM); false when it has exited already. On the wasm runtime
   * SIGTERM and SIGINT stop it as stop() does; any other signal ends it at once, its open
   * connections cut (exited: `{ code: null, signal }`); an unknown signal name is a TypeError.
   */
  kill(signal?: string): boolean;
  /** Stops it (SIGTERM; SIGKILL after 10 s); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the local service and resolves once it listens. Rejects with the service's own error
 * text (an Error with exitCode and stderr) when it cannot start, or with ServiceBinaryError when
 * there is no binary to run (its `cause` says why). The service ends with stop(), with the end
 * of this process, and when this process is killed.
 */
export function startLocalService(options?: LocalServiceOptions): Promise<LocalService>;

/** The loyalty_service binary startLocalService runs; throws ServiceBinaryError without one. */
export function serviceBinaryPath(): string;

/** Options of startStoreHub (docs/hub.md); storeKey is required. */
export interface StoreHubOptions extends NativeProcessOptions {
  /**
   * The key every call must carry (header Store-Key): at least 128 bits (32 hex digits, 22 base64
   * characters or 20 other visible ASCII characters; at most 512, no spaces), e.g. from
   * `openssl rand -hex 16`. A weaker one rejects with a TypeError before anything starts.
   */
  storeKey: string;
  /** Default 0: a free port. */
  port?: number;
  /** Bind address; default 127.0.0.1. An address beyond loopback needs exposeOnNetwork. */
  host?: string;
  /** The SQLite file, created and migrated on start; default ':memory:', a throwaway database. */
  db?: string;
  /** Allow a host beyond loopback (the hub then warns on stderr); default false. */
  exposeOnNetwork?: boolean;
  /**
   * The origins whose pages may call the hub from a browser (CORS; such a page holds the store
   * key), e.g. 'http://localhost:5173': exact origins, never '*'. Default: none.
   */
  corsOrigin?: string | readonly string[];
  /** A claim's lifetime when it asks for none: '7d' (the default), '36h', '90m' or '600s'; 1 s to 366 d. */
  claimTtl?: string;
}

/**
 * Starts the store hub and resolves once it listens: { url, stop() } and the rest of a
 * LocalService. Rejects with the hub's own error text (an Error with exitCode and stderr) when it
 * cannot start, with ServiceBinaryError when there is no binary, with a TypeError naming a bad
 * option before anything starts.
 */
export function startStoreHub(options: StoreHubOptions): Promise<LocalService>;

/** The loyalty_hub binary startStoreHub runs (LQ_HUB_BIN, the platform package, a local build). */
export function hubBinaryPath(): string;

/**
 * Launcher options from a command line's text, as `loyalty-qualifier serve` reads them: `texts`
 * maps a flag's name without "--" (e.g. `db`, `port`, `processing-delay`, `now`, `fixture`) to its
 * text; undefined is absent. Returns the LocalServiceOptions of the flags given (e.g.
 * `{ db, port, processingDelay }`); a TypeError names the flag of the first bad one ("--port must
 * be an integer from 0 to 65535").
 */
export function serviceOptionsFromText(texts: Readonly<Record<string, string | readonly string[] | undefined>>): Partial<LocalServiceOptions>;

/** `key` when it is a strong enough store key (StoreHubOptions.storeKey); else a TypeError naming it as `name`. */
export function checkStoreKey(key: string, name: string): string;

/**
 * Why the wasm runtime cannot take the database `db` (it keeps its state in memory: a file is
 * refused, ':memory:' or none is fine), as one line that says what to do instead; null when it can.
 */
export function wasmDatabaseProblem(db: string | undefined): string | null;

/** Why there is no service binary to run (ServiceBinaryError's `cause`). */
export type ServiceBinaryCause =
  /**
   * The platform package of this platform (@loyalty-qualifier/linux-x64) is not installed: npm
   * left it out (--omit=optional, --no-optional), or could not fetch it because it is not
   * published (a loyalty-qualifier tarball installed alone). Fix: install both tarballs in one
   * command, `npm install ./loyalty-qualifier-<version>.tgz ./loyalty-qualifier-linux-x64-<version>.tgz`
   * (`npm run pack` in a checkout writes both into dist-pack/ and prints that line).
   */
  | 'not-installed'
  /** No platform package exists for this platform: build loyalty_service from source, set LQ_SERVICE_BIN. */
  | 'unsupported-platform'
  /** The platform package (or LQ_SERVICE_BIN) is there, but the executable is missing or not executable. */
  | 'binary-missing';

/** No service binary to run: `cause` says why; the message says why and what fixes it. */
export class ServiceBinaryError extends Error {
  readonly code: 'LQ_NO_SERVICE_BINARY';
  readonly cause: ServiceBinaryCause;
}
