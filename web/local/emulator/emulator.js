// `loyalty-qualifier/emulator`: the local service and the store hub as in-process emulators, the
// service's and the hub's own C++ compiled to WebAssembly (docs/emulator.md). Node (>= 20),
// browsers and workers: fetch(input, init) answers every route as the native program does, from
// a database in the module's memory, at the instants of the clock it is given.
import { CLAIM_TTL_OPTION, optionArguments, serviceArguments } from './service_options.js';
import { EmulatedRuntime, clockOption } from './emulated_runtime.js';
import { fixtureText } from './fixture_text.js';
import { seededImage } from './seeded_image.js';

const FIXTURE_FILE = '/fixture.json';

function optionsObject(options, caller) {
  if (options === null || typeof options !== 'object') throw new TypeError(`${caller}: options must be an object`);
  return options;
}

function onLogOption(onLog, caller) {
  if (onLog !== undefined && typeof onLog !== 'function') throw new TypeError(`${caller}: onLog must be a function`);
  return onLog;
}

/**
 * The local service in memory. options: fixture (an object, or where to read one: a URL, or in
 * Node a path; default the demo fixture), now (a Clock, Date or epoch ms; default Date.now),
 * processingDelay (seconds until a billed basket or purchase lands; default 900 in sandbox, 0 in
 * production), mode ('sandbox' | 'production'), wasm (where the module comes from), onLog.
 * Resolves { fetch, reset, close }.
 */
export async function createEmulator(options = {}) {
  const caller = 'createEmulator';
  const { fixture, now, processingDelay, mode, wasm } = optionsObject(options, caller);
  const onLog = onLogOption(options.onLog, caller);
  const { args } = serviceArguments({ mode, processingDelay, accessLog: options.accessLog ?? 'off' }, { caller });
  const nowMs = clockOption(now, caller);
  // Both read while the module loads. The package's own module starts from the database it
  // seeded of this fixture at build time when it made one (seeded_image.js), else seeds it.
  const text = fixtureText(fixture, caller);
  const image = wasm === undefined ? seededImage(text) : Promise.resolve(null);
  try {
    return await EmulatedRuntime.start({
      kind: 'service',
      args: image.then((seeded) => (seeded === null ? [...args, '--fixture', FIXTURE_FILE] : args)),
      files: Promise.all([text, image]).then(([json, seeded]) => (seeded === null ? { [FIXTURE_FILE]: json } : {})),
      image,
      nowMs,
      wasm,
      onLog,
    });
  } catch (e) {
    // The seeder names the file it read in the module's memory: name the fixture as it was given.
    const prefix = `fixture ${FIXTURE_FILE}: `;
    if (!(e instanceof Error) || !e.message.startsWith(prefix)) throw e;
    const name = typeof fixture === 'string' ? fixture : fixture instanceof URL ? fixture.href : '(the fixture object)';
    throw new Error(`fixture ${name}: ${e.message.slice(prefix.length)}`, { cause: e });
  }
}

/**
 * The store hub in memory. options: storeKey (required: 1 to 512 visible ASCII characters, the
 * Store-Key every request must carry), now (a Clock, Date or epoch ms), claimTtl (a duration such
 * as '7d', '36h' or '90m': a claim's default lifetime), wasm, onLog. Resolves { fetch, reset, close }.
 */
export async function createStoreHubEmulator(options = {}) {
  const caller = 'createStoreHubEmulator';
  const { storeKey, now, claimTtl, wasm } = optionsObject(options, caller);
  const onLog = onLogOption(options.onLog, caller);
  if (typeof storeKey !== 'string' || !/^[\x21-\x7e]{1,512}$/.test(storeKey)) {
    throw new TypeError(`${caller}: storeKey must be 1 to 512 visible ASCII characters (no spaces); every call to the hub carries it`);
  }
  const args = ['--port', '0', '--access-log', options.accessLog ?? 'off'];
  if (claimTtl !== undefined) args.push(...optionArguments(CLAIM_TTL_OPTION, claimTtl, `${caller}: claimTtl`));
  return EmulatedRuntime.start({ kind: 'hub', args, secret: storeKey, nowMs: clockOption(now, caller), wasm, onLog });
}
