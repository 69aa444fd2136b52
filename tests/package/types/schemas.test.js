// The JSON Schemas the package ships (schemas/snapshot.schema.json, schemas/basket.schema.json) and the
// types of web/index.d.ts describe the same members: each object of a schema and its type name the
// same members, required and nullable alike, with the same closed sets of strings. The schemas
// also accept what the engine accepts (the shipped examples, the public cases) and refuse a
// snapshot that names neither offer list, as the engine does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import Ajv2020 from 'ajv/dist/2020.js';
import ts from 'typescript';

import { createQualifier, QualifyError, snapshotFromAccount } from '../../../web/index.js';
import { CONTEXT, DOCUMENTED, DOCUMENTED_STRINGS, REWARDS_ONLY, VENDOR_EXAMPLE } from '../account/account_reads.js';
import { readJson, root } from '../../support/support.js';

const require = createRequire(import.meta.url);
const snapshotSchema = readJson('schemas/snapshot.schema.json');
const basketSchema = readJson('schemas/basket.schema.json');

// Each object of a schema and the type that declares its members.
const SNAPSHOT_TYPES = {
  '': 'SnapshotFields',
  merchant: 'SnapshotMerchant',
  location: 'SnapshotLocation',
  user: 'SnapshotUser',
  points_balance: 'PointsBalance',
  time_window: 'TimeWindow',
  reward: 'RewardRecord',
  points_product: 'PointsProductRecord',
};
const BASKET_TYPES = { '': 'QualifyRequest', item: 'BasketItem', modifier: 'BasketModifier' };

/** The types of web/index.d.ts by name, through a checker (generic types with their defaults). */
function declaredTypes(names = [...Object.values(SNAPSHOT_TYPES), 'Snapshot', ...Object.values(BASKET_TYPES)]) {
  const probe = path.join(root, 'web', '__schema_probe.ts');
  const text = `import type * as lq from './index.js';\n${names.map((n) => `export type ${n} = lq.${n};`).join('\n')}\n`;
  const options = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => (path.resolve(file) === probe ? text : readFile(file));
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  host.getSourceFile = ((get) => (file, language, ...rest) =>
    path.resolve(file) === probe ? ts.createSourceFile(file, text, language) : get(file, language, ...rest))(host.getSourceFile.bind(host));
  const program = ts.createProgram([probe], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, []);
  const checker = program.getTypeChecker();
  const types = new Map();
  for (const statement of program.getSourceFile(probe).statements) {
    if (ts.isTypeAliasDeclaration(statement)) types.set(statement.name.text, checker.getTypeAtLocation(statement.name));
  }
  return { checker, types };
}
let declared; // one program for every test: building it is most of their time
const typesOfIndex = () => (declared ??= declaredTypes());

const NULLISH = ts.TypeFlags.Null | ts.TypeFlags.Undefined;
const partsOf = (type) => (type.isUnion() ? type.types : [type]);

/** The string literals a type is made of (null and undefined aside), or null when it is open. */
function literals(type) {
  const parts = partsOf(type).filter((t) => !(t.flags & NULLISH));
  return parts.length > 0 && parts.every((t) => t.isStringLiteral()) ? new Set(parts.map((t) => t.value)) : null;
}

/** The element type of an array type (readonly or not), or null. */
function elementOf(checker, type) {
  const array = partsOf(type).find((t) => checker.isArrayType(t));
  return array ? checker.getTypeArguments(array)[0] : null;
}

/** A member as its type declares it: required, nullable, and its closed set of strings (or of its elements'). */
function declaredMember(checker, symbol) {
  const type = checker.getTypeOfSymbol(symbol);
  const element = elementOf(checker, type);
  return {
    required: (symbol.flags & ts.SymbolFlags.Optional) === 0,
    nullable: partsOf(type).some((t) => t.flags & ts.TypeFlags.Null),
    enum: [...(literals(element ?? type) ?? [])].sort(),
  };
}

/** The same of a schema's property. */
function schemaMember(schema, name, property) {
  const nullable = [property.type].flat().includes('null') || (property.anyOf ?? []).some((p) => p.type === 'null') ||
    (property.enum ?? []).includes(null);
  const strings = (property.items ?? property).enum ?? [];
  return {
    required: (schema.required ?? []).includes(name),
    nullable,
    enum: strings.filter((s) => typeof s === 'string').sort(),
  };
}

function compare(schema, types, mapping, label) {
  const { checker, types: declared } = types;
  for (const [where, typeName] of Object.entries(mapping)) {
    const object = where === '' ? schema : schema.$defs[where];
    const type = declared.get(typeName);
    const members = new Map(checker.getPropertiesOfType(type).map((s) => [s.name, declaredMember(checker, s)]));
    const properties = Object.entries(object.properties).map(([name, p]) => [name, schemaMember(object, name, p)]);
    assert.deepEqual([...members.keys()].sort(), properties.map(([name]) => name).sort(),
      `${label}${where ? `#/$defs/${where}` : ''} and ${typeName} name different members`);
    for (const [name, fromSchema] of properties) {
      assert.deepEqual(members.get(name), fromSchema, `${label}${where ? `#/$defs/${where}` : ''}: ${name} differs from ${typeName}.${name}`);
    }
  }
}

test('the snapshot schema and the snapshot types name the same members, required and nullable alike', () => {
  const types = typesOfIndex();
  compare(snapshotSchema, types, SNAPSHOT_TYPES, 'snapshot.schema.json');
  // Snapshot is SnapshotFields naming rewards or points_products: the schema's anyOf.
  const { checker } = types;
  const required = (t) => checker.getPropertiesOfType(t).filter((s) => (s.flags & ts.SymbolFlags.Optional) === 0).map((s) => s.name).sort();
  const ways = partsOf(types.types.get('Snapshot')).map(required);
  assert.deepEqual(ways, snapshotSchema.anyOf.map((a) => [...snapshotSchema.required, ...a.required].sort()));
});

test('the basket schema and the request types name the same members, required and nullable alike', () => {
  compare(basketSchema, typesOfIndex(), BASKET_TYPES, 'basket.schema.json');
});

test('the comparison fails on any difference: a member, required, nullable, a closed set of strings', () => {
  const types = typesOfIndex();
  const extra = structuredClone(snapshotSchema);
  extra.$defs.reward.properties.campaign_id = { type: 'string' };
  assert.throws(() => compare(extra, types, SNAPSHOT_TYPES, 'changed'), /reward and RewardRecord name different members/);
  const stricter = structuredClone(snapshotSchema);
  stricter.$defs.location.required.push('id');
  assert.throws(() => compare(stricter, types, SNAPSHOT_TYPES, 'changed'), /location: id differs/);
  const nullable = structuredClone(snapshotSchema);
  nullable.$defs.reward.properties.hold.enum.pop();
  assert.throws(() => compare(nullable, types, SNAPSHOT_TYPES, 'changed'), /reward: hold differs/);
  const closed = structuredClone(snapshotSchema);
  closed.$defs.time_window.properties.days.items.enum.pop();
  assert.throws(() => compare(closed, types, SNAPSHOT_TYPES, 'changed'), /time_window: days differs/);
});

// Strict (no unknown keyword, no ambiguous type) but for strictRequired, which refuses the anyOf of
// `required` that says "rewards or points_products".
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
const validSnapshot = ajv.compile(snapshotSchema);
const validBasket = ajv.compile(basketSchema);
const errorsOf = (validate) => ajv.errorsText(validate.errors);

test('the shipped examples and every public case the engine accepts are valid by the schemas', () => {
  assert.ok(validSnapshot(readJson('examples/snapshot.json')), errorsOf(validSnapshot));
  assert.ok(validBasket(readJson('examples/basket.json')), errorsOf(validBasket));
  const cases = readJson('tests/engine/cases/public.json');
  assert.ok(cases.length > 10);
  for (const c of cases) {
    assert.ok(validSnapshot(c.snapshot), `${c.name}: ${errorsOf(validSnapshot)}`);
    // A request the engine refuses may be valid JSON Schema-wise (a malformed timestamp is a pattern miss, a bad venue an enum miss).
    assert.equal(validBasket(c.request), c.expect.error !== 400, `${c.name}: ${errorsOf(validBasket)}`);
  }
});

test('the snapshots snapshotFromAccount makes of the loyalty service\'s account reads are valid by the schema', () => {
  for (const account of [DOCUMENTED, DOCUMENTED_STRINGS, REWARDS_ONLY, VENDOR_EXAMPLE]) {
    assert.ok(validSnapshot(snapshotFromAccount(account, CONTEXT)), errorsOf(validSnapshot));
  }
});

test('a snapshot naming neither offer list is refused by the schema and by the engine (422), naming both', async () => {
  const example = readJson('examples/snapshot.json');
  const { rewards, points_products: products, ...rest } = example;
  const misspelt = { ...rest, rewrds: rewards };
  assert.equal(validSnapshot(misspelt), false);
  assert.deepEqual(validSnapshot.errors.filter((e) => e.keyword === 'required').map((e) => e.params.missingProperty).sort(), ['points_products', 'rewards']);
  await assert.rejects(createQualifier(misspelt), (e) => e instanceof QualifyError && e.code === 422 &&
    e.message === 'rewards or points_products is required ([] when the user has none)');
  // Either list alone is a snapshot for both.
  for (const one of [{ ...rest, rewards }, { ...rest, points_products: products }, { ...rest, rewards: null }]) {
    assert.ok(validSnapshot(one), errorsOf(validSnapshot));
    (await createQualifier(one)).dispose();
  }
});

test('the schemas are exported by the package: loyalty-qualifier/schemas/*.schema.json', () => {
  const pkg = readJson('package.json');
  assert.equal(pkg.exports['./schemas/*'], './schemas/*');
  assert.ok(pkg.files.includes('schemas/'));
  assert.equal(require.resolve('loyalty-qualifier/schemas/snapshot.schema.json'), path.join(root, 'schemas/snapshot.schema.json'));
});
