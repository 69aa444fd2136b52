// Prepended to the Emscripten glue (--pre-js, see CMakeLists.txt): compile once, instantiate many.
// createModule({ wasmModule }) instantiates an already compiled WebAssembly.Module (from
// WebAssembly.compileStreaming on the main thread, or posted to a worker) instead of fetching and
// compiling the .wasm again; without it the glue streams the .wasm (instantiateStreaming) or
// compiles the given wasmBinary, as before.
if (Module['wasmModule'] && !Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    var compiled = Module['wasmModule'];
    WebAssembly.instantiate(compiled, imports).then(
      function (instance) {
        receiveInstance(instance, compiled);
      },
      function (reason) {
        readyPromiseReject(reason);
      },
    );
    return {};
  };
}
