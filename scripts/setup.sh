#!/usr/bin/env bash
# setup.sh — the one place that installs what the build and the tests need.
# Idempotent: installs only what is missing, so a second run takes a second.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have() { command -v "$1" >/dev/null 2>&1; }
have cmake || missing+=(cmake)
have gcc || missing+=(gcc)
have make || missing+=(make)
have clang || missing+=(clang)                       # libFuzzer target (scripts/fuzz.sh)
have clang-format || missing+=(clang-format)         # C layout check (scripts/lint-c.sh)
have pkg-config || missing+=(pkgconf)                # the installed library's test (tests/node/package.test.mjs)
have emcc || missing+=(emscripten)                   # WebAssembly modules
[ -f /usr/include/mujoco/mujoco.h ] || missing+=(libmujoco-dev)   # external cross-check, tests/bench only
[ -x /usr/bin/chromium ] || missing+=(chromium)                    # browser test suite

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci whenever package-lock.json changed since the last install.
stamp=node_modules/.setup-stamp
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  mkdir -p node_modules
  echo "$lock_hash" > "$stamp"
fi
