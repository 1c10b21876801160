#!/usr/bin/env bash
# build-wasm.sh — the WebAssembly modules, their manifest and the native
# reference helper (docs/wasm.md).
#
#   build/wasm/runtime.wasm       parser + ABA and XPBD: runs any .mech text
#   build/wasm/<model>.wasm       one per models/*.mech: its generated dynamics
#   build/wasm/mech-wasm-ref      native helper for the Node suite and bench
#   build/wasm/mech-mjcf          .mech -> MJCF for the bench (when MuJoCo is installed)
#   wasm/dist/                    what wasm/index.mjs loads: the modules,
#                                 models.json and models/<model>.mech (also
#                                 models/loops/*.mech, which run on the runtime)
#
# The generated C comes from the native CMake build (target mech_generated);
# MECH_NATIVE_BUILD names its directory (default: build).  A module is rebuilt
# only when a hash of everything it is made from (sources, headers, flags,
# compiler version) changes.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
native=${MECH_NATIVE_BUILD:-$root/build}
out=$root/build/wasm
dist=$root/wasm/dist
jobs=$(nproc 2>/dev/null || echo 2)

command -v emcc >/dev/null || { echo "build-wasm: emcc not found (run scripts/setup.sh)" >&2; exit 1; }

# ---- native: the generated sources and the libraries the helper links ----
[ -f "$native/CMakeCache.txt" ] || cmake -S "$root" -B "$native" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$native" -j "$jobs" --target mech_core mech_generated >/dev/null
generated=$native/generated

mkdir -p "$out/src" "$dist/models"

CFLAGS=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$root/core" -I"$root/core/codegen" -I"$root/wasm" -I"$generated")
# Added for the per-model modules' own sources (the generated dynamics,
# model.c, describe.c; not the shared archive): wasm SIMD, so that
# mech_sincos2 (core/codegen/mech_sincos.h) evaluates its two angles with
# f64x2 operations as it does with SSE2 natively.  Measured (docs/wasm.md,
# "Benchmark"): up to 8% faster (bintree, satellite, threelink, fourlink),
# the rest within noise; -O3 and -mnontrapping-fptoint gain nothing.  Node >= 20 and current browsers run
# wasm SIMD; results are bit-identical (no FMA, no reassociation).  No SLP
# vectorizer: it turned the unrolled range checks of model.c's mw_forward into
# i64x2 code that V8 spills (and zeroes the spill slots of) on every call,
# 1.5 ns of threelink's forward(); the generated code's vectors are explicit.
GEN_CFLAGS=(-msimd128 -fno-slp-vectorize)
# 1 MiB of stack and 2 MiB to start: a module holds one model's state; memory
# grows on demand and index.mjs refreshes its views when it does.
LDFLAGS=(-sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1 -sTOTAL_STACK=1MB -sINITIAL_MEMORY=2MB
         -sEXPORTED_FUNCTIONS=_malloc,_free)
mapfile -t core < <(ls "$root"/core/{model,spatial,rbda,sim,xpbd}/*.c)
mapfile -t headers < <(ls "$root"/include/mech/*.h "$root"/core/*/*.h "$root"/wasm/*.h)
toolchain=$(emcc --version | sed -n 1p)   # sed reads it all: no SIGPIPE under pipefail

# stale OUTPUT INPUT...: true when OUTPUT must be rebuilt; sets $hash, the
# hash of the inputs, the headers and the flags, to be stored in OUTPUT.hash.
stale() {
    local output=$1
    shift
    hash=$( { echo "$toolchain ${CFLAGS[*]} ${LDFLAGS[*]} ${GEN_CFLAGS[*]}"; cat "$@" "${headers[@]}"; } | sha256sum | cut -c1-64)
    [ -f "$output" ] && [ "$(cat "$output.hash" 2>/dev/null)" = "$hash" ] && return 1
    return 0
}

# ---- the shared core, compiled once into an archive every module links ----
# (the linker takes from it only what a module uses; describe.c, which no
# other file calls, is compiled into each module instead)
shared=("${core[@]}" "$root/wasm/sim.c" "$root/wasm/bench.c")
lib=$out/libmech_wasm.a
if stale "$lib" "${shared[@]}"; then
    rm -rf "$out/obj" && mkdir -p "$out/obj"
    # obj/<path with / as _>.o, compiled $jobs at a time
    printf '%s\n' "${shared[@]}" | OBJ=$out/obj ROOT=$root xargs -P "$jobs" -I{} sh -c \
        'f=$1; shift; o=$(printf %s "${f#"$ROOT"/}" | tr / _); emcc "$@" -c "$f" -o "$OBJ/${o%.c}.o"' \
        sh {} "${CFLAGS[@]}"
    rm -f "$lib" && emar rcs "$lib" "$out"/obj/*.o
    echo "$hash" >"$lib.hash"
    echo "built $(basename "$lib")"
fi

# module OUTPUT EXTRA_CFLAGS GENERATED -- SOURCES...: one module from SOURCES and
# the archive (GENERATED: the generated files it includes or "", hashed with the rest).
module() {
    local output=$1 extra=$2 header=$3
    shift 4
    if stale "$output" "$@" "$lib" $header; then
        # shellcheck disable=SC2086  # extra holds whole -D words
        emcc "${CFLAGS[@]}" $extra "${LDFLAGS[@]}" "$@" "$lib" -o "$output"
        echo "$hash" >"$output.hash"
        echo "built $(basename "$output")"
    fi
}

# ---- the modules, built in parallel ----
pids=()
module "$out/runtime.wasm" "" "" -- "$root/wasm/runtime.c" "$root/wasm/describe.c" \
    "$root/wasm/observe.c" "$root/wasm/xpbd.c" &
pids+=($!)
# Every shipped model: models/*.mech (trees) and models/loops/*.mech (closed
# loops and force elements), one stem each.
shipped=("$root"/models/*.mech "$root"/models/loops/*.mech)
models=()
for mech in "${shipped[@]}"; do
    stem=$(basename "$mech" .mech)
    for other in "${models[@]}"; do
        [ "$other" = "$stem" ] && { echo "build-wasm: two models named $stem" >&2; exit 1; }
    done
    models+=("$stem")
    symbol=$(printf 'mechgen_%s' "$stem" | tr -c 'A-Za-z0-9_' '_')   # as core/codegen/CMakeLists.txt
    text=$out/src/${stem}_text.c
    {
        echo "/* ${stem}_text.c — ${mech#"$root"/} as bytes, written by scripts/build-wasm.sh. */"
        echo '#include <stddef.h>'
        echo "const unsigned char mw_model_text[] = {"
        od -An -v -tu1 "$mech" | tr -s ' \n' '\n\n' | grep -v '^$' | paste -sd, -
        echo "};"
        echo "const size_t mw_model_text_len = sizeof mw_model_text;"
    } >"$text.tmp"
    cmp -s "$text.tmp" "$text" && rm "$text.tmp" || mv "$text.tmp" "$text"
    module "$out/$stem.wasm" "-DMW_GEN=$symbol -DMW_GEN_SOURCE=\"$stem.c\" ${GEN_CFLAGS[*]}" \
        "$generated/$stem.h $generated/$stem.c" -- \
        "$root/wasm/model.c" "$root/wasm/describe.c" "$root/wasm/observe.c" "$text" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
for pid in "${pids[@]}"; do wait "$pid"; done

# ---- the native helper (and the MJCF writer when MuJoCo is there) ----
helper_src=("$root/wasm/native_ref.c" "$root/wasm/bench.c")
helper_libs=("$native/core/codegen/libmech_generated.a" "$native/libmech_core.a")
if stale "$out/mech-wasm-ref" "${helper_src[@]}" "${helper_libs[@]}"; then
    cc "${CFLAGS[@]}" "${helper_src[@]}" "${helper_libs[@]}" -lm -o "$out/mech-wasm-ref"
    echo "$hash" >"$out/mech-wasm-ref.hash"
    echo "built mech-wasm-ref"
fi
mjcf_src=("$root/bench/mjcf_text.c" "$root/tests/mjcf.c")
if [ -f "$root/tests/mjcf.c" ] && [ -f /usr/include/mujoco/mujoco.h ] &&
    stale "$out/mech-mjcf" "${mjcf_src[@]}" "$native/libmech_core.a"; then
    cc "${CFLAGS[@]}" -I"$root/tests" "${mjcf_src[@]}" "$native/libmech_core.a" -lmujoco -lm -o "$out/mech-mjcf"
    echo "$hash" >"$out/mech-mjcf.hash"
    echo "built mech-mjcf"
fi

# ---- wasm/dist: exactly the current modules, texts and manifest ----
rm -f "$dist"/*.wasm "$dist"/models/*.mech
cp "$out/runtime.wasm" "$dist/"
for mech in "${shipped[@]}"; do
    cp "$out/$(basename "$mech" .mech).wasm" "$dist/"
    cp "$mech" "$dist/models/"
done
"$out/mech-wasm-ref" info "${shipped[@]}" >"$dist/models.json"
echo "build-wasm: ${#models[@]} model modules + runtime in wasm/dist/"
