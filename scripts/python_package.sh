#!/usr/bin/env bash
# Builds the Python package rtl_gen (docs/PYTHON.md) from the workspace with maturin (pinned in
# scripts/python-requirements.txt) into target/wheels/ and installs the wheel into .venv/. Run by
# scripts/setup.sh after .venv/ exists; builds again only when the package's sources change (a
# digest of them is kept in .venv/rtl-gen-wheel.sha256), so that a set-up with nothing changed
# costs a second.
set -euo pipefail
cd "$(dirname "$0")/.."

# The package's sources: the extension crate, the Python files, and every workspace crate it
# compiles (models, rtl-gen's library and what that library uses).
paths=(Cargo.toml Cargo.lock pyproject.toml python models/Cargo.toml models/src
  rtl-gen/Cargo.toml rtl-gen/src hdl-util/Cargo.toml hdl-util/src testbenches/Cargo.toml
  testbenches/src synth/Cargo.toml synth/src golden-dpi/Cargo.toml golden-dpi/src golden-dpi/build.rs)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard -- "${paths[@]}")
else
  files=$(find "${paths[@]}" -type f 2>/dev/null)
fi
digest=$(echo "$files" | grep -v '^python/tests/' | sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
if [ "$digest" = "$(cat .venv/rtl-gen-wheel.sha256 2>/dev/null)" ] &&
  .venv/bin/python -c 'import rtl_gen' 2>/dev/null; then
  exit 0
fi
echo "setup: building the Python package rtl_gen (maturin, the wheel profile) into target/wheels/" >&2
rm -f target/wheels/rtl_gen-*.whl
.venv/bin/maturin build --profile wheel --compatibility linux --interpreter .venv/bin/python \
  --out target/wheels --quiet
.venv/bin/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall \
  target/wheels/rtl_gen-*.whl
echo "$digest" > .venv/rtl-gen-wheel.sha256
