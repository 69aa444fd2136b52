// `node scripts/check-imports.mjs [DIR]`: fails (exit 1) when the relative imports of the .js and
// .mjs files under DIR (default web/) form a cycle, or when its folders do (a folder that imports a
// folder that imports it back, through any number of folders), and names every cycle found. Static
// imports, re-exports and dynamic import('...') with a literal specifier all count: a bundler
// follows each of them. For DIR kiosk/ it also fails when a module of kiosk/page/ imports from web/ a
// module that package.json "exports" does not name (the page is built on the package's entry
// points only, as any user of the package), and when a module of kiosk/server/ imports the package
// other than by a specifier that "exports" maps (`loyalty-qualifier/service`, never a path into
// web/). Run by `npm test` (web, then kiosk).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// import x from '...'; import '...'; export ... from '...'; import('...')
const SPECIFIERS = [
  /\bimport\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)*['"]([^'"]+)['"]\s*\)/g,
];

// Build output, not source: the kiosk page's bundles (kiosk/server/page_bundle.mjs).
const GENERATED = new Set([path.join(root, 'kiosk/page/dist')]);

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (GENERATED.has(full)) continue;
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.m?js$/.test(entry.name)) files.push(full);
  }
  return files;
}

// Comments are dropped first, so that an import quoted in a comment is no edge.
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * file -> the files it imports (relative specifiers, resolved; a bare specifier too when `imports`,
 * an import map's { specifier: absolute file }, names it).
 */
export function importGraph(dir, { imports = {} } = {}) {
  const graph = new Map();
  for (const file of sourceFiles(dir)) {
    const text = withoutComments(readFileSync(file, 'utf8'));
    const targets = new Set();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1];
        if (specifier.startsWith('./') || specifier.startsWith('../')) {
          targets.add(path.resolve(path.dirname(file), specifier));
        } else if (Object.hasOwn(imports, specifier)) {
          targets.add(imports[specifier]);
        }
      }
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every cycle of the graph, each as a list of files starting and ending with the same one. */
export function importCycles(graph) {
  const cycles = [];
  const state = new Map(); // file -> 'visiting' | 'done'
  const stack = [];
  const visit = (file) => {
    state.set(file, 'visiting');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(target)), target]);
      } else if (!state.has(target) && graph.has(target)) {
        visit(target);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The folder graph of a file graph under `dir`: each file stands for the first folder of its path
 * below `dir`, or, in a group (a folder of folders only, such as web/offline/), for its folder in
 * the group (files directly in `dir` are left out: an entry module such as index.js only
 * assembles); folder -> Map(imported folder -> one import that makes the edge, [file, target]).
 */
export function folderGraph(graph, dir) {
  const groups = new Map();
  const isGroup = (folder) => {
    if (!groups.has(folder)) {
      groups.set(folder, readdirSync(path.join(dir, folder), { withFileTypes: true }).every((entry) => entry.isDirectory()));
    }
    return groups.get(folder);
  };
  const folderOf = (file) => {
    const parts = path.relative(dir, file).split(path.sep);
    if (parts.length < 2 || parts[0] === '..') return null;
    return parts.length > 2 && isGroup(parts[0]) ? `${parts[0]}/${parts[1]}` : parts[0];
  };
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === null) continue;
    if (!folders.has(from)) folders.set(from, new Map());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== null && to !== from && !folders.get(from).has(to)) folders.get(from).set(to, [file, target]);
    }
  }
  return folders;
}

/**
 * Every cycle between the folders of `graph` (files under `dir`): [{ folders: [a, b, ..., a],
 * imports: [[file, target], ...] }], one import per step of the cycle.
 */
export function folderCycles(graph, dir) {
  const folders = folderGraph(graph, dir);
  const plain = new Map([...folders].map(([folder, edges]) => [folder, [...edges.keys()]]));
  return importCycles(plain).map((cycle) => ({
    folders: cycle,
    imports: cycle.slice(1).map((to, i) => folders.get(cycle[i]).get(to)),
  }));
}

/** The JS modules package.json "exports" names (every condition), as absolute paths. */
export function entryModules(packageJsonPath) {
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const base = path.dirname(path.resolve(packageJsonPath));
  const targets = [];
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(pkg.exports);
  return new Set(targets.filter((t) => /\.m?js$/.test(t) && !t.includes('*')).map((t) => path.resolve(base, t)));
}

/**
 * Imports of modules under `pageDir` that reach into `packageDir` past its entry points:
 * [{ file, target }].
 */
export function pageImportsPastEntryPoints(pageDir, packageDir, entries) {
  const inside = path.resolve(packageDir) + path.sep;
  const bad = [];
  for (const [file, targets] of importGraph(path.resolve(pageDir))) {
    for (const target of targets) {
      if (target.startsWith(inside) && !entries.has(target)) bad.push({ file, target });
    }
  }
  return bad;
}

// Does `subpath` ('.', './service', ...) match a key of "exports" (exact, or a pattern with one '*')?
function exportsMaps(exportsField, subpath) {
  return Object.keys(exportsField ?? {}).some((key) => {
    const star = key.indexOf('*');
    if (star < 0) return key === subpath;
    return subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1)) &&
      subpath.length >= key.length - 1;
  });
}

/**
 * Imports of modules under `serverDir` that reach the package other than through a specifier its
 * package.json "exports" maps: a relative path into `packageDir`, or `<name>/<subpath>` that
 * "exports" does not name. [{ file, specifier }].
 */
export function serverImportsPastExports(serverDir, packageDir, packageJsonPath) {
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const inside = path.resolve(packageDir) + path.sep;
  const bad = [];
  for (const file of sourceFiles(path.resolve(serverDir))) {
    const text = withoutComments(readFileSync(file, 'utf8'));
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1];
        if (specifier.startsWith('./') || specifier.startsWith('../')) {
          if (path.resolve(path.dirname(file), specifier).startsWith(inside)) bad.push({ file, specifier });
        } else if (specifier === pkg.name || specifier.startsWith(`${pkg.name}/`)) {
          const subpath = specifier === pkg.name ? '.' : `.${specifier.slice(pkg.name.length)}`;
          if (!exportsMaps(pkg.exports, subpath)) bad.push({ file, specifier });
        }
      }
    }
  }
  return bad;
}

function main(argv) {
  const dir = path.resolve(root, argv[0] ?? 'web');
  const graph = importGraph(dir);
  const cycles = importCycles(graph);
  const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
  const problems = cycles.map((cycle) => `import cycle: ${cycle.map((f) => path.relative(dir, f)).join(' -> ')}`);
  for (const { folders, imports } of folderCycles(graph, dir)) {
    const how = imports.map(([file, target]) => `${path.relative(dir, file)} imports ${path.relative(dir, target)}`).join('; ');
    problems.push(`folder cycle: ${folders.join(' -> ')} (${how})`);
  }
  let pageRule = '';
  if (dir === path.join(root, 'kiosk')) {
    const entries = entryModules(path.join(root, 'package.json'));
    for (const { file, target } of pageImportsPastEntryPoints(path.join(root, 'kiosk/page'), path.join(root, 'web'), entries)) {
      problems.push(`${path.relative(root, file)} imports ${path.relative(root, target)}, which is no entry point of the package ("exports" in package.json)`);
    }
    for (const { file, specifier } of serverImportsPastExports(path.join(root, 'kiosk/server'), path.join(root, 'web'), path.join(root, 'package.json'))) {
      problems.push(`${path.relative(root, file)} imports '${specifier}': kiosk/server imports the package by a specifier package.json "exports" maps`);
    }
    pageRule = `; kiosk/page imports the package through its ${entries.size} entry modules only, kiosk/server through "exports" specifiers`;
  }
  if (problems.length === 0) {
    console.log(`check-imports: no import cycle in ${path.relative(root, dir) || '.'}, between files or folders ` +
      `(${graph.size} files, ${edges} relative imports)${pageRule}`);
    return 0;
  }
  for (const problem of problems) console.error(`check-imports: ${problem}`);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
