#!/usr/bin/env bash
# The RAP converter table of docs/QOR.md ("RAP address converter") with OpenSTA beside ABC: the
# matrix converter (baked, loadable, loadable-packed) and 3P (baked, loadable) at w = WIDTHS,
# shifts from `--rap-seed 1`, each synthesized by `rtl-gen synth --liberty LIB` in the default
# flow. Every figure is read from the synth.json `rtl-gen synth` writes; nothing is copied by
# hand.
#
# Columns: cells, registers, depth and area as before; *ABC delay* (ABC's `stime`: no wires,
# clock-to-Q or setup); OpenSTA at NanGate45 with the library's default wire-load model: the
# *worst path* from the converter's inputs (the address path, `row_i`, for a loadable one whose
# table is written between kernels; the table's write port and registers are other groups) and
# the *smallest period* with clock-to-Q and setup (the loadable converters are clocked: their
# table; the baked ones are combinational, timed on a virtual clock: the slowest input to output
# path).
#
# Usage: scripts/rap_qor.sh [OUT]          (default out/rap_qor; its rap* block folders are
#                                          remade)
# Environment: RTL (the rtl-gen binary, default target/release/rtl-gen), LIB (default
# ../shared/pdk/nangate45_typ.lib.gz), WIDTHS (default "16 32 64 128 256 512 1024"), JOBS
# (syntheses at a time, default the number of CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/rap_qor}
RTL=${RTL:-target/release/rtl-gen}
LIB=${LIB:-../shared/pdk/nangate45_typ.lib.gz}
WIDTHS=${WIDTHS:-16 32 64 128 256 512 1024}
JOBS=${JOBS:-$(nproc)}
[ -x "$RTL" ] || { echo "error: RTL=$RTL is not an executable rtl-gen (cargo build --release -p rtl-gen)" >&2; exit 2; }
[ -f "$LIB" ] || { echo "error: LIB=$LIB: no such liberty file" >&2; exit 2; }
mkdir -p "$OUT"
for stale in "$OUT"/rap*/ "$OUT"/ras*/; do
  [ -d "$stale" ] || continue
  name=$(basename "$stale")
  grep -q '"generator": "rtl-gen' "$stale/$name.json" 2> /dev/null ||
    { echo "error: $stale has no rtl-gen manifest ($name.json): not removing it; choose another OUT" >&2; exit 2; }
  rm -r "$stale"
done
for w in $WIDTHS; do
  g=(--banks "$w" --rap-seed 1 --vectors 16 --out "$OUT")
  "$RTL" rap "${g[@]}" > /dev/null
  "$RTL" rap "${g[@]}" --configurable > /dev/null
  "$RTL" rap "${g[@]}" --configurable --packed > /dev/null
  "$RTL" rap "${g[@]}" --kind 3p > /dev/null
  "$RTL" rap "${g[@]}" --kind 3p --configurable > /dev/null
done
echo "rap_qor: $(ls -d "$OUT"/*/ | wc -l) syntheses, $JOBS at a time" >&2
ls -d "$OUT"/*/ | xargs -P "$JOBS" -I{} sh -c "'$RTL' synth {} --liberty '$LIB' --quiet > /dev/null && echo 'done: {}' >&2"

python3 - "$OUT" > "$OUT/table.md" <<'EOF'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
def num(x, digits=1):
    return "-" if x is None else f"{x:,.{digits}f}".replace(",", " ")
rows = []
for path in out.glob("*/synth.json"):
    j = json.loads(path.read_text())
    r, sta = j["report"], j["report"]["sta"]
    kind = "3P, w^4 array" if j["kind"] == "3p" else "matrix (RAP)"
    w = j["parameters"].get("W") or j["parameters"].get("BANKS")
    inputs = [g for g in sta["groups"] if g["from"] not in ("flip-flops", "rst_ni") and not g.get("false_path")]
    address = next((g for g in inputs if g["from"] == "row_i"), None) or max(
        inputs, key=lambda g: g["delay_ps"], default=None)
    rows.append(((kind, int(w), j["variant"]),
                 f"| {kind} | {w} | {j['variant']} | {num(r['cell_count'], 0)} | {num(r['registers'], 0)} "
                 f"| {r['depth_gates']} | {num(r['area_um2'])} | {num(r['delay_ps'], 0)} "
                 f"| {num(address['delay_ps'] if address else None, 0)} | {num(sta['min_period_ps'], 0)} |"))
print("| converter | w | variant | cells | registers | depth (gates) | area (um², NanGate45) "
      "| ABC delay (ps) | OpenSTA address path, wire-load model (ps) | OpenSTA smallest period, "
      "clock-to-Q and setup (ps) |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for _, row in sorted(rows):
    print(row)
EOF
cat "$OUT/table.md"
echo "wrote $OUT/table.md" >&2
