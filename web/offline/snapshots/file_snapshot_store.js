// Snapshot entries as JSON files in a directory (Node). It loads node:fs only when used, so
// browsers never see it.

import { serverModule } from '../../engine/server_module.js';
import { writeFileDurably } from '../storage/durable_file.js';
import { checkKey, checkPrefix, parseEntry, sortedKeys } from './snapshot_entry.js';

const nodeFs = () => serverModule('node:fs/promises');

/**
 * Entries as JSON files in a directory (Node), one file per key, each replaced durably: a crash
 * leaves the old entry or the new one, never half of one.
 */
export function fileSnapshotStore({ directory } = {}) {
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new TypeError('fileSnapshotStore needs { directory }');
  }
  const nameOf = (key) => `${encodeURIComponent(checkKey(key))}.json`;
  const fileOf = (key) => `${directory.replace(/[\\/]+$/, '')}/${nameOf(key)}`;
  return {
    kind: 'file',
    directory,
    load: async (key) => {
      const fs = await nodeFs();
      try {
        return parseEntry(await fs.readFile(fileOf(key), 'utf8'));
      } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw e;
      }
    },
    save: async (key, entry) => {
      await writeFileDurably(directory, nameOf(key), JSON.stringify(entry));
    },
    remove: async (key) => {
      const fs = await nodeFs();
      await fs.rm(fileOf(key), { force: true });
    },
    keys: async (prefix) => {
      const start = encodeURIComponent(checkPrefix(prefix));
      const fs = await nodeFs();
      let names;
      try {
        names = await fs.readdir(directory);
      } catch (e) {
        if (e.code === 'ENOENT') return [];
        throw e;
      }
      const keys = [];
      for (const name of names) {
        if (!name.endsWith('.json') || !name.startsWith(start)) continue;
        try {
          keys.push(decodeURIComponent(name.slice(0, -'.json'.length)));
        } catch {
          // not a name this store wrote
        }
      }
      return sortedKeys(keys.filter((key) => key.startsWith(prefix)));
    },
  };
}
