// One validator for every byte (issue 21): the package (wasm in Node), the CLI and both basket
// endpoints of the real service give the same status and message for every body of a generated
// corpus: the public cases' requests cut short and mutated byte by byte, classic syntax errors,
// nesting at and past the limit, numbers beyond every range, fields of the wrong type, and bytes
// that are not UTF-8. Seeded, so a failure replays (LQ_MALFORMED_SEED).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import {
  FIXED_NOW,
  account,
  basket,
  ensureWasm,
  prng,
  qualifying,
  root,
  scratchDir,
  serviceBinary,
  startService,
} from '../harness.js';

const USER = 'u_1001';
const SEED = Number(process.env.LQ_MALFORMED_SEED ?? 2111);
const GENERATED_PER_CATEGORY = 40;
// The CLI is a process per body, run for every body of the corpus too (CLI_CONCURRENCY at once).
const CLI_CONCURRENCY = 4;

const scratch = scratchDir('lq-malformed-');
const cli = path.join(root, 'web/local/cli/cli.js');
let service;
let qualifier;
let snapshotFile;

before(async () => {
  serviceBinary();
  ensureWasm();
  const { createQualifier } = await import('../../../web/index.js');
  // Every valid body is also a new open basket: room for all of them.
  service = await startService({
    db: path.join(scratch.dir, 'malformed.db'),
    now: true,
    delay: 3600,
    args: ['--max-open-baskets', '2000'],
  });
  const snapshot = await account(service, USER);
  assert.equal(snapshot.status, 200, snapshot.text);
  snapshotFile = path.join(scratch.dir, 'snapshot.json');
  writeFileSync(snapshotFile, snapshot.text);
  qualifier = await createQualifier(snapshot.text, { now: () => new Date(FIXED_NOW) });
}, { timeout: 900_000 });

after(async () => {
  qualifier?.dispose();
  if (service) await service.crash();
  scratch.cleanup();
});

// ---- The corpus ----------------------------------------------------------------------------

const publicRequests = JSON.parse(readFileSync(path.join(root, 'tests/engine/cases/public.json'), 'utf8'))
  .map((c) => c.request);

/** A valid body: a public case's request with a basket id, so POST /api/baskets takes it too. */
function validBody(random, n) {
  return JSON.stringify({ id: `malformed-${SEED}-${String(n).padStart(4, '0')}`, ...random.pick(publicRequests) });
}

// Bytes a mutation puts in: JSON structure, literal and number starts, escapes, white space,
// control characters, and multi-byte UTF-8.
const MUTANT_BYTES = ['{', '}', '[', ']', ',', ':', '"', '\\', 'x', 'n', 't', '0', '-', '.', 'e', '+',
  ' ', '\t', '\n', '\u0001', '\u001f', '\u007f', '\u00e9', '\u20ac', '\u{1f600}'];

const deep = (levels) => '['.repeat(levels) + ']'.repeat(levels);

// Named bodies: every kind of syntax error, the depth limit (the top-level object is level 1),
// numbers beyond every range, wrong types, and a syntax error behind a field's complaint.
const NAMED = [
  '', ' ', '\n\t', '{', '}', '[', '{"items":[}', '{"items":[', '{"items":[{', '{"items":[{"id":',
  '{"a" 1}', '{"a":1 "b":2}', '{"a":1,}', '{,}', '{1:2}', "{'a':1}", '{"a":}', '[1,]', '[1 2]',
  '{"a":01}', '{"a":1.}', '{"a":1.e3}', '{"a":-}', '{"a":.5}', '{"a":+1}', '{"a":1e}', '{"a":1e+}',
  '{"a":tru}', '{"a":nul}', '{"a":True}', '{"a":NaN}', '{"a":Infinity}', '{"a":"\\x"}',
  '{"a":"\\u12"}', '{"a":"\\u12G4"}', '{"a":"\\ud800"}', '{"a":"\\udc00"}', '{"a":"\\ud83d\\u0041"}',
  '{"a":"line\nbreak"}', '{"a":"tab\there"}', '{"a":"open', '{"a":"open\\', '{} {}', '{} x', '{}}',
  '[]', '1', 'null', '"items"', 'true', '\u00e9', '{"items":[]}\u0000',
  // A UTF-8 byte-order mark (a JS string with U+FEFF reaches every face as the bytes EF BB BF).
  '\ufeff{}', '\ufeff2', '\ufeff{"items":[]}', ' \ufeff{}', '{"items":[]}\ufeff', '{"handoff":"\ufeffpickup"}',
  // Depth: 64 levels are read, 65 are refused, wherever they are.
  `{"x":${deep(63)}}`, `{"x":${deep(64)}}`, `[${deep(63)}]`, deep(65), deep(1000),
  `{"items":[{"modifiers":[{"x":${deep(60)}}]}]}`, `{"items":[{"modifiers":[{"x":${deep(61)}}]}]}`,
  `{"items":5,"x":${deep(64)}}`, `{"redemption_venue":"x","x":${'{"a":'.repeat(70)}`,
  // Numbers: any size is JSON; a field that reads one judges its range.
  '{"x":1e400}', '{"x":-1e400,"y":1e-400}', '{"x":123456789012345678901234567890}',
  '{"subtotal":1e400}', '{"subtotal":"1e400"}', '{"subtotal":1e15}', '{"subtotal":999999999999999.99}',
  '{"subtotal":-0}', '{"subtotal":0.0000000000000000001}',
  '{"items":[{"id":"a","price":1e400}]}', '{"items":[{"id":"a","price":-1e-400}]}',
  '{"items":[{"id":"a","quantity":1e400}]}', '{"items":[{"id":"a","quantity":1000000001}]}',
  '{"items":[{"id":"a","quantity":2.0}]}', '{"items":[{"id":"a","quantity":"2"}]}',
  '{"items":[{"id":"a","price":"999999999999999","quantity":2}]}',
  // Wrong types.
  '{"redemption_venue":1}', '{"redemption_venue":"drive-thru"}', '{"order_timestamp":20261124}',
  '{"order_timestamp":"yesterday"}', '{"location_uid":5}', '{"handoff":["pickup"]}', '{"items":{}}',
  '{"items":[1]}', '{"items":[{"id":7}]}', '{"items":[{"id":"a","categories":"coffee"}]}',
  '{"items":[{"id":"a","categories":["coffee",2]}]}', '{"items":[{"id":"a","modifiers":["x"]}]}',
  '{"items":[{"id":"a","modifiers":[{"price":"free"}]}]}',
  // A field's complaint, then a syntax error further on: the syntax error is the answer.
  '{"items":5,"x":[1,]}', '{"redemption_venue":"x","a":tru}', '{"items":[{"price":"-1"}]} x',
  '{"subtotal":"ten","items":[', '{"items":[5]', '{"items":[{"id":7}],"x":"\\q"}',
];

// Bytes that are not UTF-8 (a JS string cannot hold them: the package gets them as bytes).
const NOT_UTF8 = [
  Buffer.from('{"items":[{"id":"caf\xff"}]}', 'latin1'),
  Buffer.from('{"handoff":"\xc3"}', 'latin1'),
  Buffer.from('{"x":"\xed\xa0\x80"}', 'latin1'),
  Buffer.from('{"x":"\xc0\xaf"}', 'latin1'),
  Buffer.from('{"x":1}\xff', 'latin1'),
  Buffer.from('{\xff:1}', 'latin1'),
];

function truncated(random, text) {
  return text.slice(0, random.int(0, text.length - 1));
}

function replaced(random, text) {
  const at = random.int(0, text.length - 1);
  return text.slice(0, at) + random.pick(MUTANT_BYTES) + text.slice(at + 1);
}

function inserted(random, text) {
  const at = random.int(0, text.length);
  return text.slice(0, at) + random.pick([...MUTANT_BYTES, '1e400', deep(65), '{"a":']) + text.slice(at);
}

function deleted(random, text) {
  const at = random.int(0, text.length - 1);
  return text.slice(0, at) + text.slice(at + random.int(1, 3));
}

function nested(random, text) {
  // A value of a member replaced by arrays 60 to 70 levels deep.
  const levels = random.int(60, 70);
  return text.replace(/("items":|"subtotal":|"id":)/, `$1${deep(levels)},"was":`);
}

function retyped(random, text) {
  const value = random.pick(['1e400', '-1', '"x"', '[]', '{}', 'null', 'true', '0.5', '[1e400]', '"\\ud800"']);
  const keys = [...text.matchAll(/"(redemption_venue|order_timestamp|subtotal|price|quantity|categories|modifiers|items|handoff|location_uid)":/g)];
  if (keys.length === 0) return text;
  const key = random.pick(keys);
  const start = key.index + key[0].length;
  // Replaces the value after the key up to the next ',' or '}' (a broken body when it held more).
  const end = text.slice(start).search(/[,}]/);
  return text.slice(0, start) + value + (end < 0 ? '' : text.slice(start + end));
}

const GENERATORS = { truncated, replaced, inserted, deleted, nested, retyped };

/** [{ category, body (string or Buffer) }] */
function corpus() {
  const random = prng(SEED);
  const out = [];
  for (const body of NAMED) out.push({ category: 'named', body });
  for (const body of NOT_UTF8) out.push({ category: 'not-utf8', body });
  let n = 0;
  for (const [category, generate] of Object.entries(GENERATORS)) {
    for (let i = 0; i < GENERATED_PER_CATEGORY; ++i) {
      n += 1;
      out.push({ category, body: generate(random, validBody(random, n)) });
    }
  }
  return out;
}

// ---- The faces -------------------------------------------------------------------------------

/** { status, message } of an answer: 200 and no message when accepted. */
const outcome = (status, message) => (status === 200 ? { status } : { status, message });

function viaPackage(body) {
  try {
    qualifier.qualify(body);
    return outcome(200);
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return outcome(e.code, e.message);
  }
}

function viaCli(body) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'qualify', '-s', snapshotFile, '-r', '-', '-n', FIXED_NOW], {
      cwd: root,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve(outcome(200));
      if (code !== 1) return reject(new Error(`the CLI exited ${code}: ${stderr}`));
      const refusal = JSON.parse(stderr);
      resolve(outcome(refusal.code, refusal.message));
    });
    child.stdin.end(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  });
}

async function viaEndpoint(send, body) {
  const answer = await send(service, USER, undefined, { raw: body });
  return outcome(answer.status, answer.body?.message);
}

// Messages only POST /api/baskets gives, about its own members, checked after the request's, and
// about a declared subtotal above the items (billing checks it; the qualifying call, like every
// face, answers on the declared figures).
const BASKET_ONLY = /^(id |state |rewards|points_products|at most one |a basket id |basket |subtotal \S+ is above the total of the basket's items)/;

const shown = (body) => JSON.stringify(typeof body === 'string' ? body : body.toString('latin1')).slice(0, 300);

async function mapLimited(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

test('the package, the CLI and both endpoints agree on every body of the corpus', { timeout: 600_000 }, async () => {
  const bodies = corpus();
  const cliAnswers = new Map(
    (await mapLimited(bodies, CLI_CONCURRENCY, async (b) => [b, await viaCli(b.body)])),
  );
  const refusals = new Map();
  const kinds = { syntax: 0, deep: 0, field: 0, accepted: 0 };
  for (const entry of bodies) {
    const { category, body } = entry;
    const expected = viaPackage(body);
    const q = await viaEndpoint(qualifying, body);
    assert.deepEqual(q, expected, `${category} ${shown(body)}: POST /api/baskets/qualifying differs from the package`);
    assert.deepEqual(cliAnswers.get(entry), expected, `${category} ${shown(body)}: the CLI differs from the package`);
    const b = await viaEndpoint(basket, body);
    if (expected.status === 200) {
      kinds.accepted += 1;
      assert.ok(b.status === 200 || b.status === 201 || (b.status === 400 && BASKET_ONLY.test(b.message)) || b.status === 409,
        `${category} ${shown(body)}: accepted by the package, POST /api/baskets answers ${JSON.stringify(b)}`);
    } else {
      assert.deepEqual(b, expected, `${category} ${shown(body)}: POST /api/baskets differs from the package`);
      assert.equal(expected.status, 400, `${category} ${shown(body)}`);
      refusals.set(category, (refusals.get(category) ?? 0) + 1);
      if (expected.message.startsWith('request body is not valid JSON: ')) kinds.syntax += 1;
      else if (expected.message.startsWith('request body nests deeper than 64 levels at offset ')) kinds.deep += 1;
      else kinds.field += 1;
    }
  }
  // Every category refused something, and each kind of refusal is well represented.
  for (const category of ['named', 'not-utf8', ...Object.keys(GENERATORS)]) {
    assert.ok((refusals.get(category) ?? 0) >= 5, `${category}: only ${refusals.get(category) ?? 0} refusals`);
  }
  assert.ok(kinds.syntax >= 100 && kinds.deep >= 10 && kinds.field >= 30 && kinds.accepted >= 10,
    `too narrow a corpus: ${JSON.stringify(kinds)}`);
});

test('a syntax error is named in the engine\'s words with its byte offset, on every face', { timeout: 120_000 }, async () => {
  const cases = [
    ['{"items":[}', "request body is not valid JSON: unexpected '}' at offset 10"],
    ['{"items":[', 'request body is not valid JSON: unexpected end of input at offset 10'],
    ['', 'request body is not valid JSON: unexpected end of input at offset 0'],
    ['{"items":5,"x":[1,]}', "request body is not valid JSON: unexpected ']' at offset 18"],
    ['{"a":tru}', 'request body is not valid JSON: invalid literal at offset 5'],
    ['{} x', 'request body is not valid JSON: unexpected text after the JSON value at offset 3'],
    // Offsets count UTF-8 bytes: "é" is two.
    ['{"handoff":"\u00e9","x":}', "request body is not valid JSON: unexpected '}' at offset 20"],
    [Buffer.from('{"handoff":"caf\xff"}', 'latin1'), 'request body is not valid JSON: invalid UTF-8 in string at offset 15'],
    [Buffer.from('{"x":1}\x01', 'latin1'), 'request body is not valid JSON: unexpected text after the JSON value at offset 7'],
    ['{"a":\u0001}', 'request body is not valid JSON: unexpected byte 0x01 at offset 5'],
    // A byte-order mark, as bytes and as a string: refused and named (docs/reference.md).
    [Buffer.from('\xef\xbb\xbf{}', 'latin1'), 'request body is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0'],
    ['\ufeff{"items":[]}', 'request body is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0'],
    [deep(65), 'request body nests deeper than 64 levels at offset 64'],
    [`{"items":5,"x":${deep(64)}}`, 'request body nests deeper than 64 levels at offset 78'],
  ];
  for (const [body, message] of cases) {
    const expected = { status: 400, message };
    assert.deepEqual(viaPackage(body), expected, `package ${shown(body)}`);
    assert.deepEqual(await viaCli(body), expected, `CLI ${shown(body)}`);
    assert.deepEqual(await viaEndpoint(qualifying, body), expected, `qualifying ${shown(body)}`);
    assert.deepEqual(await viaEndpoint(basket, body), expected, `baskets ${shown(body)}`);
  }
});
