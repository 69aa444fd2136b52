// loyalty-qualifier/messages (issues 30 and 39): what the entry adds to a page's download (with its
// three catalogs, with one, and what a language added when asked for costs) and how fast formatReason
// answers. Run by bench/run.mjs (alone: `npm run bench -- --only messages`); prints
// one JSON object. bench/README.md, "Messages", says how each figure is measured.
//
//   node bench/messages.mjs [--quick]
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { perCall } from './timing.mjs';
import { root } from './workloads.mjs';

const quick = process.argv.includes('--quick');
const CATALOGS = ['en', 'es', 'fr'];

/** gzip -9 of esbuild's minified browser bundle of `entry`, with the catalogs not in `keep` emptied. */
async function bundle(entry, keep = CATALOGS) {
  const esbuild = await import('esbuild');
  const emptied = {
    name: 'emptied-catalogs',
    setup(build) {
      build.onLoad({ filter: /web[\\/]messages[\\/]catalogs[\\/][\w-]+\.js$/ }, (args) =>
        keep.includes(path.basename(args.path, '.js')) ? undefined : { contents: 'export default {};', loader: 'js' });
    },
  };
  const built = await esbuild.build({ entryPoints: [path.join(root, entry)], bundle: true, minify: true, format: 'esm',
    platform: 'browser', write: false, logLevel: 'silent', legalComments: 'none', metafile: true, plugins: [emptied] });
  return {
    gzip: gzipSync(built.outputFiles[0].contents, { level: 9 }).length,
    inputs: Object.keys(built.metafile.inputs),
  };
}

const shipped = await bundle('web/messages/messages.js');
// One catalog: each of the three alone (English is the one the entry cannot do without: the
// reference of addCatalog and the fallback), the largest held to the target.
const single = Object.fromEntries(await Promise.all(CATALOGS.map(async (c) => [c, (await bundle('web/messages/messages.js', [c])).gzip])));
const formatterOnly = await bundle('web/messages/messages.js', []);
// A language a page adds when a guest asks for it: its catalog module alone, minified and gzipped.
const added = Object.fromEntries(await Promise.all(['de', 'pt-BR'].map(async (c) => [c, (await bundle(`web/messages/catalogs/${c}.js`, [c])).gzip])));
// The base page: web/index.js as a page bundles it must not reach the messages entry.
const base = await bundle('web/index.js');
const baseHasMessages = base.inputs.some((file) => /web[\\/]messages[\\/]|node_modules[\\/]messageformat/.test(file));

// Speed: the first call of a fresh process (compiling the message, Intl's locale data), then
// warm calls over a mix of locales and codes (texts already made), then a new figure each call.
let start = performance.now();
const { formatReason } = await import(pathToFileURL(path.join(root, 'web/messages/messages.js')).href);
const importMs = performance.now() - start;
const below = { code: 'BELOW_MINIMUM', message: 'Spend $3.25 more to unlock.', remaining: '3.25' };
start = performance.now();
formatReason(below, { locale: 'fr' });
const firstMs = performance.now() - start;
const mix = [
  [below, { locale: 'fr' }],
  [{ code: 'INSUFFICIENT_POINTS', message: '1 more points needed.', points_needed: 1 }, { locale: 'es-MX' }],
  [{ code: 'INSUFFICIENT_POINTS', message: '150 more points needed.', points_needed: 150 }, { locale: 'en' }],
  [{ code: 'EXPIRED', message: 'The reward has expired.' }, { locale: ['de', 'fr-CA'] }],
];
let sink = 0;
const warmMs = perCall((i) => {
  sink += formatReason(...mix[i]).length;
}, mix.length, { rounds: quick ? 7 : 15, roundMs: quick ? 30 : 60 });
// A new figure every call: the text memo misses, so messageformat formats (an Intl.NumberFormat each).
let fresh = 0;
const freshMs = perCall(() => {
  fresh += 1;
  sink += formatReason({ code: 'BELOW_MINIMUM', message: '', remaining: `${fresh}.25` }, { locale: 'fr' }).length;
}, 1, { rounds: quick ? 7 : 15, roundMs: quick ? 30 : 60 });

process.stdout.write(`${JSON.stringify({
  shippedGzip: shipped.gzip,
  oneCatalogGzip: Math.max(...Object.values(single)),
  singleCatalogGzip: single,
  addedCatalogGzip: added,
  formatterGzip: formatterOnly.gzip,
  baseHasMessages,
  importMs,
  firstMs,
  warmMs,
  freshMs,
  sink,
})}\n`);
