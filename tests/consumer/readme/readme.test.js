// README.md cannot rot: its code blocks run against the installed tarballs, as agreed for the
// README's authors (every block of the shipped README, in document order):
// - `js`: written to block-N.mjs in a consumer project outside the checkout and run with
//   `node block-N.mjs` (cwd the project, a fresh TMPDIR and HOME for each block); it must exit 0
//   within 60 s and leave no process running. It may import only 'loyalty-qualifier',
//   'loyalty-qualifier/service', 'loyalty-qualifier/messages', 'loyalty-qualifier/fixtures/demo.json',
//   'loyalty-qualifier/examples/...' and node: built-ins.
// - `js browser`: bundled by esbuild for the browser against the installed package, so that its
//   imports must resolve (Vite's `?url` suffix included); not run.
// - `ts`: type-checked by tsc against the installed types (strict, nodenext) when it needs no
//   types beyond the package's and the DOM's (no @types/node here: a block importing node: is
//   skipped, saying so).
// Any other info string (`sh`, `js bundler`, ...) is not checked.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import * as esbuild from 'esbuild';

import { consumerProject, groupMembers, root, waitFor, withTimeout } from '../consumer_project.js';
import { fencedBlocks } from './readme_blocks.js';

const RUN_LIMIT_MS = 60_000;
const ALLOWED_IMPORTS = [
  /^loyalty-qualifier$/,
  /^loyalty-qualifier\/service$/,
  /^loyalty-qualifier\/messages$/,
  /^loyalty-qualifier\/fixtures\/demo\.json$/,
  /^loyalty-qualifier\/examples\/.+/,
  /^node:/,
];

// The shipped README is the one the package carries; this is the same file before packing,
// read here to name the tests (the runs use the installed copy, compared below).
const blocks = fencedBlocks(readFileSync(path.join(root, 'README.md'), 'utf8'));
const checked = blocks.filter((b) => b.info === 'js' || b.info === 'js browser' || b.info === 'ts');

let project;
before(() => {
  project = consumerProject('lq-consumer-readme-');
});
after(() => project?.cleanup());

/** The module specifiers a block imports (static and dynamic imports, re-exports). */
function importsOf(code) {
  const specifiers = [];
  for (const pattern of [/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(?\s*['"]([^'"]+)['"]/g]) {
    for (const match of code.matchAll(pattern)) specifiers.push(match[1]);
  }
  return specifiers;
}

/** Starts `node file` in its own process group: { pid, done } (done: { code, signal, stdout, stderr }). */
function runBlock(file, env) {
  const child = spawn(process.execPath, [file], {
    cwd: project.dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const done = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { pid: child.pid, done };
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** esbuild's browser bundle of `code` in the consumer project: its errors, [] when every import resolves. */
async function bundleErrors(code) {
  const viteUrl = {
    // Vite's `?url` import: the file's URL. Here: the file must resolve.
    name: 'vite-url-suffix',
    setup(build) {
      build.onResolve({ filter: /\?url$/ }, async (args) => {
        const resolved = await build.resolve(args.path.slice(0, -'?url'.length), { kind: args.kind, resolveDir: args.resolveDir });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: 'asset-url' };
      });
      build.onLoad({ filter: /.*/, namespace: 'asset-url' }, (args) => ({ contents: `export default ${JSON.stringify(args.path)};`, loader: 'js' }));
    },
  };
  try {
    await esbuild.build({
      stdin: { contents: code, resolveDir: project.dir, sourcefile: 'block.js', loader: 'js' },
      absWorkingDir: project.dir,
      bundle: true,
      write: false,
      outdir: path.join(project.dir, 'out'),
      format: 'esm',
      platform: 'browser',
      loader: { '.wasm': 'file' },
      plugins: [viteUrl],
      logLevel: 'silent',
    });
    return [];
  } catch (e) {
    return (e.errors ?? [e]).map((error) => error.text ?? String(error));
  }
}

test('the installed package carries this README', () => {
  assert.equal(
    readFileSync(path.join(project.installed(), 'README.md'), 'utf8'),
    readFileSync(path.join(root, 'README.md'), 'utf8'),
  );
});

describe('README.md code blocks', () => {
  checked.forEach((block, index) => {
    const n = index + 1;
    const name = `block ${n} (README.md line ${block.line}, \`${block.info}\`)`;
    if (block.info === 'js') {
      test(`${name} runs: exit 0 within 60 s, no process left`, { timeout: RUN_LIMIT_MS + 30_000 }, async () => {
        const foreign = importsOf(block.code).filter((s) => !ALLOWED_IMPORTS.some((p) => p.test(s)));
        assert.deepEqual(foreign, [], 'imports outside the agreed set');
        const file = project.write(`block-${n}.mjs`, block.code);
        const scratch = mkdtempSync(path.join(project.tmp, `block-${n}-`));
        const env = { ...project.env, TMPDIR: path.join(scratch, 'tmp'), HOME: path.join(scratch, 'home') };
        mkdirSync(env.TMPDIR);
        mkdirSync(env.HOME);
        const { pid, done } = runBlock(file, env);
        let finished = false;
        try {
          const result = await withTimeout(done, RUN_LIMIT_MS, `block ${n} ran longer than 60 s`);
          finished = true;
          assert.equal(result.signal, null, result.stderr);
          assert.equal(result.code, 0, `exit ${result.code}:\n${result.stderr}`);
        } finally {
          // Whatever it started in its process group (a local service) must be gone.
          const gone = finished && (await waitFor(() => groupMembers(pid).length === 0, 15_000));
          killGroup(pid);
          rmSync(scratch, { recursive: true, force: true });
          if (finished) assert.ok(gone, `block ${n} left a process running`);
        }
      });
    } else if (block.info === 'js browser') {
      test(`${name} bundles for the browser: every import resolves`, { timeout: 60_000 }, async () => {
        assert.deepEqual(await bundleErrors(block.code), []);
      });
    } else {
      const needsNodeTypes = importsOf(block.code).some((s) => s.startsWith('node:'));
      test(`${name} type-checks against the installed types`, { timeout: 120_000, skip: needsNodeTypes && 'imports node: built-ins, and no @types/node is installed here' }, () => {
        project.write(`block-${n}.ts`, `${block.code}\nexport {};\n`);
        project.write(
          `tsconfig.block-${n}.json`,
          JSON.stringify({
            compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], lib: ['es2022', 'dom'], resolveJsonModule: true },
            files: [`block-${n}.ts`],
          }),
        );
        const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.block-${n}.json`], {
          cwd: project.dir,
          env: project.env,
          encoding: 'utf8',
          timeout: 120_000,
        });
        assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
      });
    }
  });
});
