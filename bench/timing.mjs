// What the bench processes share: medians of rounds, the clocks, the answer digest and the raw
// wasm engine (the module without its JS face).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { NOW_MS, root } from './workloads.mjs';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/**
 * Elapsed time in ms. (Process CPU time was tried: it counts V8's background compiler and GC
 * threads, which inflated the first figures of a process by up to 4x.)
 */
export const wallMs = () => performance.now();

/**
 * Runs fn over the inputs until its time per call settles: at least 2 s, then windows of at least
 * 250 ms until one is within 2 % of the one before (at most 8 s). V8 runs wasm first as baseline
 * (Liftoff) code and tiers hot functions up to optimised code in the background; the engine's
 * calls take 1-2 s of running to reach their steady speed (an L call went 458 -> 311 -> 230 µs),
 * and a short warm-up can settle on the baseline plateau.
 */
export function warmUp(fn, inputs, clock = wallMs) {
  const began = clock();
  let previous = Infinity;
  for (;;) {
    const start = clock();
    let calls = 0;
    while (clock() - start < 250) {
      for (let i = 0; i < inputs; ++i) fn(i);
      calls += inputs;
    }
    const now = clock();
    const perCallMs = (now - start) / calls;
    if ((now - began >= 2000 && Math.abs(perCallMs - previous) <= 0.02 * previous) || now - began >= 8000) return;
    previous = perCallMs;
  }
}

/**
 * Median time per call (ms) of fn(i), i over 0..inputs-1, over `rounds` rounds of at least
 * `roundMs` each, after warmUp.
 */
export function perCall(fn, inputs, { rounds = 15, roundMs = 60, clock = wallMs } = {}) {
  warmUp(fn, inputs, clock);
  let passes = 1;
  for (;;) {
    const start = clock();
    for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) fn(i);
    if (clock() - start >= roundMs || passes >= 1 << 16) break;
    passes *= 2;
  }
  const samples = [];
  for (let round = 0; round < rounds; ++round) {
    const start = clock();
    for (let p = 0; p < passes; ++p) for (let i = 0; i < inputs; ++i) fn(i);
    samples.push((clock() - start) / (passes * inputs));
  }
  return median(samples);
}

/** FNV-1a 32 over UTF-16 code units (the answers are ASCII, so it equals the native digest). */
export function fnv1a(hash, text) {
  for (let i = 0; i < text.length; ++i) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The bench build of the wasm module (build/wasm/loyalty_qualifier_bench.*, built by
 * scripts/build.mjs beside the shipped one): the same engine and flags, with the entry points
 * that render answers as JSON text (qualify_json, explain_json, text) that the shipped module
 * leaves out. Instantiated from bytes (Node).
 */
export async function rawModule() {
  const dir = path.join(root, 'build/wasm');
  const { default: createModule } = await import(pathToFileURL(path.join(dir, 'loyalty_qualifier_bench.mjs')).href);
  return createModule({ wasmBinary: readFileSync(path.join(dir, 'loyalty_qualifier_bench.wasm')) });
}

/**
 * The wasm engine without the JS face: the input's UTF-8 bytes copied into wasm memory and one
 * call, as web/index.js does. Follows the binding's input convention (input_buffer(n) for every
 * call, or the older request_buffer(n) with the snapshot and qualify_json taking strings).
 */
export function rawEngine(module, encoder = new TextEncoder()) {
  const handle = new module.SnapshotHandle();
  const shared = typeof handle.input_buffer === 'function';
  const write = (bytes) => {
    const address = shared ? handle.input_buffer(bytes.length) : handle.request_buffer(bytes.length);
    module.HEAPU8.set(bytes, address);
    return bytes.length;
  };
  return {
    handle,
    load: (text) => (shared ? handle.load(write(encoder.encode(text))) : handle.load(text)),
    qualifyJson: (text) =>
      shared ? handle.qualify_json(write(encoder.encode(text)), NOW_MS) : handle.qualify_json(text, NOW_MS),
    qualify: (bytes) => handle.qualify(write(bytes), NOW_MS),
    explain: (bytes) => handle.explain(write(bytes), NOW_MS),
  };
}
