// Where the native programs are: the local service (loyalty_service, for `loyalty-qualifier
// serve` and startLocalService()) and the store hub (loyalty_hub, for `loyalty-qualifier hub` and
// startStoreHub()). Each: its environment variable when set (LQ_SERVICE_BIN, LQ_HUB_BIN), else the
// platform package that npm installed through optionalDependencies
// (@loyalty-qualifier/<platform>-<arch>), else a local build of a checkout (its build folder, in
// the repository), else a ServiceBinaryError naming the cause and the fix. Node only.
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The platforms a package with a prebuilt service exists for. */
export const SERVICE_PLATFORMS = ['linux-x64'];

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Each program: its file in the platform package's bin/, its variable, its local build, its name in messages. */
const PROGRAMS = {
  service: {
    file: 'loyalty_service',
    variable: 'LQ_SERVICE_BIN',
    localBuild: 'build/native/service/loyalty_service', // a checkout's, in the repository
    what: 'the local service',
    short: 'local service',
  },
  hub: {
    file: 'loyalty_hub',
    variable: 'LQ_HUB_BIN',
    localBuild: 'build/native/hub/loyalty_hub', // a checkout's, in the repository
    what: 'the store hub',
    short: 'store hub',
  },
};

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

function fromPlatformPackage(name, program) {
  try {
    const require = createRequire(import.meta.url);
    const packageJson = require.resolve(`${name}/package.json`);
    return path.join(path.dirname(packageJson), `bin/${program.file}`);
  } catch {
    return null;
  }
}

const buildFromSource = (program) =>
  'build it from a checkout of the loyalty-qualifier repository (cmake, a C++17 compiler, ' +
  'libsqlite3-dev, libcpp-httplib-dev and nlohmann-json3-dev; ' +
  '`bash scripts/install/ensure-system.sh` installs them on Debian): ' + // in the repository
  '`npm ci && node scripts/build.mjs --only native`, then set ' + // in the repository
  `${program.variable}=<checkout>/${program.localBuild}`;

/** The one npm install line that installs this package with its platform package. */
function installLine(own, platformPackage) {
  const version = own.optionalDependencies?.[platformPackage] ?? own.version;
  return (
    `npm install ./${tarballName(own.name, own.version)} ` +
    `./${tarballName(platformPackage, version)}`
  );
}

function notInstalled(platformPackage, program) {
  const own = manifest();
  return new ServiceBinaryError(
    'not-installed',
    `${program.what} comes in the platform package ${platformPackage}, which is not installed: ` +
      'npm leaves it out when loyalty-qualifier is installed with --omit=optional (or ' +
      '--no-optional), and when it cannot fetch it, as for a loyalty-qualifier tarball installed ' +
      'alone (the platform package is not published). Install both tarballs in one command, ' +
      `without --omit=optional: \`${installLine(own, platformPackage)}\` (\`npm run pack\` in a ` +
      'checkout of loyalty-qualifier writes both into dist-pack/ and prints that line); or ' +
      buildFromSource(program),
  );
}

function unsupportedPlatform(platform, program) {
  const packages = SERVICE_PLATFORMS.map((p) => `@loyalty-qualifier/${p}`).join(', ');
  return new ServiceBinaryError(
    'unsupported-platform',
    `no prebuilt ${program.short} for ${platform}: platform packages exist for ` +
      `${SERVICE_PLATFORMS.join(', ')} only (${packages}); ${buildFromSource(program)}`,
  );
}

function binaryMissing(platformPackage, file, program) {
  const own = manifest();
  return new ServiceBinaryError(
    'binary-missing',
    `the platform package ${platformPackage} is installed, but ${file} is missing or not ` +
      'executable (its tarball was packed without the binary, or the file lost its mode): ' +
      `reinstall both tarballs packed by \`npm run pack\`, which builds the binary first: ` +
      `\`${installLine(own, platformPackage)}\`; or ${buildFromSource(program)}`,
  );
}

/** The path of `program`'s binary to run; throws ServiceBinaryError (its cause and the fix) without one. */
function binaryPath(program) {
  const override = process.env[program.variable];
  if (override) {
    if (isExecutable(override)) return override;
    throw new ServiceBinaryError(
      'binary-missing',
      `${program.variable}=${override} is not an executable file: point it at a built ` +
        `${program.file}, or unset it to run the one of the platform package`,
    );
  }
  const platform = `${process.platform}-${process.arch}`;
  const platformPackage = `@loyalty-qualifier/${platform}`;
  const packaged = SERVICE_PLATFORMS.includes(platform) ? fromPlatformPackage(platformPackage, program) : null;
  if (packaged !== null && isExecutable(packaged)) return packaged;
  const local = path.join(packageRoot, program.localBuild);
  if (isExecutable(local)) return local;
  if (!SERVICE_PLATFORMS.includes(platform)) throw unsupportedPlatform(platform, program);
  if (packaged === null) throw notInstalled(platformPackage, program);
  throw binaryMissing(platformPackage, packaged, program);
}

/**
 * The path of the loyalty_service binary to run; throws ServiceBinaryError (its cause and the
 * fix) when there is none.
 */
export function serviceBinaryPath() {
  return binaryPath(PROGRAMS.service);
}

/** The path of the loyalty_hub binary to run (LQ_HUB_BIN, the platform package, a local build). */
export function hubBinaryPath() {
  return binaryPath(PROGRAMS.hub);
}
