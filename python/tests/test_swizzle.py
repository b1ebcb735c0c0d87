"""Swizzles from Python against the H100: the (layout, access) pairs measured on silicon
(docs/SWIZZLE.md, docs/gpu/swizzle_pairs_h100.csv), the best layouts the page derives by hand,
and the CLI's own report text and refusals for the same arguments."""

import numpy as np
import pytest

import rtl_gen
from conftest import cli_error

# Wavefronts of the loads for a 64 x 64 tile of halves, measured on the H100 (docs/SWIZZLE.md).
H100 = [
    ("none", 512, 512, 1024, 2048),
    ("cute:Swizzle<1,4,3>", 256, 256, 512, 1024),
    ("cute:Swizzle<2,4,3>", 128, 128, 256, 512),
    ("cute:Swizzle<3,4,4>", 128, 128, 128, 256),
    ("triton:swizzled_shared<vec=8,perPhase=2,maxPhase=4,order=1,0>", 128, 128, 256, 512),
    ("tma:128B", 64, 64, 128, 256),
]


@pytest.mark.parametrize("layout,cols16,ldmatrix,cols8,cols4", H100, ids=[h[0] for h in H100])
def test_wavefronts_match_the_h100(layout, cols16, ldmatrix, cols8, cols4):
    check = rtl_gen.Layout(layout, tile="64x64", elem_bytes=2).check(["cols", "ldmatrix"], vec_bytes=[16, 8, 4])
    got = {a.name: a.load_wavefronts for a in check.accesses}
    assert got == {"cols@16": cols16, "cols@8": cols8, "cols@4": cols4, "ldmatrix": ldmatrix}
    for a in check.accesses:
        assert int(a.load_per_warp.sum()) == a.load_wavefronts and len(a.load_per_warp) == a.warps


def test_tma_128b_is_cute_swizzle_343_and_every_form_is_exact():
    layout = rtl_gen.Layout("tma:128B", tile=(64, 64), elem_bytes=2)
    assert layout.forms[:3] == ["tma:128B", "cute-elem:Swizzle<3,3,3>", "cute:Swizzle<3,4,3>"]
    assert layout.family == "tma" and layout.keeps_bytes == 16
    for form in layout.forms:
        assert rtl_gen.Layout(form, tile="64x64", elem_bytes=2).matrix == layout.matrix
    # Swizzle<3,4,3> on byte offsets, by hand: x ^ ((x >> 3) & 0x70).
    x = np.arange(8192, dtype=np.uint64)
    np.testing.assert_array_equal(layout.physical(x), x ^ ((x >> np.uint64(3)) & np.uint64(0x70)))
    # Its banks as a hash over element offsets.
    assert rtl_gen.Layout(layout.hasher, tile="64x64", elem_bytes=2).matrix == layout.matrix


def test_best_layout_for_128_byte_rows_of_halves():
    # docs/SWIZZLE.md, "Why Swizzle<3,4,3>" (CUTLASS #2015).
    best = rtl_gen.best_layout(tile="64x64", elem_bytes=2, access="rows,cols,ldmatrix")
    assert best.layout.forms[0] == "tma:128B"
    assert best.verdict == "conflict-free" and best.optimal
    assert best.total_wavefronts == best.ideal_wavefronts == 64 * 5


def test_check_layout_in_one_call_cutlass_3172():
    # docs/SWIZZLE.md, "What Swizzle<3,3,4> does to ldmatrix": a 32 x 128 tile of halves.
    r = rtl_gen.check_layout("cute-elem:Swizzle<3,3,3>", "ldmatrix", tile="32x128", elem_bytes=2)
    assert [(a.name, a.load_wavefronts, a.ideal_load, a.worst_load) for a in r.check.accesses] == [
        ("ldmatrix", 128, 64, 8)
    ]
    assert not r.check.conflict_free
    assert r.best.layout.forms[0] == "cute-elem:Swizzle<3,3,4>" or "cute-elem:Swizzle<3,3,4>" in r.best.layout.forms
    assert r.best.total_wavefronts == 64 and r.best.verdict == "conflict-free"


def test_a_users_pattern_as_an_array():
    # One warp reading a column of the 64 x 64 tile of floats, 4-byte vectors: 32 rows apart,
    # every thread in bank 0 unswizzled (32 wavefronts), one pass per bank under the best layout.
    column = (np.arange(32) * 64).reshape(1, 32)
    r = rtl_gen.check_layout("none", [], tile="64x64", elem_bytes=4, vec_bytes=4, trace=column)
    (cost,) = r.check.accesses
    assert (cost.name, cost.load_wavefronts, cost.ideal_load) == ("trace@4", 32, 1)
    assert r.best.total_wavefronts == 2 and r.best.verdict == "conflict-free"


def test_show_and_check_print_the_clis_text(cli):
    args = ["--layout", "cute:Swizzle<3,4,3>", "--elem-bytes", "2", "--tile", "64x64"]
    layout = rtl_gen.Layout("cute:Swizzle<3,4,3>", tile="64x64", elem_bytes=2)
    shown = cli("swizzle", "show", *args)
    assert shown.returncode == 0 and shown.stdout == layout.show()
    checked = cli("swizzle", "check", *args, "--access", "rows,cols,ldmatrix")
    assert checked.stdout == layout.check("rows,cols,ldmatrix").text
    best = cli("swizzle", "best", "--tile", "32x128", "--access", "ldmatrix,rows")
    assert best.stdout == rtl_gen.best_layout(tile="32x128", access="ldmatrix,rows").text


REFUSED = [
    (["--layout", "cute:Swizzle<3,4>"], {"layout": "cute:Swizzle<3,4>"}),
    (["--layout", "tma:128B", "--tile", "64x8"], {"layout": "tma:128B", "tile": "64x8"}),
    (["--layout", "none", "--tile", "3x5"], {"layout": "none", "tile": "3x5"}),
    (["--layout", "cute:Swizzle<3,2,3>", "--access", "rows"], {"layout": "cute:Swizzle<3,2,3>", "access": "rows"}),
]


@pytest.mark.parametrize("args,kwargs", REFUSED, ids=[a[1] for a, _ in REFUSED])
def test_refusals_carry_the_clis_line(cli, args, kwargs):
    expected = cli_error(cli("swizzle", "check", *args))
    layout = kwargs.pop("layout")
    access = kwargs.pop("access", "rows,cols")
    with pytest.raises(rtl_gen.RtlGenError) as e:
        rtl_gen.check_layout(layout, access, **kwargs)
    assert str(e.value) == expected
