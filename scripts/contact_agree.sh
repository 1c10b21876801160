#!/usr/bin/env bash
# contact_agree.sh REV — the contact stage of this tree against revision REV's, to round-off
# (docs/contact.md, "Cost"): scripts/contact_agree.c dumps both at the same states of every
# models/tracks/*.mech and prints each quantity's largest relative difference, and then REV's
# against itself with every q moved by one ulp, the floor of any change of evaluation order.
# Needs this tree's build/ (npm run build); builds REV's core in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/contact_agree.sh REV}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$rev" | tar -x -C "$tmp"
cmake -S "$tmp" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DMECH_WASM=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$tmp/build" --target mech_internal -j "$(nproc)" >/dev/null
cmake --build build --target mech_internal >/dev/null
agree() {   # agree SOURCE_TREE LIBRARY OUT
  gcc -O2 -std=c11 -I"$1/include" -I"$1/core" scripts/contact_agree.c "$2" -lm -o "$3"
}
agree "$tmp" "$tmp/build/libmech_internal.a" "$tmp/agree_rev"
agree . build/libmech_internal.a "$tmp/agree_here"
"$tmp/agree_rev" dump "$tmp/rev.bin" models/tracks/*.mech
"$tmp/agree_rev" dump "$tmp/rev_ulp.bin" --ulp models/tracks/*.mech
"$tmp/agree_here" dump "$tmp/here.bin" models/tracks/*.mech
echo "this tree against $rev (largest difference / the state's largest entry):"
"$tmp/agree_here" compare "$tmp/rev.bin" "$tmp/here.bin"
echo "$rev against itself with every q one ulp away:"
"$tmp/agree_here" compare "$tmp/rev.bin" "$tmp/rev_ulp.bin"
