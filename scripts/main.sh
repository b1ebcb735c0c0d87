#!/usr/bin/env bash
# The main job on the default configuration: one block of every family (the XOR paper's
# 32-bank hashers, a RAP address converter, the D2MA engine, a 16-lane x 16-bank shared memory
# behind the fixed XOR with SRAM macros, and the D2MA system: the engine with its data path
# filling an 8 x 32 x 512 shared memory, tested end to end; the bank-conflict counter of a
# 16-lane half-warp) generated into out/flow,
# co-simulated under Verilator against the golden models, synthesized with Yosys' built-in gates
# (no liberty file needed), in one table. Extra arguments go to `rtl-gen flow` (e.g.
# --liberty ../shared/pdk/nangate45_typ.lib.gz, --simulator iverilog, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -p rtl-gen
exec target/release/rtl-gen flow "$@"
