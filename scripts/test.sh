#!/usr/bin/env bash
# The test suite: installs missing tools, then runs every crate's tests (unit, property,
# snapshot, lint, co-simulation under Verilator and Icarus, synthesis, CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace "$@"
