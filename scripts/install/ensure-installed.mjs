// The install step `npm start` and `npm test` share, so that either works first on a bare clone:
// the Debian packages (scripts/install/ensure-system.sh installs the missing ones), then the npm packages
// (`npm ci` when one that the build or the tests need is missing).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Files whose absence means the npm packages are not installed. */
const NPM_PACKAGES = [
  'node_modules/typescript/bin/tsc',
  'node_modules/playwright-core/package.json',
  'node_modules/esbuild/package.json',
  'node_modules/vite/package.json',
  'node_modules/jsdom/package.json',
  'node_modules/webpack/package.json',
  'node_modules/react/package.json',
  'node_modules/react-dom/package.json',
];

/** Installs the missing Debian packages; run(command, args) runs a command or throws. */
export function ensureSystemPackages(run) {
  run('bash', ['scripts/install/ensure-system.sh']);
}

/** True when an npm package the build or the tests need is missing. */
export function npmPackagesMissing() {
  return !NPM_PACKAGES.every((file) => existsSync(path.join(root, file)));
}

/** Runs `npm ci` when an npm package the build or the tests need is missing. */
export function ensureNpmPackages(run) {
  if (npmPackagesMissing()) run('npm', ['ci', '--no-audit', '--no-fund']);
}
