// `npm run pack`: both tarballs in dist-pack/, one `npm install` line that installs them, and the
// packages versioned together (scripts/package/package_versions.mjs; pack refuses when they are not).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { versionProblems } from '../../scripts/package/package_versions.mjs';
import { MARKED_AS_REPOSITORY, PACKAGE_PATH, repositoryFilesNamed } from '../support/shipped_text.js';
import { PACKAGE, PLATFORM_PACKAGE, consumerProject, packedTarballs, root } from './consumer_project.js';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

test('npm run pack writes both tarballs into dist-pack/ and prints the one line that installs them', () => {
  const { line, tarballs } = packedTarballs();
  const { version } = readJson(path.join(root, 'package.json'));
  assert.deepEqual(
    tarballs,
    [`loyalty-qualifier-${version}.tgz`, `loyalty-qualifier-linux-x64-${version}.tgz`].map((name) => path.join(root, 'dist-pack', name)),
  );
  for (const file of tarballs) assert.ok(existsSync(file), file);
  assert.equal(line, `npm install ${tarballs.join(' ')}`);
  // That line, run in an empty project, installs both packages: the documented install.
  const project = consumerProject('lq-consumer-pack-');
  try {
    assert.equal(readJson(path.join(project.installed(), 'package.json')).version, version);
    assert.equal(readJson(path.join(project.installed(PLATFORM_PACKAGE), 'package.json')).version, version);
    assert.ok(existsSync(path.join(project.installed(PLATFORM_PACKAGE), 'bin/loyalty_service')));
    assert.ok(existsSync(path.join(project.installed(PACKAGE), 'fixtures/demo.json')));
  } finally {
    project.cleanup();
  }
});

test('the checkout\'s packages share one version: package.json, the platform package, the pin, the lock file', () => {
  assert.deepEqual(versionProblems(root), []);
  const own = readJson(path.join(root, 'package.json'));
  assert.equal(readJson(path.join(root, 'npm/linux-x64/package.json')).version, own.version);
  assert.equal(own.optionalDependencies[PLATFORM_PACKAGE], own.version);
});

test('npm run pack refuses to pack packages whose versions differ, naming each difference', () => {
  // A copy of the checkout's manifests and scripts, the platform package one version ahead.
  const copy = mkdtempSync(path.join(os.tmpdir(), 'lq-versions-'));
  try {
    for (const file of ['package.json', 'package-lock.json', 'npm/linux-x64/package.json', 'scripts']) {
      cpSync(path.join(root, file), path.join(copy, file), { recursive: true });
    }
    const platformFile = path.join(copy, 'npm/linux-x64/package.json');
    writeFileSync(platformFile, JSON.stringify({ ...readJson(platformFile), version: '9.9.9' }));
    const problems = versionProblems(copy);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /npm\/linux-x64\/package\.json's version \(@loyalty-qualifier\/linux-x64\) is 9\.9\.9, not \d/);

    const ownFile = path.join(copy, 'package.json');
    const own = readJson(ownFile);
    writeFileSync(ownFile, JSON.stringify({ ...own, optionalDependencies: { [PLATFORM_PACKAGE]: '0.0.1' } }));
    assert.ok(versionProblems(copy).some((p) => /optionalDependencies pin of @loyalty-qualifier\/linux-x64 is 0\.0\.1/.test(p)));

    const pack = spawnSync(process.execPath, ['scripts/package/pack.mjs'], { cwd: copy, encoding: 'utf8', timeout: 60_000 });
    assert.equal(pack.status, 1, pack.stderr);
    assert.equal(pack.stdout, '');
    assert.match(pack.stderr, /^pack: the packages must share one version; refusing to pack:/);
    assert.match(pack.stderr, /9\.9\.9/);
    assert.ok(!existsSync(path.join(copy, 'dist-pack')), 'nothing was built or packed');

    const check = spawnSync(process.execPath, ['scripts/package/package_versions.mjs'], { cwd: copy, encoding: 'utf8' });
    assert.equal(check.status, 1);
    assert.match(check.stderr, /package versions differ/);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const name = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, name) : [name];
  });
}

/** Whether `named` (a path, possibly `dir/`, `dir/*.ext` or `file.{a,b}`) names shipped files. */
function shipped(files, named) {
  const alternatives = named.match(/^(.*)\{([^}]*)\}(.*)$/);
  if (alternatives) return alternatives[2].split(',').every((one) => shipped(files, alternatives[1] + one + alternatives[3]));
  if (named.includes('*')) {
    const glob = new RegExp(`^${named.replace(/[.+?^$()[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
    return files.some((file) => glob.test(file));
  }
  const bare = named.replace(/\/$/, '');
  return files.some((file) => file === bare || file.startsWith(`${bare}/`));
}

test('no shipped file sends its reader to a file outside the package', () => {
  const project = consumerProject('lq-consumer-docs-');
  try {
    const problems = [];
    for (const name of [PACKAGE, PLATFORM_PACKAGE]) {
      const installed = project.installed(name);
      const files = filesUnder(installed);
      const texts = files.filter((f) => /\.(md|ts|js|mjs|json)$/.test(f));
      // The product's own contract and API spec are not shipped: nothing may cite them.
      const outside = /\.\.\/shared|contract\.md|contract section|contract \d|API spec \d|API spec section/;
      for (const file of texts) {
        const lines = readFileSync(path.join(installed, file), 'utf8').split('\n');
        lines.forEach((line, i) => {
          const where = `${name}/${file}:${i + 1}`;
          if (outside.test(line)) problems.push(`${where} cites the contract or the API spec: ${line.trim()}`);
          if (file.endsWith('.json') || MARKED_AS_REPOSITORY.test(line)) return;
          // A repository folder or C++ source, named as if the reader had it.
          for (const named of repositoryFilesNamed(line)) {
            problems.push(`${where} names ${named}, a file of the repository, without saying so: ${line.trim()}`);
          }
          // A folder of the package: what it names must be shipped.
          for (const [token] of line.matchAll(PACKAGE_PATH)) {
            const named = token.replace(/[.,]+$/, '');
            if (!shipped(files, named)) problems.push(`${where} names ${named}, which the package does not ship: ${line.trim()}`);
          }
        });
      }
      // Every relative link of a shipped Markdown file names a shipped file.
      for (const file of files.filter((f) => f.endsWith('.md'))) {
        const text = readFileSync(path.join(installed, file), 'utf8');
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
          const linked = path.normalize(path.join(path.dirname(file), target.split('#')[0]));
          if (!files.includes(linked)) problems.push(`${name}/${file} links to ${target}, which the package does not ship`);
        }
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    project.cleanup();
  }
});
