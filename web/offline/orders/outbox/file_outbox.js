// The order outbox in files (Node): one JSON file per order in a folder of its guest, each replaced
// durably, damaged entries moved to a quarantine folder, the lock of a guest's orders as a lock
// directory. A guest's decision reads that guest's folder only, and the folder's modification time
// says whether those orders changed. Beside a guest's orders, the records of the guest's orders
// billed with their offer (billed_order.js), named so that no reader of orders, of this version or
// an earlier one, lists them. node:fs and node:crypto are loaded only when used.
import { writeFileDurably } from '../../storage/durable_file.js';
import { billedExpired, billedProblem, checkBilled, longerHold } from './billed_order.js';
import { byQuarantineTime, bySequence, checkOrder, randomTag } from './outbox_entry.js';
import {
  BILLED_SUFFIX,
  ORDER_SUFFIX,
  billedExpiryOf,
  billedNameOf,
  billedStemOf,
  fileNameOf,
  firstLayoutNameOf,
  guestFolderOf,
  isGuestFolder,
  nodeFs,
  readEntry,
} from './file_outbox_entry.js';
import { directoryLock } from './directory_lock.js';

const QUARANTINE = 'quarantine';
const REASON = 'reason.json';
const LOCKS = 'locks';
// A folder changed less than this long ago may change again within the same tick of the file
// system's clock without its time moving: its change stamp is not trusted yet (read again).
const SETTLING_MS = 50;
// An empty guest folder untouched this long is removed by list() (every guest who ever checked out
// has had one).
const EMPTY_FOLDER_KEPT_MS = 60_000;

const keyOf = (order) => JSON.stringify([order.owner, order.basketId]);
const listed = (byKey) => [...byKey.values()].sort(bySequence);

/**
 * Orders as JSON files (Node), one per order, each replaced durably (written to a temporary file,
 * flushed to disk, renamed over the old one, the folder flushed): a crash leaves the old record
 * or the new one, never half of one. An order's file is `directory`/guest-<SHA-256 of its owner>/
 * <SHA-256 of JSON [owner, basketId]>.order.json; its content says whose order it is. Files of the
 * two earlier layouts, directly in `directory` (the SHA-256 name, and
 * encodeURIComponent(owner)~encodeURIComponent(basketId)), are still read, and moved to the
 * guest's folder by the next put() of their order. An entry that is not a readable order moves to
 * `directory`/quarantine/<quarantinedAt>-<tag>/ beside a reason.json. exclusive(fn, { owner })
 * holds the lock directory `directory`/locks/guest-<SHA-256 of the owner>.lock (outbox_lock.js);
 * without an owner, `directory`/replay.lock.
 */
export function fileOrderOutbox({ directory, staleMs } = {}) {
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new TypeError('fileOrderOutbox needs { directory }');
  }
  if (staleMs !== undefined && !(typeof staleMs === 'number' && staleMs > 0 && Number.isFinite(staleMs))) {
    throw new TypeError('staleMs must be a positive number of milliseconds');
  }
  const folder = directory.replace(/[\\/]+$/, '');
  const wholeLock = directoryLock(folder, { staleMs });
  const guestLocks = new Map();
  // Entries that could not be moved to quarantine (e.g. a read-only directory): reported, skipped.
  const unmovable = new Map();
  // Whether files of the earlier layouts may lie directly in the directory: null until looked at.
  // This package writes none, so once none is seen it stays so (list() looks again anyway).
  let legacy = null;

  const quarantine = async (fs, name, reason) => {
    const quarantinedAt = Date.now();
    const box = `${folder}/${QUARANTINE}/${quarantinedAt}-${randomTag()}`;
    const base = name.split('/').at(-1);
    try {
      await fs.mkdir(box, { recursive: true });
      await fs.writeFile(`${box}/${REASON}`, JSON.stringify({ key: name, reason, quarantinedAt }));
      await fs.rename(`${folder}/${name}`, `${box}/${base}`);
      unmovable.delete(name);
    } catch (e) {
      await fs.rm(box, { recursive: true, force: true }).catch(() => {});
      if (e.code === 'ENOENT') return; // moved or removed by another process meanwhile
      if (!unmovable.has(name)) {
        unmovable.set(name, { key: name, reason: `${reason} (could not be moved to quarantine: ${e.message})`, quarantinedAt, path: `${folder}/${name}` });
      }
    }
  };

  const names = async (fs, path) => {
    try {
      return await fs.readdir(path);
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw e;
    }
  };

  // The orders of the earlier layouts directly in the directory (of `owner` only, when given) into byKey.
  const readLegacy = async (fs, entries, byKey, owner = null) => {
    let found = 0;
    for (const name of entries) {
      if (!name.endsWith(ORDER_SUFFIX)) continue;
      found += 1;
      const entry = await readEntry(fs, folder, name);
      if (entry === null) continue;
      if (entry.problem !== undefined) {
        await quarantine(fs, name, entry.problem);
        continue;
      }
      const order = entry.value;
      if (name !== (await fileNameOf(order)) && name !== firstLayoutNameOf(order)) {
        // remove() would never find it: it would be replayed for ever.
        await quarantine(fs, name, 'its name is not the file name of the order it holds (owner, basketId)');
        continue;
      }
      // Both earlier layouts (put() stopped between writing one and removing the other): the second is newer.
      if ((owner === null || order.owner === owner) && (!byKey.has(keyOf(order)) || name === (await fileNameOf(order)))) byKey.set(keyOf(order), order);
    }
    return found;
  };

  // The orders of one guest's folder into byKey (they win over the earlier layouts'); true when it
  // is empty. Billing records past their expiry go, by their names alone.
  const readGuest = async (fs, guest, byKey) => {
    const entries = await names(fs, `${folder}/${guest}`);
    if (entries === null) return false;
    let left = entries.length;
    for (const name of entries) {
      if (name.endsWith(BILLED_SUFFIX)) {
        const expiresAt = billedExpiryOf(name);
        if (expiresAt !== null && expiresAt <= Date.now() && (await removed(fs, `${guest}/${name}`))) left -= 1;
        continue;
      }
      if (!name.endsWith(ORDER_SUFFIX)) continue;
      const entry = await readEntry(fs, folder, `${guest}/${name}`);
      if (entry === null) continue;
      if (entry.problem !== undefined) {
        await quarantine(fs, `${guest}/${name}`, entry.problem);
        continue;
      }
      const order = entry.value;
      if (name !== (await fileNameOf(order)) || guest !== (await guestFolderOf(order.owner))) {
        await quarantine(fs, `${guest}/${name}`, 'its name is not the file name of the order it holds (owner, basketId)');
        continue;
      }
      byKey.set(keyOf(order), order);
    }
    return left === 0;
  };

  // Whether the entry `name` was removed (or was gone already).
  const removed = (fs, name) => fs.rm(`${folder}/${name}`, { force: true }).then(() => true, () => false);

  // The billing records of `owner`'s folder whose names start with `stem` (all of them without one).
  const billedNames = async (fs, guest, stem = '') =>
    ((await names(fs, `${folder}/${guest}`)) ?? []).filter((name) => name.startsWith(stem) && billedExpiryOf(name) !== null);

  const listBilled = async (owner) => {
    const fs = await nodeFs();
    const guest = await guestFolderOf(owner);
    const byKey = new Map();
    for (const name of await billedNames(fs, guest)) {
      if (billedExpiryOf(name) <= Date.now()) {
        await removed(fs, `${guest}/${name}`);
        continue;
      }
      const entry = await readEntry(fs, folder, `${guest}/${name}`, billedProblem);
      if (entry === null) continue;
      if (entry.problem !== undefined) {
        await quarantine(fs, `${guest}/${name}`, entry.problem);
        continue;
      }
      const record = entry.value;
      if (record.owner !== owner || name !== (await billedNameOf(record))) {
        await quarantine(fs, `${guest}/${name}`, 'its name is not the file name of the billing record it holds (owner, basketId, expiresAt)');
        continue;
      }
      if (billedExpired(record)) continue;
      const key = keyOf(record);
      byKey.set(key, byKey.has(key) ? longerHold(byKey.get(key), record) : record);
    }
    return [...byKey.values()];
  };

  // Whether earlier layouts' files may be there (looked at once, then known).
  const legacyPossible = async (fs) => {
    if (legacy === null) legacy = ((await names(fs, folder)) ?? []).some((name) => name.endsWith(ORDER_SUFFIX));
    return legacy;
  };

  const list = async () => {
    const fs = await nodeFs();
    const entries = await names(fs, folder);
    if (entries === null) return [];
    const byKey = new Map();
    legacy = (await readLegacy(fs, entries, byKey)) > 0;
    for (const guest of entries.filter(isGuestFolder)) {
      const empty = await readGuest(fs, guest, byKey);
      if (empty) {
        const info = await fs.stat(`${folder}/${guest}`).catch(() => null);
        // rmdir fails on a folder that got a file meanwhile; a put() that finds it gone makes it again.
        if (info !== null && Date.now() - info.mtimeMs > EMPTY_FOLDER_KEPT_MS) await fs.rmdir(`${folder}/${guest}`).catch(() => {});
      }
    }
    return listed(byKey);
  };

  const listOwner = async (owner) => {
    const fs = await nodeFs();
    const byKey = new Map();
    if (await legacyPossible(fs)) await readLegacy(fs, (await names(fs, folder)) ?? [], byKey, owner);
    await readGuest(fs, await guestFolderOf(owner), byKey);
    return listed(byKey).filter((order) => order.owner === owner);
  };

  // The earlier layouts' names of an order, when such files may exist.
  const legacyNames = async (fs, key) => ((await legacyPossible(fs)) ? [await fileNameOf(key), firstLayoutNameOf(key)].filter((n) => n !== null) : []);

  return {
    kind: 'file',
    directory,
    list,
    listOwner,
    /**
     * The guest's folder's modification time (and the directory's while earlier layouts' files
     * may be there), or null while it changed within the last SETTLING_MS (read the orders again).
     */
    changeStamp: async (owner) => {
      const fs = await nodeFs();
      const paths = [`${folder}/${await guestFolderOf(owner)}`, ...((await legacyPossible(fs)) ? [folder] : [])];
      const times = await Promise.all(paths.map((path) => fs.stat(path).then((info) => info.mtimeMs, () => 0)));
      if (times.some((time) => Math.abs(Date.now() - time) < SETTLING_MS)) return null;
      return times.join('/');
    },
    put: async (order) => {
      const checked = checkOrder(order);
      const fs = await nodeFs();
      await writeFileDurably(`${folder}/${await guestFolderOf(checked.owner)}`, await fileNameOf(checked), JSON.stringify(checked));
      // list() prefers the guest's folder anyway.
      for (const old of await legacyNames(fs, checked)) await fs.rm(`${folder}/${old}`, { force: true }).catch(() => {});
    },
    get: async (key) => {
      const fs = await nodeFs();
      const current = `${await guestFolderOf(key.owner)}/${await fileNameOf(key)}`;
      // Every layout's name at once (the guest's folder wins, then the second layout), as list() prefers them.
      const entries = await Promise.all([current, ...(await legacyNames(fs, key))].map((name) => readEntry(fs, folder, name)));
      for (const entry of entries) {
        const order = entry?.value;
        if (order !== undefined && order.owner === key.owner && order.basketId === key.basketId) return order;
      }
      return null; // absent (or damaged: list() quarantines it)
    },
    remove: async (order) => {
      const fs = await nodeFs();
      await fs.rm(`${folder}/${await guestFolderOf(order.owner)}/${await fileNameOf(order)}`, { force: true });
      for (const old of await legacyNames(fs, order)) await fs.rm(`${folder}/${old}`, { force: true });
    },
    listBilled,
    /** Writes `record` durably beside its guest's orders (replacing the record of the same basket). */
    putBilled: async (record) => {
      const checked = checkBilled(record);
      const fs = await nodeFs();
      const guest = await guestFolderOf(checked.owner);
      const name = await billedNameOf(checked);
      await writeFileDurably(`${folder}/${guest}`, name, JSON.stringify(checked));
      for (const other of await billedNames(fs, guest, await billedStemOf(checked))) if (other !== name) await removed(fs, `${guest}/${other}`);
    },
    removeBilled: async (key) => {
      const fs = await nodeFs();
      const guest = await guestFolderOf(key.owner);
      for (const name of await billedNames(fs, guest, await billedStemOf(key))) await fs.rm(`${folder}/${guest}/${name}`, { force: true });
    },
    damaged: async () => {
      await list(); // quarantines what is damaged now
      const fs = await nodeFs();
      const boxes = (await names(fs, `${folder}/${QUARANTINE}`)) ?? [];
      const found = [...unmovable.values()].map((entry) => ({ ...entry }));
      for (const box of boxes) {
        let note;
        try {
          note = JSON.parse(await fs.readFile(`${folder}/${QUARANTINE}/${box}/${REASON}`, 'utf8'));
        } catch {
          continue; // not one of ours, or a quarantine interrupted before its entry moved
        }
        if (typeof note?.key !== 'string') continue;
        const path = `${folder}/${QUARANTINE}/${box}/${note.key.split('/').at(-1)}`;
        if ((await fs.lstat(path).catch(() => null)) === null) continue; // interrupted before the move
        found.push({ key: note.key, reason: String(note.reason), quarantinedAt: Number(note.quarantinedAt), path });
      }
      return found.sort(byQuarantineTime);
    },
    exclusive: async (fn, { owner, background = false } = {}) => {
      if (owner === undefined || owner === '') return wholeLock.exclusive(fn, { background });
      const name = `${await guestFolderOf(owner)}.lock`;
      if (!guestLocks.has(name)) guestLocks.set(name, directoryLock(`${folder}/${LOCKS}`, { name, staleMs }));
      return guestLocks.get(name).exclusive(fn, { background });
    },
  };
}
