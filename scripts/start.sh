#!/usr/bin/env bash
# start.sh — the main job.  Until the playground exists: build everything and
# run the default model headless, printing a short summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/cli/mech run models/threelink.mech "$@"
