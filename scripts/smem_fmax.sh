#!/usr/bin/env bash
# The clock of the shared memory (docs/QOR.md, "Shared memory"; docs/BENCHMARKS.md): the
# 32 lanes x 32 banks x 512 words memory with its banks as SRAM macros (`--sram-macro
# sram_512x32`: 32 black boxes, not synthesized; their pins are register boundaries, as ABC
# sees them: a path ends at a macro input, and the read data starts one, like a flip-flop's Q)
# synthesized whole and flattened by `rtl-gen synth --liberty LIB --target-ps TARGET` (the
# timing-driven flow: ABC map -D, buffer, upsize, dnsize), one run per map. The delay is what
# `rtl-gen synth` reports as register-limited (`reg_delay_ps`): the slowest path between
# flip-flops, macro pins and ports, with every start point at 0 and every flip-flop input's
# load counted (clock-to-Q, setup and wires are not in it), and fmax = 1e6 / delay.
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
import json, os, sys
target = sys.argv[1]

def namer(synth_json):
    """Names a flip-flop pin (`<cell>.D`) by the register it belongs to, a visible net on its Q
    (Yosys' cell names are anonymous); other points (ports, macro pins) keep their names."""
    top = json.load(open(synth_json))["top"]
    netlist = os.path.join(os.path.dirname(synth_json), "synth", "netlist.json")
    module = json.load(open(netlist))["modules"][top]
    names = {}
    for name, net in module["netnames"].items():
        if not net.get("hide_name"):
            for i, bit in enumerate(net["bits"]):
                names.setdefault(bit, f"{name}[{i}]" if len(net["bits"]) > 1 else name)
    def name(point):
        cell, _, pin = point.rpartition(".")
        c = module["cells"].get(cell)
        if c is None or "Q" not in c["connections"]:
            return point
        return f"{names.get(c['connections']['Q'][0], cell)}.{pin}"
    return name
print(f"| map | ABC target (ps) | register-to-register delay (ps) | fmax (MHz) | critical path "
      "(cells) | area (um²) | flip-flops | wall / CPU (s) |")
print("|---|---:|---:|---:|---|---:|---:|---:|")
for row in sys.argv[2:]:
    label, path, times = row.split("|")
    r = json.load(open(path))["report"]
    wall, user, system = (float(x) for x in open(times).read().split())
    cp = r["critical_path"]
    name = namer(path)
    print(f"| {label} | {target} | {r['reg_delay_ps']:.1f} | {r['fmax_mhz']:.0f} | "
          f"`{name(cp['from'])}` -> `{name(cp['to'])}` ({cp['cells']}) | {r['area_um2']:.0f} | "
          f"{r['registers']} | {wall:.0f} / {user + system:.0f} |")
print()
print("Slowest path of each group (start points at 0), per map:")
print()
for row in sys.argv[2:]:
    label, path, _ = row.split("|")
    r = json.load(open(path))["report"]
    name = namer(path)
    groups = ", ".join(f"{p['from']} {p['delay_ps']:.0f} (to `{name(p['end'])}`)"
                       for p in sorted(r["paths"], key=lambda p: -p["delay_ps"]))
    print(f"- {label}: {groups} (ps)")
EOF
