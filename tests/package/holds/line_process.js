// A Node process of a test's own (its script given as text: `code`, with `args`), driven line by
// line: the test writes a command on its stdin and reads the JSON line it prints in answer. It is
// killed after 120 s, so a test that forgets it leaves nothing behind.
import { spawn } from 'node:child_process';

import { root } from '../../service/harness.js';

/** { next(): its next JSON line, ask(line): writes `line` and resolves the answer, end(): sends `end` and resolves when it has exited }. */
export function lineProcess(code, args) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = [];
  proc.stdout.on('data', (chunk) => {
    out += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  proc.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
  proc.on('close', () => {
    clearTimeout(timer);
    for (const wake of waiters.splice(0)) wake();
  });
  let read = 0;
  const next = async () => {
    for (;;) {
      const lines = out.split('\n');
      if (lines.length - 1 > read) return JSON.parse(lines[read++]);
      if (proc.exitCode !== null) throw new Error(`the child ended: ${err}`);
      await new Promise((resolve) => waiters.push(resolve));
    }
  };
  const ask = (line) => {
    proc.stdin.write(`${line}\n`);
    return next();
  };
  const end = () => new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('close', resolve);
    proc.stdin.end('end\n');
  });
  return { next, ask, end };
}
