"""The conflict models from Python on examples worked by hand: the XOR paper's transpose and
Walsh accesses, the wide-word rules of docs/GPU.md and the H100's wavefronts of docs/SWIZZLE.md."""

import numpy as np
import pytest

import rtl_gen


def test_dmm_congestion_of_the_papers_accesses():
    t = np.arange(32, dtype=np.uint64)
    transpose = (t % 16) * 16 + t // 16  # section 3.2.2, TILE_DIM 16: 8-way
    walsh = ((t - t % 8) << np.uint64(2)) + t % 8  # section 3.2.4, stride 8: 4-way
    assert rtl_gen.congestion(transpose) == 8
    assert rtl_gen.congestion(walsh) == 4
    np.testing.assert_array_equal(rtl_gen.congestion(np.stack([transpose, walsh, t])), [8, 4, 1])
    assert rtl_gen.congestion([5] * 32) == 1  # a broadcast
    # The fixed XOR of the paper's [17], bank = a[4:0] ^ a[9:5], spreads the column: only threads
    # 2 and 16 (addresses 32 and 1) share a bank, bank 1 (0 ^ 1 and 1 ^ 0).
    xor = rtl_gen.Hasher(kind="bitvector-xor", addr_bits=14, banks=32, k1=0, k2=5, mask=31)
    assert xor.congestion(transpose) == 2
    # Inactive threads read nothing: threads 0 and 16 alone (addresses 0 and 1) take one pass,
    # threads 0 and 2 (addresses 0 and 32, both in bank 0) two.
    active = np.zeros(32, dtype=bool)
    active[[0, 16]] = True
    assert rtl_gen.congestion(transpose, active=active) == 1
    active[[16, 2]] = [False, True]
    assert rtl_gen.congestion(transpose, active=active) == 2


def test_wide_words_follow_docs_gpu():
    linear = np.arange(32)
    column = np.arange(32) * 32
    twice = np.arange(32) % 16
    assert rtl_gen.wide_congestion(linear, word_bytes=8, model="warp") == 2
    assert rtl_gen.wide_congestion(column, word_bytes=8, model="groups") == 32
    assert rtl_gen.wide_congestion(twice, word_bytes=8, model="warp") == 1
    assert rtl_gen.wide_congestion(twice, word_bytes=8, model="groups") == 2
    assert rtl_gen.wide_congestion(twice, word_bytes=8, model="load-groups") == 1
    with pytest.raises(rtl_gen.RtlGenError, match="model = half is out of range: allowed warp, groups, load-groups"):
        rtl_gen.wide_congestion(linear, word_bytes=8, model="half")


def test_h100_wavefronts_by_hand():
    t = np.arange(32, dtype=np.uint64)
    assert rtl_gen.wavefronts(t * 16, width=16) == 4
    assert rtl_gen.wavefronts(t * 128, width=16, instruction="store") == 32
    assert rtl_gen.wavefronts(t * 128, width=4) == 32
    broadcast = np.full(32, 64)
    assert rtl_gen.wavefronts(broadcast, width=8) == 1
    assert rtl_gen.wavefronts(broadcast, width=8, instruction="store") == 2
    assert rtl_gen.wavefronts(broadcast, width=16) == 2
    assert rtl_gen.wavefronts(broadcast, width=16, instruction="ldmatrix") == 4
    quarters = (t % 8) * 16
    assert rtl_gen.wavefronts(quarters, width=16) == 4
    assert rtl_gen.ideal_wavefronts(t * 128, width=8, instruction="store") == 2
    many = np.stack([t * 16, t * 128, quarters])
    np.testing.assert_array_equal(rtl_gen.wavefronts(many, width=16), [4, 32, 4])


def test_wavefront_refusals():
    t = np.arange(32)
    with pytest.raises(rtl_gen.RtlGenError, match="width = 12 is out of range"):
        rtl_gen.wavefronts(t * 16, width=12)
    with pytest.raises(rtl_gen.RtlGenError, match="ldmatrix moves 16-byte rows"):
        rtl_gen.wavefronts(t * 16, width=8, instruction="ldmatrix")
    with pytest.raises(rtl_gen.RtlGenError, match="offsets: 6 is not on a 4-byte vector"):
        rtl_gen.wavefronts([0, 6], width=4)
    with pytest.raises(rtl_gen.RtlGenError, match="offsets: 33 threads a warp access: at most 32"):
        rtl_gen.wavefronts(np.arange(33) * 4)
