// The package ships what its modules import: every relative import of a module that package.json's
// "files" lists (named, or in a listed folder) is listed too, so that a module added beside the
// others is never missing from the tarball (a consumer's bundler would fail on it; before this test
// only the consumer suite, from the packed tarball, found it). And a shipped module names no file
// of the repository as if its reader had it (the consumer suite's rule, tests/support/shipped_text.js).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { repositoryFilesNamed } from '../support/shipped_text.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { files } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const folders = files.filter((entry) => entry.endsWith('/'));
const shipped = (file) => files.includes(file) || folders.some((folder) => file.startsWith(folder));
const MODULE = /\.(m?js)$/;
// Static imports and re-exports, and import() with a literal: the relative ones.
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function modulesListed() {
  const listed = [];
  const walk = (relative) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    if (statSync(absolute).isDirectory()) {
      for (const name of readdirSync(absolute)) walk(path.posix.join(relative, name));
    } else if (MODULE.test(relative)) {
      listed.push(relative);
    }
  };
  for (const entry of files) walk(entry.replace(/\/$/, ''));
  return listed;
}

test('every relative import of a shipped module is shipped', () => {
  const missing = [];
  const modules = modulesListed();
  assert.ok(modules.length > 50, `the package lists its modules (${modules.length} found)`);
  for (const module of modules) {
    const text = readFileSync(path.join(root, module), 'utf8');
    for (const [, specifier] of text.matchAll(SPECIFIERS)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(module), specifier));
      // Built files (web/dist/) are listed by name where they ship; a generated entry is checked by its own test.
      if (!shipped(target) && existsSync(path.join(root, target))) missing.push(`${module} imports ${specifier} (${target})`);
    }
  }
  assert.deepEqual(missing, [], 'add these to package.json "files"');
});

test('no shipped module names a file of the repository without saying so', () => {
  const problems = [];
  for (const module of modulesListed()) {
    readFileSync(path.join(root, module), 'utf8').split('\n').forEach((line, i) => {
      for (const named of repositoryFilesNamed(line)) problems.push(`${module}:${i + 1} names ${named}: ${line.trim()}`);
    });
  }
  assert.deepEqual(problems, [], 'say "the repository\'s" on the line that names it');
});
