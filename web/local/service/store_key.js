// The store key (docs/hub.md, "The store key"): at least 128 bits of key material, measured by its
// length in the smallest alphabet it is written in (32 hex digits, 22 base64 or base64url
// characters with its `=` padding aside, or 20 visible ASCII characters of any other kind), at
// most 512 characters, no space or control character. The hub checks the same rule itself, with
// the same words (the repository's hub/store_key.cpp); this copy lets a launcher refuse a key
// before any process starts.
import { openSync, closeSync, fstatSync, readSync } from 'node:fs';

/** How an operator makes a key: 32 random hex digits. */
export const MAKE_A_STORE_KEY = 'openssl rand -hex 16';
const MAX_FILE_BYTES = 4096;

function strongEnough(key) {
  if (/^[0-9a-f]*$/i.test(key)) return key.length >= 32;
  const unpadded = key.replace(/={1,2}$/, '');
  if (/^[A-Za-z0-9+/_-]*$/.test(unpadded)) return unpadded.length >= 22;
  return key.length >= 20;
}

/** null when `key` is a strong enough store key, else the problem, naming the key as `name`. */
export function storeKeyProblem(key, name) {
  if (typeof key === 'string' && /^[\x21-\x7e]{1,512}$/.test(key) && strongEnough(key)) return null;
  return `${name} must be a store key of at least 128 bits: 32 hex digits, 22 base64 characters or 20 other visible ASCII characters (at most 512, no spaces); make one with: ${MAKE_A_STORE_KEY}`;
}

/** `key` when it is a strong enough store key; else a TypeError naming it as `name`. */
export function checkStoreKey(key, name) {
  const problem = storeKeyProblem(key, name);
  if (problem !== null) throw new TypeError(problem);
  return key;
}

/**
 * The store key in `file` (`--store-key-file FILE`): its text without trailing white space, so
 * that `openssl rand -hex 16 > FILE` makes one. Returns { key, othersMayRead } (the file is
 * readable by every user of the machine); a TypeError names the file.
 */
export function readStoreKeyFile(file) {
  const name = `--store-key-file ${file}`;
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new TypeError(`${name}: cannot read it (${e.code ?? e.message})`);
  }
  try {
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    const got = readSync(fd, buffer, 0, buffer.length, 0);
    if (got > MAX_FILE_BYTES) throw new TypeError(`${name} is larger than 4 KiB: not a store key file`);
    const key = buffer.subarray(0, got).toString('latin1').replace(/[\r\n \t]+$/, '');
    checkStoreKey(key, `the key in ${name}`);
    return { key, othersMayRead: (fstatSync(fd).mode & 0o004) !== 0 };
  } catch (e) {
    if (e instanceof TypeError) throw e;
    throw new TypeError(`${name}: cannot read it (${e.code ?? e.message})`);
  } finally {
    closeSync(fd);
  }
}
