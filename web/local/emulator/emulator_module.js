// The emulator's WebAssembly module (dist/loyalty_emulator.wasm and its glue): compiled once per
// realm, instantiated afresh for every emulator, so that each has its own memory, its own
// in-memory database and its own clock. Kept apart from the engine's module: a page that never
// creates an emulator never downloads it.
import { compiledModule, describeWasmSource } from '../../engine/wasm_source.js';
import { tzRuleFromIntl } from '../../account/intl_tz_rule.js';
import { withZoneNames } from './zone_names.js';

const encoder = new TextEncoder();
let compiling = null;
// Zone rules by zone and year, shared by every emulator of this realm: Intl is asked once.
const zoneRules = new Map();

// The default location, a literal so that bundlers emit exactly this file.
function defaultWasmUrl() {
  return new URL('../../dist/loyalty_emulator.wasm', import.meta.url);
}

function compiled(source) {
  if (source !== undefined) {
    describeWasmSource(source); // a TypeError for anything that is not a wasm source
    return compiledModule(source);
  }
  if (compiling === null) {
    compiling = compiledModule(defaultWasmUrl()).catch((e) => {
      compiling = null;
      throw e;
    });
  }
  return compiling;
}

// The rule of `zone` in the year of `at`, or null for a zone Intl does not know under exactly that
// name (Intl also takes `america/new_york`; tzdata, and so the native service, does not).
function ruleOf(zone, at) {
  let resolved;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (resolved !== zone && resolved.toLowerCase() === zone.toLowerCase()) return null;
  return withZoneNames(tzRuleFromIntl(zone, { at }), zone, at);
}

/**
 * The zone rules the module asks for (the repository's emulator/intl_time_zones.cpp): the POSIX TZ rule of a zone
 * from Intl, "this year" being the year of `nowMs()`, once per zone and year.
 */
function intlZoneRule(zone, nowMs) {
  const at = nowMs();
  const key = `${zone} ${new Date(at).getUTCFullYear()}`;
  if (!zoneRules.has(key)) zoneRules.set(key, ruleOf(zone, at));
  return zoneRules.get(key);
}

let warmed = false;

/**
 * What every emulator needs of the JS runtime on its first answer, started while the module is
 * read and compiled off the main thread: ICU's time zone data (about 15 ms, the first
 * Intl.DateTimeFormat with a zone) and, in Node, the fetch classes (about 20 ms: Node loads undici
 * on the first use of `Response`; then its conversions of a response's init run for the first
 * time, 5 ms more), as the repository's bench notes measured.
 */
function warmUp() {
  if (warmed) return;
  warmed = true;
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', timeZoneName: 'short', hour: 'numeric' }).formatToParts(0);
  // A response as responseOf() makes them (headers from pairs, bytes): its conversions' first run.
  if (typeof Response === 'function') {
    new Response(new Uint8Array(1), { status: 200, statusText: 'OK', headers: [['content-type', 'application/json']] }).headers.get('content-type');
  }
}

/**
 * A fresh instance of the emulator's module. `nowMs` is the clock of the runtime it will hold
 * (read when a zone's rule is first needed); `onLog` gets the module's stderr lines.
 * options.wasm: where the .wasm comes from (default: the file beside the package).
 */
export async function instantiateEmulatorModule({ wasm, nowMs, onLog }) {
  const compilingModule = compiled(wasm);
  compilingModule.catch(() => {});
  const { default: createModule } = await import('../../dist/loyalty_emulator.mjs');
  warmUp(); // while the module compiles
  const module = await compilingModule;
  let instance = null;
  const options = {
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(module, imports).then((created) => receiveInstance(created, module));
      return {};
    },
    print: (line) => onLog?.(line),
    printErr: (line) => onLog?.(line),
    // Called from the module (EM_JS in the repository's emulator/intl_time_zones.cpp).
    lqTzRule(zone, out, capacity) {
      const rule = intlZoneRule(zone, nowMs);
      if (rule === null) return -1;
      const bytes = encoder.encode(rule);
      if (bytes.length <= capacity) instance.HEAPU8.set(bytes, out);
      return bytes.length;
    },
  };
  instance = await createModule(options);
  return instance;
}
