// The kiosk page server's static files and symbolic links: it serves no file whose real path is
// outside its folders (kiosk/page, web), whether the link is the file or a folder on the way, and
// decides it at each request (a link made while it runs counts). Links that stay inside the
// folders, and folders that are themselves links, still serve. A real server on 127.0.0.1 over a
// site root in a temporary folder (no link is ever made in the repository).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createKioskServer } from '../../../kiosk/server/page_server.mjs';

const SECRET = 'the merchant key of another shop\n';
let scratch;
let kiosk;
let kioskUrl;

function write(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'lq-kiosk-links-'));
  const site = path.join(scratch, 'site');
  const outside = path.join(scratch, 'outside');
  write(path.join(outside, 'secret.txt'), SECRET);
  write(path.join(outside, 'index.html'), SECRET);
  write(path.join(site, 'kiosk/page/index.html'), '<!doctype html><title>kiosk</title>\n');
  write(path.join(site, 'web/engine/inner.js'), 'export const inner = 1;\n');
  write(path.join(site, 'private.json'), SECRET);
  // Out of the folders: a file, a folder (its files and its index.html), a link to the site root.
  symlinkSync(path.join(outside, 'secret.txt'), path.join(site, 'kiosk/page/secret.txt'));
  symlinkSync(outside, path.join(site, 'kiosk/page/outside'));
  symlinkSync('../../private.json', path.join(site, 'kiosk/page/private.json'));
  symlinkSync('..', path.join(site, 'web/site'));
  // Inside them: a link from the page's folder into web/, and web/ itself a link to a real folder.
  symlinkSync('../../web/engine/inner.js', path.join(site, 'kiosk/page/inner.js'));
  write(path.join(scratch, 'package/web/index.js'), 'export {};\n');
  kiosk = createKioskServer({ siteRoot: site, upstream: () => null });
  await new Promise((resolve) => kiosk.listen(0, '127.0.0.1', resolve));
  kioskUrl = `http://127.0.0.1:${kiosk.address().port}`;
});

after(async () => {
  kiosk?.closeAllConnections?.();
  await new Promise((resolve) => (kiosk ? kiosk.close(resolve) : resolve()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function get(target, method = 'GET') {
  const response = await fetch(`${kioskUrl}${target}`, { method, redirect: 'manual' });
  return { status: response.status, body: await response.text() };
}

test('a symbolic link out of the served folders is refused (403), never read', async () => {
  for (const target of [
    '/kiosk/page/secret.txt',
    '/kiosk/page/outside/secret.txt',
    '/kiosk/page/outside',
    '/kiosk/page/outside/',
    '/kiosk/page/private.json',
    '/web/site/private.json',
  ]) {
    for (const method of ['GET', 'HEAD']) {
      const answer = await get(target, method);
      assert.equal(answer.status, 403, `${method} ${target}: ${answer.status} ${answer.body}`);
      assert.ok(!answer.body.includes('merchant key'), `${method} ${target} leaks the file`);
    }
  }
});

test('links that stay inside the served folders, and a folder that is a link, are served', async () => {
  assert.deepEqual(await get('/kiosk/page/inner.js'), { status: 200, body: 'export const inner = 1;\n' });
  assert.deepEqual(await get('/kiosk/page/'), { status: 200, body: '<!doctype html><title>kiosk</title>\n' });
  // Through a link out and back in: the real path is the page's own file.
  assert.equal((await get('/web/site/kiosk/page/index.html')).status, 200);
  // The site's web/ replaced by a link to a package's real folder: its files are the folder's own.
  const site = path.join(scratch, 'site');
  rmSync(path.join(site, 'web'), { recursive: true });
  symlinkSync(path.join(scratch, 'package/web'), path.join(site, 'web'));
  try {
    assert.deepEqual(await get('/web/index.js'), { status: 200, body: 'export {};\n' });
  } finally {
    rmSync(path.join(site, 'web'));
    write(path.join(site, 'web/engine/inner.js'), 'export const inner = 1;\n');
    symlinkSync('..', path.join(site, 'web/site'));
  }
});

test('decided at each request: a file replaced by a link out while the server runs is refused', async () => {
  const file = path.join(scratch, 'site/kiosk/page/later.txt');
  write(file, 'served\n');
  try {
    assert.deepEqual(await get('/kiosk/page/later.txt'), { status: 200, body: 'served\n' });
    rmSync(file);
    symlinkSync(path.join(scratch, 'outside/secret.txt'), file);
    const answer = await get('/kiosk/page/later.txt');
    assert.equal(answer.status, 403, answer.body);
  } finally {
    rmSync(file, { force: true });
  }
});
