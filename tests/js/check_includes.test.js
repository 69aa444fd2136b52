// scripts/check-includes.mjs (run by `npm test`): a face (wasm/, service/, hub/, bench/) that
// includes an engine header outside include/lq/ is named, and so is a folder of service/domain/ or
// hub/ of more than 12 concepts, and a domain file that includes the HTTP face; the repository has
// none of them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import {
  domainFolderOffences,
  domainLayerOffences,
  faceIncludeOffences,
} from '../../scripts/check-includes.mjs';
import { root } from './support.js';

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

test('every folder of service/domain/ and hub/ holds at most 12 concepts, and service/domain/ includes nothing of http/', () => {
  assert.deepEqual(domainFolderOffences(root), []);
  assert.deepEqual(domainLayerOffences(root), []);
});
