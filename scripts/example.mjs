// `npm run example`: builds the wasm module when missing or stale, then runs the CLI on the bundled
// example (examples/snapshot.json + examples/basket.json). Build chatter goes to stderr, so stdout
// holds only the answer.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const toStderr = ['ignore', 2, 2];

function run(command, args, stdio) {
  const result = spawnSync(command, args, { cwd: root, stdio });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  return result.status ?? 1;
}

function main() {
  if (run('bash', ['scripts/install/ensure-system.sh'], toStderr) !== 0) {
    console.error('start: system packages are missing (see scripts/install/ensure-system.sh)');
    return 1;
  }
  if (run(process.execPath, ['scripts/build.mjs', '--only', 'wasm'], toStderr) !== 0) {
    console.error('start: the wasm build failed');
    return 1;
  }
  const cli = [
    'web/local/cli/cli.js',
    'qualify',
    '--snapshot',
    'examples/snapshot.json',
    '--request',
    'examples/basket.json',
  ];
  console.error(`start: node ${cli.join(' ')}`);
  return run(process.execPath, cli, 'inherit');
}

process.exitCode = main();
