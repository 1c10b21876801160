#!/usr/bin/env bash
# test.sh — every test suite: native ctest, then the Node suite, then the browser suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
node --test tests/node/
node --test tests/browser/
