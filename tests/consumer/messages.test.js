// loyalty-qualifier/messages as a user's project gets it: the tarballs of `npm run pack` installed
// offline (the entry's formatter, messageformat's code, is inside the package: no other package is
// installed), the entry and the German and Portuguese catalogs imported BY THEIR NAMES in Node,
// bundled by esbuild for a browser (without the engine), and its types checked by tsc. Its size is a
// bench row (npm run bench -- --only messages), not a test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';

import { consumerProject, root } from './consumer_project.js';

const FORMAT = `import { addCatalog, describeOffer, formatReason, negotiateLocale, supportedLocales } from 'loyalty-qualifier/messages';
import german from 'loyalty-qualifier/messages/catalogs/de';
import portuguese from 'loyalty-qualifier/messages/catalogs/pt-BR';
import { createQualifier } from 'loyalty-qualifier';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const snapshot = readFileSync(require.resolve('loyalty-qualifier/examples/snapshot.json'), 'utf8');
const q = await createQualifier(snapshot, { now: () => Date.parse('2026-11-24T13:15:00Z') });
const explained = q.explain(readFileSync(require.resolve('loyalty-qualifier/examples/basket.json'), 'utf8'));
q.dispose();
const reasons = explained.entries.flatMap((entry) => entry.reasons);
const out = { supportedLocales, count: reasons.length, texts: {} };
for (const locale of supportedLocales) out.texts[locale] = reasons.map((reason) => formatReason(reason, { locale }));
out.points = ['en', 'es-MX', 'fr-CA', 'de'].map((locale) =>
  formatReason({ code: 'INSUFFICIENT_POINTS', message: '1 more points needed.', points_needed: 1 }, { locale }));
out.amount = formatReason({ code: 'BELOW_MINIMUM', message: 'Spend $3.25 more to unlock.', remaining: '3.25' }, { locale: 'fr' });
out.unknown = formatReason({ code: 'A_NEWER_CODE', message: 'Its own words.' }, { locale: 'es' });
out.shipped = [...supportedLocales];
out.beforeAdding = negotiateLocale('de-AT');
out.added = [addCatalog('de', german), addCatalog('pt-BR', portuguese)];
out.afterAdding = [negotiateLocale('de-AT'), negotiateLocale('pt-PT'), [...supportedLocales]];
out.german = formatReason({ code: 'INSUFFICIENT_POINTS', message: '', points_needed: 1 }, { locale: 'de' });
out.inUs = formatReason({ code: 'BELOW_MINIMUM', message: '', remaining: '4' }, { locale: 'es', region: 'US' });
const reward = JSON.parse(snapshot).rewards[0];
out.described = ['en', 'es', 'de', 'pt-BR'].map((locale) => describeOffer(reward, { locale, region: 'US' }).title);
console.log(JSON.stringify(out));
`;

const TYPED = `import { addCatalog, describeOffer, formatReason, supportedLocales, type FormatReasonOptions } from 'loyalty-qualifier/messages';
import german from 'loyalty-qualifier/messages/catalogs/de';
import type { ExplainReason } from 'loyalty-qualifier';
declare const reason: ExplainReason;
const options: FormatReasonOptions = { locale: ['es-MX', 'en'], currency: 'MXN', region: 'MX' };
const text: string = formatReason(reason, options);
const tag: string = addCatalog('de', german);
const { title, detail } = describeOffer({ type: 'percent', value: 20 }, { locale: 'de', productName: (id) => id });
console.log(text, tag, title, detail, supportedLocales.length);
`;

let project;
before(() => {
  project = consumerProject('lq-consumer-messages-', {
    files: {
      'format.mjs': FORMAT,
      'page.js': "import { formatReason } from 'loyalty-qualifier/messages';\nglobalThis.formatReason = formatReason;\n",
      'typed.ts': TYPED,
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [] },
        files: ['typed.ts'],
      }),
    },
  });
});
after(() => project?.cleanup());

test('the entry needs no other package: its formatter is in the package\'s own tarball', () => {
  assert.ok(existsSync(path.join(project.installed(), 'web/messages/messageformat/messageformat.js')));
  assert.ok(existsSync(path.join(project.installed(), 'web/messages/messageformat/LICENSE')));
  assert.ok(!existsSync(path.join(project.installed(), 'node_modules/messageformat')) &&
    !existsSync(path.join(project.dir, 'node_modules/messageformat')), 'messageformat installed as a package');
});

test('formatReason from the installed package formats the engine\'s reasons in every shipped locale', () => {
  const run = spawnSync(process.execPath, ['format.mjs'], { cwd: project.dir, env: project.env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(out.supportedLocales, ['en', 'es', 'fr']);
  assert.ok(out.count > 0, 'the example basket gives no reason');
  for (const locale of out.supportedLocales) {
    assert.equal(out.texts[locale].length, out.count);
    for (const text of out.texts[locale]) assert.doesNotMatch(text, /[{}]|remaining|points_needed/, `${locale}: ${text}`);
  }
  assert.notDeepEqual(out.texts.es, out.texts.en);
  assert.notDeepEqual(out.texts.fr, out.texts.en);
  assert.deepEqual(out.points, ['1 more point needed.', 'Falta 1 punto.', 'Il manque 1 point.', '1 more point needed.']);
  assert.match(out.amount, /^Dépensez encore 3,25\s\$US pour en profiter\.$/);
  assert.equal(out.unknown, 'Its own words.');
  // German and Portuguese: English until the page adds them, by their names.
  assert.deepEqual(out.shipped, ['en', 'es', 'fr']);
  assert.equal(out.beforeAdding, 'en');
  assert.deepEqual(out.added, ['de', 'pt-BR']);
  assert.deepEqual(out.afterAdding, ['de', 'pt-BR', ['en', 'es', 'fr', 'de', 'pt-BR']]);
  assert.equal(out.german, 'Es fehlt 1 Punkt.');
  assert.equal(out.inUs, 'Gaste $4.00 más para desbloquearla.');
  assert.equal(new Set(out.described).size, 4, out.described.join(' | '));
});

test('a page bundling only loyalty-qualifier/messages gets messageformat and no engine', async () => {
  const built = await esbuild.build({
    entryPoints: [path.join(project.dir, 'page.js')], bundle: true, minify: true, format: 'esm', platform: 'browser',
    write: false, logLevel: 'silent', metafile: true, absWorkingDir: project.dir,
  });
  const inputs = Object.keys(built.metafile.inputs);
  assert.ok(inputs.some((file) => file.endsWith('web/messages/messageformat/messageformat.js')), inputs.join('\n'));
  assert.ok(!inputs.some((file) => /catalogs\/(de|pt-BR)\.js$/.test(file)), 'a catalog the page did not ask for');
  assert.ok(!inputs.some((file) => /web\/(engine|dist)\//.test(file)), inputs.join('\n'));
});

test('the entry\'s types check with tsc against the installed package', () => {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project.dir, env: project.env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
