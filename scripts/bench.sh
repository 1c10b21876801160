#!/usr/bin/env bash
# bench.sh — timing benchmarks.  Configures and builds (Release) into build/
# (override with BUILD_DIR=...), then runs each benchmark in turn; the native
# table is explained in docs/benchmarks.md.  Benchmarks are not tests: the
# figures depend on the machine and on whatever else it is running.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)"

# Native: generated fwd_dyn vs dense_fd vs MuJoCo, every model.
if [ ! -x "$build/bench/bench_native" ]; then
  echo "bench: $build/bench/bench_native was not built (is add_subdirectory(bench) in CMakeLists.txt?)" >&2
  exit 1
fi
echo "bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(cc --version | head -n1)"
"$build/bench/bench_native" models/*.mech
