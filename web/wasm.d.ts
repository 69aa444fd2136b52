// Types of the subpath export `loyalty-qualifier/wasm` (the file web/dist/loyalty_qualifier.wasm),
// as a bundler's file loader gives it: the URL of the emitted file, e.g. esbuild's
// `--loader:.wasm=file`. Vite's `loyalty-qualifier/wasm?url` is typed by `vite/client`. Node does
// not import a .wasm file: resolve it with require.resolve or import.meta.resolve instead.

/** The URL (or path relative to the bundle) of the emitted wasm file. */
declare const wasmUrl: string;
export default wasmUrl;
