"""The hash families and the GF(2) matrix from Python: every kind against its formula written
by hand in NumPy (the XOR paper's section 4), the matrix form, and the refusals against the
CLI's own lines for the same configuration file."""

import json

import numpy as np
import pytest

import rtl_gen
from conftest import cli_error

ADDRESSES = np.arange(1 << 14, dtype=np.uint64)


def bit(a, i):
    return (a >> np.uint64(i)) & np.uint64(1)


def by_hand(kind, a, **f):
    """The paper's formula of each family, on 14-bit addresses and 32 banks."""
    m = 5
    if kind == "modulo":
        return a & np.uint64(31)
    if kind == "bitvector-perm":
        return (a >> np.uint64(f["k"])) & np.uint64(31)
    if kind == "bitvector-xor":
        return ((a >> np.uint64(f["k1"])) ^ ((a >> np.uint64(f["k2"])) & np.uint64(f["mask"]))) & np.uint64(31)
    out = np.zeros_like(a)
    for i in range(m):
        if kind == "bitwise-perm":
            b = bit(a, f["bits"][i])
        elif kind == "bitwise-xor":
            x, y = f["pairs"][i]
            b = bit(a, x) if x == y else bit(a, x) ^ bit(a, y)
        else:
            b = np.zeros_like(a)
            for j in range(14):
                if f["rows"][i] >> j & 1:
                    b ^= bit(a, j)
        out |= b << np.uint64(i)
    return out


CASES = [
    ("modulo", {}),
    ("bitvector-perm", {"k": 3}),
    ("bitvector-xor", {"k1": 2, "k2": 8, "mask": 7}),
    ("bitwise-perm", {"bits": [0, 3, 4, 9, 13]}),
    ("bitwise-xor", {"pairs": [[0, 5], [1, 6], [2, 2], [3, 12], [4, 13]]}),
    ("xor-matrix", {"rows": [0x21, 0x42, 0x84, 0x1108, 0x2210]}),
]


@pytest.mark.parametrize("kind,fields", CASES)
def test_every_kind_is_its_formula_on_every_address(kind, fields):
    h = rtl_gen.Hasher(kind=kind, addr_bits=14, banks=32, **fields)
    expected = by_hand(kind, ADDRESSES, **fields)
    got = h.bank(ADDRESSES)
    assert got.dtype == np.uint64 and got.shape == ADDRESSES.shape
    np.testing.assert_array_equal(got, expected)
    # The matrix form is the same function.
    m = rtl_gen.Hasher(kind="xor-matrix", addr_bits=14, banks=32, rows=h.matrix)
    np.testing.assert_array_equal(m.bank(ADDRESSES), expected)
    # Scalars, lists, other integer dtypes and shapes.
    assert h.bank(1000) == int(expected[1000])
    assert list(h.bank([5, 1000])) == [int(expected[5]), int(expected[1000])]
    grid = ADDRESSES[:64].astype(np.int32).reshape(8, 8)
    np.testing.assert_array_equal(h.bank(grid), expected[:64].reshape(8, 8))
    # The configuration round-trips through JSON and a dict.
    assert rtl_gen.Hasher.from_json(h.to_json()) == h
    assert h.to_dict() == {"kind": kind, "addr_bits": 14, "banks": 32, **fields} or kind == "xor-matrix"


def test_the_issue_example_and_its_matrix():
    h = rtl_gen.Hasher(kind="bitvector-xor", addr_bits=14, banks=32, k1=2, k2=8, mask=7)
    # bank bit i = addr[2 + i] ^ (addr[8 + i] for i < 3): rows 0x104, 0x208, 0x410, 0x20, 0x40.
    assert h.matrix == [0x104, 0x208, 0x410, 0x20, 0x40]
    assert (h.rank, h.bank_bits, h.parameters) == (5, 5, [2, 8, 7])
    assert repr(h) == "Hasher(kind='bitvector-xor', addr_bits=14, banks=32, k1=2, k2=8, mask=7)"
    assert rtl_gen.Hasher.from_parameters("bitvector-xor", 14, 32, [2, 8, 7]) == h
    low_rank = rtl_gen.Hasher(kind="xor-matrix", addr_bits=4, banks=4, rows=[3, 3])
    assert low_rank.rank == 1


def test_a_manifest_gives_its_configuration(cli, tmp_path):
    p = cli("hash", "--kind", "bitwise-perm", "--addr-bits", "8", "--banks", "4", "--bits", "1,6",
            "--out", tmp_path, "--json")
    assert p.returncode == 0, p.stderr
    h = rtl_gen.Hasher.from_json(p.stdout)
    assert h == rtl_gen.Hasher(kind="bitwise-perm", addr_bits=8, banks=4, bits=[1, 6])


def test_random_configurations_are_valid_and_seeded():
    a = rtl_gen.Hasher.random("bitwise-xor", 14, 32, seed=7)
    assert a == rtl_gen.Hasher.random("bitwise-xor", 14, 32, seed=7)
    assert rtl_gen.Hasher.from_parameters("bitwise-xor", 14, 32, a.parameters) == a


REFUSED = [
    {"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 20, "k2": 8, "mask": 7},
    {"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 99},
    {"kind": "modulo", "addr_bits": 14, "banks": 48},
    {"kind": "bitwise-perm", "addr_bits": 14, "banks": 4, "bits": [1, 1]},
    {"kind": "bitwise-xor", "addr_bits": 14, "banks": 4, "pairs": [[0, 1]]},
    {"kind": "xor-matrix", "addr_bits": 4, "banks": 2, "rows": [0x10]},
    {"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2},
    {"kind": "hash", "addr_bits": 14, "banks": 32},
]


@pytest.mark.parametrize("config", REFUSED, ids=lambda c: c["kind"])
def test_refusals_carry_the_clis_line(cli, tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    expected = cli_error(cli("hash", "--config", path, "--out", tmp_path))
    kwargs = {k: v for k, v in config.items()}
    with pytest.raises(rtl_gen.RtlGenError) as e:
        rtl_gen.Hasher(**kwargs)
    if config["kind"] == "hash":
        # The CLI reads the file with serde, whose message names the variants; both name the value.
        assert "hash" in str(e.value) and "hash" in expected
    else:
        assert str(e.value) == expected
    assert isinstance(e.value, ValueError)


def test_bad_arrays_are_refused():
    h = rtl_gen.Hasher(kind="modulo", addr_bits=8, banks=4)
    with pytest.raises(rtl_gen.RtlGenError, match="addresses: -1 is negative"):
        h.bank(np.array([3, -1]))
    with pytest.raises(TypeError, match="addresses: an array of float64"):
        h.bank(np.array([1.5]))
    with pytest.raises(rtl_gen.RtlGenError, match="not an unsigned 64-bit integer"):
        h.bank(-1)
