// The one way the package loads a Node built-in (node:fs, node:crypto, ...): through a variable
// specifier, so that bundlers leave the import alone and browsers never load it. Only code that
// runs on a server calls it.

/** The Node built-in module `name` (e.g. 'node:fs/promises'), imported when first asked for. */
export function serverModule(name) {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name);
}
