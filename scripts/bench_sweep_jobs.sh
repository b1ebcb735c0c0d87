#!/usr/bin/env bash
# One sweep run both ways, side by side: the in-process `rtl-gen sweep hash --jobs 2`, and the
# same plan emitted as a Makefile (`--emit make`), run by `make -j2` and merged by
# `rtl-gen sweep collect`. Prints each way's wall and CPU seconds (rtl-gen, make and every Yosys
# child: bash's `time`), the load average before and after, and checks that both ways wrote the
# same results.csv (the folder's own path aside).
#
# Usage: scripts/bench_sweep_jobs.sh [OUT]   (default out/bench_sweep_jobs; RTL_GEN=path to use
# another binary than target/release/rtl-gen; PLAN="..." to sweep another plan, e.g.
# PLAN="--kinds all --addr-bits 16 --banks 2,4,8" scripts/bench_sweep_jobs.sh out/small)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-out/bench_sweep_jobs}")
rtl_gen=$(realpath "${RTL_GEN:-target/release/rtl-gen}")
# The issue's 1 000-point sweep, of cheap points: every kind at every address width 8 to 28 and
# every bank count 2 to 256 (6 x 21 x 8 = 1008 points, each bank count fits each width), fixed
# hashers, Yosys' generic gates. The earlier 96-point plan was
# PLAN="--kinds all --banks 2,4,...,65536 --addr-bits 16".
plan=${PLAN:---kinds all --addr-bits $(seq -s, 8 28) --banks 2,4,8,16,32,64,128,256}
TIMEFORMAT='%R s wall, %U s user + %S s system CPU'

echo "plan: $plan"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "in-process: $rtl_gen sweep hash $plan --jobs 2 --quiet --out $out/in-process"
time "$rtl_gen" sweep hash $plan --jobs 2 --quiet --out "$out/in-process" >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "emitted: $rtl_gen sweep hash $plan --emit make --out $out/make;" \
  "make -f $out/make/Makefile -j2; $rtl_gen sweep collect $out/make"
time {
  "$rtl_gen" sweep hash $plan --emit make --quiet --out "$out/make" >/dev/null
  make -s -f "$out/make/Makefile" -j2
  "$rtl_gen" sweep collect "$out/make" --quiet >/dev/null
}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if diff <(sed "s#$out/in-process#OUT#g" "$out/in-process/results.csv") \
  <(sed "s#$out/make#OUT#g" "$out/make/results.csv") >/dev/null; then
  echo "results.csv: the same both ways ($(($(wc -l <"$out/make/results.csv") - 1)) points)"
else
  echo "results.csv differs between the two ways" >&2
  exit 1
fi
