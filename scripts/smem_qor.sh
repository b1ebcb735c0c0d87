#!/usr/bin/env bash
# Area of the shared memory's logic, module by module, and the delay of its stages (docs/QOR.md,
# "Shared memory"): the 32 lanes x 32 banks x 512 words memory with SRAM macros
# (`--sram-macro sram_512x32`, black boxes: the bank arrays are not synthesized and not
# counted), under modulo, the fixed XOR (bit-vector XOR k1 = 0, k2 = 5, mask = 0x1f), the
# configurable bit-vector XOR (the XOR paper's Fig. 5 hasher in the configuration register) and
# RAP (seed 1), at NanGate45 and sky130hd; every synthesis runs in parallel.
#
# Area: Yosys keeps the hierarchy (`synth` without `-flatten`) and maps each module to the
# library with the default liberty flow's ABC script (synth/scripts/liberty.abc), so `stat`
# gives each module's area. The map's cost is its module (with the hasher or converter in it)
# times the lanes, plus the configuration register (the top module's growth over the fixed
# XOR's).
# Stages: each combinational module of the configurable bit-vector XOR's memory (map,
# conflict, grant, bank port) alone, flattened, through the timing-driven flow's ABC script
# (synth/scripts/timing.abc: map -D, buffer, upsize, dnsize) at a 500 ps target, its inputs
# arriving at 0 and its outputs unloaded: ABC's delay and the area.
# Prints two Markdown tables. The clock of the whole memory is `rtl-gen synth --target-ps` on
# the flattened design: scripts/smem_fmax.sh (rtl-gen synth --target-ps, SRAM macros as
# register boundaries).
#
# Usage: scripts/smem_qor.sh [OUT] [LIB...]   (default out/smem_qor, nangate45_typ sky130hd_tt)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen), PDK (the liberty folder,
# default ../shared/pdk).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-out/smem_qor}
shift || true
libs=("$@")
[ ${#libs[@]} -gt 0 ] || libs=(nangate45_typ sky130hd_tt)
RTL=${RTL:-target/release/rtl-gen}
PDK=${PDK:-../shared/pdk}
mkdir -p "$OUT/cfg"
OUT=$(cd "$OUT" && pwd)
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 0, "k2": 5, "mask": 31}' \
  > "$OUT/cfg/fixed_xor.json"
echo '{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 7}' \
  > "$OUT/cfg/fig5.json"
shape=(--lanes 32 --banks 32 --depth 512 --sram-macro sram_512x32 --vectors 1)
gen() { "$RTL" smem "${shape[@]}" "$@" --out "$OUT/rtl" > /dev/null; }
gen --map modulo
gen --map hash --hash-config "$OUT/cfg/fixed_xor.json"
gen --map hash --hash-config "$OUT/cfg/fig5.json" --configurable
gen --map rap --rap-seed 1
tops=(smem_l32_b32_d512_macro smem_l32_b32_d512_bvxor_macro smem_l32_b32_d512_bvxor_cfg_macro
      smem_l32_b32_d512_rap_macro)
cfg_top=smem_l32_b32_d512_bvxor_cfg_macro
stages=(map conflict grant bank_port)

# Runs Yosys on the script `$1/synth.ys` in folder $1, in the background.
yosys_in() { (cd "$1" && nice yosys -q -l synth.log -s synth.ys) & }

for lib in "${libs[@]}"; do
  # rtl-gen synth's working copy of the library (dont_use marks) and its latch map, from a
  # small block.
  "$RTL" hash --config "$OUT/cfg/fixed_xor.json" --vectors 1 --out "$OUT/$lib" > /dev/null
  "$RTL" synth --quiet "$OUT/$lib/hash_bvxor_n14_b32" --liberty "$PDK/$lib.lib.gz" > /dev/null
  work=$OUT/$lib/hash_bvxor_n14_b32/synth
  sed 's/{{TARGET_PS}}/500/' synth/scripts/timing.abc > "$OUT/$lib/timing500.abc"
  for top in "${tops[@]}"; do
    dir=$OUT/$lib/$top
    mkdir -p "$dir"
    files=$(sed "s|^|$OUT/rtl/$top/|" "$OUT/rtl/$top/$top.f" | tr '\n' ' ')
    cat > "$dir/synth.ys" <<EOF
read_verilog $files
synth -top $top
dfflibmap -liberty $work/$lib.lib
techmap -map $work/latches.v
opt_clean
tee -o abc.txt abc -liberty $work/$lib.lib -script $ROOT/synth/scripts/liberty.abc
opt_clean
tee -o stat.txt stat -liberty $work/$lib.lib
EOF
    yosys_in "$dir"
  done
  files=$(sed "s|^|$OUT/rtl/$cfg_top/|" "$OUT/rtl/$cfg_top/$cfg_top.f" | tr '\n' ' ')
  for stage in "${stages[@]}"; do
    dir=$OUT/$lib/stage_$stage
    mkdir -p "$dir"
    cat > "$dir/synth.ys" <<EOF
read_verilog $files
synth -top ${cfg_top}_$stage -flatten
tee -o abc.txt abc -liberty $work/$lib.lib -script $OUT/$lib/timing500.abc
opt_clean
tee -o stat.txt stat -liberty $work/$lib.lib
EOF
    yosys_in "$dir"
  done
done
wait

python3 - "$OUT" "${libs[@]}" <<'EOF'
import re, sys
out, libs = sys.argv[1], sys.argv[2:]
lanes = 32
maps = [("smem_l32_b32_d512_macro", "modulo"), ("smem_l32_b32_d512_bvxor_macro", "fixed XOR"),
        ("smem_l32_b32_d512_bvxor_cfg_macro", "configurable bit-vector XOR"),
        ("smem_l32_b32_d512_rap_macro", "RAP")]
def areas(path):
    text = open(path).read()
    mods = dict(re.findall(r"Chip area for module '\\(\S+)': ([0-9.]+)", text))
    total = re.search(r"Chip area for top module '\\\S+': ([0-9.]+)", text)
    return {k: float(v) for k, v in mods.items()}, float(total.group(1)) if total else None
print("| map | library | logic area (um²) | map module (um²) | map x 32 lanes (um²) "
      "| configuration register (um²) | map share |")
print("|---|---|---:|---:|---:|---:|---:|")
for lib in libs:
    fixed = maps[1][0]
    fixed_top = areas(f"{out}/{lib}/{fixed}/stat.txt")[0][fixed]
    for top, label in maps:
        mods, total = areas(f"{out}/{lib}/{top}/stat.txt")
        one = mods.get(f"{top}_map", 0.0)
        hasher = sum(a for m, a in mods.items() if m.startswith(("hash_", "rap_")))
        per_lane = one + hasher
        register = mods[top] - fixed_top if "cfg" in top else 0.0
        cost = lanes * per_lane + register
        print(f"| {label} | {lib} | {total:.0f} | {per_lane:.1f} | {lanes * per_lane:.0f} "
              f"| {register:.0f} | {100 * cost / total:.1f} % |")
print()
print("| stage module (configurable bit-vector XOR) | library | ABC delay (ps) | area (um²) |")
print("|---|---|---:|---:|")
for lib in libs:
    for stage in ["map", "conflict", "grant", "bank_port"]:
        d = f"{out}/{lib}/stage_{stage}"
        delay = re.findall(r"Delay =\s*([0-9.]+) ps", open(f"{d}/abc.txt").read())[-1]
        area = sum(areas(f"{d}/stat.txt")[0].values())
        print(f"| {stage} | {lib} | {float(delay):.0f} | {area:.0f} |")
EOF
