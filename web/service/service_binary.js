// Where the native local service (loyalty_service) is, for `loyalty-qualifier serve` and
// startLocalService(): LQ_SERVICE_BIN when set, else the platform package that npm installed
// through optionalDependencies (@loyalty-qualifier/<platform>-<arch>), else a local build of a
// checkout (build/native/service/loyalty_service), else an error naming what to build and how.
// Node only.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The platforms a package with a prebuilt service exists for. */
export const SERVICE_PLATFORMS = ['linux-x64'];

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LOCAL_BUILD = 'build/native/service/loyalty_service';

/** The error of a machine without a service binary; `code` is 'LQ_NO_SERVICE_BINARY'. */
export class ServiceBinaryError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServiceBinaryError';
    this.code = 'LQ_NO_SERVICE_BINARY';
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

function fromPlatformPackage(platform) {
  const name = `@loyalty-qualifier/${platform}`;
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve(`${name}/package.json`);
    return { name, file: path.join(path.dirname(manifest), 'bin/loyalty_service') };
  } catch {
    return { name, file: null };
  }
}

function missingMessage(platform, platformPackage) {
  const build =
    'build it from a checkout of the loyalty-qualifier repository (needs cmake, a C++17 ' +
    'compiler, libsqlite3-dev, libcpp-httplib-dev and nlohmann-json3-dev; ' +
    '`bash scripts/ensure-system.sh` installs them on Debian): ' +
    '`npm ci && node scripts/build.mjs --only native`, then set ' +
    `LQ_SERVICE_BIN=<checkout>/${LOCAL_BUILD}`;
  if (!SERVICE_PLATFORMS.includes(platform)) {
    return (
      `loyalty-qualifier: no prebuilt local service for ${platform} (prebuilt: ` +
      `${SERVICE_PLATFORMS.join(', ')}); ${build}`
    );
  }
  if (platformPackage.file === null) {
    return (
      `loyalty-qualifier: the local service package ${platformPackage.name} is not installed ` +
      '(an install with --omit=optional or --no-optional leaves it out): reinstall ' +
      `loyalty-qualifier with optional dependencies, or ${build}`
    );
  }
  return (
    `loyalty-qualifier: ${platformPackage.file} is missing or not executable (in a checkout, ` +
    '`node scripts/build.mjs --only native` builds and copies it); or ' +
    build
  );
}

/**
 * The path of the loyalty_service binary to run; throws ServiceBinaryError (with what to build
 * and how) when there is none.
 */
export function serviceBinaryPath() {
  const override = process.env.LQ_SERVICE_BIN;
  if (override) {
    if (isExecutable(override)) return override;
    throw new ServiceBinaryError(
      `loyalty-qualifier: LQ_SERVICE_BIN=${override} is not an executable file`,
    );
  }
  const platform = `${process.platform}-${process.arch}`;
  const platformPackage = fromPlatformPackage(platform);
  if (platformPackage.file !== null && isExecutable(platformPackage.file)) {
    return platformPackage.file;
  }
  const local = path.join(packageRoot, LOCAL_BUILD);
  if (isExecutable(local)) return local;
  throw new ServiceBinaryError(missingMessage(platform, platformPackage));
}
