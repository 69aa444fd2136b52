// Is there a cheaper way to get a request object into wasm memory than JSON.stringify +
// TextEncoder.encodeInto (what web/engine/qualifier.js does)? A JS encoder for the common well-formed
// shape, writing UTF-8 bytes directly, measured against it (bench/design/boundary-design.md, "Request
// objects"):   node bench/design/request_encoding.mjs
// Prints, per workload, the minimum over 40 interleaved 30 ms rounds of each variant, and checks
// that the encoder's bytes equal JSON.stringify's.
import { WORKLOADS, makeRequests } from '../workloads.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const buffer = new Uint8Array(1 << 20);
const UNUSUAL = -1; // the shape is not the common one: the caller falls back to JSON.stringify

function writeString(text, at) {
  buffer[at++] = 34;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    if (c < 32 || c > 126 || c === 34 || c === 92) return UNUSUAL; // escapes, non-ASCII
    buffer[at++] = c;
  }
  buffer[at++] = 34;
  return at;
}

function writeAscii(text, at) {
  for (let i = 0; i < text.length; ++i) buffer[at++] = text.charCodeAt(i);
  return at;
}

function writeValue(value, at) {
  if (typeof value === 'string') return writeString(value, at);
  if (typeof value === 'number') return Number.isFinite(value) ? writeAscii(String(value), at) : UNUSUAL;
  if (typeof value === 'boolean') return writeAscii(value ? 'true' : 'false', at);
  if (value === null) return writeAscii('null', at);
  if (Array.isArray(value)) {
    buffer[at++] = 91;
    for (let i = 0; i < value.length; ++i) {
      if (i) buffer[at++] = 44;
      at = writeValue(value[i], at);
      if (at === UNUSUAL) return UNUSUAL;
    }
    buffer[at++] = 93;
    return at;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    buffer[at++] = 123;
    let first = true;
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (field === undefined) continue;
      if (!first) buffer[at++] = 44;
      first = false;
      at = writeString(key, at);
      if (at === UNUSUAL) return UNUSUAL;
      buffer[at++] = 58;
      at = writeValue(field, at);
      if (at === UNUSUAL) return UNUSUAL;
    }
    buffer[at++] = 125;
    return at;
  }
  return UNUSUAL;
}

function round(fn, inputs) {
  const start = performance.now();
  let calls = 0;
  while (performance.now() - start < 30) {
    for (let i = 0; i < inputs; ++i) fn(i);
    calls += inputs;
  }
  return (performance.now() - start) / calls;
}

for (const [name, spec] of Object.entries(WORKLOADS)) {
  const requests = makeRequests(spec, 64, 7);
  for (const request of requests) {
    const size = writeValue(request, 0);
    if (decoder.decode(buffer.subarray(0, size)) !== JSON.stringify(request)) throw new Error('bytes differ');
  }
  const variants = {
    'JSON.stringify + encodeInto': (i) => encoder.encodeInto(JSON.stringify(requests[i]), buffer).written,
    'JSON.stringify alone': (i) => JSON.stringify(requests[i]).length,
    'JS byte writer': (i) => writeValue(requests[i], 0),
  };
  const best = Object.fromEntries(Object.keys(variants).map((k) => [k, Infinity]));
  for (let r = 0; r < 40; ++r) {
    for (const [key, fn] of Object.entries(variants)) best[key] = Math.min(best[key], round(fn, requests.length));
  }
  console.log(`${name}: ${Object.entries(best).map(([k, ms]) => `${k} ${(ms * 1000).toFixed(2)} µs`).join(', ')}`);
}
