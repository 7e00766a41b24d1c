"""SimHash fingerprints: one 128-bit pass serves every size.

Each distinct feature gets a 128-bit mmh3 hash; bit i of the fingerprint is the
sign of the weighted sum of bit i over the features. Bits are independent, so the
f-bit fingerprint built from the low f bits of each hash is exactly the low f bits
of the 128-bit fingerprint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mmh3
import numpy as np

HashFn = Callable[[bytes], bytes]  # feature bytes -> 16 bytes, little-endian 128-bit value
_BLOCK = 1 << 15


def mmh3_128(data: bytes) -> bytes:
    return mmh3.hash_bytes(data, 0)


def simhash128(names: Sequence[str], weights: Sequence[float], hash_fn: HashFn | None = None) -> int:
    """The 128-bit SimHash of weighted features (0 when there are none)."""
    if len(names) != len(weights):
        raise ValueError("names and weights differ in length")
    if not names:
        return 0
    h = hash_fn or mmh3_128
    # Integer weights make the sums exact, so the result never depends on summation order.
    w_all = np.rint(np.asarray(weights, dtype=np.float64) * 1024.0).astype(np.int64)
    totals = np.zeros(128, dtype=np.int64)
    for start in range(0, len(names), _BLOCK):
        part = names[start : start + _BLOCK]
        raw = b"".join(h(n.encode("utf-8", "surrogatepass")) for n in part)
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8).reshape(len(part), 16),
                             axis=1, bitorder="little")
        totals += w_all[start : start + len(part)] @ bits.astype(np.int64)
    # bit set where the weighted "+1" mass exceeds half the total weight
    v = 2 * totals - w_all.sum()
    out = np.packbits(v > 0, bitorder="little")
    return int.from_bytes(out.tobytes(), "little")


def mask(bits: int) -> int:
    return (1 << bits) - 1


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def to_hex(fp: int, bits: int) -> str:
    return f"{fp & mask(bits):0{bits // 4}x}"


def split_words(fps: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """128-bit ints as two uint64 arrays (low word, high word)."""
    n = len(fps)
    lo = np.fromiter((f & 0xFFFFFFFFFFFFFFFF for f in fps), dtype=np.uint64, count=n)
    hi = np.fromiter((f >> 64 for f in fps), dtype=np.uint64, count=n)
    return lo, hi
