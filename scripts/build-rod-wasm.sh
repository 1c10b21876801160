#!/usr/bin/env bash
# build-rod-wasm.sh — build/wasm/rod_bench.wasm, the Table 2 rods (bench/rod_scenes.c, tests/fixtures/rod_fixtures.c, bench/rod_wasm.c) for
# bench/rod_wasm.mjs: the WebAssembly tree's target rod_bench (cmake/wasm_modules.cmake), not part of `npm test`.
# Called by scripts/bench.sh after scripts/build.sh, which configures that tree.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/wasm/CMakeCache.txt ] || { echo "build-rod-wasm: build/wasm is not configured (run scripts/build.sh)" >&2; exit 1; }
cmake --build build/wasm -j "$(nproc)" --target rod_bench
