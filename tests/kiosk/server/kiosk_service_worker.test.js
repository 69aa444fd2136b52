// The kiosk server stamps the service worker's VERSION with a digest of what it precaches
// (kiosk/server/files/service_worker.mjs, versionedServiceWorker): a change to any precached file is a new worker and
// a new cache, with no constant bumped by hand; a file whose size and modification time did not
// change is not read again. Real HTTP on 127.0.0.1, a real web root on disk.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { pageBundle } from '../../../kiosk/server/page_bundle.mjs';
import { createKioskServer } from '../../../kiosk/server/page_server.mjs';
import { root } from '../../../kiosk/server/repository_root.mjs';
import { scratchDir } from '../../service/harness.js';

const scratch = scratchDir();
const siteRoot = scratch.dir;
let servers = [];

const WORKER = `// a worker
const VERSION = 'kiosk-v9';
const CACHE = \`loyalty-kiosk-\${VERSION}\`;
const PRECACHE = [
  './',
  './page.js',
  '../../web/shared.js',
];
self.addEventListener('install', () => {});
`;

async function listen(server) {
  servers.push(server);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

function versionOf(text) {
  const match = /^const VERSION = '([^']*)';$/m.exec(text);
  assert.ok(match, `no VERSION line in:\n${text}`);
  return match[1];
}

before(() => {
  mkdirSync(path.join(siteRoot, 'kiosk', 'page'), { recursive: true });
  mkdirSync(path.join(siteRoot, 'web'), { recursive: true });
  writeFileSync(path.join(siteRoot, 'kiosk', 'page', 'sw.js'), WORKER);
  writeFileSync(path.join(siteRoot, 'kiosk', 'page', 'index.html'), '<!doctype html><title>k</title>');
  writeFileSync(path.join(siteRoot, 'kiosk', 'page', 'page.js'), 'export const a = 1;\n');
  writeFileSync(path.join(siteRoot, 'web', 'shared.js'), 'export const b = 2;\n');
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
  scratch.cleanup();
});

test('the served worker carries a digest of its precached files, and only its VERSION differs', async () => {
  const url = await listen(createKioskServer({ siteRoot, upstream: () => null }));
  const first = await fetch(`${url}/kiosk/page/sw.js`);
  assert.equal(first.status, 200);
  assert.match(first.headers.get('content-type'), /^text\/javascript/);
  const text = await first.text();
  assert.match(versionOf(text), /^kiosk-v9-[0-9a-f]{16}$/);
  assert.equal(text.replace(/^const VERSION = .*$/m, ''), WORKER.replace(/^const VERSION = .*$/m, ''));
  assert.equal(Number(first.headers.get('content-length')), Buffer.byteLength(text));

  // The same files: the same worker, and a revalidation is a 304.
  const again = await fetch(`${url}/kiosk/page/sw.js`);
  assert.equal(versionOf(await again.text()), versionOf(text));
  const etag = first.headers.get('etag');
  const revalidated = await fetch(`${url}/kiosk/page/sw.js`, { headers: { 'if-none-match': etag } });
  assert.equal(revalidated.status, 304);

  // Each precached file, the page itself included, changes the version when its bytes change.
  const seen = new Set([versionOf(text)]);
  for (const file of ['kiosk/page/page.js', 'web/shared.js', 'kiosk/page/index.html']) {
    writeFileSync(path.join(siteRoot, file), `${readFileSync(path.join(siteRoot, file), 'utf8')}// edit\n`);
    const changed = await fetch(`${url}/kiosk/page/sw.js`, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200, `${file} changed: the old ETag no longer matches`);
    const version = versionOf(await changed.text());
    assert.ok(!seen.has(version), `${file} changed but the worker's VERSION did not`);
    seen.add(version);
  }

  // A file outside the list does not.
  writeFileSync(path.join(siteRoot, 'kiosk', 'page', 'notes.txt'), 'not precached');
  const unrelated = await fetch(`${url}/kiosk/page/sw.js`);
  assert.ok(seen.has(versionOf(await unrelated.text())));
});

test("the repository's kiosk worker is served stamped, and HEAD agrees with GET", async () => {
  const url = await listen(createKioskServer({ siteRoot: root, upstream: () => null }));
  const source = readFileSync(path.join(root, 'kiosk/page/sw.js'), 'utf8');
  const served = await fetch(`${url}/kiosk/page/sw.js`);
  const text = await served.text();
  assert.equal(versionOf(text), `${versionOf(source)}-${versionOf(text).split('-').pop()}`);
  assert.match(versionOf(text), /-[0-9a-f]{16}$/);
  const head = await fetch(`${url}/kiosk/page/sw.js`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), served.headers.get('etag'));
  assert.equal(Number(head.headers.get('content-length')), Buffer.byteLength(text));
});

test('a precached file is read again only when its size or modification time changed', async () => {
  const site = path.join(siteRoot, 'cached');
  mkdirSync(path.join(site, 'kiosk', 'page'), { recursive: true });
  mkdirSync(path.join(site, 'web'), { recursive: true });
  const files = {
    'kiosk/page/sw.js': WORKER,
    'kiosk/page/index.html': '<!doctype html><title>k</title>',
    'kiosk/page/page.js': 'export const a = 1;\n',
    'web/shared.js': 'export const b = 2;\n',
  };
  // Whole seconds: a modification time set back is then exactly the one the server saw.
  const then = 1_700_000_000;
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(path.join(site, file), text);
    utimesSync(path.join(site, file), then, then);
  }
  const url = await listen(createKioskServer({ siteRoot: site, upstream: () => null }));
  const version = async () => versionOf(await (await fetch(`${url}/kiosk/page/sw.js`)).text());
  const first = await version();

  // Other bytes of the same size under the same modification time: the server does not read the
  // file again, so the worker is the same (this is what a re-read on every request would change).
  const page = path.join(site, 'kiosk/page/page.js');
  writeFileSync(page, 'export const a = 2;\n');
  utimesSync(page, then, then);
  assert.equal(statSync(page).size, Buffer.byteLength(files['kiosk/page/page.js']));
  assert.equal(await version(), first);
  assert.equal(await version(), first);

  // Touched: read again, and its new bytes are a new version.
  utimesSync(page, then + 60, then + 60);
  const touched = await version();
  assert.notEqual(touched, first);
  // Back to the first bytes (another modification time): the first version again.
  writeFileSync(page, files['kiosk/page/page.js']);
  assert.equal(await version(), first);

  // The same holds for the worker itself, and a changed size is seen whatever the time says.
  const worker = path.join(site, 'kiosk/page/sw.js');
  writeFileSync(worker, WORKER.replace('a worker', 'a w0rker'));
  utimesSync(worker, then, then);
  assert.equal(await version(), first);
  const shared = path.join(site, 'web/shared.js');
  writeFileSync(shared, 'export const b = 22;\n');
  utimesSync(shared, then, then);
  assert.notEqual(await version(), first);
});

test('with the page\'s bundle, an edited source is rebuilt before the bundle or the worker is served', { timeout: 120_000 }, async () => {
  const site = path.join(scratch.dir, 'bundled');
  const page = path.join(site, 'kiosk', 'page');
  mkdirSync(page, { recursive: true });
  mkdirSync(path.join(site, 'web'), { recursive: true });
  writeFileSync(path.join(page, 'sw.js'), WORKER.replace("'./page.js'", "'./dist/kiosk.js',\n  './dist/engine_worker.js'"));
  writeFileSync(path.join(page, 'kiosk.js'), "import { greeting } from './greeting.js';\ndocument.title = greeting;\n");
  writeFileSync(path.join(page, 'greeting.js'), "export const greeting = 'first text';\n");
  writeFileSync(path.join(page, 'engine_worker.js'), "self.postMessage('ready');\n");
  writeFileSync(path.join(site, 'web', 'shared.js'), 'export const b = 2;\n');
  const url = await listen(createKioskServer({ siteRoot: site, upstream: () => null, pageBundle: pageBundle(site) }));
  const first = await fetch(`${url}/kiosk/page/dist/kiosk.js`);
  assert.equal(first.status, 200);
  assert.match(await first.text(), /first text/);
  const worker = versionOf(await (await fetch(`${url}/kiosk/page/sw.js`)).text());
  // An edit of an imported module: the next request gets the new bundle, and the worker a new VERSION.
  writeFileSync(path.join(page, 'greeting.js'), "export const greeting = 'second text';\n");
  const second = await (await fetch(`${url}/kiosk/page/dist/kiosk.js`)).text();
  assert.match(second, /second text/);
  assert.doesNotMatch(second, /first text/);
  assert.notEqual(versionOf(await (await fetch(`${url}/kiosk/page/sw.js`)).text()), worker);
  // A source that does not build: said in the log, the last bundle still served.
  writeFileSync(path.join(page, 'greeting.js'), 'export const greeting = ;\n');
  const broken = await fetch(`${url}/kiosk/page/dist/kiosk.js`);
  assert.equal(broken.status, 200);
  assert.match(await broken.text(), /second text/);
});
