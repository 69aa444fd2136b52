// `npm run pack`: the packages a consumer installs, in one folder. Checks that the packages share
// one version (scripts/package/package_versions.mjs), builds what they ship (the platform package's static
// service, the wasm module, the emulator's module), packs loyalty-qualifier and its platform package into dist-pack/
// (older tarballs there are removed) and prints the one line that installs both:
//   npm install /abs/dist-pack/loyalty-qualifier-X.tgz /abs/dist-pack/loyalty-qualifier-linux-x64-X.tgz
// That line is all it prints on stdout; the build's and npm's chatter go to stderr.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { versionProblems } from './package_versions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the tarballs go (gitignored). */
export const PACK_DIR = path.join(root, 'dist-pack');
const toStderr = ['ignore', 2, 2];

function run(command, args, stdio = toStderr) {
  const result = spawnSync(command, args, { cwd: root, stdio, encoding: 'utf8' });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return result.stdout;
}

function main() {
  const problems = versionProblems(root);
  if (problems.length > 0) {
    console.error(`pack: the packages must share one version; refusing to pack:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  try {
    // The platform package ships the static service; without it the package is useless.
    run(process.execPath, ['scripts/build.mjs', '--only', 'platform-package']);
    run(process.execPath, ['scripts/build.mjs', '--only', 'wasm']);
    run(process.execPath, ['scripts/build.mjs', '--only', 'emulator']);
  } catch (e) {
    console.error(`pack: the build failed (${e.message}); nothing packed`);
    return 1;
  }
  mkdirSync(PACK_DIR, { recursive: true });
  for (const name of readdirSync(PACK_DIR)) {
    if (name.endsWith('.tgz')) rmSync(path.join(PACK_DIR, name));
  }
  let packed;
  try {
    const json = run(
      'npm',
      ['pack', '--json', '--workspaces', '--include-workspace-root', '--pack-destination', PACK_DIR],
      ['ignore', 'pipe', 2],
    );
    packed = JSON.parse(json);
  } catch (e) {
    console.error(`pack: npm pack failed (${e.message})`);
    return 1;
  }
  const platform = packed.find((p) => p.name !== 'loyalty-qualifier');
  for (const binary of ['bin/loyalty_service', 'bin/loyalty_hub']) {
    if (!platform?.files.some((f) => f.path === binary)) {
      console.error(`pack: ${platform?.name ?? 'the platform package'} was packed without ${binary}`);
      return 1;
    }
  }
  // The package first, then its platform package, as the docs write the line.
  const ordered = [...packed].sort((a, b) => Number(a.name !== 'loyalty-qualifier') - Number(b.name !== 'loyalty-qualifier'));
  const quoted = (file) => (/^[\w./-]+$/.test(file) ? file : `'${file.replaceAll("'", "'\\''")}'`);
  console.log(`npm install ${ordered.map((p) => quoted(path.join(PACK_DIR, p.filename))).join(' ')}`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
