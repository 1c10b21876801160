#!/usr/bin/env bash
# build.sh — native build (core, generator, generated models, CLI, tests) into build/,
# then the WebAssembly modules and the static playground in dist/.  Incremental: unchanged inputs are not rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
bash scripts/build-wasm.sh
bash scripts/build-web.sh
