#!/usr/bin/env bash
# serve.sh — the playground on the Vite dev server: http://127.0.0.1:5173/ (or the next free port).
# Needs the WebAssembly modules in wasm/dist/ (scripts/build-wasm.sh, run by `npm run build`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f wasm/dist/models.json ]; then
  echo "serve: wasm/dist/ is missing — build the WebAssembly modules first (npm run build)" >&2
  exit 1
fi
exec node node_modules/vite/bin/vite.js --config web/vite.config.js --host 127.0.0.1 --port "${PORT:-5173}" "$@"
