// scripts/check-includes.mjs (run by `npm test`): a face (wasm/, front/, service/, hub/, bench/)
// that includes an engine header outside include/lq/ is named, and so are hub/ or front/ including
// beyond what they stand on, RFC 3339 written outside the engine's instant.cpp, a native folder of
// more than 12 concepts, and a domain file that includes the HTTP face; the repository has none of
// them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import {
  domainFolderOffences,
  domainLayerOffences,
  faceIncludeOffences,
  sharedPartOffences,
  timeWriterOffences,
} from '../../scripts/check-includes.mjs';
import { root } from '../support/support.js';

function tree(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lq-includes-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

test('a face including "rules/..." or a path into src/ is named; lq/, its own and <...> headers are not', () => {
  const dir = tree({
    'src/rules/explain.hpp': '',
    'src/model/snapshot.hpp': '',
    'include/lq/qualifier.hpp': '',
    'wasm/wire.hpp': '',
    'wasm/bindings.cpp':
      '#include <emscripten/bind.h>\n#include "lq/qualifier.hpp"\n#include "wire.hpp"\n#include "rules/explain.hpp"\n',
    'service/domain/x.cpp': '#include "domain/x.hpp"\n#include "../../src/model/snapshot.hpp"\n',
    'service/domain/x.hpp': '',
    'bench/native_bench.cpp': '  #  include "model/snapshot.hpp"\n',
    'src/render/render.hpp': '',
    'hub/domain/claim.hpp': '',
    'hub/http/hub_routes.cpp': '#include "domain/claim.hpp"\n#include "render/render.hpp"\n',
  });
  try {
    assert.deepEqual(faceIncludeOffences(dir), [
      'wasm/bindings.cpp:4: includes "rules/explain.hpp", an engine header outside include/lq/',
      'service/domain/x.cpp:2: includes "../../src/model/snapshot.hpp", an engine header outside include/lq/',
      'hub/http/hub_routes.cpp:2: includes "render/render.hpp", an engine header outside include/lq/',
      'bench/native_bench.cpp:1: includes "model/snapshot.hpp", an engine header outside include/lq/',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder of service/domain/ or hub/ of 13 concepts is named; 12, with .hpp and .cpp pairs, is not', () => {
  const files = {};
  for (let i = 0; i < 12; ++i) {
    files[`service/domain/ok/c${i}.hpp`] = '';
    files[`service/domain/ok/c${i}.cpp`] = '';
    files[`service/domain/big/c${i}.hpp`] = '';
  }
  files['service/domain/big/extra.cpp'] = '';
  for (let i = 0; i < 13; ++i) files[`hub/store/s${i}.cpp`] = '';
  const dir = tree(files);
  try {
    const offences = domainFolderOffences(dir);
    assert.equal(offences.length, 2);
    assert.match(offences[0], /^service\/domain\/big\/: 13 concepts, more than 12: /);
    assert.match(offences[1], /^hub\/store\/: 13 concepts, more than 12: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a domain file including the HTTP face is named', () => {
  const dir = tree({
    'service/domain/baskets/baskets.cpp': '#include "domain/caller.hpp"\n#include "http/auth.hpp"\n#include <httplib.h>\n',
  });
  try {
    assert.deepEqual(domainLayerOffences(dir), [
      'service/domain/baskets/baskets.cpp:2: includes "http/auth.hpp": the domain sees nothing of http/',
      'service/domain/baskets/baskets.cpp:3: includes "httplib.h": the domain sees nothing of http/',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the faces of this repository include only include/lq/ of the engine', () => {
  assert.deepEqual(faceIncludeOffences(root), []);
});

test('every native folder holds at most 12 concepts (FOLDERS_TO_GROUP aside), and service/domain/ includes nothing of http/', () => {
  assert.deepEqual(domainFolderOffences(root), []);
  assert.deepEqual(domainLayerOffences(root), []);
});

test('hub/ including service/ (or anything but hub/, front/ and lq/) is named, and so is front/ including service/', () => {
  const dir = tree({
    'hub/main.cpp':
      '#include <string>\n#include "hub/hub_options.hpp"\n#include "front/http/guarded_server.hpp"\n#include "lq/render.hpp"\n' +
      '#include "domain/service_clock.hpp"\n#include "service/store/store.hpp"\n',
    'front/http/access_log.cpp': '#include "front/http/access_log.hpp"\n#include "lq/instant.hpp"\n#include "domain/caller.hpp"\n',
  });
  try {
    assert.deepEqual(sharedPartOffences(dir), [
      'hub/main.cpp:5: includes "domain/service_clock.hpp": hub/ includes only hub/, front/, lq/',
      'hub/main.cpp:6: includes "service/store/store.hpp": hub/ includes only hub/, front/, lq/',
      'front/http/access_log.cpp:3: includes "domain/caller.hpp": front/ includes only front/, lq/',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('RFC 3339 written, or milliseconds made an instant, outside src/base/instant.cpp is named', () => {
  const dir = tree({
    'src/base/instant.cpp': 'std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02d%sZ", y);\n',
    'include/lq/instant.hpp': 'std::string format_rfc3339(instant t);\ninstant instant_from_unix_ms(double ms);\n',
    'src/render/render.cpp': '  std::snprintf(text, sizeof text, "\\"%04lld-%02d-%02dT%02d:%02d:%02d", y);\n',
    'front/service_clock.hpp': 'std::string format_rfc3339(instant t);\ninstant instant_from_ms(int64_t ms);\n',
    'hub/domain/claim_json.cpp': '  return format_rfc3339_ms(instant_from_unix_ms(ms));\n',
  });
  try {
    assert.deepEqual(timeWriterOffences(dir).map((o) => o.split(': ')[0]), [
      'src/render/render.cpp:1',
      'front/service_clock.hpp:1',
      'front/service_clock.hpp:2',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder waiting in FOLDERS_TO_GROUP passes while over the limit, and is named once within it; a sub-folder counts', () => {
  const files = {};
  for (let i = 0; i < 13; ++i) files[`include/lq/h${i}.hpp`] = '';
  for (let i = 0; i < 11; ++i) files[`front/c${i}.cpp`] = '';
  files['front/http/x.hpp'] = '';
  files['front/store/y.hpp'] = '';
  for (let i = 0; i < 5; ++i) files[`wasm/w${i}.cpp`] = '';
  const dir = tree(files);
  try {
    const waiting = { 'include/lq': 'grouped later', wasm: 'grouped later' };
    const offences = domainFolderOffences(dir, { waiting });
    assert.equal(offences.length, 2);
    assert.match(offences[0], /^front\/: 13 concepts, more than 12: c0, .*http\/, store\/$/);
    assert.match(offences[1], /^wasm\/: 5 concepts now: remove it from FOLDERS_TO_GROUP/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hub/ and front/ of this repository include only what they stand on; RFC 3339 is written once', () => {
  assert.deepEqual(sharedPartOffences(root), []);
  assert.deepEqual(timeWriterOffences(root), []);
});
