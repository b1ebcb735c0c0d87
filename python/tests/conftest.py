"""Shared fixtures of the Python package's tests: the repository root and the rtl-gen binary
(built by `cargo build -p rtl-gen` when missing; scripts/test.sh has built it already)."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """A function running `rtl-gen ARGS...` (the debug build) and returning the finished process."""
    subprocess.run(["cargo", "build", "--quiet", "-p", "rtl-gen"], cwd=ROOT, check=True)
    binary = ROOT / "target" / "debug" / "rtl-gen"

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
