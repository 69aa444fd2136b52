// `npm run serve -- --port P --db FILE --fixture FILE [--mode sandbox|production]
// [--processing-delay SECONDS]`: builds the service when stale (build output on stderr, so the
// first stdout line stays the base URL), then runs it in the foreground. SIGTERM and SIGINT are
// passed on; the exit code is the service's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = 'build/native';
const binary = path.join(root, buildDir, 'service/loyalty_service');

function build() {
  const toStderr = { cwd: root, stdio: ['ignore', 2, 2] };
  // Configure when the tree is new or predates service/ (no loyalty_service target yet).
  if (!existsSync(path.join(root, buildDir, 'service/CMakeFiles'))) {
    const configured = spawnSync('cmake', ['-S', '.', '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release'], toStderr);
    if (configured.status !== 0) return false;
  }
  const built = spawnSync('cmake', ['--build', buildDir, '--target', 'loyalty_service', '-j2'], toStderr);
  return built.status === 0;
}

function main() {
  if (!build()) {
    console.error('serve: the build failed (missing system packages? run: bash scripts/ensure-system.sh)');
    process.exitCode = 1;
    return;
  }
  const child = spawn(binary, process.argv.slice(2), { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1);
  });
}

main();
