#!/usr/bin/env bash
# The clock of the shared memory (docs/QOR.md, "Shared memory"; docs/BENCHMARKS.md): the
# 32 lanes x 32 banks x 512 words memory with its banks as SRAM macros (`--sram-macro
# sram_512x32`: 32 black boxes, not synthesized; their pins are register boundaries, as ABC
# sees them: a path ends at a macro input, and the read data starts one, like a flip-flop's Q)
# synthesized whole and flattened by `rtl-gen synth --liberty LIB --target-ps TARGET` (the
# timing-driven flow: ABC map -D, buffer, upsize, dnsize), one run per map. ABC's delay is what
# `rtl-gen synth` reports as register-limited (`reg_delay_ps`, ABC's `stime`: clock-to-Q, setup
# and wires are not in it) and its fmax = 1e6 / delay; OpenSTA's columns are its worst slack at
# TARGET ps and the smallest period with no negative slack (clock-to-Q, setup and the library's
# wire-load model in it; macros without a liberty file are black boxes it does not time).
#
# Maps: cfg (the configurable bit-vector XOR, the XOR paper's Fig. 5 hasher k1 = 2, k2 = 8,
# mask = 7, 14 bits, 32 banks, in the configuration register: the issue's case), modulo, xor
# (the fixed XOR, k1 = 0, k2 = 5, mask = 0x1f) and rap (seed 1, baked). The syntheses run one
# after another (each took about 4 min of CPU and 1.5 GB of memory on an idle machine).
#
# Prints a Markdown table; each block's synth.json stays in OUT/<map>/<block>/.
#
# Usage: scripts/smem_fmax.sh [OUT] [MAP...]   (default out/smem_fmax, the map cfg)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen: the debug binary times the
# 74 MB netlist far slower), PDK (liberty folder, default ../shared/pdk), LIB (default
# nangate45_typ), TARGET (ps, default 1000).
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
mkdir -p "$OUT/configs"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 0, "k2": 5, "mask": 31}' \
  > "$OUT/configs/fixed_xor.json"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 7}' \
  > "$OUT/configs/fig5.json"
shape=(--lanes 32 --banks 32 --depth 512 --sram-macro sram_512x32 --vectors 1)
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
  { time "$RTL" synth "$block" --liberty "$PDK/$LIB.lib.gz" --target-ps "$TARGET" --quiet \
      > "$OUT/$map/synth.txt" 2> "$OUT/$map/synth.err"; } 2> "$OUT/$map/time.txt"
  rows+=("$label|$block/synth.json|$OUT/$map/time.txt")
done

python3 - "$TARGET" "${rows[@]}" <<'EOF'
import json, sys
target = sys.argv[1]
print(f"| map | ABC target (ps) | ABC register-to-register delay (ps) | ABC fmax (MHz) | OpenSTA "
      "slack (ps) | OpenSTA fmax (MHz) | OpenSTA critical path (cells) | area (um²) | flip-flops "
      "| wall / CPU (s) |")
print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for row in sys.argv[2:]:
    label, path, times = row.split("|")
    r = json.load(open(path))["report"]
    sta = r["sta"]
    wall, user, system = (float(x) for x in open(times).read().split())
    cp = sta["critical_path"]
    print(f"| {label} | {target} | {r['reg_delay_ps']:.1f} | {r['fmax_mhz']:.0f} | "
          f"{sta['worst_slack_ps']:.1f} | {sta['fmax_mhz']:.0f} | "
          f"`{cp['start']}` -> `{cp['end']}` ({cp['cells']}) | {r['area_um2']:.0f} | "
          f"{r['registers']} | {wall:.0f} / {user + system:.0f} |")
print()
print("OpenSTA's worst path of each group (delay from its launching edge, clock-to-Q included), "
      "per map:")
print()
for row in sys.argv[2:]:
    label, path, _ = row.split("|")
    sta = json.load(open(path))["report"]["sta"]
    groups = ", ".join(f"{p['from']} {p['delay_ps']:.0f} (to `{p['end']}`)"
                       for p in sorted(sta["groups"], key=lambda p: -p["delay_ps"]))
    print(f"- {label}: {groups} (ps)")
EOF
