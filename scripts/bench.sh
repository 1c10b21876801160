#!/usr/bin/env bash
# bench.sh — timing benchmarks.  Builds everything (scripts/build.sh, into
# build/), then runs each benchmark in turn; docs/benchmarks.md explains the
# tables.  Benchmarks are not tests: the figures depend on the machine and on
# whatever else it is running.  A run that completes is appended, with its
# date, CPU and revision, to docs/benchmark-history.md (BENCH_HISTORY names
# another file; BENCH_HISTORY= appends nowhere).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
if [ "$build" = build ]; then
  bash scripts/build.sh >/dev/null
else   # a private native build (BUILD_DIR=...): native tables only; wasm/dist/ stays build/'s
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMECH_WASM=OFF >/dev/null
  cmake --build "$build" -j "$(nproc)"
fi

# Native: generated fwd_dyn vs dense reference vs MuJoCo, every model (loops: no MuJoCo).
if [ ! -x "$build/bench/bench_native" ]; then
  echo "bench: $build/bench/bench_native was not built (is add_subdirectory(bench) in CMakeLists.txt?)" >&2
  exit 1
fi
history=${BENCH_HISTORY-docs/benchmark-history.md}
cpu=$(lscpu | sed -n 's/^Model name: *//p')
started=$(date -u '+%Y-%m-%d %H:%M UTC')

benchmarks() {
  echo "bench: $started, $(nproc) CPUs, $cpu, $(cc --version | head -n1)"
  "$build/bench/bench_native" models/*.mech models/loops/*.mech
  # What actuators cost the generated forward dynamics (the Panda with and without its servos).
  [ ! -x "$build/bench/bench_actuators" ] || "$build/bench/bench_actuators"
  # The constraint solve natively: the Unitree Go2 (imported) standing on the floor, H⁻¹ through the factors vs
  # one dynamics call per row (docs/benchmarks.md "The constraint solve"); skipped without the shared robots.
  robots=${MECH_ROBOTS:-$(for d in ../shared/data/robots ../../shared/data/robots; do [ -d "$d" ] && echo "$d" && break; done)}
  if [ -n "$robots" ] && [ -f "$robots/unitree_go2/scene.xml" ] && [ -x "$build/bench/bench_constraint" ]; then
    go2=$(mktemp -d)
    node scripts/import.mjs "$robots/unitree_go2/scene.xml" > "$go2/go2.mech" 2>/dev/null
    "$build/bench/bench_constraint" "$go2/go2.mech" home 0.27
    rm -rf "$go2"
  fi

  [ "$build" = build ] || return 0

  # WebAssembly (Node): generated module vs runtime engine vs native vs mujoco-js (docs/wasm.md).
  node bench/wasm_bench.mjs

  # The work cap's calibration: ns per unit of sim.stepWork on the large models (docs/architecture.md, "Work per call").
  node bench/work_units.mjs

  # The jit: its generated WebAssembly against the build-time modules, emit time, size, text to a running Sim.
  node bench/jit_wasm.mjs

  # Calls from JavaScript into the generated modules, this tree against another tree's build, interleaved in one
  # Node process (docs/benchmarks.md); skipped with a message unless MECH_OLD_TREE names that tree.
  node bench/js_calls_ab.mjs

  # XPBD, paper section 9.1: residuals and microseconds per substep (docs/xpbd.md).
  "$build/bench/xpbd_results"
  node bench/xpbd_wasm.mjs   # the same scenes in WebAssembly, through the public API
  node bench/contact_scenes_wasm.mjs   # the contact scenes with rods (section 9.5-9.7, Table 2)

  # The tracked vehicles' contact stage by part, the whole step native, and the same step in WebAssembly (docs/contact.md).
  "$build/bench/bench_contact" models/tracks/*.mech
  node bench/contact_wasm.mjs
  # The Go2 standing: the generated engine with the constraint solve in WebAssembly against mujoco-js's mj_step.
  node bench/contact_solve.mjs
  # The HMMWVs driven on their Fiala tires in WebAssembly at their own step (docs/contact.md "Tires").
  node bench/tires_wasm.mjs

  # Cosserat rods, Table 2 timings in WebAssembly under Node beside native (rod_benchmarks timing, which
  # the script runs) and the paper; the full tables: build/bench/rod_benchmarks (docs/rods.md).
  bash scripts/build-rod-wasm.sh >&2   # its build output stays out of the tables
  node bench/rod_wasm.mjs

  # The playground's frame rate with the heaviest model, second by second, headless chromium (docs/playground.md).
  node bench/page_fps.mjs hmmwv_pitman 12
}

# Every table of the run, as printed, goes to the history file too, once the run has completed.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
benchmarks | tee "$out"
if [ -n "$history" ]; then
  rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD -- . ":(exclude)$history" 2>/dev/null || rev="$rev with local changes"
  {
    printf '\n## %s, %s (%s CPUs), %s\n\n' "$started" "$cpu" "$(nproc)" "$rev"
    printf '`%sbash scripts/bench.sh`, load average %s at the end.\n\n' \
      "$([ "$build" = build ] || echo "BUILD_DIR=$build ")" "$(cut -d' ' -f1-3 /proc/loadavg)"
    echo '```'
    cat "$out"
    echo '```'
  } >> "$history"
  echo "bench: appended to $history"
fi
