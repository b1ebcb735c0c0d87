#!/usr/bin/env bash
# The replay table of docs/SMEM.md: the kernel suite (kernels/*.trace) and a conflict-free
# stream (4096 full-warp loads of consecutive words: the throughput benchmark of
# docs/BENCHMARKS.md) run through the RTL of the 32 lanes x 32 banks x 512 words shared memory
# under Verilator, under modulo, the XOR paper's fixed XOR, the best hasher `rtl-gen search`
# finds for each kernel (programmed into a configurable GF(2)-matrix map before the kernel) and
# RAP (seed 1). Each run exits non-zero if any kernel's RTL cycles differ from the model's.
# Prints two Markdown tables: cycles (RTL and model), and the cycles bank conflicts cost.
#
# Usage: scripts/smem_replay.sh [OUT]        (default out/smem_replay)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/smem_replay}
RTL=${RTL:-target/release/rtl-gen}
mkdir -p "$OUT/cfg"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 0, "k2": 5, "mask": 31}' \
  > "$OUT/cfg/fixed_xor.json"
# The fixed XOR as a GF(2) matrix: the configurable map's reset value.
echo '{"kind": "xor-matrix", "addr_bits": 14, "banks": 32,
       "rows": ["0x21", "0x42", "0x84", "0x108", "0x210"]}' > "$OUT/cfg/fixed_xor_matrix.json"
awk 'BEGIN { for (i = 0; i < 4096; i++) { printf "ld.linear"; base = (i * 32) % 16384;
             for (t = 0; t < 32; t++) printf " %d", base + t; printf "\n" } }' \
  > "$OUT/linear.trace"
traces=(kernels/*.trace "$OUT/linear.trace")
shape=(--lanes 32 --banks 32 --depth 512 --vectors 1 --json --replay "${traces[@]}")
"$RTL" smem "${shape[@]}" --map modulo --out "$OUT/modulo" > "$OUT/modulo.json"
"$RTL" smem "${shape[@]}" --map hash --hash-config "$OUT/cfg/fixed_xor.json" --out "$OUT/xor" \
  > "$OUT/xor.json"
"$RTL" smem "${shape[@]}" --map hash --hash-config "$OUT/cfg/fixed_xor_matrix.json" \
  --configurable --replay-search --out "$OUT/best" > "$OUT/best.json"
"$RTL" smem "${shape[@]}" --map rap --rap-seed 1 --out "$OUT/rap" > "$OUT/rap.json"

python3 - "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
maps = [("modulo", "modulo"), ("xor", "fixed XOR"), ("best", "searched best"), ("rap", "RAP")]
rows = {m: json.load(open(f"{out}/{m}.json"))["replay"] for m, _ in maps}
kernels = [r["kernel"] for r in rows["modulo"]]
def row(m, k):
    return next(r for r in rows[m] if r["kernel"] == k)
head = " | ".join(f"{label} RTL | {label} model" for _, label in maps)
print(f"| kernel | accesses | {head} |")
print("|---|---:|" + "---:|" * (2 * len(maps)))
for k in kernels:
    cells = " | ".join(f"{row(m, k)['rtl_cycles']} | {row(m, k)['model_cycles']}" for m, _ in maps)
    print(f"| {k} | {row('modulo', k)['accesses']} | {cells} |")
print()
head = " | ".join(label for _, label in maps)
print(f"| kernel | {head} |")
print("|---|" + "---:|" * len(maps))
for k in kernels:
    cells = " | ".join(
        f"{row(m, k)['rtl_conflict_cycles']}" if row(m, k)["rtl_conflict_cycles"]
        == row(m, k)["model_conflict_cycles"] else "MISMATCH" for m, _ in maps)
    print(f"| {k} | {cells} |")
total = {m: sum(r["rtl_conflict_cycles"] for r in rows[m] if r["kernel"] != "linear") for m, _ in maps}
print("| all kernels | " + " | ".join(str(total[m]) for m, _ in maps) + " |")
equal = all(r["rtl_cycles"] == r["model_cycles"] and r["rtl_bank_cycles"] == r["model_bank_cycles"]
            and r["rtl_conflict_cycles"] == r["model_conflict_cycles"] for m in rows for r in rows[m])
print(f"\nRTL equals model for every kernel and map: {'yes' if equal else 'NO'}")
EOF
