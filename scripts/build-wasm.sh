#!/usr/bin/env bash
# build-wasm.sh — only the WebAssembly modules, their texts and manifests (wasm/dist/) and the native helpers
# (build/wasm/): the CMake targets of cmake/wasm_host.cmake, with what they need of the native build in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMECH_WASM=ON >/dev/null && cmake --build build -j "$(nproc)" --target wasm
