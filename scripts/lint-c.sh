#!/usr/bin/env bash
# lint-c.sh — fails when a C source or header is not laid out as .clang-format
# writes it.  It checks the C files git tracks, which leaves out the generated
# code (build directories, never committed).
#   bash scripts/lint-c.sh         # check: lists each file that differs, with its first differences
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

bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror --ferror-limit=3 "$f" 2>/dev/null; then
    clang-format --dry-run --ferror-limit=3 "$f" 2>&1 | head -n 12 >&2
    bad=$((bad + 1))
  fi
done
if ((bad)); then
  echo "lint-c: $bad of ${#files[@]} C files are not as .clang-format writes them (bash scripts/lint-c.sh --fix)" >&2
  exit 1
fi
echo "lint-c: ${#files[@]} C files as .clang-format writes them"
