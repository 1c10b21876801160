#!/usr/bin/env bash
# build.sh — everything, through CMake: the native build (core, generator, generated models, CLI, tests, helpers)
# in build/, which also configures and builds the WebAssembly tree in build/wasm (modules, texts and manifests into
# wasm/dist/) and then the static playground in dist/ (cmake/wasm_host.cmake, cmake/web.cmake).  Incremental:
# CMake rebuilds only what is stale, and nothing when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMECH_WASM=ON >/dev/null
cmake --build build -j "$(nproc)"
