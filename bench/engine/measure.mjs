// One figure per process (bench/run.mjs spawns it once per figure), so that no figure inherits
// another's JIT and garbage-collector state (explain's garbage, for one, slowed whatever ran after
// it by up to 2x on this 2-core machine):
//   node bench/engine/measure.mjs workload SNAPSHOT.json REQUESTS.jsonl ROUNDS ROUND_MS VARIANT
//     VARIANT: qualify | qualifyText | explain (public JS API; requests as objects, or as JSON
//     strings for qualifyText), stringify (JSON.stringify of the request alone), wasmQualify |
//     wasmExplain (the raw wasm engine on the request bytes; wasmQualify also gives the digest of
//     every qualify_json answer);
//   node bench/engine/measure.mjs load SNAPSHOT.json ROUNDS
//     setSnapshot(object) and setSnapshot(string) through the JS API (after a warm-up of both),
//     JSON.stringify alone and the raw wasm load.
// Prints one JSON object of medians in ms ({ms} for a workload figure).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

import { fnv1a, median, perCall, rawEngine, rawModule, wallMs } from '../timing.mjs';
import { NOW_MS, root } from '../workloads.mjs';

const [mode, snapshotFile, ...rest] = process.argv.slice(2);
const api = await import(pathToFileURL(path.join(root, 'web/index.js')).href);
const snapshotText = readFileSync(snapshotFile, 'utf8');
const encoder = new TextEncoder();
const out = {};

if (mode === 'workload') {
  const [requestsFile, roundsText, roundMsText, variant] = rest;
  const timing = { rounds: Number(roundsText), roundMs: Number(roundMsText) };
  const lines = readFileSync(requestsFile, 'utf8').split('\n').filter((l) => l.length > 0);
  const requests = lines.map((line) => JSON.parse(line));
  const texts = requests.map((r) => JSON.stringify(r)); // flat strings, the same bytes as the file
  const bytes = lines.map((line) => encoder.encode(line));
  if (variant.startsWith('wasm')) {
    const engine = rawEngine(await rawModule(), encoder);
    if (engine.load(snapshotText) !== 0) throw new Error(`wasm refused the snapshot: ${engine.handle.error_message()}`);
    if (variant === 'wasmQualify') {
      let digest = 2166136261;
      for (const line of lines) {
        const status = engine.qualifyJson(line);
        digest = fnv1a(digest, status === 0 ? engine.handle.text() : `{"code":${status}}`);
        digest = fnv1a(digest, '\n');
      }
      out.digest = digest.toString(16).padStart(8, '0');
      out.ms = perCall((i) => engine.qualify(bytes[i]), bytes.length, timing);
    } else {
      out.ms = perCall((i) => engine.explain(bytes[i]), bytes.length, timing);
    }
    engine.handle.delete();
  } else if (variant === 'stringify') {
    out.ms = perCall((i) => JSON.stringify(requests[i]), requests.length, timing);
  } else {
    const q = await api.createQualifier(JSON.parse(snapshotText), { now: () => NOW_MS });
    const calls = {
      qualify: (i) => q.qualify(requests[i]),
      qualifyText: (i) => q.qualify(texts[i]),
      explain: (i) => q.explain(requests[i]),
    };
    if (!calls[variant]) throw new Error(`unknown variant ${variant}`);
    out.ms = perCall(calls[variant], requests.length, timing);
    q.dispose();
  }
} else if (mode === 'load') {
  const rounds = Number(rest[0]);
  const object = JSON.parse(snapshotText);
  const q = await api.createQualifier(object);
  // Warm-up, as for every other figure (bench/timing.mjs): the first loads of a process run in
  // V8's baseline code and page in fresh memory; at least 2 s and 10 loads of each form.
  const warmStart = wallMs();
  for (let i = 0; i < 10 || wallMs() - warmStart < 2000; ++i) {
    q.setSnapshot(object);
    q.setSnapshot(snapshotText);
  }
  const objectMs = [];
  const textMs = [];
  for (let round = 0; round < rounds; ++round) {
    let start = wallMs();
    q.setSnapshot(object);
    objectMs.push(wallMs() - start);
    start = wallMs();
    q.setSnapshot(snapshotText);
    textMs.push(wallMs() - start);
  }
  q.dispose();
  out.setSnapshotObject = median(objectMs);
  out.setSnapshotText = median(textMs);
  const timing = { rounds, roundMs: 0 };
  out.stringify = perCall(() => JSON.stringify(object), 1, timing);
  const engine = rawEngine(await rawModule(), encoder);
  out.wasmLoad = perCall(() => engine.load(snapshotText), 1, timing);
  engine.handle.delete();
} else {
  console.error('usage: node bench/engine/measure.mjs workload SNAPSHOT REQUESTS ROUNDS ROUND_MS VARIANT | load SNAPSHOT ROUNDS');
  process.exit(2);
}
console.log(JSON.stringify(out));
