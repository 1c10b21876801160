#!/usr/bin/env bash
# build-web.sh — the playground as a static site in dist/: relative paths (works from any static host
# or sub-path), with wasm/ (shim, .wasm modules, model manifest and texts) copied beside the page.
# Needs the WebAssembly modules in wasm/dist/ (scripts/build-wasm.sh); the build (cmake/web.cmake) runs it when
# any of its inputs changed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f wasm/dist/models.json ]; then
  echo "build-web: wasm/dist/ is missing — run scripts/build-wasm.sh first" >&2
  exit 1
fi
node node_modules/vite/bin/vite.js build --config web/vite.config.js --logLevel warn
n=$(find dist/wasm -name '*.wasm' | wc -l)
echo "build-web: dist/ written ($n .wasm modules); serve it with any static server, e.g. npx vite preview --config web/vite.config.js"
