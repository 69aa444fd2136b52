// `node scripts/check-includes.mjs [ROOT]`: fails (exit 1) when a face of the engine (wasm/,
// front/, service/, hub/, bench/, emulator/) includes any header of the engine but its front door,
// include/lq/ (`#include "lq/..."`), when hub/ or front/ includes a folder beyond its own, front/
// and include/lq/ (hub/ never includes service/), when RFC 3339 is written or milliseconds turned
// into an instant anywhere but the engine's src/base/instant.cpp, when a native folder (src/,
// include/lq/, front/, service/, hub/, emulator/, wasm/ and below) holds more than 12 concepts (a
// .hpp and its .cpp are one, a sub-folder is one; FOLDERS_TO_GROUP waits), or when service/domain/
// includes the HTTP face. Names every offence. ROOT defaults to the repository. Run by `npm test`.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The faces: folders whose C++ may use the engine only through include/lq/. */
export const FACES = ['wasm', 'front', 'service', 'hub', 'bench', 'emulator'];
/**
 * The native folders (and every folder below them) that hold at most MAX_CONCEPTS concepts: a
 * file stem (a .hpp and its .cpp are one) or a sub-folder is one concept.
 */
export const CONCEPT_ROOTS = ['src', 'include/lq', 'front', 'service', 'hub', 'emulator', 'wasm'];
/**
 * Folders over the limit today that another change groups: path -> why it may wait. Temporary:
 * each entry goes with the change it names (an entry within the limit is an offence too).
 */
export const FOLDERS_TO_GROUP = {};
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

/**
 * The folders a shared part may include (quoted includes, by the repository root): hub/ stands on
 * front/ and the engine's door, never on service/; front/ stands on the engine's door alone.
 */
export const ALLOWED_INCLUDES = {
  hub: ['hub/', 'front/', 'lq/'],
  front: ['front/', 'lq/'],
};

/** Quoted includes of hub/ and front/ outside ALLOWED_INCLUDES. */
export function sharedPartOffences(root) {
  const offences = [];
  for (const [part, allowed] of Object.entries(ALLOWED_INCLUDES)) {
    for (const file of cppFiles(path.join(root, part))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const match = /^\s*#\s*include\s*"([^"]+)"/.exec(line);
          if (match === null || allowed.some((prefix) => match[1].startsWith(prefix))) return;
          offences.push(
            `${path.relative(root, file)}:${i + 1}: includes "${match[1]}": ${part}/ includes only ${allowed.join(', ')}`,
          );
        });
    }
  }
  return offences;
}

/** The one file that writes RFC 3339 and turns milliseconds into an instant (declared in include/lq/time/instant.hpp). */
export const TIME_WRITER = 'src/base/instant.cpp';
/** The C++ folders where a second writer would hide. */
const TIME_SCAN = ['src', 'include', 'wasm', 'front', 'service', 'hub', 'bench', 'emulator'];
// A date-time format string ("%04lld-%02d-%02dT..."), or a function of one's own that turns
// milliseconds into an instant or an instant into RFC 3339 text.
const SECOND_WRITER = [
  /%0?4l{0,2}d-%02d-%02d/,
  /\binstant\s+\w*(?:from_ms|from_unix_ms|from_millis\w*)\s*\(/,
  /\bstd::string\s+(?:format|write|render)_(?:rfc3339|timestamp|instant)\s*\(/,
];

/** Lines outside TIME_WRITER and include/lq/ that write RFC 3339 or turn milliseconds into an instant. */
export function timeWriterOffences(root) {
  const offences = [];
  for (const top of TIME_SCAN) {
    for (const file of cppFiles(path.join(root, top))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (rel === TIME_WRITER || rel.startsWith('include/lq/')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (SECOND_WRITER.some((pattern) => pattern.test(line))) {
            offences.push(
              `${rel}:${i + 1}: writes RFC 3339 or turns milliseconds into an instant: use lq/time/instant.hpp (format_rfc3339, instant_from_unix_ms)`,
            );
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
 * Folders of CONCEPT_ROOTS (or below) with more than 12 concepts (a .hpp and a .cpp of one name
 * are one, a sub-folder is one), but those `waiting` names; and the folders `waiting` names that
 * no longer need to wait.
 */
export function domainFolderOffences(root, { roots = CONCEPT_ROOTS, waiting = FOLDERS_TO_GROUP } = {}) {
  const offences = [];
  const visit = (dir) => {
    const concepts = new Set();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        concepts.add(`${entry.name}/`);
        visit(path.join(dir, entry.name));
      } else if (/\.(cpp|hpp|h|cc)$/.test(entry.name)) {
        concepts.add(entry.name.replace(/\.(cpp|hpp|h|cc)$/, ''));
      }
    }
    const name = path.relative(root, dir).split(path.sep).join('/');
    if (concepts.size > MAX_CONCEPTS && !(name in waiting)) {
      offences.push(
        `${name}/: ${concepts.size} concepts, more than ${MAX_CONCEPTS}: ` + [...concepts].sort().join(', '),
      );
    } else if (concepts.size <= MAX_CONCEPTS && name in waiting) {
      offences.push(`${name}/: ${concepts.size} concepts now: remove it from FOLDERS_TO_GROUP (${waiting[name]})`);
    }
  };
  for (const top of roots) {
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
    ...sharedPartOffences(root),
    ...timeWriterOffences(root),
    ...domainFolderOffences(root),
    ...domainLayerOffences(root),
  ];
  for (const offence of offences) console.error(`check-includes: ${offence}`);
  if (offences.length > 0) process.exit(1);
  console.log(
    'check-includes: the faces include only include/lq/ of the engine; hub/ only front/ and include/lq/, front/ only include/lq/; ' +
      `RFC 3339 written once (src/base/instant.cpp); the native folders hold at most ${MAX_CONCEPTS} concepts each ` +
      `(${Object.keys(FOLDERS_TO_GROUP).length} waiting: FOLDERS_TO_GROUP), and service/domain/ nothing of http/`,
  );
}
