"""bitdiff: the bits, blocks and grid the bit diff view paints."""

import pytest

from simdup_gui.core.review.bitdiff import GRID, bit_diff


def test_differing_bits_distance_and_hex():
    d = bit_diff(0b1010, 0b0011, 16, 3)
    assert d.differing == (0, 3)
    assert d.distance == 2 and d.similarity == pytest.approx(1 - 2 / 16)
    assert d.within_limit
    assert (d.hex_a, d.hex_b) == ("000a", "0003")
    assert d.a[:4] == (0, 1, 0, 1) and d.b[:4] == (1, 1, 0, 0)


def test_only_the_low_bits_of_a_128_bit_fingerprint_count():
    d = bit_diff((1 << 100) | 1, 1, 64, 4)
    assert d.distance == 0 and d.hex_a == "0000000000000001"


def test_beyond_the_limit():
    assert not bit_diff(0, 0xFF, 16, 2).within_limit


@pytest.mark.parametrize("bits", [16, 32, 64, 128])
def test_blocks_cover_every_bit_once_and_the_grid_fits(bits):
    d = bit_diff(0, 1, bits, 3)
    covered = [b for s, w in d.blocks for b in range(s, s + w)]
    assert sorted(covered) == list(range(bits))
    assert (d.columns, d.rows) == GRID[bits] and d.columns * d.rows == bits
    assert [d.block_of(b) for b in range(bits)] == sorted(d.block_of(b) for b in range(bits))
    with pytest.raises(IndexError):
        d.block_of(bits)


def test_matching_blocks_are_those_without_a_differing_bit():
    d = bit_diff(0, 1 << 63, 64, 3)
    differing_block = d.block_of(63)
    assert differing_block not in d.matching_blocks
    assert len(d.matching_blocks) == len(d.blocks) - 1


def test_cells_run_from_the_most_significant_bit():
    d = bit_diff(0, 0, 64, 3)
    assert d.cell(63) == (0, 0) and d.cell(0) == (7, 7) and d.cell(56) == (0, 7)
