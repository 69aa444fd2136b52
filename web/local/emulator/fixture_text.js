// The emulator's fixture as JSON text: an object as given, or read from where it is named (a URL
// is fetched; in Node a path or file: URL is read from disk); by default the demo fixture that
// ships with the package (fixtures/demo.json). The service's own seeding checks what it holds.
import { serverModule } from '../../engine/server_module.js';
import { isServerRuntime } from '../../engine/wasm_source.js';

function demoFixtureUrl() {
  return new URL('../../../fixtures/demo.json', import.meta.url);
}

async function readText(where, caller) {
  const href = where instanceof URL ? where.href : where;
  try {
    if (isServerRuntime() && (href.startsWith('file:') || !/^[a-z][a-z0-9+.-]+:/i.test(href))) {
      const { readFile } = await serverModule('node:fs/promises');
      const { fileURLToPath } = await serverModule('node:url');
      return await readFile(href.startsWith('file:') ? fileURLToPath(href) : href, 'utf8');
    }
    const response = await fetch(href);
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    return await response.text();
  } catch (e) {
    throw new Error(`${caller}: cannot read the fixture ${href}: ${e.message}`, { cause: e });
  }
}

/** The fixture's JSON text (a TypeError for anything that names none). */
export async function fixtureText(fixture, caller) {
  if (fixture === undefined || fixture === null) return readText(demoFixtureUrl(), caller);
  if (typeof fixture === 'string' || fixture instanceof URL) return readText(fixture, caller);
  if (typeof fixture === 'object') return JSON.stringify(fixture);
  throw new TypeError(`${caller}: fixture must be a fixture object, or a URL or path to read one from`);
}
