// A consumer project for the consumer tests: the package packed with `npm pack` and installed
// from that tarball into a fresh temporary folder, as a user's project gets it. The install is
// offline (the tarball has no dependencies); build tools (esbuild, Vite, jsdom, tsc) are the
// repository's own copies, run against the consumer folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { root } from './support.js';

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000 });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * A temporary project with the packed package installed; `files` (name -> text) are written into
 * it. Returns { dir, tarball, write(name, text), cleanup() }.
 */
export function consumerProject(prefix, files = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const packs = path.join(dir, '.pack');
  mkdirSync(packs);
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--silent', '--pack-destination', packs], root),
  );
  const tarball = path.join(packs, packed[0].filename);
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--silent', tarball],
    dir,
  );
  const write = (name, text) => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  for (const [name, text] of Object.entries(files)) write(name, text);
  return {
    dir,
    tarball,
    files: packed[0].files.map((f) => f.path),
    write,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
