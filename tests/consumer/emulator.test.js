// The emulator as a consumer gets it: loyalty-qualifier's tarball installed WITHOUT the platform
// package (as on macOS, Windows or ARM), with MSW, Vitest and Playwright Test from the npm registry
// (the repository's copies, linked in: npm runs offline here). README.md's testing section runs as
// written: its Vitest test under `vitest run`, its page set-up (`mocks.js`) in a page of an ordering
// app bundled against the installed package, and its Playwright test against that page in Chromium.
// startLocalService() and `serve` fall back to the wasm runtime, and refuse a database file there.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';

import { PLATFORM_PACKAGE, consumerProject, root } from './consumer_project.js';
import { fencedBlocks } from './readme/readme_blocks.js';

const readmeBlock = (info) => {
  const block = fencedBlocks(readFileSync(path.join(root, 'README.md'), 'utf8')).find((b) => b.info === info);
  assert.ok(block, `README.md has a \`${info}\` block`);
  return block.code;
};

// The ordering app under test: one button, and the rewards the loyalty API says apply.
const APP = `
import { LoyaltyClient } from 'loyalty-qualifier';

const client = new LoyaltyClient({ baseUrl: 'https://loyalty.example.com', merchantKey: 'mk_harbor_5f1c9a7e2b', accessToken: 'at_u1001_7Qx2LmN9pR4s' });
document.body.innerHTML = '<button type="button">Latte</button><ul></ul>';
document.querySelector('button').addEventListener('click', async () => {
  const answer = await client.qualify({ redemption_venue: 'instore', location_uid: 'harbor-downtown', items: [{ id: 'latte', price: '5.25', categories: ['coffee'] }] });
  document.querySelector('ul').innerHTML = answer.rewards.map((reward) => '<li>' + reward.label + '</li>').join('');
});
`;

const PLAYWRIGHT_CONFIG = `
export default {
  testMatch: 'ordering.spec.js',
  reporter: 'line',
  workers: 1,
  timeout: 60_000,
  use: {
    baseURL: process.env.ORDERING_URL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
};
`;

let project;
let server;

function linkFromRepository(name) {
  const target = path.join(project.dir, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(root, 'node_modules', name), target, 'dir');
}

function run(args, { env = {}, timeout = 180_000 } = {}) {
  return spawnSync(process.execPath, args, { cwd: project.dir, env: { ...project.env, ...env }, encoding: 'utf8', timeout });
}

// The same, without blocking this process (whose server the child's browser talks to).
function runAsync(args, { env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project.dir, env: { ...project.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

before(async () => {
  project = consumerProject('lq-consumer-emulator-', { install: 'package-alone' });
  for (const name of ['msw', 'vitest', '@playwright/test']) linkFromRepository(name);
  // The page: README's mocks.js first, then the app, bundled as an app's bundler would.
  project.write('mocks.js', readmeBlock('js msw-page'));
  project.write('app.js', APP);
  project.write('entry.js', "import './mocks.js';\nimport './app.js';\n");
  await esbuild.build({
    entryPoints: [path.join(project.dir, 'entry.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: path.join(project.dir, 'public/bundle.js'),
    logLevel: 'silent',
  });
  project.write('public/index.html', '<!doctype html><meta charset="utf-8"><title>ordering</title><script type="module" src="/bundle.js"></script>');
  // A static file server: the page, its bundle, MSW's worker script, the package's dist/.
  const installed = project.installed();
  const files = {
    '/': path.join(project.dir, 'public/index.html'),
    '/bundle.js': path.join(project.dir, 'public/bundle.js'),
    '/mockServiceWorker.js': path.join(project.dir, 'node_modules/msw/lib/mockServiceWorker.js'),
  };
  const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
  server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://127.0.0.1');
    const file = files[pathname] ?? (pathname.startsWith('/dist/') ? path.join(installed, 'web/dist', path.basename(pathname)) : null);
    if (file === null || !existsSync(file)) return response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}, { timeout: 600_000 });

after(() => {
  server?.close();
  project?.cleanup();
});

test('installed without the platform package, as on macOS', () => {
  assert.ok(!existsSync(project.installed(PLATFORM_PACKAGE)));
});

test("README's Vitest test passes: setupServer(...loyaltyHandlers(emulator))", { timeout: 300_000 }, () => {
  project.write('loyalty.test.js', readmeBlock('js vitest'));
  const vitest = run(['node_modules/vitest/vitest.mjs', 'run', 'loyalty.test.js']);
  assert.equal(vitest.status, 0, vitest.stdout + vitest.stderr);
  assert.match(vitest.stdout, /1 passed/);
});

test("README's Playwright test passes against a page with README's setupWorker set-up", { timeout: 300_000 }, async () => {
  project.write('ordering.spec.js', readmeBlock('js playwright'));
  project.write('playwright.config.mjs', PLAYWRIGHT_CONFIG);
  const url = `http://127.0.0.1:${server.address().port}`;
  const playwright = await runAsync(['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.mjs'], { env: { ORDERING_URL: url } });
  assert.equal(playwright.status, 0, playwright.stdout + playwright.stderr);
  assert.match(playwright.stdout, /1 passed/);
});

test('startLocalService() runs the wasm runtime, says so, and answers; serve refuses --db FILE there', { timeout: 120_000 }, () => {
  project.write('start.mjs', `
import { readFileSync } from 'node:fs';
import { startLocalService } from 'loyalty-qualifier/service';
let log = '';
const service = await startLocalService({ fixture: 'node_modules/loyalty-qualifier/fixtures/demo.json', onStderr: (text) => { log += text; } });
const res = await fetch(service.url + '/api/account', { headers: { Authorization: 'Bearer at_u1001_7Qx2LmN9pR4s', 'Merchant-Key': 'mk_harbor_5f1c9a7e2b', Accept: 'application/vnd.service-v1+json' } });
console.log(JSON.stringify({ status: res.status, user: (await res.json()).user.id, log }));
await service.stop();
`);
  const started = run(['start.mjs']);
  assert.equal(started.status, 0, started.stderr);
  const outcome = JSON.parse(started.stdout);
  assert.equal(outcome.status, 200);
  assert.equal(outcome.user, 'u_1001');
  assert.match(outcome.log, /runs on the wasm runtime/);
  assert.match(outcome.log, /listening on http:\/\/127\.0\.0\.1:\d+ \(wasm runtime/);
  const serve = run(['node_modules/loyalty-qualifier/web/local/cli/cli.js', 'serve', '--db', 'state.db']);
  assert.equal(serve.status, 2, serve.stderr);
  assert.match(serve.stderr, /the wasm runtime keeps its state in memory/);
});
