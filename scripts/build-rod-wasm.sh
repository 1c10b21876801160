#!/usr/bin/env bash
# build-rod-wasm.sh — build/wasm/rod_bench.wasm, the Table 2 rods
# (bench/rod_scenes.c, bench/rod_wasm.c) for bench/rod_wasm.mjs.  Called by
# scripts/bench.sh after scripts/build.sh, whose archive of the core
# (build/wasm/libmech_wasm.a, same flags) it links; not part of `npm test`.
# Rebuilt only when a hash of its sources, the archive and the flags changes.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$root/build/wasm
lib=$out/libmech_wasm.a
output=$out/rod_bench.wasm
[ -f "$lib" ] || { echo "build-rod-wasm: $lib missing (run scripts/build.sh)" >&2; exit 1; }

CFLAGS=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/core" -I"$root/bench")
LDFLAGS=(-sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1 -sTOTAL_STACK=1MB -sINITIAL_MEMORY=2MB)
sources=("$root/bench/rod_wasm.c" "$root/bench/rod_scenes.c")
hash=$( { emcc --version | sed -n 1p; echo "${CFLAGS[*]} ${LDFLAGS[*]}"; cat "${sources[@]}" "$root/bench/rod_scenes.h" "$lib"; } |
        sha256sum | cut -c1-64)
if [ ! -f "$output" ] || [ "$(cat "$output.hash" 2>/dev/null)" != "$hash" ]; then
    emcc "${CFLAGS[@]}" "${LDFLAGS[@]}" "${sources[@]}" "$lib" -o "$output"
    echo "$hash" >"$output.hash"
    echo "built $(basename "$output")"
fi
