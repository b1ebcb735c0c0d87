"""The configuration search from Python against `rtl-gen search`'s own output for the same trace
(its JSON report and its text), on a trace file, trace text and an array; the XOR paper's
transpose worked by hand; and the refusals against the CLI's lines."""

import json
import pathlib

import numpy as np
import pytest

import rtl_gen
from conftest import ROOT, cli_error

FWT = ROOT / "kernels" / "fwt.trace"


def cli_search(cli, tmp_path, *args):
    p = cli("search", *args, "--out", tmp_path / "out", "--quiet")
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(), []),
        (dict(kinds="bitvector-xor,xor-matrix", heuristic="all"), ["--kinds", "bitvector-xor,xor-matrix"]),
        (dict(addr_bits=12, banks=16, heuristic="givargis"), ["--addr-bits", 12, "--banks", 16, "--heuristic", "givargis"]),
    ],
)
def test_the_search_finds_what_the_cli_finds(cli, tmp_path, kwargs, args):
    report = rtl_gen.search(FWT, **kwargs)
    expected = json.loads(cli_search(cli, tmp_path, "--trace", FWT, *args, "--json"))
    assert json.loads(report.to_json()) == expected
    text = cli_search(cli, tmp_path, "--trace", FWT, *args)
    assert str(report) == "".join(l for l in text.splitlines(keepends=True) if not l.startswith("files: "))
    assert report.name == "fwt"
    assert [(r.kind, r.heuristic, r.replays) for r in report.results] == [
        (r["kind"], r["heuristic"], r["replays"]) for r in expected["results"]
    ]
    best = report.best
    assert (best.kind, best.heuristic) == (expected["best"]["kind"], expected["best"]["heuristic"])
    # The best configuration is the one `best.json` holds.
    written = (tmp_path / "out" / "best.json").read_text()
    assert best.hasher == rtl_gen.Hasher.from_json(written)
    assert report.before[0] == expected["before"]["replays"]
    assert report.warp_accesses == expected["warp_accesses"]


def test_text_an_array_and_a_file_are_one_trace():
    text = FWT.read_text()
    from_file = rtl_gen.search(FWT, kinds="bitvector-xor")
    from_text = rtl_gen.search(text, kinds="bitvector-xor")
    assert from_text.name == "trace"
    assert json.loads(from_text.to_json())["results"] == json.loads(from_file.to_json())["results"]
    # The same accesses as an array: every line of fwt.trace has 32 addresses.
    rows = [
        [int(a, 0) for a in line.split("#")[0].split()[1:]]
        for line in text.splitlines()
        if line.split("#")[0].split()
    ]
    assert len(rows) == 640 and all(len(r) == 32 for r in rows)
    from_array = rtl_gen.search(np.array(rows), kinds="bitvector-xor")
    assert [r.replays for r in from_array.results] == [r.replays for r in from_file.results]


def test_the_xor_papers_transpose_by_hand():
    # TILE_DIM 16: the store reads two columns of a 16 x 16 tile (thread t: row t % 16, column
    # 2c + t // 16): 32 distinct addresses in 4 banks under modulo (8-way). Each warp access
    # varies address bits 0 and 4 to 7 only, an affine subspace of 32 addresses, so some
    # invertible GF(2) matrix maps it onto the 32 banks: the GF(2) search (exact on affine
    # accesses) must reach the lower bound, no replay.
    t = np.arange(32)
    warps = np.stack([(t % 16) * 16 + t // 16 + 2 * c for c in range(8)])
    report = rtl_gen.search(warps, kinds="xor-matrix", heuristic="gf2")
    assert report.before == (8 * 7, 8.0)
    assert report.best.replays == 0 and report.best.mean_congestion == 1.0
    assert report.lower_bound == (0, 1.0)
    assert (report.best.hasher.congestion(warps) == 1).all()


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(addr_bits=64, banks=65536, kinds="bitvector-xor", heuristic="exhaustive"),
         ["--addr-bits", 64, "--banks", 65536, "--kinds", "bitvector-xor", "--heuristic", "exhaustive"]),
        (dict(addr_bits=64, banks=65536, heuristic="gf2"), ["--addr-bits", 64, "--banks", 65536, "--heuristic", "gf2"]),
        (dict(addr_bits=8), ["--addr-bits", 8]),
        (dict(banks=48), ["--banks", 48]),
        (dict(warp_size=16), ["--warp-size", 16]),
        (dict(kinds="modulo", heuristic="gf2"), ["--kinds", "modulo", "--heuristic", "gf2"]),
    ],
)
def test_refusals_are_the_clis_lines(cli, tmp_path, kwargs, args):
    expected = cli_error(cli("search", "--trace", FWT, *args, "--out", tmp_path / "out"))
    with pytest.raises(rtl_gen.RtlGenError) as e:
        rtl_gen.search(FWT, **kwargs)
    assert str(e.value) == expected


def test_a_bad_trace_names_its_line(tmp_path):
    bad = tmp_path / "bad.trace"
    bad.write_text("ld 0 1 2\nst 3 zz\n")
    with pytest.raises(rtl_gen.RtlGenError, match=r"bad.trace: line 2: `zz` is not an address"):
        rtl_gen.search(pathlib.Path(bad))
    with pytest.raises(rtl_gen.RtlGenError, match=r"^trace: line 2: `zz` is not an address"):
        rtl_gen.search(bad.read_text())
    with pytest.raises(rtl_gen.RtlGenError, match=r"^trace: warp access 1: address 16384 needs 15 bits"):
        rtl_gen.search(np.array([[0, 1], [2, 1 << 14]]))
