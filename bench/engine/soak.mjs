// The soak of issue 6 in a process of its own (bench/run.mjs spawns it):
//   node bench/engine/soak.mjs SNAPSHOT.json REQUESTS.jsonl MALFORMED.jsonl CALLS
// CALLS qualify() calls through the public JS API, every tenth one a malformed request (each kind
// in turn). Every answer is checked against the first answer to the same request (ids of the
// qualifying offers; code and message of each refusal), and the wasm memory size is sampled every
// 50,000 calls. Prints one JSON object; "after warm-up" is after the first 10 % of the calls.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { NOW_MS } from '../workloads.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [snapshotFile, requestsFile, malformedFile, callsText] = process.argv.slice(2);
const calls = Number(callsText);
const warmup = Math.floor(calls / 10);
const lines = (file) => readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);

const { createQualifier, diagnostics } = await import(pathToFileURL(path.join(root, 'web/index.js')).href);
const requests = lines(requestsFile).map((line) => JSON.parse(line));
const malformed = lines(malformedFile);
const start = await diagnostics();
const q = await createQualifier(readFileSync(snapshotFile, 'utf8'), { now: () => NOW_MS });
const ids = (a) => `${a.rewards.map((e) => e.id).join(',')}|${a.points_products.map((e) => e.id).join(',')}`;
const refusal = (text) => {
  try {
    q.qualify(text);
  } catch (e) {
    return `${e.code} ${e.message}`;
  }
  return 'accepted';
};
const expected = requests.map((r) => ids(q.qualify(r)));
const expectedRefusals = malformed.map(refusal);
let wrong = expectedRefusals.filter((e) => !e.startsWith('400 ')).length;

const samples = [];
let afterWarmup = null;
const began = performance.now();
for (let call = 0; call < calls; ++call) {
  if (call % 10 === 9) {
    const k = Math.floor(call / 10) % malformed.length;
    if (refusal(malformed[k]) !== expectedRefusals[k]) wrong += 1;
  } else {
    const k = call % requests.length;
    if (ids(q.qualify(requests[k])) !== expected[k]) wrong += 1;
  }
  if ((call + 1) % 50_000 === 0 || call + 1 === warmup) {
    const d = await diagnostics();
    if (call + 1 === warmup) afterWarmup = d;
    if ((call + 1) % 50_000 === 0) samples.push(d.wasmMemoryBytes);
  }
}
const seconds = (performance.now() - began) / 1000;
const end = await diagnostics();
q.dispose();
console.log(
  JSON.stringify({
    calls,
    seconds,
    wrong,
    startBytes: start.wasmMemoryBytes,
    afterWarmupBytes: (afterWarmup ?? end).wasmMemoryBytes,
    endBytes: end.wasmMemoryBytes,
    samples,
    handlesBefore: (afterWarmup ?? end).liveHandles,
    handlesAfter: end.liveHandles,
  }),
);
