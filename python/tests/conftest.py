"""Shared fixtures of the Python package's tests: the repository root and the rtl-gen binary
(the debug build `cargo test --workspace` leaves, as scripts/test.sh runs it first; built with
`cargo build -p rtl-gen` only when missing)."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """A function running `rtl-gen ARGS...` (the debug build) and returning the finished process."""
    binary = ROOT / "target" / "debug" / "rtl-gen"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--quiet", "-p", "rtl-gen"], cwd=ROOT, check=True)

    def run(*args, cwd=ROOT):
        return subprocess.run(
            [str(binary), *map(str, args)], cwd=cwd, capture_output=True, text=True
        )

    return run


def cli_error(process):
    """The one line the CLI printed for a refusal, without `error: `; the run must have exited 2."""
    assert process.returncode == 2, process.stdout + process.stderr
    line = process.stderr.strip().splitlines()[-1]
    assert line.startswith("error: "), line
    return line[len("error: ") :]
