"""What the bit-level diff view shows, as plain data a test can check without pixels."""

from __future__ import annotations

from dataclasses import dataclass

from ..group.index import block_bounds, plan
from ..scan.simhash import to_hex

GRID = {16: (4, 4), 32: (8, 4), 64: (8, 8), 128: (16, 8)}  # (columns, rows)


@dataclass(frozen=True, slots=True)
class BitDiff:
    bits: int
    distance_limit: int
    columns: int
    rows: int
    a: tuple[int, ...]  # bit values, index 0 = least significant bit
    b: tuple[int, ...]
    differing: tuple[int, ...]  # bit indices where a and b differ
    blocks: tuple[tuple[int, int], ...]  # (start, width) of the index's blocks
    matching_blocks: tuple[int, ...]  # blocks equal in a and b
    hex_a: str
    hex_b: str

    @property
    def distance(self) -> int:
        return len(self.differing)

    @property
    def similarity(self) -> float:
        return 1.0 - self.distance / self.bits

    @property
    def within_limit(self) -> bool:
        return self.distance <= self.distance_limit

    def block_of(self, bit: int) -> int:
        for i, (s, w) in enumerate(self.blocks):
            if s <= bit < s + w:
                return i
        raise IndexError(bit)

    def cell(self, bit: int) -> tuple[int, int]:
        """(row, column) of a bit in the grid, most significant bit first."""
        pos = self.bits - 1 - bit
        return divmod(pos, self.columns)


def bit_diff(fp_a: int, fp_b: int, bits: int, distance: int, n: int = 10_000) -> BitDiff:
    """Compare two fingerprints at ``bits``; blocks are those the index would use at ``n``."""
    m = (1 << bits) - 1
    a, b = fp_a & m, fp_b & m
    p = plan(max(2, n), bits, distance)
    nblocks = p.blocks if p.strategy == "blocks" else min(bits, distance + 1)
    bounds = tuple(block_bounds(bits, max(1, nblocks)))
    av = tuple((a >> i) & 1 for i in range(bits))
    bv = tuple((b >> i) & 1 for i in range(bits))
    diff = tuple(i for i in range(bits) if av[i] != bv[i])
    x = a ^ b
    matching = tuple(i for i, (s, w) in enumerate(bounds) if (x >> s) & ((1 << w) - 1) == 0)
    cols, rows = GRID[bits]
    return BitDiff(bits, distance, cols, rows, av, bv, diff, bounds, matching,
                   to_hex(a, bits), to_hex(b, bits))
