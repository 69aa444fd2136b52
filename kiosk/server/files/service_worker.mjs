// Service-worker versioning: the kiosk's service worker is served with a VERSION derived from its
// own bytes and every file it precaches, so that a change to any of them installs a new cache.
// Each file is read and hashed once per (size, modification time): a request for the worker then
// costs a stat per file, not a read of the wasm module and every script.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { statOrNothing } from './stat_or_nothing.mjs';

/** The file name of the worker the static server versions. */
export const SERVICE_WORKER = 'sw.js';
const VERSION_LINE = /^const VERSION = '([^'\n]*)';$/m;

/** file -> { size, mtimeMs, digest, text? }: what was read of it at that size and time. */
const readings = new Map();

/**
 * The file's SHA-256 (and its text, for the worker itself), read again only when its size or
 * modification time changed.
 */
function reading(file, stat, { keepText = false } = {}) {
  const known = readings.get(file);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && (known.text !== undefined || !keepText)) {
    return known;
  }
  const bytes = readFileSync(file);
  const fresh = {
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    digest: createHash('sha256').update(bytes).digest('hex'),
    text: keepText ? bytes.toString('utf8') : undefined,
  };
  readings.set(file, fresh);
  return fresh;
}

/**
 * The kiosk's service worker as served: its `VERSION` gets a digest of the worker and of every file
 * its PRECACHE list names, so any change to what it precaches is a new worker (the browser compares
 * the worker's bytes on each navigation) that installs a new cache, with no hand-bumped constant.
 * Files the list names that are missing count as missing (the worker's install then fails, as it
 * would anyway). Returns null when the file is not one with a PRECACHE list and a VERSION line.
 */
export function versionedServiceWorker(file) {
  const stat = statOrNothing(file);
  if (!stat?.isFile()) return null;
  const worker = reading(file, stat, { keepText: true });
  const { text } = worker;
  const list = /const PRECACHE = \[([^\]]*)\]/.exec(text);
  const version = VERSION_LINE.exec(text);
  if (!list || !version) return null;
  const digest = createHash('sha256').update(worker.digest);
  let newest = stat.mtimeMs;
  for (const [, entry] of list[1].matchAll(/'([^'\n]*)'/g)) {
    const target = path.resolve(path.dirname(file), entry.endsWith('/') ? `${entry}index.html` : entry);
    const precached = statOrNothing(target);
    digest.update(`\0${entry}\0`);
    if (!precached?.isFile()) continue;
    newest = Math.max(newest, precached.mtimeMs);
    digest.update(reading(target, precached).digest);
  }
  const hash = digest.digest('hex').slice(0, 16);
  const body = Buffer.from(text.replace(VERSION_LINE, `const VERSION = '${version[1]}-${hash}';`));
  return { body, etag: `"${hash}"`, mtimeMs: newest };
}
