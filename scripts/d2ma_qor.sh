#!/usr/bin/env bash
# The D²MA table of docs/QOR.md ("D²MA engine beside the paper's Table 3"): every block at the
# paper's size (8 CTAs x 4 buffers, 128 B segments, 64-bit global addresses), the controller
# array and the engine in each storage style (flip-flop, clock-gated, latch), the AGEN and the
# RAW check, and (BLOCKS=system) the engine with its data path into shared memory in each style
# (`rtl-gen d2ma system`'s engine: 8-word fill beats, 4 MSHRs), each synthesized by `rtl-gen synth` at NanGate45 in the default flow and in the
# timing-driven flow (`--target-ps TARGET`, default 1000 ps: the clock goal's measure), JOBS
# syntheses at a time.
# Every figure is read from the synth.json `rtl-gen synth` writes; nothing is copied by hand.
#
# Prints the Markdown table and writes it to OUT/table.md. Columns: *cells* (library cells),
# *flip-flops* (the report's flip-flop bits), *latches* (the library's latch cells: the table's
# latches and the clock gates' enable latches), *area* (um²), *ABC delay* (ABC's estimate, every
# path including those from input ports, no clock-to-Q, setup or wires) and *ABC fmax* (1e6 /
# that: an upper bound), then OpenSTA's timing of the same netlist at CLOCK ps (synth.json's
# `sta`; the library's default wire-load model unless WIRE_LOAD says otherwise): *slack* (the
# worst, static inputs excluded) and *fmax* (1e6 / the smallest period with no negative slack,
# clock-to-Q and setup included; for the combinational RAW check, its slowest port-to-port
# path), *paper* (Table 3 at 45 nm).
#
# Usage: scripts/d2ma_qor.sh [OUT]          (default out/d2ma_qor; the d2ma_* block folders
#                                            an earlier run left in OUT/default and
#                                            OUT/timing are removed first, only those whose
#                                            manifest says rtl-gen wrote them: any other
#                                            d2ma_* folder there stops the script)
# Environment:
#   JOBS     syntheses at a time (default: the number of CPUs)
#   BLOCKS   which blocks, a space-separated subset of: controller agen raw-check engine system
#            (default: the first four)
#   STORAGE  storage styles of the controller and engine (default: flip-flop clock-gated latch)
#   FLOWS    default and/or timing (default: both)
#   CTAS, BUFFERS, SEGMENT  the size (default 8, 4, 128: the paper's)
#   MAX_IN_FLIGHT  the engine's bound on a buffer's requests in flight (`rtl-gen d2ma engine
#            --max-in-flight`; default unset: 65535, no bound); its engines are named `_out<N>`
#   GLOBAL_BITS  global address bits of the AGEN, the controller array's stored global base
#            and the engine (24 to 64, default 64: the paper's; below 64 the names carry
#            `_g<bits>`)
#   TARGET   the timing-driven flow's delay target in ps (default 1000; ABC relaxes paths up to
#            it, so a target a little under the goal leaves margin for its buffering)
#   CLOCK    OpenSTA's clock period in ps, both flows (default 1000: the goal)
#   WIRE_LOAD  OpenSTA's wires (`rtl-gen synth --wire-load`: library, none or a model; default
#            library)
#   CLOSURE  1: the timing-driven flow with `--closure` (four mappings, the best kept by OpenSTA)
#   TENSOR_SLOTS  the system's tensor slots (`rtl-gen d2ma system --tensor-slots`; default
#            unset: none, the paper's entries only); its folders are named `_t<N>`
#   RTL      the rtl-gen binary (default target/release/rtl-gen)
#   LIB      the liberty file (default ../shared/pdk/nangate45_typ.lib.gz)
#
# A benchmark, not a test: each engine synthesis takes 5 to 25 minutes on a loaded 2-core
# machine. Areas and ABC's delays do not depend on the load.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/d2ma_qor}
JOBS=${JOBS:-$(nproc)}
BLOCKS=${BLOCKS:-controller agen raw-check engine}
STORAGE=${STORAGE:-flip-flop clock-gated latch}
FLOWS=${FLOWS:-default timing}
CTAS=${CTAS:-8}
BUFFERS=${BUFFERS:-4}
SEGMENT=${SEGMENT:-128}
MAX_IN_FLIGHT=${MAX_IN_FLIGHT:-}
TENSOR_SLOTS=${TENSOR_SLOTS:-}
GLOBAL_BITS=${GLOBAL_BITS:-64}
RTL=${RTL:-target/release/rtl-gen}
TARGET=${TARGET:-1000}
CLOCK=${CLOCK:-1000}
WIRE_LOAD=${WIRE_LOAD:-library}
CLOSURE=${CLOSURE:-}
LIB=${LIB:-../shared/pdk/nangate45_typ.lib.gz}
[ -x "$RTL" ] || { echo "error: RTL=$RTL is not an executable rtl-gen (cargo build --release -p rtl-gen)" >&2; exit 2; }
[ -f "$LIB" ] || { echo "error: LIB=$LIB: no such liberty file" >&2; exit 2; }
[[ $TARGET =~ ^[1-9][0-9]*$ ]] || { echo "error: TARGET=$TARGET is not a delay in ps (a positive integer)" >&2; exit 2; }
[[ $CLOCK =~ ^[1-9][0-9]*$ ]] || { echo "error: CLOCK=$CLOCK is not a period in ps (a positive integer)" >&2; exit 2; }
[[ $GLOBAL_BITS =~ ^[0-9]+$ ]] && ((GLOBAL_BITS >= 24 && GLOBAL_BITS <= 64)) ||
  { echo "error: GLOBAL_BITS=$GLOBAL_BITS is not a number of global address bits (24 to 64)" >&2; exit 2; }
for flow in $FLOWS; do
  case $flow in default | timing) ;; *) echo "error: FLOWS: '$flow' is not default or timing" >&2; exit 2 ;; esac
done

size=(--ctas "$CTAS" --buffers "$BUFFERS" --segment-bytes "$SEGMENT" --vectors 1)
bound=()
[ -n "$MAX_IN_FLIGHT" ] && bound=(--max-in-flight "$MAX_IN_FLIGHT")
tensor=()
[ -n "$TENSOR_SLOTS" ] && tensor=(--tensor-slots "$TENSOR_SLOTS")
global=(--global-bits "$GLOBAL_BITS")
jobs_file=$(mktemp)
trap 'rm -f "$jobs_file"' EXIT
for flow in $FLOWS; do
  dir=$OUT/$flow
  mkdir -p "$dir"
  for stale in "$dir"/d2ma_*/; do
    [ -d "$stale" ] || continue
    name=$(basename "$stale")
    grep -q '"generator": "rtl-gen' "$stale/$name.json" 2> /dev/null ||
      { echo "error: $stale has no rtl-gen manifest ($name.json): not removing it; choose another OUT" >&2; exit 2; }
    rm -r "$stale"
  done
  for block in $BLOCKS; do
    case $block in
      controller)
        for s in $STORAGE; do
          "$RTL" d2ma "$block" "${size[@]}" "${global[@]}" --storage "$s" --out "$dir" > /dev/null
        done ;;
      engine)
        for s in $STORAGE; do
          "$RTL" d2ma "$block" "${size[@]}" "${global[@]}" "${bound[@]}" --storage "$s" --out "$dir" > /dev/null
        done ;;
      system)
        for s in $STORAGE; do
          "$RTL" d2ma "$block" --ctas "$CTAS" --buffers "$BUFFERS" --segment-bytes "$SEGMENT" \
            "${global[@]}" "${tensor[@]}" --storage "$s" --out "$dir" > /dev/null
        done ;;
      agen) "$RTL" d2ma "$block" "${size[@]}" "${global[@]}" --out "$dir" > /dev/null ;;
      raw-check) "$RTL" d2ma "$block" "${size[@]}" --out "$dir" > /dev/null ;;
      *) echo "error: BLOCKS: '$block' is not controller, agen, raw-check, engine or system" >&2; exit 2 ;;
    esac
  done
  target=(--clock-ps "$CLOCK" --wire-load "$WIRE_LOAD")
  [ "$flow" = timing ] && target+=(--target-ps "$TARGET")
  [ "$flow" = timing ] && [ -n "$CLOSURE" ] && target+=(--closure)
  for d in "$dir"/d2ma_*/; do
    echo "$RTL synth ${d%/} --liberty $LIB --quiet ${target[*]}" >> "$jobs_file"
  done
done
echo "$(wc -l < "$jobs_file") syntheses, $JOBS at a time, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The largest (systems, engines, then controllers) first, so that they do not finish last alone.
{ grep /d2ma_system "$jobs_file" || true; grep /d2ma_engine "$jobs_file" || true
  grep /d2ma_controller "$jobs_file" || true
  grep -v -e /d2ma_system -e /d2ma_engine -e /d2ma_controller "$jobs_file" || true; } |
  xargs -P "$JOBS" -I{} sh -c '{} > /dev/null && echo "done: {}" >&2'
echo "finished, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$OUT" "$FLOWS" "$CLOCK" > "$OUT/table.md" <<'EOF'
import json, pathlib, sys
out, flows, clock = pathlib.Path(sys.argv[1]), sys.argv[2].split(), sys.argv[3]
# Table 3 of the paper (45 nm, per shader).
paper = {"controller": "45 169.4", "agen": "2 246.6", "raw_check": "1 493.8", "engine": "54 604.3",
         "system": "54 604.3"}
label = {"controller": "controller array", "agen": "AGEN", "raw_check": "RAW check",
         "engine": "engine", "system": "engine with its data path"}
order = ["controller", "agen", "raw_check", "engine", "system"]
styles = {"": "flip-flop", "_cg": "clock-gated", "_lat": "latch"}
def num(x, digits=1):
    return "-" if x is None else f"{x:,.{digits}f}".replace(",", " ")
rows = []
for flow in flows:
    for path in sorted((out / flow).glob("d2ma_*/synth.json")):
        top = path.parent.name
        r = json.loads(path.read_text())["report"]
        block = next(b for b in order if top.startswith(f"d2ma_{b}"))
        storage = "-"
        if block in ("controller", "engine"):
            storage = styles["_" + top.rsplit("_", 1)[1] if top.endswith(("_cg", "_lat")) else ""]
        if block == "system":
            storage = next((v for k, v in styles.items() if k and k + "_" in top), "flip-flop")
        latches = sum(n for c, n in r["cells"].items() if c.startswith(("DLH", "DLL", "TLAT")))
        sta = r["sta"]
        abc_fmax = 1e6 / r["delay_ps"] if r["delay_ps"] else None
        rows.append((order.index(block), list(styles.values()).index(storage) if storage != "-" else 0,
                     flows.index(flow),
                     f"| {label[block]} (`{top}`) | {storage} | {flow} | {num(r['cell_count'], 0)} "
                     f"| {num(r['registers'], 0)} | {num(latches, 0)} | {num(r['area_um2'])} "
                     f"| {num(r['delay_ps'])} | {num(abc_fmax)} | {num(sta['worst_slack_ps'])} "
                     f"| {num(sta['fmax_mhz'])} | {paper[block]} |"))
print("| block | storage | flow | cells | flip-flops | latches | area (um²) | ABC delay (ps) "
      f"| ABC fmax (MHz, upper bound) | OpenSTA slack at {clock} ps | OpenSTA fmax (MHz) "
      "| paper (um²) |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for row in sorted(rows):
    print(row[3])
EOF
cat "$OUT/table.md"
echo "wrote $OUT/table.md" >&2
