// A seeded image: the database the emulator's module makes of the demo fixture (the schema's
// migrations, the seeding, its validation), made once at build time by that same module (the
// repository's emulator/seeded_image.mjs, into dist/loyalty_emulator_seed.mjs) and copied into a
// new emulator's memory instead of made again. The module then only stamps the times seeding
// writes at the emulator's own now (restamp_seeded_times, beside the seeder). Keyed by the
// fixture's exact text: any other text, even the same fixture written otherwise, is seeded.
let loading = null;
let decoded = null;

function seedModule() {
  if (loading === null) {
    // A package built without it still works: every fixture is then seeded.
    loading = import('../../dist/loyalty_emulator_seed.mjs').catch(() => null);
  }
  return loading;
}

// Base64 as bytes, natively where the runtime can (Uint8Array.fromBase64: current browsers;
// Buffer: Node): a loop over 160 KB of characters costs a cold process 5-7 ms.
function bytesOf(base64) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(base64);
  if (typeof globalThis.Buffer?.from === 'function') return new Uint8Array(globalThis.Buffer.from(base64, 'base64'));
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The seeded image of the fixture whose JSON text `text` (or a promise of it) is, or null when
 * the build made none of exactly that text. Only for the package's own module (the one that
 * made it).
 */
export async function seededImage(text) {
  const [seed, fixture] = await Promise.all([seedModule(), text]);
  if (seed === null || !seed.fixtureTexts.includes(fixture)) return null;
  decoded ??= bytesOf(seed.image);
  return decoded;
}
