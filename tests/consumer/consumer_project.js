// The consumer suite's one set-up: the tarballs of `npm run pack` (packed once per test run, shared
// by every file of it) installed into a temporary project OUTSIDE the checkout, as a user's
// project gets them, with its own TMPDIR and HOME. Build tools (esbuild, Vite, jsdom, tsc) are the
// repository's own copies, run against the consumer folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE = 'loyalty-qualifier';
export const PLATFORM_PACKAGE = '@loyalty-qualifier/linux-x64';

const packDir = path.join(root, 'dist-pack');
const lockDir = path.join(root, 'build/.consumer-pack-lock');
const LOCK_STALE_MS = 15 * 60_000;

/**
 * This test run: `node --test` runs each file in a child process, so the runner is the parent.
 * Its pid and start time name the run (a pid alone may be reused).
 */
function testRun() {
  let started = '';
  try {
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    // no /proc: the pid alone
  }
  return `${process.ppid}:${started}`;
}

function withPackLock(fn) {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const age = Date.now() - (statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lockDir, { recursive: true, force: true }); // a killed run's
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * The tarballs of `npm run pack`, packed once per test run: { line (the `npm install` line it
 * printed), tarballs (the paths on that line), packageTarball, platformTarball }.
 */
export function packedTarballs() {
  return withPackLock(() => {
    const marker = path.join(packDir, '.test-run.json');
    const run = testRun();
    if (existsSync(marker)) {
      const packed = JSON.parse(readFileSync(marker, 'utf8'));
      if (packed.run === run && packed.tarballs.every((file) => existsSync(file))) return packed;
    }
    const result = spawnSync('npm', ['run', '--silent', 'pack'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 1_800_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(result.status, 0, `npm run pack failed:\n${result.stderr}`);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, `npm run pack printed more than one line:\n${result.stdout}`);
    const [line] = lines;
    assert.match(line, /^npm install \S+ \S+$/);
    const tarballs = line.split(' ').slice(2);
    const isPlatform = (file) => path.basename(file).startsWith('loyalty-qualifier-linux-x64-');
    const packed = {
      run,
      line,
      tarballs,
      packageTarball: tarballs.find((file) => !isPlatform(file)),
      platformTarball: tarballs.find(isPlatform),
    };
    writeFileSync(marker, JSON.stringify(packed));
    return packed;
  });
}

/**
 * A temporary consumer project: { dir, tmp, home, env, write(name, text), cleanup() }. `install`:
 * 'both' (the `npm install` line of `npm run pack`, the documented way), 'package-alone' (only
 * loyalty-qualifier's tarball: npm cannot fetch the unpublished platform package), 'omit-optional'
 * (loyalty-qualifier's tarball with --omit=optional: npm does not try). `files` (name ->
 * text) are written into it. npm runs offline: the tarballs are all it may install.
 */
export function consumerProject(prefix, { install = 'both', files = {} } = {}) {
  const packed = packedTarballs();
  const base = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(base, 'project');
  const tmp = path.join(base, 'tmp');
  const home = path.join(base, 'home');
  for (const folder of [dir, tmp, home]) mkdirSync(folder);
  // A consumer's shell: none of the npm_* variables npm exports to the scripts it runs (`npm test`
  // sets npm_config_userconfig, npm_config_nodedir, ... from this machine's npm configuration).
  const shell = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
  );
  const env = {
    ...shell,
    TMPDIR: tmp,
    HOME: home,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_cache: path.join(home, '.npm'),
  };
  // Not inside this test runner: NODE_TEST_CONTEXT would make a nested `node --test` report to
  // it instead of printing TAP.
  delete env.NODE_TEST_CONTEXT;
  delete env.LQ_SERVICE_BIN;
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'ordering-app', private: true, type: 'module' }),
  );
  const args = {
    both: packed.tarballs,
    'package-alone': [packed.packageTarball],
    'omit-optional': ['--omit=optional', packed.packageTarball],
  }[install];
  assert.ok(args, `unknown install ${install}`);
  const result = spawnSync('npm', ['install', '--no-package-lock', ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(result.status, 0, `npm install ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
  const write = (name, text) => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  for (const [name, text] of Object.entries(files)) write(name, text);
  return {
    dir,
    tmp,
    home,
    env,
    packed,
    write,
    /** The installed package's folder of `name`. */
    installed: (name = PACKAGE) => path.join(dir, 'node_modules', name),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** The pids of the live processes in process group `pgid`, from /proc. */
export function groupMembers(pgid) {
  const members = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

/** True once `pid` is no process any more (gone, or a zombie nobody has reaped yet). */
export function isGone(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'ESRCH') return true;
    throw e;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Resolves once probe() is true (polled every `every` ms), or false after `ms`. */
export async function waitFor(probe, ms, every = 50) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** `promise`, or a rejection with `message` when it has not settled within `ms`. */
export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves the first stdout line of a child process (or rejects with its stderr on exit). */
export function firstLine(child, what, ms = 60_000) {
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8');
  return withTimeout(
    new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const end = stdout.indexOf('\n');
        if (end >= 0) resolve(stdout.slice(0, end));
      });
      child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${stderr}`)));
    }),
    ms,
    `${what} printed no line`,
  );
}
