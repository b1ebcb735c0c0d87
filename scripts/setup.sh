#!/usr/bin/env bash
# Installs what rtl-gen needs and is missing (Yosys, Verilator, Icarus Verilog, ccache from
# Debian), then builds the workspace. Safe to run again: it installs nothing that is present.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for tool in yosys verilator iverilog ccache; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} with apt-get" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for tool in yosys verilator iverilog; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool is still missing" >&2; exit 1; }
done
