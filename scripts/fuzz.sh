#!/usr/bin/env bash
# Fuzz the .mech parser with libFuzzer (clang, ASan + UBSan).
#   scripts/fuzz.sh [seconds]     default 600
# Builds build-fuzz/fuzz_parse, seeds build-fuzz/corpus from models/, models/loops/ and
# tests/bad/ (plus tests/fuzz/corpus/ if present), then runs for the given time
# with the keyword dictionary tests/fuzz/mech.dict.
# Crashes land in build-fuzz/ as crash-* files; the script exits non-zero then.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
out=build-fuzz
mkdir -p "$out/corpus"

clang -std=c11 -g -O1 -Wall -Wextra -Werror -Iinclude -Icore \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
  tests/fuzz/fuzz_parse.c core/model/*.c core/spatial/spatial.c -lm -o "$out/fuzz_parse"

cp models/*.mech models/loops/*.mech tests/bad/*.mech "$out/corpus/"
if [ -d tests/fuzz/corpus ]; then cp tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true; fi

"$out/fuzz_parse" "$out/corpus" -dict=tests/fuzz/mech.dict -max_total_time="$seconds" -max_len=8192 \
  -artifact_prefix="$out/" -print_final_stats=1
