// The messages entry's formatter (web/messages/messageformat/messageformat.js) is messageformat's own
// code, as scripts/package/vendor-messageformat.mjs writes it from the installed version: never edited by
// hand, never stale, with its licence beside it, and without the functions the entry leaves out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { VENDORED, vendoredText } from '../../../scripts/package/vendor-messageformat.mjs';
import { formatMessage } from '../../../web/messages/messages.js';
import { root } from '../../support/support.js';

test('the vendored formatter is what the script writes from the installed messageformat', async () => {
  assert.equal(readFileSync(VENDORED, 'utf8'), await vendoredText(), 'run node scripts/package/vendor-messageformat.mjs');
  const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules/messageformat/package.json'), 'utf8'));
  assert.match(readFileSync(VENDORED, 'utf8'), new RegExp(`^// messageformat ${version.replace(/\./g, '\\.')} `));
  assert.equal(readFileSync(path.join(path.dirname(VENDORED), 'LICENSE'), 'utf8'),
    readFileSync(path.join(root, 'node_modules/messageformat/LICENSE'), 'utf8'));
});

test('the documented functions work and the left-out ones are unknown functions', () => {
  assert.equal(formatMessage('{$n :number minimumFractionDigits=1} {$i :integer} {$s :string}', { n: 2, i: 2.6, s: 'x' }), '2.0 3 x');
  assert.match(formatMessage('{$a :currency currency=EUR}', { a: '3.5' }, { locale: 'fr' }), /^3,50\s€$/);
  for (const fn of [':percent', ':unit unit=meter', ':date', ':datetime', ':time', ':offset add=1']) {
    assert.throws(() => formatMessage(`{$v ${fn}}`, { v: 1 }), { name: 'TypeError', message: /Unknown function/ }, fn);
  }
});
