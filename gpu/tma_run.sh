#!/usr/bin/env bash
# Builds gpu/tma_tensor.cu and runs each case file given (gpu/gen/tma_cases_<name>.txt) on the GPU
# machine; writes to $1: tma_env.txt and, per case file, tma_<name>.txt.gz (its result lines,
# gzipped). A case that kills the CUDA context is recorded as "<case> : crash" and the run goes on
# past it. Then, on a machine with cargo:
#   rtl-gen tma replay gpu/results/tma_<name>.txt.gz
# Usage: gpu/tma_run.sh <results dir> <case file>...   (needs nvcc and the driver's libcuda)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
res=$(mkdir -p "$1" && cd "$1" && pwd)
shift
mkdir -p "$here/build"
arch=${ARCH:-sm_90}
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
    nvcc --version | tail -2
} > "$res/tma_env.txt" 2>&1
cat "$res/tma_env.txt"
nvcc -O3 -arch="$arch" -std=c++17 -o "$here/build/tma_tensor" "$here/tma_tensor.cu" -lcuda || exit 1
fail=0
for cases in "$@"; do
    name=$(basename "$cases" .txt)
    out="$res/tma_${name#tma_cases_}.txt"
    rm -f "$out" "$out.gz" "$out.progress"
    first=0
    crashes=0
    until "$here/build/tma_tensor" "$cases" "$out" "$first"; do
        [ -f "$out.progress" ] || { echo "tma_tensor failed before its first case"; exit 1; }
        k=$(cat "$out.progress")
        echo "$(grep -v -e '^#' -e '^$' "$cases" | sed -n "$((k + 1))p") : crash" >> "$out"
        echo "case line $k crashed"
        first=$((k + 1))
        crashes=$((crashes + 1))
        [ "$crashes" -le 40 ] || { echo "more than 40 crashes: stopping"; fail=1; break; }
    done
    rm -f "$out.progress"
    echo "$out: $(wc -l < "$out") results"
    gzip -9 -f "$out"
done
exit $fail
