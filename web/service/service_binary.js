// Where the native local service (loyalty_service) is, for `loyalty-qualifier serve` and
// startLocalService(): LQ_SERVICE_BIN when set, else the platform package that npm installed
// through optionalDependencies (@loyalty-qualifier/<platform>-<arch>), else a local build of a
// checkout (its build folder, in the repository), else a ServiceBinaryError naming the cause and
// the fix. Node only.
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The platforms a package with a prebuilt service exists for. */
export const SERVICE_PLATFORMS = ['linux-x64'];

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LOCAL_BUILD = 'build/native/service/loyalty_service'; // a checkout's, in the repository

/**
 * No service binary to run. `cause` says why, each with its own fix in the message:
 * 'not-installed' (the platform package of this platform is not installed: left out by
 * --omit=optional, or not installable because it is not published), 'unsupported-platform' (no
 * platform package exists for this platform), 'binary-missing' (the platform package or
 * LQ_SERVICE_BIN is there, the executable is not). `code` is 'LQ_NO_SERVICE_BINARY'.
 */
export class ServiceBinaryError extends Error {
  constructor(cause, message) {
    super(message);
    this.name = 'ServiceBinaryError';
    this.code = 'LQ_NO_SERVICE_BINARY';
    this.cause = cause;
  }
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** This package's name, version and its pin of each platform package (package.json). */
function manifest() {
  return JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
}

/** The file name `npm pack` gives a package's tarball (@scope/name -> scope-name-version.tgz). */
function tarballName(name, version) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

function fromPlatformPackage(name) {
  try {
    const require = createRequire(import.meta.url);
    const packageJson = require.resolve(`${name}/package.json`);
    return path.join(path.dirname(packageJson), 'bin/loyalty_service');
  } catch {
    return null;
  }
}

const BUILD_FROM_SOURCE =
  'build it from a checkout of the loyalty-qualifier repository (cmake, a C++17 compiler, ' +
  'libsqlite3-dev, libcpp-httplib-dev and nlohmann-json3-dev; ' +
  '`bash scripts/ensure-system.sh` installs them on Debian): ' + // in the repository
  '`npm ci && node scripts/build.mjs --only native`, then set ' + // in the repository
  `LQ_SERVICE_BIN=<checkout>/${LOCAL_BUILD}`;

/** The one npm install line that installs this package with its platform package. */
function installLine(own, platformPackage) {
  const version = own.optionalDependencies?.[platformPackage] ?? own.version;
  return (
    `npm install ./${tarballName(own.name, own.version)} ` +
    `./${tarballName(platformPackage, version)}`
  );
}

function notInstalled(platformPackage) {
  const own = manifest();
  return new ServiceBinaryError(
    'not-installed',
    `the local service comes in the platform package ${platformPackage}, which is not installed: ` +
      'npm leaves it out when loyalty-qualifier is installed with --omit=optional (or ' +
      '--no-optional), and when it cannot fetch it, as for a loyalty-qualifier tarball installed ' +
      'alone (the platform package is not published). Install both tarballs in one command, ' +
      `without --omit=optional: \`${installLine(own, platformPackage)}\` (\`npm run pack\` in a ` +
      'checkout of loyalty-qualifier writes both into dist-pack/ and prints that line); or ' +
      BUILD_FROM_SOURCE,
  );
}

function unsupportedPlatform(platform) {
  const packages = SERVICE_PLATFORMS.map((p) => `@loyalty-qualifier/${p}`).join(', ');
  return new ServiceBinaryError(
    'unsupported-platform',
    `no prebuilt local service for ${platform}: platform packages exist for ` +
      `${SERVICE_PLATFORMS.join(', ')} only (${packages}); ${BUILD_FROM_SOURCE}`,
  );
}

function binaryMissing(platformPackage, file) {
  const own = manifest();
  return new ServiceBinaryError(
    'binary-missing',
    `the platform package ${platformPackage} is installed, but ${file} is missing or not ` +
      'executable (its tarball was packed without the binary, or the file lost its mode): ' +
      `reinstall both tarballs packed by \`npm run pack\`, which builds the binary first: ` +
      `\`${installLine(own, platformPackage)}\`; or ${BUILD_FROM_SOURCE}`,
  );
}

/**
 * The path of the loyalty_service binary to run; throws ServiceBinaryError (its cause and the
 * fix) when there is none.
 */
export function serviceBinaryPath() {
  const override = process.env.LQ_SERVICE_BIN;
  if (override) {
    if (isExecutable(override)) return override;
    throw new ServiceBinaryError(
      'binary-missing',
      `LQ_SERVICE_BIN=${override} is not an executable file: point it at a built ` +
        'loyalty_service, or unset it to run the one of the platform package',
    );
  }
  const platform = `${process.platform}-${process.arch}`;
  const platformPackage = `@loyalty-qualifier/${platform}`;
  const packaged = SERVICE_PLATFORMS.includes(platform) ? fromPlatformPackage(platformPackage) : null;
  if (packaged !== null && isExecutable(packaged)) return packaged;
  const local = path.join(packageRoot, LOCAL_BUILD);
  if (isExecutable(local)) return local;
  if (!SERVICE_PLATFORMS.includes(platform)) throw unsupportedPlatform(platform);
  if (packaged === null) throw notInstalled(platformPackage);
  throw binaryMissing(platformPackage, packaged);
}
