// mech_now_ms.js — the one function the WebAssembly modules import besides the memory-growth notification:
// core/sim/clock.c's wall clock in ms.  Emscripten links this library so that the symbol becomes the import
// env.mech_now_ms; the modules are standalone (no Emscripten JavaScript), and wasm/module.mjs supplies it from
// performance.now().
mergeInto(LibraryManager.library, { mech_now_ms: function () { return performance.now(); } });
