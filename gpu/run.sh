#!/usr/bin/env bash
# Builds and runs every gpu/ benchmark on the GPU machine; writes raw results to $1 (default
# gpu/results): env.txt, hash_check.csv, transpose.csv, latency.csv, probe_ncu.csv, log.txt.
# Then, on a machine with cargo:
#   cargo run --release -p rtl-gen --example gpu_silicon -- report gpu/gen <results> docs/gpu
# Needs nvcc and ncu (Nsight Compute); ncu runs with --clock-control none.
set -u -o pipefail
cd "$(dirname "$0")"
res=${1:-results}
mkdir -p "$res" build
exec > >(tee "$res/log.txt") 2>&1
arch=${ARCH:-sm_90}
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
} > "$res/env.txt" 2>&1
cat "$res/env.txt"
fail=0
build() { # name source
    nvcc -O3 -arch="$arch" -std=c++17 -lineinfo -o "build/$1" "$2" || { echo "BUILD FAILED: $1"; fail=1; return 1; }
}
build hash_check gen/hash_check.cu && { ./build/hash_check "$res/hash_check.csv" || fail=1; }
build transpose transpose.cu && { ./build/transpose "$res/transpose.csv" || fail=1; }
build latency latency.cu && { ./build/latency "$res/latency.csv" || fail=1; }
if build probe probe.cu; then
    ./build/probe gen/patterns.txt || fail=1
    metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    extra=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
    if ! ncu --clock-control none --kernel-name regex:probe --metrics "$metrics,$extra" --csv --page raw \
        ./build/probe gen/patterns.txt > "$res/probe_ncu.csv"; then
        echo "ncu with instruction counts failed; wavefronts only"
        ncu --clock-control none --kernel-name regex:probe --metrics "$metrics" --csv --page raw \
            ./build/probe gen/patterns.txt > "$res/probe_ncu.csv" || fail=1
    fi
    grep -c '"probe' "$res/probe_ncu.csv" || true
fi
echo "run.sh: done, fail=$fail"
exit $fail
