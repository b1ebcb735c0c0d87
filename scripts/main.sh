#!/usr/bin/env bash
# The main job on the default configuration: the paper's 32-bank hashers (14 address bits)
# generated into out/flow, co-simulated under Verilator, synthesized with Yosys, tabulated.
# Extra arguments go to `rtl-gen flow` (e.g. --liberty ../shared/pdk/nangate45_typ.lib.gz).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -p rtl-gen
exec target/release/rtl-gen flow "$@"
