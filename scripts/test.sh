#!/usr/bin/env bash
# The test suite: installs missing tools, then runs every crate's tests (unit, property,
# snapshot, lint, co-simulation under Verilator and Icarus, synthesis, CLI) and the Python
# package's (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace "$@"
# The Python package's tests (pytest: the models from Python, the docs' examples, cocotb).
.venv/bin/python -m pytest python/tests -q
