#!/usr/bin/env bash
# The clock of the shared memory (docs/QOR.md, "Shared memory"; docs/BENCHMARKS.md): the
# 32 lanes x 32 banks x 512 words memory with its banks SRAM macros, synthesized whole and
# flattened by `rtl-gen synth --liberty LIB --target-ps TARGET --clock-ps CLOCK` (the
# timing-driven flow: ABC map -D, buffer, upsize, dnsize), one run per map.
#
# The banks: MACRO, by default the ready-made OpenRAM FreePDK45 macro
# `$PDK/openram/sram_512x32_fp45_TT_1p0V_25C.lib` (`rtl-gen smem --sram-macro`): its area counts
# (32 x 29 114.3 um²) and OpenSTA times its pins from its liberty file (the read data launched
# by the falling clock edge, 323 ps after it) and checks its minimum period and pulse width
# (1.2 ns, 0.6 ns); MACRO=sram_512x32 gives the black boxes of before (no area, no timing).
#
# Columns: ABC's register-limited delay (`reg_delay_ps`, ABC's `stime`: clock-to-Q, setup and
# wires are not in it) and its fmax = 1e6 / delay; OpenSTA's worst slack at CLOCK ps (the
# library's default wire-load model, clock-to-Q and setup included; the macros' own clock-pin
# checks not in it), its smallest period with no negative slack and the fmax it gives (those
# checks in it), its critical path; the area (logic, and with the macros); flip-flops; time.
#
# Maps: cfg (the configurable bit-vector XOR, the XOR paper's Fig. 5 hasher k1 = 2, k2 = 8,
# mask = 7, 14 bits, 32 banks, in the configuration register: the issue's case), modulo, xor
# (the fixed XOR, k1 = 0, k2 = 5, mask = 0x1f) and rap (seed 1, baked). The syntheses run one
# after another (each about 4 min of CPU and 1.5 GB of memory on an idle machine).
#
# Prints a Markdown table; each block's synth.json stays in OUT/<map>/<block>/.
#
# Usage: scripts/smem_fmax.sh [OUT] [MAP...]   (default out/smem_fmax, the map cfg)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen), PDK (default
# ../shared/pdk), LIB (default nangate45_typ), TARGET (ABC's target, ps, default 1000), CLOCK
# (OpenSTA's clock, ps, default TARGET), MACRO (as above).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/smem_fmax}
shift || true
maps=("$@")
[ ${#maps[@]} -gt 0 ] || maps=(cfg)
RTL=${RTL:-target/release/rtl-gen}
PDK=${PDK:-../shared/pdk}
LIB=${LIB:-nangate45_typ}
TARGET=${TARGET:-1000}
CLOCK=${CLOCK:-$TARGET}
MACRO=${MACRO:-$PDK/openram/sram_512x32_fp45_TT_1p0V_25C.lib}
mkdir -p "$OUT/configs"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 0, "k2": 5, "mask": 31}' \
  > "$OUT/configs/fixed_xor.json"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 7}' \
  > "$OUT/configs/fig5.json"
shape=(--lanes 32 --banks 32 --depth 512 --sram-macro "$MACRO" --vectors 1)
rows=()
for map in "${maps[@]}"; do
  case $map in
    cfg) args=(--map hash --hash-config "$OUT/configs/fig5.json" --configurable)
         label="configurable bit-vector XOR (Fig. 5)" ;;
    modulo) args=(--map modulo) label="modulo" ;;
    xor) args=(--map hash --hash-config "$OUT/configs/fixed_xor.json") label="fixed XOR" ;;
    rap) args=(--map rap --rap-seed 1) label="RAP" ;;
    *) echo "smem_fmax.sh: map '$map' is not one of cfg, modulo, xor, rap" >&2; exit 2 ;;
  esac
  "$RTL" smem "${shape[@]}" "${args[@]}" --out "$OUT/$map" > /dev/null
  block=$(find "$OUT/$map" -mindepth 1 -maxdepth 1 -type d -name 'smem_*' | head -1)
  echo "smem_fmax: $map: rtl-gen synth $block --target-ps $TARGET ..." >&2
  TIMEFORMAT='%R %U %S'
  { time "$RTL" synth "$block" --liberty "$PDK/$LIB.lib.gz" --target-ps "$TARGET" \
      --clock-ps "$CLOCK" --quiet \
      > "$OUT/$map/synth.txt" 2> "$OUT/$map/synth.err"; } 2> "$OUT/$map/time.txt"
  rows+=("$label|$block/synth.json|$OUT/$map/time.txt")
done

python3 - "$TARGET" "$CLOCK" "${rows[@]}" <<'EOF'
import json, sys
target, clock = sys.argv[1], sys.argv[2]
def num(x, digits=1):
    return "-" if x is None else f"{x:,.{digits}f}".replace(",", " ")
print(f"| map | ABC target (ps) | ABC register-to-register delay (ps) | ABC fmax (MHz) | OpenSTA "
      f"slack at {clock} ps | OpenSTA smallest period (ps) | OpenSTA fmax (MHz) | OpenSTA "
      "critical path (cells) | logic area (um²) | area with the macros (um²) | flip-flops "
      "| wall / CPU (s) |")
print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|")
for row in sys.argv[3:]:
    label, path, times = row.split("|")
    r = json.load(open(path))["report"]
    sta = r["sta"]
    wall, user, system = (float(x) for x in open(times).read().split())
    cp = sta["critical_path"]
    macros = r.get("macro_area_um2") or 0.0
    print(f"| {label} | {target} | {num(r['reg_delay_ps'])} | {num(r['fmax_mhz'], 0)} | "
          f"{num(sta['worst_slack_ps'])} | {num(sta['min_period_ps'])} | {num(sta['fmax_mhz'], 0)} "
          f"| `{cp['start']}` -> `{cp['end']}` ({cp['cells']}) | {num(r['area_um2'] - macros, 0)} "
          f"| {num(r['area_um2'], 0)} | {r['registers']} | {wall:.0f} / {user + system:.0f} |")
print()
print("OpenSTA's worst path of each group (delay from its launching edge, clock-to-Q included; "
      "slack), and the macros' clock-pin checks, per map:")
print()
for row in sys.argv[3:]:
    label, path, _ = row.split("|")
    sta = json.load(open(path))["report"]["sta"]
    groups = ", ".join(f"{p['from']} {p['delay_ps']:.0f} (slack {p['slack_ps']:.0f}, to "
                       f"`{p['end']}`)"
                       for p in sorted(sta["groups"], key=lambda p: p["slack_ps"]))
    checks = ", ".join(f"{k['check']} needs {k['required_ps']:.0f} ps (slack {k['slack_ps']:.0f})"
                       for k in sta.get("clock_pin_checks", []))
    print(f"- {label}: {groups} (ps); {checks or 'no clock-pin checks'}")
EOF
