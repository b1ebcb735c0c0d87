#!/usr/bin/env bash
# The placed-and-routed tables of docs/QOR.md ("Placed and routed: qflow and ECP5"): blocks
# generated at the sizes below, each placed and routed by `rtl-gen synth --flow qflow` (OSU
# 0.18 um) and `rtl-gen synth --flow ecp5` (LFE5U, nextpnr seeds 1 to SEEDS), one run at a time
# under nice (graywolf and nextpnr each use one core).
# Every figure is read from the pnr_<flow>.json `rtl-gen synth --flow` writes.
#
# Blocks (BLOCKS, a space-separated subset; default: hash rap d2ma):
#   hash  every configurable hasher, pipelined (`rtl-gen hash --configurable --pipeline`), 14 bits,
#         32 banks: the kinds of the ECP5 goal (200 MHz)
#   rap   the RAP converter, 32 banks, baked and loadable
#   d2ma  the D²MA AGEN and RAW check at the paper's size (8 CTAs x 4 buffers, 128 B segments)
#   smem  the 16 lanes x 16 banks x 512 words shared memory under modulo, the fixed XOR and the
#         configurable bit-vector XOR (ECP5 only, on the 85k part: 26 000 LUTs; qflow cannot
#         place it in useful time, see docs/QOR.md): the map's cost in routed Fmax
#
# Prints one Markdown table per flow and writes them to OUT/table.md. Columns, qflow: cells and
# cell area (um², the wrapper's flip-flops included, their share in brackets), routed wirelength
# (um), routing success, vesta's post-route register-to-register path (ps) and the maximum clock
# (MHz). ECP5: LUT4s, the block's flip-flops, DP16KD block RAMs, the routed Fmax (MHz) min /
# median / max over the seeds, and each seed's.
#
# Usage: scripts/pnr_qor.sh [OUT]              (default out/pnr_qor)
# Environment:
#   BLOCKS  which blocks (above); FLOWS  qflow and/or ecp5 (default both); SEEDS  nextpnr seeds
#   (default 5); DEVICE  the ECP5 part of every block but the memories (default 25k); RTL  the
#   rtl-gen binary (default target/release/rtl-gen)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/pnr_qor}
BLOCKS=${BLOCKS:-hash rap d2ma}
FLOWS=${FLOWS:-qflow ecp5}
SEEDS=${SEEDS:-5}
DEVICE=${DEVICE:-25k}
RTL=${RTL:-target/release/rtl-gen}
[ -x "$RTL" ] || { echo "error: RTL=$RTL is not an executable rtl-gen (cargo build --release -p rtl-gen)" >&2; exit 2; }
for flow in $FLOWS; do
  case $flow in qflow | ecp5) ;; *) echo "error: FLOWS: '$flow' is not qflow or ecp5" >&2; exit 2 ;; esac
done
mkdir -p "$OUT"
blocks=()
gen() { "$RTL" "$@" --vectors 1 --out "$OUT" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["top"])'; }
for group in $BLOCKS; do
  case $group in
    hash)
      for kind in bitvector-perm bitvector-xor bitwise-perm bitwise-xor xor-matrix; do
        blocks+=("$(gen hash --kind "$kind" --addr-bits 14 --banks 32 --configurable --pipeline)")
      done ;;
    rap)
      blocks+=("$(gen rap --w 32)" "$(gen rap --w 32 --storage loadable)") ;;
    d2ma)
      blocks+=("$(gen d2ma agen)" "$(gen d2ma raw-check)") ;;
    smem)
      echo '{"kind": "bitvector-xor", "addr_bits": 13, "banks": 16, "k1": 0, "k2": 4, "mask": 15}' \
        > "$OUT/xor16.json"
      shape=(--lanes 16 --banks 16 --depth 512)
      blocks+=("$(gen smem "${shape[@]}")" \
        "$(gen smem "${shape[@]}" --map hash --hash-config "$OUT/xor16.json")" \
        "$(gen smem "${shape[@]}" --map hash --hash-config "$OUT/xor16.json" --configurable)") ;;
    *) echo "error: BLOCKS: '$group' is not hash, rap, d2ma or smem" >&2; exit 2 ;;
  esac
done
echo "${#blocks[@]} blocks, flows: $FLOWS; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for top in "${blocks[@]}"; do
  for flow in $FLOWS; do
    extra=()
    if [ "$flow" = ecp5 ]; then
      device=$DEVICE
      [[ $top == smem_* ]] && device=85k
      extra=(--device "$device" --pnr-seeds "$SEEDS" --jobs 1)
    elif [[ $top == smem_* ]]; then
      continue
    fi
    start=$(date +%s)
    nice "$RTL" synth "$OUT/$top" --flow "$flow" "${extra[@]}" --quiet > /dev/null
    echo "done: $top $flow ($(( $(date +%s) - start )) s, load $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
done

python3 - "$OUT" "$FLOWS" "${blocks[@]}" > "$OUT/table.md" <<'EOF'
import json, pathlib, sys
out, flows, blocks = pathlib.Path(sys.argv[1]), sys.argv[2].split(), sys.argv[3:]
def load(top, flow):
    p = out / top / f"pnr_{flow}.json"
    return json.loads(p.read_text())["report"] if p.exists() else None
if "qflow" in flows:
    print("| block | cells | cell area (um², wrapper's) | wirelength (um) | routed | "
          "reg-to-reg after routing (ps) | max clock (MHz) |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for top in blocks:
        r = load(top, "qflow")
        if r is None:
            continue
        routed = "yes" if r["routed"] else f"no ({r['failed_routes']} failed)"
        ps = f"{r['critical_path_ps']:.1f}" if r["critical_path_ps"] else "-"
        mhz = f"{r['max_clock_mhz']:.1f}" if r["max_clock_mhz"] else "-"
        print(f"| `{top}` | {r['cell_count']} | {r['cell_area_um2']:.0f} ({r['wrapper_area_um2']:.0f}) "
              f"| {r['wirelength_um']:.0f} | {routed} | {ps} | {mhz} |")
    print()
if "ecp5" in flows:
    print("| block | part | LUT4 | flip-flops | DP16KD | Fmax min / median / max (MHz) | each seed (MHz) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for top in blocks:
        r = load(top, "ecp5")
        if r is None:
            continue
        for clock, s in r["fmax_mhz"].items():
            seeds = ", ".join(f"{run['fmax_mhz'][clock]:.1f}" for run in r["seeds"])
            print(f"| `{top}` | {r['device']} | {r['luts']} | {r['block_flops']} | {r['block_rams']} "
                  f"| {s['min']:.1f} / {s['median']:.1f} / {s['max']:.1f} | {seeds} |")
EOF
cat "$OUT/table.md"
echo "wrote $OUT/table.md" >&2
