#!/usr/bin/env bash
# The sustained-throughput benchmark of the shared memory (docs/BENCHMARKS.md): a stream of
# 4096 conflict-free full-warp loads (32 consecutive words each, every word of the memory
# once) replayed through the RTL of the 32 lanes x 32 banks x 512 words memory under
# Verilator, with each map of docs/QOR.md in front of the banks: modulo, the fixed XOR
# (bit-vector XOR k1 = 0, k2 = 5, mask = 0x1f), the configurable bit-vector XOR (its register
# reset to that same configuration: the Fig. 5 configuration, k1 = 2, takes its bank from
# address bits 2..6, so 32 consecutive words are a 4-way conflict under it) and RAP (seed 1).
# The stream is conflict-free under each of these. The RTL decides when
# it takes each access (req_ready_o); the replay counts the cycles from presenting the first
# access to the last response. One access a cycle sustained is `cycles = accesses + latency`.
# Exits non-zero when the RTL's cycles differ from the cycle model's (rtl-gen smem's exit 1).
#
# Usage: scripts/smem_throughput.sh [OUT] [MAP...]  (default out/smem_throughput, every map;
#        MAP is modulo, xor, cfg or rap)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/smem_throughput}
shift || true
maps=("$@")
[ ${#maps[@]} -gt 0 ] || maps=(modulo xor cfg rap)
RTL=${RTL:-target/release/rtl-gen}
mkdir -p "$OUT/cfg"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 0, "k2": 5, "mask": 31}' \
  > "$OUT/cfg/fixed_xor.json"
awk 'BEGIN { for (i = 0; i < 4096; i++) { printf "ld.linear"; base = (i * 32) % 16384;
             for (t = 0; t < 32; t++) printf " %d", base + t; printf "\n" } }' \
  > "$OUT/linear.trace"
shape=(--lanes 32 --banks 32 --depth 512 --vectors 1 --json --replay "$OUT/linear.trace")
echo "| map | accesses | RTL cycles | model cycles | accesses per cycle | conflict cycles |"
echo "|---|---:|---:|---:|---:|---:|"
for map in "${maps[@]}"; do
  case $map in
    modulo) args=(--map modulo) ;;
    xor) args=(--map hash --hash-config "$OUT/cfg/fixed_xor.json") ;;
    cfg) args=(--map hash --hash-config "$OUT/cfg/fixed_xor.json" --configurable) ;;
    rap) args=(--map rap --rap-seed 1) ;;
    *) echo "smem_throughput.sh: map '$map' is not one of modulo, xor, cfg, rap" >&2; exit 2 ;;
  esac
  "$RTL" smem "${shape[@]}" "${args[@]}" --out "$OUT/maps/$map" > "$OUT/$map.json"
  python3 - "$OUT/$map.json" "$map" <<'EOF'
import json, sys
row = json.load(open(sys.argv[1]))["replay"][0]
print(f"| {sys.argv[2]} | {row['accesses']} | {row['rtl_cycles']} | {row['model_cycles']} | "
      f"{row['accesses'] / row['rtl_cycles']:.4f} | {row['rtl_conflict_cycles']} |")
EOF
done
