#!/usr/bin/env bash
# lint-c.sh — fails when a C source or header is not laid out as .clang-format
# writes it.  It checks the C files git tracks, which leaves out the generated
# code (build directories, never committed).
#   bash scripts/lint-c.sh         # check: the first differences of each file that differs
#   bash scripts/lint-c.sh --fix   # rewrite those files in place (clang-format -i)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "lint-c: clang-format is missing (bash scripts/setup.sh installs it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h')

if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi

if out=$(clang-format --dry-run --Werror --ferror-limit=2 "${files[@]}" 2>&1); then
  echo "lint-c: ${#files[@]} C files as .clang-format writes them"
  exit 0
fi
printf '%s\n' "$out" >&2
bad=$(printf '%s\n' "$out" | sed -n 's/^\([^: ]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u | wc -l)
echo "lint-c: $bad of ${#files[@]} C files are not as .clang-format writes them (bash scripts/lint-c.sh --fix)" >&2
exit 1
