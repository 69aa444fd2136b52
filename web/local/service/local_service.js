// startLocalService(): the native local service (loyalty_service) as a child process, from
// `loyalty-qualifier/service` (Node only; types: web/local/service/local_service.d.ts), and
// startStoreHub() (store_hub.js), the store hub beside it. Test harnesses, the kiosk server and
// `loyalty-qualifier serve` (keepAlive) all start the service here; the process itself (readiness,
// stop, no process left behind) is the one launcher's, native_process.js.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chooseRuntime } from './runtime_choice.js';
import { startWasmService } from './wasm_front.js';
import { startNativeProcess, processOptions } from './native_process.js';
import { serviceBinaryPath } from './service_binary.js';
import { serviceArguments } from '../emulator/service_options.js';

export { ServiceBinaryError, hubBinaryPath, serviceBinaryPath } from './service_binary.js';
export { startStoreHub } from './store_hub.js';
// For programs that launch the service from a command line of their own (the kiosk server).
export { serviceOptionsFromText } from '../emulator/service_options.js';
export { checkStoreKey } from './store_key.js';
export { wasmDatabaseProblem } from './runtime_choice.js';

/**
 * Starts the local service. options: fixture (a fixture object or a file path), db (a SQLite
 * file, default ':memory:': a throwaway database), mode ('sandbox' | 'production'),
 * processingDelay (seconds), port (default 0: a free one), host (default 127.0.0.1), now (a fixed
 * service clock), maxConnectionsPerPeer, workers, accessLog (a file, '-' or 'off'), corsOrigin (an
 * origin or an array of origins whose pages may call the service from a browser, e.g.
 * 'http://localhost:5173'), startTimeoutMs (default 30000; Infinity: no limit); for
 * harnesses: binary (the loyalty_service to run, default serviceBinaryPath()), args (more
 * loyalty_service arguments, passed as given), wrapper (a command and its arguments that runs the
 * binary, e.g. in a namespace), onStderr (gets the service's stderr as it arrives), signal (an
 * AbortSignal: aborting it stops the service as stop() does, also while it starts, and the start
 * then rejects with the signal's reason), keepAlive (true: the running service keeps this process
 * alive until it exits, as a foreground command wants; default false), runtime ('native' | 'wasm' |
 * 'auto', the default: native where the binary runs, else the wasm runtime, docs/emulator.md).
 * Resolves { url, pid, exited, running(), kill(), stop() }.
 */
export async function startLocalService(options = {}) {
  if (options !== null && typeof options === 'object' && chooseRuntime('service', options, 'startLocalService') === 'wasm') {
    return startWasmService(options);
  }
  const { args, fixture } = serviceArguments(options, { extra: options?.args ?? [] });
  const { binary: given, wrapper, onStderr, signal, keepAlive, startTimeoutMs } = processOptions(options, 'startLocalService');
  const binary = given ?? serviceBinaryPath();
  signal?.throwIfAborted();

  let scratch = null;
  // A path goes as given (the service runs in this process's directory), so that the service's
  // messages name it as the caller did.
  if (typeof fixture === 'string') {
    args.push('--fixture', fixture);
  } else if (fixture !== undefined) {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'loyalty-qualifier-fixture-'));
    const file = path.join(scratch, 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));
    args.push('--fixture', file);
  }
  const removeScratch = () => {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  };

  return startNativeProcess({
    program: 'loyalty_service',
    binary,
    args,
    cleanup: removeScratch,
    options: { wrapper, onStderr, signal, keepAlive, startTimeoutMs },
  });
}
