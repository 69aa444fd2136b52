// `node scripts/check-house.mjs`: fails (exit 1) when a rule of the house that a program can
// check is broken, and names every breach. Run by `npm test` beside the import-cycle check.
//   - module length: no .js/.mjs module of web/ or kiosk/ over 400 lines (build output aside:
//     web/dist/, web/index.node.mjs and kiosk/page/dist/), no .d.ts of web/ either, and no C++
//     unit of the product (a .cpp with its .hpp beside it, or with its include/lq/ header for
//     src/) over 400 lines together; tests aside;
//   - one declaration per type: every name exported by web/**/*.d.ts is declared once (an
//     interface declared twice merges silently; a second name for one shape drifts);
//   - types beside their modules: no .d.ts in a folder of web/ imports web/index (the folder that
//     owns a type declares it, the others import it from there; web/index.d.ts only re-exports).
//   - one hidden import: only web/engine/server_module.js imports a module by a specifier that
//     bundlers are told to leave alone (webpackIgnore / @vite-ignore); the rest call it.
//   - at most twelve concepts per folder (a concept: a file stem, kiosk.js and kiosk.css being one;
//     a sub-folder: one) in web/, kiosk/server/, kiosk/page/, scripts/, bench/ and tests/,
//     sub-folders included (build output aside; the fuzz corpus and crash inputs of tests/ are
//     data: each of their folders is one concept, never looked into).
//   - Chromium's lane: a test file of tests/ that drives Chromium (calls launchChromium, or
//     openPackagePage, which launches it) is named
//     *.chromium.test.js, and one so named drives it (npm test runs those in its browser lane, the
//     rest in its parts' lanes; the consumer suite, a step of its own, aside).
//   - docs/architecture.md kept true: its folder tables (first column "folder", or a folder such as
//     `include/lq/`) list every folder of the part they describe, each once, the files a row names
//     are in its folder, and every path it cites (`web/...`, `src/...`, braces and `*` allowed;
//     what a build makes aside) and every link it gives exists.
// The kiosk page's imports (the package's entry points only) are check-imports.mjs's.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const MAX_MODULE_LINES = 400;
export const MAX_FOLDER_CONCEPTS = 12;
/** The folders held, with every folder below them, to MAX_FOLDER_CONCEPTS (tests/ apart: its data). */
export const GROUPED_FOLDERS = ['web', 'kiosk/server', 'kiosk/page', 'scripts', 'bench'];

function filesUnder(dir, pattern, skip = new Set()) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (skip.has(full)) continue;
    if (entry.isDirectory()) files.push(...filesUnder(full, pattern, skip));
    else if (pattern.test(entry.name)) files.push(full);
  }
  return files;
}

function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Modules over `max` lines under `dirs` (.js and .mjs; `skip`: folders and files left out): [{ file, lines }]. */
export function longModules(dirs, { max = MAX_MODULE_LINES, skip = [] } = {}) {
  const skipped = new Set(skip.map((dir) => path.resolve(dir)));
  const long = [];
  for (const dir of dirs) {
    for (const file of filesUnder(path.resolve(dir), /\.m?js$/, skipped)) {
      const lines = lineCount(readFileSync(file, 'utf8'));
      if (lines > max) long.push({ file, lines });
    }
  }
  return long;
}

/** The C++ of the product, by folder (tests/ aside: a test file is a list of cases). */
export const CPP_FOLDERS = ['src', 'include', 'front', 'service', 'hub', 'emulator', 'wasm', 'bench'];

function relative(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * .d.ts files under `dirs` over `max` lines ([{ file, lines }]); `skip`: folders and files left
 * out (generated ones).
 */
export function longTypeFiles(dirs, { max = MAX_MODULE_LINES, skip = [] } = {}) {
  const skipped = new Set(skip.map((dir) => path.resolve(dir)));
  const long = [];
  for (const dir of dirs) {
    for (const file of filesUnder(path.resolve(dir), /\.d\.ts$/, skipped)) {
      const lines = lineCount(readFileSync(file, 'utf8'));
      if (lines > max) long.push({ file, lines });
    }
  }
  return long;
}

/**
 * C++ units of `root`'s CPP_FOLDERS over `max` lines: [{ unit, files, lines }]. A unit is a
 * .cpp with the .hpp of its name beside it, or, for a .cpp of src/, with the .hpp of its name in
 * include/lq/ or a sub-folder (the engine's door declares what src/ defines); a header without a
 * .cpp is a unit alone.
 * `unit` is its path without the extension (the .cpp's).
 */
export function longCppUnits(root, { max = MAX_MODULE_LINES, folders = CPP_FOLDERS } = {}) {
  const units = new Map();
  const add = (unit, file) => {
    if (!units.has(unit)) units.set(unit, []);
    units.get(unit).push(file);
  };
  const headers = new Map();
  for (const folder of folders) {
    const dir = path.join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of filesUnder(dir, /\.(cpp|cc|hpp|h)$/)) {
      const stem = relative(root, file).replace(/\.(cpp|cc|hpp|h)$/, '');
      if (/\.(hpp|h)$/.test(file)) headers.set(stem, file);
      else add(stem, file);
    }
  }
  for (const [stem, file] of headers) {
    if (units.has(stem)) {
      add(stem, file);
      continue;
    }
    // include/lq/**/x.hpp goes with src/**/x.cpp when there is one.
    const name = stem.startsWith('include/lq/') ? stem.split('/').pop() : null;
    const source = name === null ? undefined : [...units.keys()].find((unit) => unit.startsWith('src/') && unit.endsWith(`/${name}`));
    if (source !== undefined) add(source, file);
    else add(stem, file);
  }
  const long = [];
  for (const [unit, files] of units) {
    const lines = files.reduce((sum, file) => sum + lineCount(readFileSync(file, 'utf8')), 0);
    if (lines > max) long.push({ unit, files: files.map((file) => relative(root, file)).sort(), lines });
  }
  return long.sort((a, b) => a.unit.localeCompare(b.unit));
}

// export interface X / export type X / export declare class X / export function X / export const X
const DECLARATION = /^export\s+(?:declare\s+)?(interface|type|class|function|const|enum)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * Exported names of the .d.ts files under `dir` declared more than once: [{ name, places }]
 * (places: "file:line"). Overloads of one function in one file (consecutive `export function`
 * lines of the same name) are one declaration.
 */
export function duplicateDeclarations(dir) {
  const places = new Map();
  for (const file of filesUnder(path.resolve(dir), /\.d\.ts$/)) {
    const text = readFileSync(file, 'utf8');
    let previous = null;
    for (const match of text.matchAll(DECLARATION)) {
      const [, kind, name] = match;
      const line = text.slice(0, match.index).split('\n').length;
      const overload = kind === 'function' && previous?.name === name && previous.file === file;
      previous = { name, file };
      if (overload) continue;
      if (!places.has(name)) places.set(name, []);
      places.get(name).push(`${file}:${line}`);
    }
  }
  return [...places].filter(([, where]) => where.length > 1).map(([name, where]) => ({ name, places: where }));
}

/**
 * The .d.ts files in the folders under `dir` that import or re-export `dir`/index.js (or its
 * .d.ts): [{ file, specifier }]. A folder's types import what they use from the folder that owns it.
 */
export function typesFromIndex(dir) {
  const top = path.resolve(dir);
  const index = new Set([path.join(top, 'index.js'), path.join(top, 'index.d.ts'), path.join(top, 'index')]);
  const found = [];
  for (const file of filesUnder(top, /\.d\.ts$/)) {
    if (path.dirname(file) === top) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
      const specifier = match[1] ?? match[2];
      if (index.has(path.resolve(path.dirname(file), specifier))) found.push({ file, specifier });
    }
  }
  return found;
}

/** The fuzzers' seed corpus and saved crash inputs: data, one folder of files per target. */
export const FUZZ_DATA = ['tests/engine/fuzz/corpus', 'tests/engine/fuzz/regressions'];

/** The concepts of folder `dir`: its files' stems (the name up to its first dot) and its sub-folders. */
export function folderConcepts(dir, { skip = new Set() } = {}) {
  const concepts = new Set();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(path.join(dir, entry.name))) continue;
    concepts.add(entry.isDirectory() ? `${entry.name}/` : entry.name.split('.')[0]);
  }
  return concepts;
}

/**
 * The folders among `dirs` and below them with more than `max` concepts (`skip`: folders and
 * files left out; `data`: folders that count as one concept but are not looked into): [{ dir, concepts }].
 */
export function crowdedFolders(dirs, { max = MAX_FOLDER_CONCEPTS, skip = [], data = [] } = {}) {
  const skipped = new Set(skip.map((file) => path.resolve(file)));
  const opaque = new Set(data.map((dir) => path.resolve(dir)));
  const crowded = [];
  const visit = (dir) => {
    const concepts = folderConcepts(dir, { skip: skipped });
    if (concepts.size > max) crowded.push({ dir, concepts: [...concepts].sort() });
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !skipped.has(full) && !opaque.has(full)) visit(full);
    }
  };
  for (const dir of dirs) visit(path.resolve(dir));
  return crowded;
}

// A dynamic import that bundlers are told to leave alone.
const HIDDEN_IMPORT = /\bimport\(\s*\/\*\s*(?:@vite-ignore|webpackIgnore)/;

/** The modules under `dir` (.js and .mjs; `skip` left out) that hide an import from bundlers themselves. */
export function hiddenImports(dir, { allowed, skip = [] } = {}) {
  const skipped = new Set(skip.map((file) => path.resolve(file)));
  return filesUnder(path.resolve(dir), /\.m?js$/, skipped)
    .filter((file) => file !== path.resolve(allowed) && HIDDEN_IMPORT.test(readFileSync(file, 'utf8')));
}

/**
 * The test files under `dir` (`skip`: folders left out) whose name does not say whether they drive
 * Chromium: [{ file, drives }] (drives: it calls launchChromium or openPackagePage, yet is not
 * *.chromium.test.js).
 */
export function chromiumMisnamed(dir, { skip = [] } = {}) {
  const skipped = new Set(skip.map((file) => path.resolve(file)));
  return filesUnder(path.resolve(dir), /\.test\.m?js$/, skipped).flatMap((file) => {
    const drives = /\b(?:launchChromium|openPackagePage)\(/.test(readFileSync(file, 'utf8'));
    return drives === /\.chromium\.test\.m?js$/.test(file) ? [] : [{ file, drives }];
  });
}

// The top folders a doc cites paths of, and what builds make (cited, never checked: a clean clone has none).
const CITED_ROOTS = /^(?:src|include|web|wasm|front|service|hub|emulator|kiosk|tests|scripts|bench|docs|fixtures|examples|schemas|npm|\.ci)\//;
const BUILT = /^(?:build|node_modules|dist-pack|test-output|web\/dist|kiosk\/page\/dist)\/|^web\/index\.node\.mjs$/;

/** `a/b.{hpp,cpp}` -> a/b.hpp, a/b.cpp. */
function expandBraces(cited) {
  const match = /^(.*)\{([^{}]*)\}(.*)$/.exec(cited);
  return match ? match[2].split(',').flatMap((part) => expandBraces(match[1] + part + match[3])) : [cited];
}

/** Whether `cited` names a file or folder of `root` (`*` any name, `<x>` any one; `web/index`: a file of that stem). */
function citedExists(root, cited) {
  if (existsSync(path.join(root, cited))) return true;
  const glob = /[*<]/.test(cited) ? cited : /\/$|\.[^/]*$/.test(cited) ? null : `${cited}.*`;
  const pattern = (segment) => new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/<[^>]*>/g, '[^/]+')}$`);
  const walk = (dir, [first, ...rest]) => first === undefined ||
    (existsSync(dir) && readdirSync(dir).some((name) => pattern(first).test(name) && walk(path.join(dir, name), rest)));
  return glob !== null && walk(root, glob.replace(/\/$/, '').split('/'));
}

/** The tables of a markdown text: [{ header: [cells], rows: [[cells]] }]. */
function markdownTables(text) {
  const tables = [];
  let table = null;
  for (const line of text.split('\n')) {
    const cells = line.startsWith('|') ? line.replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((cell) => cell.trim()) : null;
    if (cells === null) table = null;
    else if (table === null) tables.push((table = { header: cells, rows: [] }));
    else if (!cells.every((cell) => /^:?-+:?$/.test(cell))) table.rows.push(cells);
  }
  return tables;
}

const codeSpans = (text) => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);

/**
 * What `doc` says that the tree does not bear out: a folder table (first column "folder", or a
 * folder such as `include/lq/`) that leaves out a folder of its part (`generated` aside) or lists
 * one twice, a file a row names that is not in the row's folder, a cited path (a code span that
 * starts with a top folder, braces and `*` allowed) or a link that does not exist.
 */
export function architectureProblems(root, { doc = 'docs/architecture.md', generated = [] } = {}) {
  const text = readFileSync(path.join(root, doc), 'utf8');
  const skipped = new Set(generated.map((dir) => path.resolve(root, dir)));
  const problems = [];
  for (const { header, rows } of markdownTables(text)) {
    const named = /^`([^`]+\/)`$/.exec(header[0])?.[1] ?? (header[0] === 'folder' ? '' : null);
    const firsts = rows.map((row) => codeSpans(row[0] ?? '').map((cited) => named + cited));
    // The part: the folder the header names, else the top folder of the rows' paths.
    const part = named ? named.replace(/\/$/, '') : firsts.flat()[0]?.split('/')[0];
    if (named === null || !part || !existsSync(path.join(root, part))) continue;
    const listed = new Map(); // sub-folder -> the rows that are it
    for (const [folder, ...below] of firsts.flat().filter((c) => c.startsWith(`${part}/`)).map((c) => c.slice(part.length + 1).split('/'))) {
      if (below.length > 0) listed.set(folder, (listed.get(folder) ?? 0) + (below.join('/') === '' ? 1 : 0));
    }
    for (const entry of readdirSync(path.join(root, part), { withFileTypes: true })) {
      if (!entry.isDirectory() || skipped.has(path.resolve(root, part, entry.name))) continue;
      if (!listed.has(entry.name)) problems.push(`${doc}: the table of ${part}/ leaves out ${part}/${entry.name}/`);
      else if (listed.get(entry.name) > 1) problems.push(`${doc}: the table of ${part}/ lists ${part}/${entry.name}/ ${listed.get(entry.name)} times`);
    }
    rows.forEach((row, i) => {
      const folder = firsts[i].length === 1 && firsts[i][0].endsWith('/') ? firsts[i][0] : null;
      const names = folder === null ? [] : codeSpans(row.slice(1).join(' ')).filter((c) => /^[\w.-]+\.(?:m?js|d\.ts|cpp|hpp|json)$/.test(c));
      for (const name of names.filter((n) => !filesUnder(path.join(root, folder), /./).some((file) => path.basename(file) === n))) {
        problems.push(`${doc}: the row of ${folder} cites ${name}, which is not in ${folder}`);
      }
    });
  }
  for (const cited of codeSpans(text).map((span) => span.replace(/:\d+$/, '').replace(/^\.\//, ''))) {
    if (!CITED_ROOTS.test(cited) || /\s/.test(cited)) continue;
    for (const one of expandBraces(cited).filter((c) => !BUILT.test(c) && !citedExists(root, c))) problems.push(`${doc} cites ${one}, which does not exist`);
  }
  for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (!/^[a-z]+:/.test(target) && !existsSync(path.resolve(root, path.dirname(doc), target))) problems.push(`${doc} links to ${target}, which does not exist`);
  }
  return [...new Set(problems)];
}

/** What builds make, never a part's folder. */
export const GENERATED = ['web/dist', 'web/index.node.mjs', 'web/local/emulator/emulator.node.mjs', 'kiosk/page/dist'];

function main() {
  const rel = (file) => path.relative(root, file);
  const problems = [];
  const generated = GENERATED.map((file) => path.join(root, file));
  for (const { file, lines } of longModules([path.join(root, 'web'), path.join(root, 'kiosk')], { skip: generated })) {
    problems.push(`${rel(file)} has ${lines} lines (at most ${MAX_MODULE_LINES}): split it along the data's path`);
  }
  const tooLong = (name, lines, what) => {
    problems.push(`${name} has ${lines} lines ${what} (at most ${MAX_MODULE_LINES}): split it by concern`);
  };
  for (const { file, lines } of longTypeFiles([path.join(root, 'web')], { skip: [path.join(root, 'web/dist')] })) {
    tooLong(rel(file), lines, '');
  }
  for (const { unit, files, lines } of longCppUnits(root)) {
    tooLong(unit, lines, `(${files.join(' + ')})`);
  }
  for (const { name, places } of duplicateDeclarations(path.join(root, 'web'))) {
    problems.push(`type ${name} is declared ${places.length} times: ${places.map((p) => rel(p)).join(', ')}`);
  }
  for (const { dir, concepts } of [
    ...crowdedFolders(GROUPED_FOLDERS.map((dir) => path.join(root, dir)), { skip: generated }),
    ...crowdedFolders([path.join(root, 'tests')], { data: FUZZ_DATA.map((dir) => path.join(root, dir)) }),
  ]) {
    problems.push(`${rel(dir)}/ has ${concepts.length} concepts (at most ${MAX_FOLDER_CONCEPTS}): group them by what they serve`);
  }
  const serverModule = path.join(root, 'web/engine/server_module.js');
  for (const file of hiddenImports(path.join(root, 'web'), { allowed: serverModule, skip: generated })) {
    problems.push(`${rel(file)} hides an import from bundlers itself: call serverModule() of ${rel(serverModule)}`);
  }
  for (const { file, specifier } of typesFromIndex(path.join(root, 'web'))) {
    problems.push(`${rel(file)} imports '${specifier}': import a type from the folder that declares it`);
  }
  for (const { file, drives } of chromiumMisnamed(path.join(root, 'tests'), { skip: [path.join(root, 'tests/consumer')] })) {
    problems.push(drives
      ? `${rel(file)} drives Chromium: name it *.chromium.test.js (npm test runs those in its browser lane)`
      : `${rel(file)} is named *.chromium.test.js but drives no Chromium: name it *.test.js`);
  }
  problems.push(...architectureProblems(root, { generated: GENERATED }));
  if (problems.length === 0) {
    console.log(`check-house: modules of web/ and kiosk/, .d.ts files of web/ and the C++ units within ${MAX_MODULE_LINES} lines; ` +
      'each type of web/ declared once, beside its modules; one module hides Node-only imports; ' +
      `folders ${[...GROUPED_FOLDERS, 'tests'].map((dir) => `${dir}/`).join(', ')} of at most ${MAX_FOLDER_CONCEPTS} concepts; ` +
      'the tests that drive Chromium named *.chromium.test.js; docs/architecture.md\'s folder tables whole, its paths and links there');
    return 0;
  }
  for (const problem of problems) console.error(`check-house: ${problem}`);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
