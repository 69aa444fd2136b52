// The packages are versioned together: loyalty-qualifier, each platform package (a workspace,
// npm/<platform>-<arch>) and the root's optionalDependencies pin of it carry one version, in
// package.json and in package-lock.json alike. `npm run pack` refuses to pack when they differ;
// `node scripts/package/package_versions.mjs` prints what differs (exit 1) or the version (exit 0).
// A new version goes into package.json, every npm/<platform>/package.json and the
// optionalDependencies pin in one commit, with package-lock.json updated by `npm install`; this
// script then prints the version.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * What keeps the packages of the checkout at `root` from sharing one version: a list of
 * sentences, empty when they agree.
 */
export function versionProblems(root = checkout) {
  const own = readJson(path.join(root, 'package.json'));
  const lock = readJson(path.join(root, 'package-lock.json'));
  const version = own.version;
  const problems = [];
  const expect = (what, actual) => {
    if (actual !== version) problems.push(`${what} is ${actual ?? 'missing'}, not ${version} (${own.name})`);
  };
  expect('package-lock.json\'s version of loyalty-qualifier', lock.packages?.['']?.version);
  const pins = own.optionalDependencies ?? {};
  const workspaces = own.workspaces ?? [];
  const platformNames = [];
  for (const workspace of workspaces) {
    const platform = readJson(path.join(root, workspace, 'package.json'));
    platformNames.push(platform.name);
    expect(`${workspace}/package.json's version (${platform.name})`, platform.version);
    expect(`package.json's optionalDependencies pin of ${platform.name}`, pins[platform.name]);
    expect(`package-lock.json's version of ${workspace}`, lock.packages?.[workspace]?.version);
    expect(
      `package-lock.json's optionalDependencies pin of ${platform.name}`,
      lock.packages?.['']?.optionalDependencies?.[platform.name],
    );
  }
  for (const name of Object.keys(pins)) {
    if (!platformNames.includes(name)) problems.push(`optionalDependencies names ${name}, which is no workspace`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = versionProblems();
  if (problems.length > 0) {
    console.error(`package versions differ:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(readJson(path.join(checkout, 'package.json')).version);
  }
}
