// One service, two runtimes: the same 1,000 generated requests (request_generator.js), in the same
// order, to the native service over loopback HTTP and to the emulator's fetch(), each from the
// demo fixture at the same service clock: the same status, the same body bytes and the same
// headers that matter, request after request, so that each runtime's state stays the other's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createEmulator } from '../../web/local/emulator/emulator.js';
import { FIXED_NOW, fixture, scratchDir, serviceBinary, startService } from '../service/harness.js';
import { generateRequests } from './request_generator.js';

const COUNT = 1000;
// What a client reads of an answer besides its status and body (the connection's own headers and
// Date aside, which the emulator has no socket for).
const HEADERS = ['content-type', 'www-authenticate', 'allow', 'etag', 'cache-control', 'retry-after', 'location'];

const scratch = scratchDir('lq-differential-');
let native;
let emulator;

before(async () => {
  serviceBinary();
  // The service clock fixed (--now) and the default delay (900 s): every time an answer shows is
  // the service clock's, on both sides.
  native = await startService({ db: path.join(scratch.dir, 'native.db'), now: true, runtime: 'native' });
  emulator = await createEmulator({ now: () => Date.parse(FIXED_NOW) });
}, { timeout: 900_000 });

after(async () => {
  await native?.crash();
  await emulator?.close();
  scratch.cleanup();
});

// A reward a campaign issues gets a random id (service/domain/purchases/campaigns.cpp), on every
// run of either runtime. Each side's generated ids are named by the request that first showed
// them (rw_generated_<n>), and lists that hold them are compared in that naming's order: their
// order by random id is no rule (two native runs differ too). The ETag of such a body, a digest
// of its bytes, differs by construction and is left out.
const GENERATED_ID = /\brw_[A-Za-z0-9]{12}\b/g;
const FIXTURE_IDS = new Set(fixture.rewards.map((r) => r.id));

function canonical(text, names, index) {
  let generated = false;
  const named = text.replace(GENERATED_ID, (id) => {
    if (FIXTURE_IDS.has(id)) return id;
    generated = true;
    if (!names.has(id)) names.set(id, `rw_generated_${index}_${names.size}`);
    return names.get(id);
  });
  if (!generated) return { text: named, generated };
  const sorted = (value) => {
    if (Array.isArray(value)) {
      const items = value.map(sorted);
      return items.every((item) => typeof item?.id === 'string') ? items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) : items;
    }
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sorted(v)]));
    return value;
  };
  return { text: JSON.stringify(sorted(JSON.parse(named))), generated };
}

function described(request) {
  return `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${String(request.body ?? '').slice(0, 200)}`;
}

async function exchange(send, request) {
  const res = await send(request);
  const body = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries(HEADERS.map((name) => [name, res.headers.get(name)]));
  return { status: res.status, body, headers };
}

test(`the native service and the emulator answer ${COUNT} generated requests alike`, { timeout: 600_000 }, async () => {
  const requests = generateRequests(COUNT);
  const statuses = new Map();
  const nativeNames = new Map();
  const emulatorNames = new Map();
  for (const [i, request] of requests.entries()) {
    const init = { method: request.method, headers: request.headers, body: request.body };
    const fromNative = await exchange((r) => fetch(native.url + r.path, { ...init, signal: AbortSignal.timeout(15_000) }), request);
    const fromEmulator = await exchange((r) => emulator.fetch(`https://loyalty.example.test${r.path}`, init), request);
    const where = `request ${i}: ${described(request)}`;
    assert.equal(fromEmulator.status, fromNative.status, `${where}\nnative: ${fromNative.body}\nemulator: ${fromEmulator.body}`);
    const nativeText = fromNative.body.toString('latin1');
    const emulatorText = fromEmulator.body.toString('latin1');
    const fromNativeNamed = canonical(nativeText, nativeNames, i);
    const fromEmulatorNamed = canonical(emulatorText, emulatorNames, i);
    if (fromNativeNamed.generated) {
      assert.equal(fromEmulatorNamed.text, fromNativeNamed.text, where);
    } else {
      assert.equal(emulatorText, nativeText, where);
    }
    // A 304's ETag is that of a body not sent, which may hold generated ids.
    if (fromNativeNamed.generated || (fromNative.status === 304 && nativeNames.size > 0)) {
      fromEmulator.headers.etag = fromNative.headers.etag = null;
    }
    assert.deepEqual(fromEmulator.headers, fromNative.headers, where);
    statuses.set(fromNative.status, (statuses.get(fromNative.status) ?? 0) + 1);
  }
  // The sequence reaches the answers it is meant to: successes, every client error, the limits.
  for (const status of [200, 201, 202, 304, 400, 401, 403, 404, 405, 406, 409, 413, 415]) {
    assert.ok(statuses.has(status), `no request was answered ${status}: ${JSON.stringify([...statuses])}`);
  }
});
