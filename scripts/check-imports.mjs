// `node scripts/check-imports.mjs [DIR]`: fails (exit 1) when the relative imports of the .js and
// .mjs files under DIR (default web/) form a cycle, and names every cycle found. Static imports,
// re-exports and dynamic import('...') with a literal specifier all count: a bundler follows
// each of them. Run by `npm test`.
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

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
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

function main(argv) {
  const dir = path.resolve(root, argv[0] ?? 'web');
  const graph = importGraph(dir);
  const cycles = importCycles(graph);
  const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
  if (cycles.length === 0) {
    console.log(`check-imports: no import cycle in ${path.relative(root, dir) || '.'} ` +
      `(${graph.size} files, ${edges} relative imports)`);
    return 0;
  }
  for (const cycle of cycles) {
    console.error(`check-imports: import cycle: ${cycle.map((f) => path.relative(dir, f)).join(' -> ')}`);
  }
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
