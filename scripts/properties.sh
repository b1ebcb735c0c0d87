#!/usr/bin/env bash
# The property proofs of docs/VERIFICATION.md at the sizes users build: shared memories of
# 8 x 8 and 32 x 32 (the paper's size; modulo and RAP maps), generated into out/properties/
# and proved with `rtl-gen prove --properties` (one line per property, with the engine, its
# depth and the wall-clock and CPU seconds). Extra arguments go to `rtl-gen prove` (e.g.
# --json, --stall 4, --property fill-wait).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# RTL_GEN: a binary to use instead of building the release one.
rtl_gen=${RTL_GEN:-target/release/rtl-gen}
if [ -z "${RTL_GEN:-}" ]; then cargo build --release -p rtl-gen; fi
out=out/properties
rm -rf "$out"
mkdir -p "$out"
gen() { "$rtl_gen" smem "$@" --out "$out" > /dev/null; }
gen --lanes 8 --banks 8 --depth 16
gen --lanes 32 --banks 32 --depth 512
gen --lanes 32 --banks 32 --depth 512 --map rap
exec "$rtl_gen" prove --properties --jobs 1 "$out"/* "$@"
