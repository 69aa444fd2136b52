// CORS on the store hub, from the front it shares with the service (--cors-origin ORIGIN,
// startStoreHub's corsOrigin, `loyalty-qualifier hub --cors-origin`): a listed origin's preflight
// is granted before the store-key gate (a browser sends no key in a preflight) and costs no
// failure on the brake; its answers, a 401 included, carry the origin and expose Retry-After; an
// unlisted origin gets no CORS header. A real hub over real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { runHubCli } from '../../web/local/cli/hub_cli.js';
import { STORE_KEY, hubBinary, hubCall, startHub } from './harness.js';

const DEV_SERVER = 'http://localhost:5173';
let hub;

before(async () => {
  hubBinary();
  hub = await startHub({ corsOrigin: DEV_SERVER });
}, { timeout: 900_000 });

after(async () => {
  await hub?.stop();
});

function preflight(origin, route = '/hub/claims') {
  return fetch(hub.url + route, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'store-key,content-type' },
    signal: AbortSignal.timeout(15_000),
  });
}

test('a listed origin\'s preflight is granted without the store key, and never braked', async () => {
  // More preflights than the brake's 10 failures a second: none is a failure.
  for (let i = 0; i < 15; ++i) {
    const res = await preflight(DEV_SERVER, i % 2 ? '/hub/claims/spend' : '/hub/health');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), DEV_SERVER);
    assert.match(res.headers.get('access-control-allow-headers'), /\bStore-Key\b/);
    assert.match(res.headers.get('access-control-allow-headers'), /\bContent-Type\b/);
    assert.match(res.headers.get('vary'), /\bOrigin\b/);
    const stranger = await preflight('http://evil.example');
    assert.equal(stranger.status, 403);
    assert.equal(stranger.headers.get('access-control-allow-origin'), null);
  }
  const wrongKey = await hubCall(hub, 'GET', '/hub/health', { key: 'wrong-key-0123456789abcdef' });
  assert.equal(wrongKey.status, 401, 'thirty preflights counted no failure');
});

test('a listed origin reads the hub\'s answers, a refusal included; another origin gets no CORS header', async () => {
  const health = await fetch(`${hub.url}/hub/health`, { headers: { 'Store-Key': STORE_KEY, Origin: DEV_SERVER } });
  assert.equal(health.status, 200);
  assert.equal(health.headers.get('access-control-allow-origin'), DEV_SERVER);
  assert.match(health.headers.get('access-control-expose-headers'), /\bRetry-After\b/);
  const refused = await fetch(`${hub.url}/hub/health`, { headers: { 'Store-Key': 'wrong-key-0123456789abcdef', Origin: DEV_SERVER } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('access-control-allow-origin'), DEV_SERVER);
  const stranger = await fetch(`${hub.url}/hub/health`, { headers: { 'Store-Key': STORE_KEY, Origin: 'http://localhost:5174' } });
  assert.equal(stranger.status, 200);
  assert.equal(stranger.headers.get('access-control-allow-origin'), null);
  assert.match(stranger.headers.get('vary'), /\bOrigin\b/);
});

test('loyalty-qualifier hub takes --cors-origin, repeatable, and refuses * with its usage', async () => {
  const out = [];
  const io = { stdout: { write: (s) => out.push(s) }, stderr: { write: (s) => out.push(s) } };
  const env = { LQ_HUB_STORE_KEY: STORE_KEY };
  assert.equal(await runHubCli(['--cors-origin', '*'], io, env), 2);
  assert.match(out.join(''), /^loyalty-qualifier hub: --cors-origin \* is refused: every request carries a secret/);
  assert.match(out.join(''), /usage: loyalty-qualifier hub .*--cors-origin ORIGIN/s);
  out.length = 0;
  assert.equal(await runHubCli(['--cors-origin', DEV_SERVER, '--cors-origin', 'http://a.example/x'], io, env), 2);
  assert.match(out.join(''), /--cors-origin must be an origin such as http:\/\/localhost:5173.*"http:\/\/a\.example\/x"/);
});
