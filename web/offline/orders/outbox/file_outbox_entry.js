// What the file outbox reads and names (Node): an order file's names in the three layouts, a
// guest's folder, a billing record's name, and one entry read without blocking and checked to be
// an order (or a billing record). node:fs and node:crypto are loaded only when used.
import { serverModule } from '../../../engine/server_module.js';
import { orderProblem } from './outbox_entry.js';

/** node:fs/promises, loaded when first used. */
export const nodeFs = () => serverModule('node:fs/promises');
const nodeCrypto = () => serverModule('node:crypto');

/** The end of every order file's name. */
export const ORDER_SUFFIX = '.order.json';
const NAME_MAX = 255;
const GUEST_PREFIX = 'guest-';
// Errors that say nothing about the entry (the process or the machine is short of something):
// list() fails and the next replay tries again, the entry stays where it is.
export const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR', 'ENOMEM']);

const sha256 = async (text) => (await nodeCrypto()).createHash('sha256').update(text).digest('hex');

/** The file name of (owner, basketId): the SHA-256 of JSON [owner, basketId] in hex, 75 bytes. */
export async function fileNameOf(order) {
  return `${await sha256(JSON.stringify([order.owner, order.basketId]))}${ORDER_SUFFIX}`;
}

/**
 * The end of a billing record's name (billed_order.js). Every earlier reader lists only names
 * ending in ORDER_SUFFIX: it neither reads nor moves these.
 */
export const BILLED_SUFFIX = '.billed.json';

/** The first part of the billing record names of (owner, basketId): the SHA-256 as fileNameOf's, and a dot. */
export async function billedStemOf(key) {
  return `${await sha256(JSON.stringify([key.owner, key.basketId]))}.`;
}

/**
 * A billing record's file name: `<SHA-256 of JSON [owner, basketId]>.<expiresAt>.billed.json`, so
 * that an expired one is removed by its name, without reading it.
 */
export async function billedNameOf(record) {
  return `${await billedStemOf(record)}${record.expiresAt}${BILLED_SUFFIX}`;
}

/** When the billing record named `name` expires (epoch ms), or null when it is not such a name. */
export function billedExpiryOf(name) {
  const found = /^[0-9a-f]{64}\.(\d{1,16})\.billed\.json$/.exec(name);
  return found === null ? null : Number(found[1]);
}

/** The folder of a guest's orders (the third layout): "guest-" and the SHA-256 of the owner in hex. */
export async function guestFolderOf(owner) {
  return `${GUEST_PREFIX}${await sha256(owner)}`;
}

/** Whether a name of the outbox's directory is a guest's folder. */
export const isGuestFolder = (name) => name.startsWith(GUEST_PREFIX) && /^[0-9a-f]{64}$/.test(name.slice(GUEST_PREFIX.length));

/** The name the first layout gave (owner, basketId), or null when it is too long to exist. */
export function firstLayoutNameOf(order) {
  const name = `${encodeURIComponent(order.owner)}~${encodeURIComponent(order.basketId)}${ORDER_SUFFIX}`;
  return name.length <= NAME_MAX ? name : null; // ASCII: one byte per character
}

function kindOfEntry(info) {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The entry `name` of `folder`: { value }, { problem } when it cannot be read as an order (as
 * what `problemOf` checks: default an order), or null when it is gone (removed meanwhile, e.g.
 * settled by another process). Opened without blocking (a FIFO named like an order must not hang
 * the replay) and checked to be a file.
 */
export async function readEntry(fs, folder, name, problemOf = orderProblem) {
  const file = `${folder}/${name}`;
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
  let handle;
  try {
    handle = await fs.open(file, flags);
  } catch (e) {
    if (TRANSIENT.has(e.code)) throw e;
    if (e.code === 'ENOENT') {
      const info = await fs.lstat(file).catch(() => null);
      if (info === null) return null;
      return { problem: `unreadable: ${info.isSymbolicLink() ? 'a symbolic link to nothing' : e.message}` };
    }
    return { problem: `unreadable: ${e.message}` };
  }
  let text;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: `unreadable: ${kindOfEntry(info)}` };
    text = await handle.readFile('utf8');
  } catch (e) {
    if (TRANSIENT.has(e.code)) throw e;
    return { problem: `unreadable: ${e.message}` };
  } finally {
    await handle.close().catch(() => {});
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON (truncated or garbled, ${text.length} characters): ${e.message}` };
  }
  const problem = problemOf(value);
  return problem === null ? { value } : { problem };
}
