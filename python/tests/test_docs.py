"""Every `$ python -c ...` example of docs/PYTHON.md runs as written (with this Python as
`python`) and prints what the page shows below it."""

import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "PYTHON.md"


def examples():
    """(command, expected output) of every `$ python ...` line in a console block."""
    found = []
    block = None
    for line in PAGE.read_text().splitlines():
        if line.startswith("```console"):
            block = []
            continue
        if block is not None and line.startswith("```"):
            found.extend(block)
            block = None
            continue
        if block is None:
            continue
        if line.startswith("$ "):
            block.append([line[2:], []])
        elif block:
            block[-1][1].append(line)
    return [(command, "\n".join(out)) for command, out in found]


EXAMPLES = examples()


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command,expected", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_example_prints_what_the_page_shows(command, expected, tmp_path):
    assert command.startswith("python ")
    bin_dir = pathlib.Path(sys.executable).parent
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    p = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True)
    assert p.stdout.rstrip("\n") == expected, p.stderr
