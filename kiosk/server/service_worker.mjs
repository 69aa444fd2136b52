// Service-worker versioning: the kiosk's service worker is served with a VERSION derived from its
// own bytes and every file it precaches, so that a change to any of them installs a new cache.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { statOrNothing } from './stat_or_nothing.mjs';

/** The file name of the worker the static server versions. */
export const SERVICE_WORKER = 'sw.js';
const VERSION_LINE = /^const VERSION = '([^'\n]*)';$/m;

/**
 * The kiosk's service worker as served: its `VERSION` gets a digest of the worker and of every file
 * its PRECACHE list names, so any change to what it precaches is a new worker (the browser compares
 * the worker's bytes on each navigation) that installs a new cache, with no hand-bumped constant.
 * Files the list names that are missing count as missing (the worker's install then fails, as it
 * would anyway). Returns null when the file is not one with a PRECACHE list and a VERSION line.
 */
export function versionedServiceWorker(file) {
  const text = readFileSync(file, 'utf8');
  const list = /const PRECACHE = \[([^\]]*)\]/.exec(text);
  const version = VERSION_LINE.exec(text);
  if (!list || !version) return null;
  const digest = createHash('sha256').update(text);
  let newest = statSync(file).mtimeMs;
  for (const [, entry] of list[1].matchAll(/'([^'\n]*)'/g)) {
    const target = path.resolve(path.dirname(file), entry.endsWith('/') ? `${entry}index.html` : entry);
    const stat = statOrNothing(target);
    digest.update(`\0${entry}\0`);
    if (!stat?.isFile()) continue;
    newest = Math.max(newest, stat.mtimeMs);
    digest.update(readFileSync(target));
  }
  const hash = digest.digest('hex').slice(0, 16);
  const body = Buffer.from(text.replace(VERSION_LINE, `const VERSION = '${version[1]}-${hash}';`));
  return { body, etag: `"${hash}"`, mtimeMs: newest };
}
