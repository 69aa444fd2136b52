// `node scripts/check-includes.mjs [ROOT]`: fails (exit 1) when a face of the engine (wasm/,
// service/, hub/, bench/, emulator/) includes any header of the engine but its front door, include/lq/
// (`#include "lq/..."`), when a folder of service/domain/ or hub/ holds more than 12 concepts (a
// .hpp and its .cpp are one), or when service/domain/ includes the HTTP face. Names every
// offence. ROOT defaults to the repository. Run by `npm test`.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The faces: folders whose C++ may use the engine only through include/lq/. */
export const FACES = ['wasm', 'service', 'hub', 'bench', 'emulator'];
/** At most this many concepts in a folder of these (and of each folder below them). */
export const CONCEPT_ROOTS = ['service/domain', 'hub'];
const MAX_CONCEPTS = 12;

function cppFiles(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...cppFiles(full));
    else if (/\.(cpp|hpp|h|cc)$/.test(entry.name)) files.push(full);
  }
  return files;
}

/** The engine's own headers by the path a face would include them with (src/ relative). */
function engineHeaders(root) {
  const src = path.join(root, 'src');
  return new Set(cppFiles(src).map((file) => path.relative(src, file).split(path.sep).join('/')));
}

/**
 * Every quoted include of a face that names an engine header outside include/lq/: the headers of
 * src/ (e.g. "rules/explain.hpp", "qualifier.hpp"), or any path into src/ ("../src/...").
 * `#include <...>` is a system or third-party header and is not checked.
 */
export function faceIncludeOffences(root) {
  const engine = engineHeaders(root);
  const offences = [];
  for (const face of FACES) {
    for (const file of cppFiles(path.join(root, face))) {
      const faceDir = path.dirname(file);
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const match = /^\s*#\s*include\s*"([^"]+)"/.exec(line);
        if (match === null) return;
        const name = match[1];
        if (name.startsWith('lq/')) return;
        // A face's own header: beside the file, or by the face's include root (service/, hub/).
        const own =
          existsSync(path.join(faceDir, name)) || existsSync(path.join(root, face, name));
        const intoSrc = path
          .relative(root, path.resolve(faceDir, name))
          .split(path.sep)
          .join('/')
          .startsWith('src/');
        if ((!own && engine.has(name)) || intoSrc) {
          const where = `${path.relative(root, file)}:${i + 1}`;
          offences.push(`${where}: includes "${name}", an engine header outside include/lq/`);
        }
      });
    }
  }
  return offences;
}

/** Files of service/domain/ that include the HTTP face (`"http/..."`, or httplib.h): a layer includes nothing above it. */
export function domainLayerOffences(root) {
  const offences = [];
  for (const file of cppFiles(path.join(root, 'service/domain'))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = /^\s*#\s*include\s*["<]((?:http\/[^">]+)|httplib\.h)[">]/.exec(line);
        if (match !== null) {
          offences.push(`${path.relative(root, file)}:${i + 1}: includes "${match[1]}": the domain sees nothing of http/`);
        }
      });
  }
  return offences;
}

/**
 * Folders of service/domain/ or hub/ (or below) with more than 12 concepts (a .hpp and a .cpp of
 * one name are one).
 */
export function domainFolderOffences(root) {
  const offences = [];
  const visit = (dir) => {
    const concepts = new Set();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(path.join(dir, entry.name));
      else if (/\.(cpp|hpp)$/.test(entry.name)) concepts.add(entry.name.replace(/\.(cpp|hpp)$/, ''));
    }
    if (concepts.size > MAX_CONCEPTS) {
      offences.push(
        `${path.relative(root, dir)}/: ${concepts.size} concepts, more than ${MAX_CONCEPTS}: ` +
          [...concepts].sort().join(', '),
      );
    }
  };
  for (const top of CONCEPT_ROOTS) {
    const dir = path.join(root, top);
    if (existsSync(dir)) visit(dir);
  }
  return offences;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
  );
  const offences = [
    ...faceIncludeOffences(root),
    ...domainFolderOffences(root),
    ...domainLayerOffences(root),
  ];
  for (const offence of offences) console.error(`check-includes: ${offence}`);
  if (offences.length > 0) process.exit(1);
  console.log(
    'check-includes: the faces include only include/lq/ of the engine; service/domain/ and hub/ hold at most 12 concepts per folder, and service/domain/ nothing of http/',
  );
}
