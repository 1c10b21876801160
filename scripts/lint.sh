#!/usr/bin/env bash
# lint.sh — the checks that need no build, a few seconds: ESLint over the JavaScript (eslint.config.js).
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/eslint --cache --cache-location node_modules/.cache/eslint/ eslint.config.js web wasm tests bench scripts
