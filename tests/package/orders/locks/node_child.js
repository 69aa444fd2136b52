// A Node child of the lock tests: runs `code` (an ES module) with `args`, from the repository's
// root, its stdin a pipe (the tests' "go" lines); with `otherHost`, in a UTS namespace of its own
// under another host name (unshare -u). { proc, done (its last stdout line as JSON), printed(line)
// (true once it printed that line), output() }; killed after two minutes.
import { spawn } from 'node:child_process';

import { root, waitFor } from '../../../service/harness.js';

export function child(code, args, { otherHost = false } = {}) {
  const node = [process.execPath, '--input-type=module', '-e', code, ...args];
  const [command, ...rest] = otherHost ? ['unshare', '-u', 'sh', '-c', 'hostname lq-other-host && exec "$@"', 'sh', ...node] : node;
  const proc = spawn(command, rest, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => { out += chunk; });
  proc.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
  const done = new Promise((resolve, reject) => {
    proc.on('close', (status) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(out.trim().split('\n').at(-1)));
      else reject(new Error(`child exited with ${status}: ${err}`));
    });
  });
  const printed = (line) => waitFor(() => out.split('\n').includes(line) || proc.exitCode !== null, 60_000, 10);
  return { proc, done, printed, output: () => out };
}
