// Two V8 settings, found by profiling `aish -p` (docs/performance.md), set by start.ts before the
// program is loaded. Both are read by V8 when it acts, so setting them at run time takes effect:
// - The young generation stays at its start size (1 MB per semi-space). V8 doubles it, up to 16 MB,
//   each time about its size has survived since the last growth, and the pages stay resident: a
//   100 000-delta reply cost 16 MB of RSS that way. The maximum size cannot be changed once the
//   heap is set up; the growth factor can. Measured: no CPU cost.
// - WebAssembly stays on the baseline compiler unless a function runs very hot. undici parses HTTP
//   with llhttp, compiled to WebAssembly; after the first reply V8 recompiled its parser with
//   TurboFan in the background, about 200 ms of CPU and 27 MB, and the exit waited for it (300 ms
//   after the answer on a busy machine). The baseline code streams the reply no slower.
// V8 checks a code cache against its flags (code-cache.ts): the build sets these before it makes
// the caches of the bundles loaded after them (dist/program.js, dist/vendor.js).

export const V8_FLAGS = ['--semi-space-growth-factor=1', '--wasm-tiering-budget=1000000000'] as const;
