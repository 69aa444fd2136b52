// What every snapshot store checks and reads the same way: keys, key prefixes, the sorted key
// list, and the stored entry { snapshot, savedAt, etag? } (savedAt: epoch milliseconds; etag: the
// service's ETag).

/** `key` when it is a non-empty string; a TypeError otherwise. */
export function checkKey(key) {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError('key must be a non-empty string');
  return key;
}

/** `prefix` when it is a string; a TypeError otherwise. */
export function checkPrefix(prefix) {
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  return prefix;
}

/** The keys in the order keys(prefix) lists them. */
export const sortedKeys = (keys) => [...keys].sort();

/** A stored entry, or null when the value is missing or not an entry. */
export function entryOf(value) {
  if (value === null || typeof value !== 'object') return null;
  if (value.snapshot === null || typeof value.snapshot !== 'object') return null;
  if (typeof value.savedAt !== 'number' || !Number.isFinite(value.savedAt)) return null;
  const entry = { snapshot: value.snapshot, savedAt: value.savedAt };
  if (typeof value.etag === 'string') entry.etag = value.etag; // the ETag GET /api/account sent with it
  return entry;
}

/** The entry a JSON text holds, or null when it holds none. */
export function parseEntry(text) {
  if (typeof text !== 'string') return null;
  try {
    return entryOf(JSON.parse(text));
  } catch {
    return null;
  }
}
