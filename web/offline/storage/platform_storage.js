// Which storage this runtime offers, for the default snapshot store and the default order
// outbox: IndexedDB (browsers and workers), localStorage, or, on Node, a folder of the user's
// (XDG) directories; memory when there is none. No Node module is loaded here.

/** True in Node (not in a browser, even one with a `process` shim). */
export function isNode() {
  return typeof globalThis.process?.versions?.node === 'string';
}

/** True when an IDBFactory is there (browsers and workers; fake-indexeddb in tests). */
export function hasIndexedDb() {
  return Boolean(globalThis.indexedDB) && typeof globalThis.indexedDB.open === 'function';
}

// The user's base folders on Node: the XDG variable, else its default under HOME, else
// %LOCALAPPDATA% (Windows).
const USER_FOLDERS = {
  cache: { variable: 'XDG_CACHE_HOME', underHome: '.cache' },
  state: { variable: 'XDG_STATE_HOME', underHome: '.local/state' },
};

/**
 * On Node, `subfolder` under the user's `kind` folder ('cache': $XDG_CACHE_HOME or ~/.cache;
 * 'state': $XDG_STATE_HOME or ~/.local/state; else %LOCALAPPDATA%); null elsewhere or without one.
 */
export function nodeUserFolder(kind, subfolder) {
  if (!isNode()) return null;
  const { variable, underHome } = USER_FOLDERS[kind];
  const env = globalThis.process?.env ?? {};
  const base = env[variable] || (env.HOME ? `${env.HOME}/${underHome}` : null) || env.LOCALAPPDATA || null;
  return base === null ? null : `${base}/${subfolder}`;
}

/**
 * The platform's default storage, made by the caller's factories: indexedDb() when IndexedDB is
 * there, else localStorage() when that factory is given and localStorage answers (it can throw on
 * access: opaque origins, blocked storage), else files(folder) with `directory` or the Node
 * `userFolder` ({ kind, subfolder }, see nodeUserFolder), else memory().
 */
export function platformStorage({ directory, userFolder, indexedDb, localStorage, files, memory }) {
  if (hasIndexedDb()) return indexedDb();
  if (localStorage) {
    try {
      if (globalThis.localStorage && typeof globalThis.localStorage.getItem === 'function') return localStorage();
    } catch {
      // Not usable here: try the next one.
    }
  }
  const folder = directory ?? nodeUserFolder(userFolder.kind, userFolder.subfolder);
  return folder ? files(folder) : memory();
}
