#!/usr/bin/env bash
# The replay table of docs/SMEM.md: the kernel suite (kernels/*.trace) and a conflict-free
# stream (4096 full-warp loads of consecutive words: the throughput benchmark of
# docs/BENCHMARKS.md) run through the RTL of the 32 lanes x 32 banks x 512 words shared memory
# under Verilator, under four maps: modulo, the XOR paper's fixed XOR (bank = addr[4:0] ^
# addr[9:5]), the best hasher `rtl-gen search` finds for each kernel (every family and
# heuristic, as `rtl-gen search --kind all --heuristic all` reports it in best.json, programmed
# as a GF(2) matrix into a configurable map before the kernel: `rtl-gen smem --replay-search`)
# and RAP (seed 1). Every cycle count of the table is measured on the RTL (its own counters and
# the cycles between presenting an access and its response) beside the cycle model's prediction.
#
# Writes the tables into docs/SMEM.md between the markers `<!-- smem-replay:begin -->` and
# `<!-- smem-replay:end -->` (set DOC to another file, or to nothing to only print them), and
# prints them. Exits non-zero if a simulation fails or any kernel's RTL numbers differ from the
# model's under any map (the table then says MISMATCH and the document is left unchanged).
#
# Usage: scripts/smem_replay.sh [OUT]        (default out/smem_replay)
# Environment: RTL (rtl-gen binary, default target/release/rtl-gen), DOC (default docs/SMEM.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/smem_replay}
RTL=${RTL:-target/release/rtl-gen}
DOC=${DOC-docs/SMEM.md}
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
run() {
  local map=$1
  shift
  local start=$SECONDS
  echo "smem_replay: $map ..." >&2
  "$RTL" smem "${shape[@]}" "$@" --out "$OUT/$map" > "$OUT/$map.json"
  echo "$((SECONDS - start))" > "$OUT/$map.seconds"
  echo "smem_replay: $map done in $((SECONDS - start)) s" >&2
}
run modulo --map modulo
run xor --map hash --hash-config "$OUT/cfg/fixed_xor.json"
run best --map hash --hash-config "$OUT/cfg/fixed_xor_matrix.json" --configurable --replay-search
run rap --map rap --rap-seed 1

python3 - "$OUT" "$DOC" "$(verilator --version)" <<'EOF'
import json, sys
out, doc, verilator = sys.argv[1], sys.argv[2], sys.argv[3]
maps = [("modulo", "modulo"), ("xor", "fixed XOR"), ("best", "searched best"), ("rap", "RAP")]
rows = {m: json.load(open(f"{out}/{m}.json"))["replay"] for m, _ in maps}
seconds = {m: open(f"{out}/{m}.seconds").read().strip() for m, _ in maps}
kernels = [r["kernel"] for r in rows["modulo"]]
def row(m, k):
    return next(r for r in rows[m] if r["kernel"] == k)
def equal(r):
    return (r["rtl_cycles"] == r["model_cycles"] and r["rtl_bank_cycles"] == r["model_bank_cycles"]
            and r["rtl_conflict_cycles"] == r["model_conflict_cycles"])
def cell(r, key):
    rtl, model = r[f"rtl_{key}"], r[f"model_{key}"]
    return f"{rtl} | {model}" if equal(r) else f"{rtl} | {model} MISMATCH"
lines = [
    "Written by `scripts/smem_replay.sh` (do not edit by hand): 32 lanes x 32 banks x 512 words,",
    f"{verilator}; seconds per map (generation, Verilator build and replay): "
    + ", ".join(f"{label} {seconds[m]} s" for m, label in maps) + ".",
    "",
    "Cycles of each kernel, from presenting its first access to its last response (RTL | model):",
    "",
]
head = " | ".join(f"{label} RTL | {label} model" for _, label in maps)
lines.append(f"| kernel | accesses | {head} |")
lines.append("|---|---:|" + "---:|" * (2 * len(maps)))
for k in kernels:
    cells = " | ".join(cell(row(m, k), "cycles") for m, _ in maps)
    lines.append(f"| {k} | {row('modulo', k)['accesses']} | {cells} |")
for title, key in [
    ("Bank cycles (the RTL's `cnt_bank_cycles_o` growth | the congestion model's passes):", "bank_cycles"),
    ("Conflict cycles (passes after each access's first, RTL | model):", "conflict_cycles"),
]:
    lines += ["", title, ""]
    lines.append(f"| kernel | {head} |")
    lines.append("|---|" + "---:|" * (2 * len(maps)))
    for k in kernels:
        cells = " | ".join(cell(row(m, k), key) for m, _ in maps)
        lines.append(f"| {k} | {cells} |")
suite = [k for k in kernels if k != "linear"]
total = {m: sum(row(m, k)["rtl_conflict_cycles"] for k in suite) for m, _ in maps}
lines.append("| all kernels but linear | " + " | ".join(f"{total[m]} | {sum(row(m, k)['model_conflict_cycles'] for k in suite)}" for m, _ in maps) + " |")
ok = all(equal(r) for m in rows for r in rows[m])
lines += ["", f"RTL equals model (cycles, bank cycles, conflict cycles) for every kernel under every map: "
          f"{'yes' if ok else 'NO'}."]
table = "\n".join(lines) + "\n"
print(table)
if not ok:
    sys.exit("smem_replay: the RTL differs from the model; the document is left unchanged")
if doc:
    begin, end = "<!-- smem-replay:begin -->\n", "<!-- smem-replay:end -->\n"
    text = open(doc).read()
    if text.count(begin) != 1 or text.count(end) != 1:
        sys.exit(f"smem_replay: {doc} needs one {begin.strip()} and one {end.strip()} line")
    head_text, rest = text.split(begin)
    _, tail_text = rest.split(end)
    open(doc, "w").write(head_text + begin + table + end + tail_text)
    print(f"smem_replay: wrote the tables into {doc}", file=sys.stderr)
EOF
