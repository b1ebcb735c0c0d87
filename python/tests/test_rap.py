"""The RAP paper from Python: the RAW, RAS, RAP and 3P layouts against their formulas written by
hand and the paper's Fig. 6, their tables against the manifests `rtl-gen rap` writes (`<name>.json`), the
congestion simulator against the paper's Tables II and IV and against `rtl-gen congestion`'s own
output for the same arguments, and the refusals against the CLI's lines."""

import json

import numpy as np
import pytest

import rtl_gen
from conftest import cli_error

ROWS, COLS = np.meshgrid(np.arange(4), np.arange(4), indexing="ij")


def test_the_papers_figure_6():
    # w = 4, r = (2, 0, 3, 1): a[2][2] (address 10 row-major) lies at address 9, in bank 1.
    rap = rtl_gen.RapLayout("rap", perm=[2, 0, 3, 1])
    assert (rap.kind, rap.w, rap.dims, rap.tables) == ("rap", 4, 2, {"shift": [2, 0, 3, 1]})
    assert (rap.address(2, 2), rap.bank(2, 2)) == (9, 1)
    r = np.array([2, 0, 3, 1])
    np.testing.assert_array_equal(rap.bank(ROWS, COLS), (COLS + r[ROWS]) % 4)
    np.testing.assert_array_equal(rap.address(ROWS, COLS), ROWS * 4 + (COLS + r[ROWS]) % 4)
    # Indices broadcast: a column index against every row.
    np.testing.assert_array_equal(rap.bank(np.arange(4), 0), r)


def test_raw_is_row_major_and_its_columns_conflict_everywhere():
    raw = rtl_gen.RapLayout("raw", 32)
    t = np.arange(32)
    np.testing.assert_array_equal(raw.address(ROWS, COLS), ROWS * 32 + COLS)
    assert raw.tables == {"shift": [0] * 32}
    assert raw.congestion(0, t) == 1  # a row
    assert raw.congestion(t, 5) == 32  # a column: every thread in bank 5


@pytest.mark.parametrize("kind", ["rap", "ras"])
def test_drawn_tables_are_those_rtl_gen_rap_bakes(cli, tmp_path, kind):
    for seed in [1, 7]:
        p = cli("rap", "--kind", kind, "--banks", 32, "--rap-seed", seed, "--out", tmp_path, "--json")
        assert p.returncode == 0, p.stderr
        manifest = json.loads((tmp_path / f"{kind}_w32" / f"{kind}_w32.json").read_text())
        layout = rtl_gen.RapLayout(kind, 32, seed=seed)
        assert layout.tables == manifest["configuration"]["tables"]
        assert layout.seed == seed
        shifts = np.array(layout.tables["shift"])
        t = np.arange(32)
        np.testing.assert_array_equal(
            layout.address(t[:, None], t[None, :]), t[:, None] * 32 + (t[None, :] + shifts[:, None]) % 32
        )


def test_rap_rows_and_columns_are_conflict_free_ras_columns_are_not():
    t = np.arange(32)
    rows = np.broadcast_to(t[:, None], (32, 32))  # warp access r: row r, every column
    rap = rtl_gen.RapLayout("rap", 32, seed=3)
    np.testing.assert_array_equal(rap.congestion(rows, t), np.ones(32))
    np.testing.assert_array_equal(rap.congestion(t, rows), np.ones(32))  # columns
    # RAS's shifts repeat (seed 3 draws 32 values from 0..31), so some column conflicts:
    ras = rtl_gen.RapLayout("ras", 32, seed=3)
    shifts = ras.tables["shift"]
    expected = max(np.bincount(shifts))
    assert expected > 1
    assert set(ras.congestion(t, rows)) == {expected}


def test_wide_rap_keeps_each_half_a_set_of_residues(cli, tmp_path):
    wide = rtl_gen.RapLayout("rap", 32, seed=1, wide=True)
    p = cli("rap", "--banks", 32, "--wide", "--rap-seed", 1, "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    manifest = json.loads((tmp_path / "rap_w32" / "rap_w32.json").read_text())
    assert wide.tables == manifest["configuration"]["tables"] and wide.wide
    shifts = np.array(wide.tables["shift"])
    for half in (shifts[:16], shifts[16:]):
        assert sorted(half % 16) == list(range(16))


def test_three_p_is_its_formula_and_the_converters_tables(cli, tmp_path):
    p = cli("rap", "--kind", "3p", "--banks", 8, "--rap-seed", 3, "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    manifest = json.loads((tmp_path / "rap3p_w8" / "rap3p_w8.json").read_text())
    layout = rtl_gen.RapLayout("3p", 8, seed=3)
    assert (layout.kind, layout.dims) == ("3p", 4)
    assert layout.tables == manifest["configuration"]["tables"]
    r, s, t = (np.array(layout.tables[n]) for n in "rst")
    i, j, k, l = np.meshgrid(*[np.arange(8)] * 4, indexing="ij")
    bank = (l + r[i] + s[j] + t[k]) % 8
    np.testing.assert_array_equal(layout.bank(i, j, k, l), bank)
    np.testing.assert_array_equal(layout.address(i, j, k, l), ((i * 8 + j) * 8 + k) * 8 + bank)
    # Table IV's 1s: an access along any one index is conflict-free.
    x = np.arange(8)
    assert layout.congestion(1, 2, 3, x) == layout.congestion(1, 2, x, 3) == 1
    assert layout.congestion(1, x, 2, 3) == layout.congestion(x, 1, 2, 3) == 1


def test_packed_words_are_the_papers_figure_7():
    # w = 32: six 5-bit shifts a word, six words.
    layout = rtl_gen.RapLayout("rap", 32, seed=5)
    shifts = layout.tables["shift"]
    words = [sum(v << (5 * k) for k, v in enumerate(shifts[q : q + 6])) for q in range(0, 32, 6)]
    assert layout.packed_words() == {"shift": words}


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(kind="rap", perm=[2, 0, 2, 1]), ["--perm", "2,0,2,1"]),
        (dict(kind="rap", banks=8, perm=[2, 0, 3, 1]), ["--banks", 8, "--perm", "2,0,3,1"]),
        (dict(kind="rap", banks=1), ["--banks", 1]),
        (dict(kind="rap", banks=2000), ["--banks", 2000]),
        (dict(kind="rap", banks=5, wide=True), ["--banks", 5, "--wide"]),
        (dict(kind="rap", perm=[0, 2, 1, 3], wide=True), ["--perm", "0,2,1,3", "--wide"]),
        (dict(kind="ras", perm=[0, 1]), ["--kind", "ras", "--perm", "0,1"]),
        (dict(kind="ras", shifts=[0, 4, 1, 1]), ["--kind", "ras", "--shifts", "0,4,1,1"]),
        (dict(kind="rap", shifts=[0, 1]), ["--shifts", "0,1"]),
        (dict(kind="3p", wide=True), ["--kind", "3p", "--wide"]),
    ],
)
def test_refusals_are_the_clis_lines(cli, tmp_path, kwargs, args):
    expected = cli_error(cli("rap", *args, "--out", tmp_path))
    with pytest.raises(rtl_gen.RtlGenError) as e:
        rtl_gen.RapLayout(**kwargs)
    assert str(e.value) == expected


def test_indices_are_checked():
    rap = rtl_gen.RapLayout("rap", 32)
    with pytest.raises(rtl_gen.RtlGenError, match=r"^col: 32 is out of range: allowed 0 to 31$"):
        rap.bank([0, 1], [5, 32])
    with pytest.raises(rtl_gen.RtlGenError, match=r"^1 indices given: a rap layout takes 2 \(row, col\)$"):
        rap.bank(3)
    with pytest.raises(rtl_gen.RtlGenError, match="do not broadcast"):
        rap.bank([0, 1, 2], [0, 1])
    with pytest.raises(rtl_gen.RtlGenError, match=r"^--kind foo: allowed rap, ras, 3p \(or raw\)$"):
        rtl_gen.RapLayout("foo")


# The congestion simulator.


def cli_json(cli, *args):
    p = cli("congestion", *args, "--json", "--quiet")
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(banks=[16, 32], trials=3000, seed=3), ["--banks", "16,32", "--trials", 3000, "--seed", 3]),
        (
            dict(dims=2, banks=8, kinds="rap", patterns=["diagonal", "malicious"], trials=2000),
            ["--banks", 8, "--kinds", "rap", "--pattern", "diagonal,malicious", "--trials", 2000],
        ),
        (dict(dims=4, banks=[8], trials=500, seed=9), ["--dims", 4, "--banks", 8, "--trials", 500, "--seed", 9]),
    ],
)
def test_the_simulator_gives_what_the_cli_gives(cli, kwargs, args):
    table = rtl_gen.simulate_congestion(**kwargs)
    assert table.to_json() == cli_json(cli, *args)
    p = cli("congestion", *args, "--compare-paper", "--quiet")
    # The CLI's last line is its timing.
    assert table.table(compare_paper=True) == "".join(p.stdout.splitlines(keepends=True)[:-1])
    cells = json.loads(table.to_json())["cells"]
    assert len(table) == len(cells)
    for cell, record in zip(table.cells, cells):
        assert (cell.dims, cell.w, cell.scheme, cell.pattern) == (
            record["dims"], record["w"], record["scheme"], record["pattern"]
        )
        assert cell.histogram.sum() == cell.trials
        assert cell.mean == pytest.approx((np.arange(cell.w + 1) * cell.histogram).sum() / cell.trials)


def test_table_ii_is_reproduced():
    # 20 000 trials a cell at w = 16 and 32: every cell within 0.03 of the paper plus four
    # standard errors (the check models::rap's unit test makes).
    table = rtl_gen.simulate_congestion(banks=[16, 32], trials=20_000, seed=1)
    assert len(table) == 24
    for cell in table.cells:
        c = np.arange(cell.w + 1)
        sd = np.sqrt((cell.histogram * (c - cell.mean) ** 2).sum() / cell.trials)
        assert cell.paper is not None
        assert abs(cell.mean - cell.paper) <= 0.03 + 4 * sd / np.sqrt(cell.trials), cell


def test_table_iv_exact_entries_hold_in_every_trial():
    table = rtl_gen.simulate_congestion(dims=4, banks=32, trials=1000)
    cells = {(c.scheme, c.pattern): c for c in table.cells}
    ones = [(s, "contiguous") for s in ["raw", "ras", "1p", "r1p", "3p", "w2p", "1pw2r"]]
    ones += [(s, "stride1") for s in ["1p", "r1p", "3p", "w2p", "1pw2r"]]
    ones += [(s, p) for s in ["r1p", "3p"] for p in ["stride2", "stride3"]]
    for key in ones:
        assert (cells[key].min, cells[key].max) == (1, 1), key
    for key in [("raw", "stride1"), ("raw", "stride3"), ("1p", "stride2"), ("1p", "malicious")]:
        assert (cells[key].min, cells[key].max) == (32, 32), key
    # R1P's malicious access never goes below 6.
    assert cells[("r1p", "malicious")].min >= 6


@pytest.mark.parametrize(
    "kwargs,args",
    [
        (dict(trials=0), ["--trials", 0]),
        (dict(trials=2_000_000_000), ["--trials", 2_000_000_000]),
        (dict(trials=100_000_000), ["--trials", 100_000_000]),
        (dict(dims=4, patterns="stride"), ["--dims", 4, "--pattern", "stride"]),
        (dict(dims=2, kinds="3p"), ["--kinds", "3p"]),
        (dict(banks=[1]), ["--banks", 1]),
        (dict(dims=4, banks=[128]), ["--dims", 4, "--banks", 128]),
    ],
)
def test_simulator_refusals_are_the_clis_lines(cli, kwargs, args):
    expected = cli_error(cli("congestion", *args, "--quiet"))
    with pytest.raises(rtl_gen.RtlGenError) as e:
        rtl_gen.simulate_congestion(**kwargs)
    assert str(e.value) == expected
