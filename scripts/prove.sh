#!/usr/bin/env bash
# The proofs of docs/VERIFICATION.md: every hash kind in every variant at the paper's size
# (14 address bits, 32 banks) and at 64 address bits, and RAP, RAS and 3P converters baked and
# loadable, and the D2MA RAW check (2 x 2, the paper's 8 x 4, the largest 32 x 8), generated into
# out/prove/ and proved with `rtl-gen prove` (one line per block, with
# Yosys' wall-clock and CPU seconds). Extra arguments go to `rtl-gen prove` (e.g. --json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# RTL_GEN: a binary to use instead of building the release one.
rtl_gen=${RTL_GEN:-target/release/rtl-gen}
if [ -z "${RTL_GEN:-}" ]; then cargo build --release -p rtl-gen; fi
out=out/prove
rm -rf "$out"
mkdir -p "$out"
gen() { "$rtl_gen" "$@" --out "$out" > /dev/null; }
# A fixed hasher, combinational and pipelined.
fixed() { gen hash "$@"; gen hash "$@" --pipeline; }
for n in 14 64; do
  shape=(--addr-bits "$n" --banks 32)
  fixed --kind modulo "${shape[@]}"
  fixed --kind bitvector-perm "${shape[@]}" --k 3
  fixed --kind bitvector-xor "${shape[@]}" --k1 2 --k2 8 --mask 7
  fixed --kind bitwise-perm "${shape[@]}" --bits 0,3,4,9,13
  fixed --kind bitwise-xor "${shape[@]}" --pairs 0:5,1:6,2:7,3:8,4:9
  fixed --kind xor-matrix "${shape[@]}" --rows 0x1001,0x2002,0x4,0x808,0x10
  for kind in bitvector-perm bitvector-xor bitwise-perm bitwise-xor xor-matrix; do
    gen hash --kind "$kind" "${shape[@]}" --configurable
    gen hash --kind "$kind" "${shape[@]}" --configurable --pipeline
  done
done
gen rap --perm 2,0,3,1
gen rap --w 32 --seed 7
gen rap --w 6 --seed 3 --pipeline
gen rap --w 24 --ras --seed 3
gen rap --w 5 --dims 4 --seed 3
gen rap --perm 2,0,3,1 --loadable
gen rap --w 6 --loadable --pipeline
gen rap --w 8 --loadable --packed
gen rap --w 12 --loadable --packed --pipeline
gen rap --w 32 --loadable
gen rap --w 3 --dims 4 --loadable
gen d2ma raw-check --ctas 2 --buffers 2
gen d2ma raw-check --ctas 8 --buffers 4
gen d2ma raw-check --ctas 32 --buffers 8
exec "$rtl_gen" prove "$out"/* "$@"
