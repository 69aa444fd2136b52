// Replacing a file durably (Node): the stores that keep snapshots and orders in files write
// through this, so that a crash or power loss leaves the old content or the new, never half of
// either, and a write that has resolved is on disk. Browser-safe to import: node:fs is loaded
// only when a file is written.

import { serverModule } from '../../engine/server_module.js';

const nodeFs = () => serverModule('node:fs/promises');

// Platforms that cannot open or flush a directory (Windows) say so with these codes; there the
// rename is as durable as the platform makes it.
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP', 'EACCES']);

/**
 * Writes `text` to `directory/name` (creating the directory): into a temporary file beside it,
 * flushed to disk, renamed over the old file, then the directory flushed so the rename lasts.
 * On failure the old file is untouched, the temporary one removed, and the file system's error
 * (ENOSPC, EACCES, EIO...) thrown unchanged.
 */
export async function writeFileDurably(directory, name, text) {
  const fs = await nodeFs();
  const folder = directory.replace(/[\\/]+$/, '');
  const file = `${folder}/${name}`;
  const temporary = `${file}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
  let handle = null;
  try {
    handle = await openCreating(fs, folder, temporary);
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    handle = null;
    await fs.rename(temporary, file);
  } catch (e) {
    await handle?.close().catch(() => {});
    await fs.rm(temporary, { force: true }).catch(() => {}); // the write's own error is the one to report
    throw e;
  }
  await syncDirectory(fs, folder);
}

// The temporary file, created with the directory when it is missing (the directory is made only
// then: one system call less on every write).
async function openCreating(fs, folder, temporary) {
  try {
    return await fs.open(temporary, 'w', 0o600);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
    await fs.mkdir(folder, { recursive: true });
    return fs.open(temporary, 'w', 0o600);
  }
}

async function syncDirectory(fs, folder) {
  let handle;
  try {
    handle = await fs.open(folder, 'r');
  } catch (e) {
    if (DIRECTORY_SYNC_UNSUPPORTED.has(e.code)) return;
    throw e;
  }
  try {
    await handle.sync();
  } catch (e) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(e.code)) throw e;
  } finally {
    await handle.close();
  }
}
