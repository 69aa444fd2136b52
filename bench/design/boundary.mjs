// Boundary designs, measured in Node on the bench build of the module
// (build/wasm/loyalty_qualifier_bench.*: the shipped one without qualify_json and text):
//   (a) the engine renders the response JSON, JS parses it (JSON.parse per call);
//   (b) the engine returns indices in wasm memory, JS maps them to entities parsed once per
//       snapshot (the design web/index.js uses).
// Both start from a request object, as a caller of the JS API does. Usage: node bench/design/boundary.mjs
import { readFile } from 'node:fs/promises';

import createModule from '../../build/wasm/loyalty_qualifier_bench.mjs';
import { createQualifier } from '../../web/index.js';
import { compareTimes, large, small } from './workload.mjs';

const module = await createModule({
  wasmBinary: await readFile(new URL('../../build/wasm/loyalty_qualifier_bench.wasm', import.meta.url)),
});

const encoder = new TextEncoder();

// The request crosses the same way in both designs: UTF-8 written into the input buffer.
function write(handle, text) {
  const capacity = text.length * 3;
  const address = handle.input_buffer(capacity);
  return encoder.encodeInto(text, module.HEAPU8.subarray(address, address + capacity)).written;
}

async function measure(name, { snapshot, request, now }, calls) {
  const handle = new module.SnapshotHandle();
  if (handle.load(write(handle, JSON.stringify(snapshot))) !== 0) {
    throw new Error(handle.error_message());
  }
  const q = await createQualifier(snapshot, { now: () => now });
  const text = JSON.stringify(request);
  const size = write(handle, text);
  const fns = {
    a: () => {
      const status = handle.qualify_json(write(handle, JSON.stringify(request)), now);
      if (status !== 0) throw new Error(handle.error_message());
      return JSON.parse(handle.text());
    },
    b: () => q.qualify(request),
    stringify: () => JSON.stringify(request),
    engineJson: () => handle.qualify_json(size, now),
    engineIndices: () => handle.qualify(size, now),
  };
  const answer = fns.b();
  if (JSON.stringify(fns.a()) !== JSON.stringify(answer))
    throw new Error(`${name}: designs differ`);
  const times = compareTimes(fns, { calls });
  const row = {
    name,
    qualifying: `${answer.rewards.length} + ${answer.points_products.length}`,
    requestBytes: text.length,
    responseBytes: handle.text().length,
    ...times,
  };
  q.dispose();
  handle.delete();
  return row;
}

const rows = [
  await measure('10 rewards + 4 points products, 5 items', small(), 5_000),
  await measure('500 rewards + 50 points products, 200 items', large(), 100),
];
const us = (t) => `${t < 100 ? t.toFixed(1) : t.toFixed(0)} µs`;
console.log(
  '| workload | qualifying | request / response bytes | (a) JSON text + JSON.parse | ' +
    '(b) indices + frozen entities | JSON.stringify(request) | wasm call, JSON out | ' +
    'wasm call, indices out |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.qualifying} | ${r.requestBytes} / ${r.responseBytes} | ${us(r.a)} | ` +
      `${us(r.b)} | ${us(r.stringify)} | ${us(r.engineJson)} | ${us(r.engineIndices)} |`,
  );
}
