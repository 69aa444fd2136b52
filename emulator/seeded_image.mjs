// The emulator's seeded image (docs/emulator.md, "Start-up"): the database the just-built module
// makes of the demo fixture, read out of its memory and written to
// web/dist/loyalty_emulator_seed.mjs with the fixture texts it answers for. createEmulator copies
// it instead of running the migrations, the seeding and its validation again; the service then
// stamps the seeding's times at its own now. Run by scripts/build.mjs after the module is built:
//
//   node emulator/seeded_image.mjs   (says when the file changed)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { instantiateEmulatorModule } from '../web/local/emulator/emulator_module.js';
import { serviceArguments } from '../web/local/emulator/service_options.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'web/dist/loyalty_emulator_seed.mjs');
// Any fixed instant: the service stamps the seeding's times again at each emulator's now.
const SEEDED_AT = Date.UTC(2026, 0, 1);
const encoder = new TextEncoder();

// Copies each byte array into the module's memory, calls fn(pointers), frees them.
function withBytes(m, arrays, fn) {
  const placed = arrays.map((bytes) => {
    const at = m._malloc(Math.max(bytes.length, 1));
    m.HEAPU8.set(bytes, at);
    return at;
  });
  try {
    return fn(placed, arrays.map((bytes) => bytes.length));
  } finally {
    for (const at of placed) m._free(at);
  }
}

function readFile(m, file) {
  return withBytes(m, [encoder.encode(`${file}\0`)], ([at]) => {
    const sizeOut = m._malloc(4);
    try {
      const data = m._lq_emulator_read_file(at, sizeOut);
      return data === 0 ? null : m.HEAPU8.slice(data, data + m.HEAPU32[sizeOut >> 2]);
    } finally {
      m._free(sizeOut);
      m._lq_emulator_release();
    }
  });
}

/** The database the module seeds of `text`, closed (its WAL checkpointed into the file). */
async function seededDatabase(text) {
  const m = await instantiateEmulatorModule({ nowMs: () => SEEDED_AT });
  const fixture = '/fixture.json';
  const db = '/seeded.db';
  withBytes(m, [encoder.encode(`${fixture}\0`), encoder.encode(text)], ([at, data], [, size]) => {
    if (!m._lq_emulator_write_file(at, data, size)) throw new Error(`cannot write ${fixture}`);
  });
  // createEmulator's own arguments (web/local/emulator/emulator.js).
  const { args } = serviceArguments({ accessLog: 'off' }, { caller: 'seeded_image' });
  const packed = encoder.encode([...args, '--fixture', fixture, '--db', db].join('\0'));
  const service = withBytes(m, [packed], ([at], [size]) => m._lq_service_create(at, size, SEEDED_AT));
  if (service === 0) throw new Error(`the demo fixture does not seed: ${m.UTF8ToString(m._lq_emulator_error())}`);
  m._lq_service_destroy(service);
  const image = readFile(m, db);
  if (image === null) throw new Error(`cannot read ${db}`);
  if (readFile(m, `${db}-wal`) !== null) throw new Error(`${db}-wal outlived the service: the image would miss it`);
  return image;
}

const demo = readFileSync(path.join(root, 'fixtures/demo.json'), 'utf8');
// The file's text (createEmulator() reads it) and the text of the same fixture given as an object
// (createEmulator({ fixture }) reads JSON.stringify of it), each seeded to check they agree.
const texts = [...new Set([demo, JSON.stringify(JSON.parse(demo))])];
const images = [];
for (const text of texts) images.push(await seededDatabase(text));
if (!images.every((image) => Buffer.from(image).equals(Buffer.from(images[0])))) {
  throw new Error('the demo fixture\'s texts seed different databases');
}
const source = `// The demo fixture's database as web/dist/loyalty_emulator.wasm seeds it (emulator/seeded_image.mjs;
// web/local/emulator/seeded_image.js reads it). Generated: do not edit.
export const fixtureTexts = ${JSON.stringify(texts)};
export const image = '${Buffer.from(images[0]).toString('base64')}';
`;
if (!existsSync(OUT) || readFileSync(OUT, 'utf8') !== source) {
  writeFileSync(OUT, source);
  console.log(`seeded_image: ${path.relative(root, OUT)} (${images[0].length} bytes of database)`);
}
