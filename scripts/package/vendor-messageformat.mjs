// `node scripts/package/vendor-messageformat.mjs`: writes web/messages/messageformat/messageformat.js, the
// part of messageformat (the devDependency's exact version) that loyalty-qualifier/messages uses:
// MessageFormat, parseMessage, visit, the default :number, :integer and :string functions and the
// draft :currency, as one minified ES module. The other functions (:offset, and the draft set's
// :date, :datetime, :time, :unit and :percent) are left out: messageformat builds its function
// sets in module code no bundler can drop, and they made a fifth of the entry's download
// (docs/decisions.md, "The guest's language"). Run it after changing messageformat's
// version; tests/package/messages/messages_vendor.test.js fails while the file differs from what it writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const VENDORED = path.join(root, 'web/messages/messageformat/messageformat.js');

const ENTRY = `export { MessageFormat, parseMessage, visit } from 'messageformat';
import { DraftFunctions } from 'messageformat/functions';
export const currency = DraftFunctions.currency;
`;

// The functions the entry does not offer, as modules that export nothing usable.
const LEFT_OUT = {
  'datetime.js': 'export const date = undefined, datetime = undefined, time = undefined;',
  'offset.js': 'export const offset = undefined;',
  'percent.js': 'export const percent = undefined;',
  'unit.js': 'export const unit = undefined;',
};

/** The text of the vendored module, as this script writes it. */
export async function vendoredText() {
  const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules/messageformat/package.json'), 'utf8'));
  const built = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'messageformat-entry.js' },
    bundle: true, minify: true, format: 'esm', platform: 'neutral', target: 'es2022', write: false,
    legalComments: 'none', logLevel: 'silent',
    plugins: [{
      name: 'left-out',
      setup(build) {
        build.onLoad({ filter: /messageformat[\\/]lib[\\/]functions[\\/](datetime|offset|percent|unit)\.js$/ }, (args) =>
          ({ contents: LEFT_OUT[path.basename(args.path)], loader: 'js' }));
      },
    }],
  });
  return `// messageformat ${version} (https://github.com/messageformat/messageformat), Apache License 2.0
// (LICENSE beside this file): MessageFormat, parseMessage, visit, :number, :integer, :string and the
// draft :currency, bundled and minified by the repository's scripts/package/vendor-messageformat.mjs. Do not edit: run that script.
${built.outputFiles[0].text}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(VENDORED, await vendoredText());
  writeFileSync(path.join(path.dirname(VENDORED), 'LICENSE'), readFileSync(path.join(root, 'node_modules/messageformat/LICENSE')));
  console.log(`wrote ${path.relative(root, VENDORED)}`);
}
