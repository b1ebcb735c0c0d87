#!/usr/bin/env bash
# Builds and runs the swizzle measurements on the GPU machine (needs nvcc, ncu, python3); writes
# to $1 (default results): swizzle_env.txt, swizzle_log.txt, swizzle_ncu_raw.csv and
# swizzle_ncu.csv (gen/swizzle_patterns.txt under ncu), tma_swizzle.txt (TMA's modes as they
# lie in shared memory), cpasync_ncu_raw.csv and cpasync_ncu.csv (Triton #8149 in CUDA).
# Then, on a machine with cargo:
#   cargo run --release -p rtl-gen --example gpu_swizzle -- report gpu/results docs/gpu
set -u -o pipefail
cd "$(dirname "$0")"
res=${1:-results}
patterns=${PATTERNS:-gen/swizzle_patterns.txt}
mkdir -p "$res" build
exec > >(tee "$res/swizzle_log.txt") 2>&1
arch=${ARCH:-sm_90}
fail=0
build() { # name source [extra flags]
    nvcc -O3 -arch="$arch" -std=c++17 -lineinfo -o "build/$1" "$2" ${3:-} || { echo "BUILD FAILED: $1"; fail=1; return 1; }
}
# The counters docs/GPU.md used, then each further one this ncu accepts (tried on a small launch).
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
extra="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts
smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_ldgsts"
if build cpasync_copy cpasync_copy.cu; then
    for m in $extra; do
        if ncu --clock-control none --metrics "$m.sum" --csv --page raw ./build/cpasync_copy 16 > build/try.csv 2>&1 \
            && grep -q "$m.sum" build/try.csv; then metrics="$metrics,$m.sum"; else echo "ncu refuses $m"; fi
    done
fi
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
    echo "metrics: $metrics"
} > "$res/swizzle_env.txt" 2>&1
cat "$res/swizzle_env.txt"
if build tma_swizzle tma_swizzle.cu -lcuda; then ./build/tma_swizzle "$res/tma_swizzle.txt" || fail=1; fi
if build swizzle_probe swizzle_probe.cu; then
    ./build/swizzle_probe "$patterns" || fail=1
    ncu --clock-control none --kernel-name regex:swz_probe --metrics "$metrics" --csv --page raw \
        ./build/swizzle_probe "$patterns" > "$res/swizzle_ncu_raw.csv" || fail=1
    python3 swizzle_ncu.py "$res/swizzle_ncu_raw.csv" > "$res/swizzle_ncu.csv" || fail=1
    echo "swizzle_ncu.csv: $(($(wc -l < "$res/swizzle_ncu.csv") - 1)) launches"
fi
if [ -x build/cpasync_copy ]; then
    ./build/cpasync_copy 16 22 30 || fail=1
    ncu --clock-control none --kernel-name regex:swz_cpasync --metrics "$metrics" --csv --page raw \
        ./build/cpasync_copy 16 22 30 > "$res/cpasync_ncu_raw.csv" || fail=1
    python3 swizzle_ncu.py "$res/cpasync_ncu_raw.csv" > "$res/cpasync_ncu.csv" || fail=1
    cat "$res/cpasync_ncu.csv"
fi
echo "swizzle_run.sh: done, fail=$fail"
exit $fail
