#!/usr/bin/env bash
# start.sh — the main job: build everything, then serve the playground.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec bash scripts/serve.sh "$@"
