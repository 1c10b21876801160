#!/usr/bin/env bash
# lint.sh — the checks that need no build, a few seconds: the C layout (scripts/lint-c.sh, .clang-format), ESLint
# over the JavaScript (eslint.config.js), then wasm/index.mjs against its types wasm/index.d.ts, and those types
# on their own (tests/types/; the first check skips declaration files, since a dependency's own, saxes's, does not
# pass).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/lint-c.sh
node_modules/.bin/eslint --cache --cache-location node_modules/.cache/eslint/ eslint.config.js web wasm tests bench scripts
node_modules/.bin/tsc -p tests/types
node_modules/.bin/tsc -p tests/types/declarations.json
