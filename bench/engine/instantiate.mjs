// One cold start, in a fresh process (bench/run.mjs spawns it several times and takes the median):
//   node bench/engine/instantiate.mjs module   glue import + compile + instantiate, from wasm bytes
//                                       already in memory (what a browser does after download)
//   node bench/engine/instantiate.mjs api S.snapshot.json
//                                       the first createQualifier() of a process: the package's
//                                       Node entry (web/index.node.mjs)
//                                       import, module instantiation and the snapshot load
// Prints {"ms": <milliseconds>} (api: also importMs, the import of the package alone).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const mode = process.argv[2];

if (mode === 'module') {
  const wasmBinary = readFileSync(path.join(root, 'web/dist/loyalty_qualifier.wasm'));
  const glue = pathToFileURL(path.join(root, 'web/dist/loyalty_qualifier.mjs')).href;
  const start = performance.now();
  const { default: createModule } = await import(glue);
  const module = await createModule({ wasmBinary });
  const ms = performance.now() - start;
  if (typeof module.SnapshotHandle !== 'function') throw new Error('module has no SnapshotHandle');
  console.log(JSON.stringify({ ms }));
} else if (mode === 'api') {
  const snapshot = readFileSync(process.argv[3], 'utf8');
  const start = performance.now();
  // The package as Node resolves `import 'loyalty-qualifier'` (its "node" export: the one-file
  // entry web/index.node.mjs that npm run build makes).
  const { createQualifier } = await import('loyalty-qualifier');
  const imported = performance.now();
  const q = await createQualifier(snapshot);
  const ms = performance.now() - start;
  q.dispose();
  // importMs: Node's ESM loader on the package's entry; the rest is createQualifier itself.
  console.log(JSON.stringify({ ms, importMs: imported - start }));
} else {
  console.error('usage: node bench/engine/instantiate.mjs module | api SNAPSHOT.json');
  process.exitCode = 2;
}
