#!/usr/bin/env bash
# test.sh — every test suite: lint and types (they need no build), native ctest, then the Node suite, then the
# browser suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/lint.sh
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
# --single-threaded: V8 runs its background tasks (WebAssembly tier-up, concurrent GC) on the main thread. Without
# it a test process that compiled many modules can hang as it exits, its main thread waiting in
# NodePlatform::DrainTasks for worker tasks that are done (Node.js bug "Deadlock at process shutdown",
# nodejs/node#54918; Node 20): seen in 1 of 2 to 1 of 22 runs of jit-wasm.test.mjs, none in 30 with the flag.
node --single-threaded --test tests/node/
node --test tests/browser/
