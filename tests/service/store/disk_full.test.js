// A full disk: the service runs on a small tmpfs (its own mount namespace, so nothing on the
// machine is touched). A write that does not fit is refused with 507 and the error body, nothing
// half-written; reads go on, and what was acknowledged before is still there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';

import { account, basket, fixture, scratchDir, startService } from '../harness.js';

const user = fixture.users[0].id;
// Mounting a tmpfs needs a mount namespace (root, or an unprivileged user namespace).
const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt'], {
  encoding: 'utf8',
});
const mountable = probe.status === 0;

test('a full disk is 507 with the error body; reads and acknowledged writes survive', {
  skip: mountable ? false : `no mount namespace here: ${(probe.stderr || probe.error?.message || '').trim()}`,
}, async () => {
  const { dir, cleanup } = scratchDir('lq-disk-full-');
  const service = await startService({
    db: `${dir}/loyalty.db`,
    mode: 'production',
    now: true,
    launcher: ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$@"', dir],
  });
  try {
    const bulky = 'x'.repeat(4000);
    // Long ids: the stored (canonical) basket keeps ids, not names, so each one takes ~32 KB and
    // the 1 MiB disk is full long before the open-basket caps (50 baskets, 4 MiB) are reached.
    const items = Array.from({ length: 8 }, (_, i) => ({ id: `item-${i}-${bulky}`, price: '1.00' }));
    const acknowledged = [];
    let refused = null;
    // Bounded: 1 MiB holds far fewer than 400 baskets of ~32 KB.
    for (let i = 0; i < 400 && refused === null; ++i) {
      const answer = await basket(service, user, { id: `full-${i}`, state: 'checkout', items });
      if (answer.status === 507) refused = answer;
      else {
        assert.ok(answer.status === 201, `basket ${i}: ${answer.status} ${answer.text}`);
        acknowledged.push(`full-${i}`);
      }
    }
    assert.ok(refused, 'the disk filled up within 400 baskets');
    assert.equal(refused.body.code, 507);
    assert.match(refused.body.message, /disk is full/);
    assert.ok(acknowledged.length > 0, 'some baskets fitted before the disk was full');

    // Reads go on; the service is still up and answers the account.
    const read = await account(service, user);
    assert.equal(read.status, 200);
    // The last acknowledged basket is still there: updating it is a 200, not a new basket.
    const again = await basket(service, user, { id: acknowledged.at(-1), state: 'checkout', items: [] });
    assert.ok(again.status === 200 || again.status === 507, `${again.status} ${again.text}`);
    assert.ok(service.running(), 'the service is still running');
  } finally {
    await service.stop();
    cleanup();
  }
});

test('one user flooding open baskets is stopped at its cap (429), so another merchant still bills on a small disk', {
  skip: mountable ? false : `no mount namespace here: ${(probe.stderr || probe.error?.message || '').trim()}`,
}, async () => {
  const { dir, cleanup } = scratchDir('lq-disk-flood-');
  const service = await startService({
    db: `${dir}/loyalty.db`,
    mode: 'production',
    now: true,
    launcher: ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@"', dir],
  });
  try {
    // ~64 KB each as stored, the most a basket may take: 50 of them (the count cap) and the WAL
    // fit in 16 MiB; the 51st is refused before the disk fills.
    const items = [{ id: 'x'.repeat(64_000), price: '0.01' }];
    let stopped = null;
    for (let i = 0; i < 60 && stopped === null; ++i) {
      const answer = await basket(service, 'u_1001', { id: `flood-${i}`, state: 'checkout', items });
      if (answer.status !== 201) stopped = answer;
    }
    assert.ok(stopped, 'the flood was never stopped');
    assert.equal(stopped.status, 429, stopped.text.slice(0, 300));
    assert.match(stopped.body.message, /a user may hold at most 50 open baskets/);

    // Another merchant's billing has the disk it needs.
    const bakery = await basket(service, 'u_2001', {
      id: 'bread-after-flood',
      state: 'billed',
      items: [{ id: 'sourdough', price: '8.00' }],
    });
    assert.equal(bakery.status, 201, bakery.text);
  } finally {
    await service.stop();
    cleanup();
  }
});
