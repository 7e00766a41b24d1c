"""SimHash fingerprints: one 128-bit pass serves every size.

Each distinct feature gets a 128-bit mmh3 hash (a word: of its UTF-8 bytes; a pair of
adjacent words, named ``a + "\x1f" + b``: of the 32 bytes of the two words' hashes,
:func:`pair_hash`); bit i of the fingerprint is the sign of the weighted sum of bit i over
the features. Bits are independent, so the
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


PAIR_SEP = "\x1f"  # between the words of a pair feature's name (whitespace: never in the scan's words)


def pair_hash(a: bytes, b: bytes, hash_fn: HashFn | None = None) -> bytes:
    """The hash of the word pair (a, b) (UTF-8 bytes): the hash of the 32 bytes of the two
    words' hashes. Each word's hash is at hand already, so the scan never gathers a pair's
    bytes (the compiled kernel: _token_kernels.mmh3_pair)."""
    h = hash_fn or mmh3_128
    return h(h(a) + h(b))


def feature_hash(name: str, hash_fn: HashFn | None = None) -> bytes:
    """The 16-byte hash of a feature by its name: a word's, or a pair's (``a + PAIR_SEP + b``,
    :func:`pair_hash`)."""
    raw = name.encode("utf-8", "surrogatepass")
    a, sep, b = raw.partition(PAIR_SEP.encode())
    if sep:
        return pair_hash(a, b, hash_fn)
    return (hash_fn or mmh3_128)(raw)


def simhash128(names: Sequence[str], weights: Sequence[float], hash_fn: HashFn | None = None,
               pairs: Sequence[tuple[str, str]] | None = None) -> int:
    """The 128-bit SimHash of weighted features (0 when there are none), each hashed with
    ``hash_fn`` (mmh3 128 by default). ``pairs``: the words of the last ``len(pairs)``
    features, which are word pairs (features.Features.pairs), the others being words hashed
    whole; without it a name holding U+001F is taken for a pair (:func:`feature_hash`)."""
    if len(names) != len(weights):
        raise ValueError("names and weights differ in length")
    if not names:
        return 0
    h = hash_fn or mmh3_128
    first = len(names) if pairs is None else len(names) - len(pairs)

    def digest(i: int) -> bytes:
        if pairs is None:
            return feature_hash(names[i], hash_fn)
        if i < first:
            return h(names[i].encode("utf-8", "surrogatepass"))
        a, b = pairs[i - first]
        return pair_hash(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"),
                         hash_fn)

    # Integer weights make the sums exact, so the result never depends on summation order.
    w_all = np.rint(np.asarray(weights, dtype=np.float64) * 1024.0).astype(np.int64)
    totals = np.zeros(128, dtype=np.int64)
    for start in range(0, len(names), _BLOCK):
        stop = min(start + _BLOCK, len(names))
        raw = b"".join(digest(i) for i in range(start, stop))
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8).reshape(stop - start, 16),
                             axis=1, bitorder="little")
        totals += w_all[start:stop] @ bits.astype(np.int64)
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


# --- vectorised MurmurHash3 x64 128 (bit-identical to mmh3.hash_bytes(data, 0)) ---------

_C1 = np.uint64(0x87C37B91114253D5)
_C2 = np.uint64(0x4CF5AD432745937F)
_F1 = np.uint64(0xFF51AFD7ED558CCD)
_F2 = np.uint64(0xC4CEB9FE1A85EC53)
_AR16 = np.arange(16, dtype=np.int64)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _fmix(k: np.ndarray) -> np.ndarray:
    k ^= k >> np.uint64(33)
    k *= _F1
    k ^= k >> np.uint64(33)
    k *= _F2
    k ^= k >> np.uint64(33)
    return k


_TAIL_MASK1 = np.array([(1 << (8 * min(t, 8))) - 1 for t in range(16)], dtype=np.uint64)
_TAIL_MASK2 = np.array([(1 << (8 * max(t - 8, 0))) - 1 for t in range(16)], dtype=np.uint64)


def mmh3_128_many(buf: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """MurmurHash3_x64_128 (seed 0) of every slice ``buf[s:s+l]``, all at once.

    Returns an (n, 2) uint64 array (h1, h2): as little-endian bytes, row i equals
    ``mmh3.hash_bytes(bytes(buf[s:s+l]), 0)``. One numpy pass per 16-byte block
    instead of one Python call per feature; 8-byte words are read through a view of
    the buffer with a one-byte stride (every offset is a little-endian uint64).
    """
    n = len(starts)
    out = np.empty((n, 2), dtype=np.uint64)
    if n == 0:
        return out
    # room to read 16 bytes past any start
    padded = np.concatenate((np.asarray(buf, dtype=np.uint8), np.zeros(16, dtype=np.uint8)))
    word_at = np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    starts = np.asarray(starts, dtype=np.int64)
    lens = np.asarray(lens, dtype=np.int64)
    nblocks = lens >> 4
    h1 = np.zeros(n, dtype=np.uint64)
    h2 = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(int(nblocks.max())):
            act = np.flatnonzero(nblocks > j)
            pos = starts[act] + 16 * j
            k1 = word_at[pos]
            k2 = word_at[pos + 8]
            a1, a2 = h1[act], h2[act]
            k1 *= _C1
            k1 = _rotl(k1, 31)
            k1 *= _C2
            a1 ^= k1
            a1 = _rotl(a1, 27)
            a1 += a2
            a1 = a1 * np.uint64(5) + np.uint64(0x52DCE729)
            k2 *= _C2
            k2 = _rotl(k2, 33)
            k2 *= _C1
            a2 ^= k2
            a2 = _rotl(a2, 31)
            a2 += a1
            a2 = a2 * np.uint64(5) + np.uint64(0x38495AB5)
            h1[act], h2[act] = a1, a2
        tail = lens & 15
        pos = starts + 16 * nblocks
        k1 = word_at[pos] & _TAIL_MASK1[tail]
        k2 = word_at[pos + 8] & _TAIL_MASK2[tail]
        # a zero tail word leaves h unchanged (k * c == 0), as in the reference's skip
        k2 *= _C2
        k2 = _rotl(k2, 33)
        k2 *= _C1
        h2 ^= k2
        k1 *= _C1
        k1 = _rotl(k1, 31)
        k1 *= _C2
        h1 ^= k1
        ln = lens.astype(np.uint64)
        h1 ^= ln
        h2 ^= ln
        h1 += h2
        h2 += h1
        h1 = _fmix(h1)
        h2 = _fmix(h2)
        h1 += h2
        h2 += h1
    out[:, 0] = h1
    out[:, 1] = h2
    return out


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                           bitorder="little").astype(np.float64)  # (256, 8): bit j of byte v
_BYTE_OFFSETS = (np.arange(16, dtype=np.intp) * 256)[None, :]


def simhash128_hashed(hashes: np.ndarray, weights) -> int:
    """The 128-bit SimHash from per-feature (h1, h2) hashes and float weights.

    Same arithmetic as :func:`simhash128` (weights rounded to 1/1024, exact sums).
    Instead of unpacking 128 bits per feature, weights are summed per (byte position,
    byte value) with one bincount, and each bit's total is read from those 16 x 256
    sums. Every value is an integer below 2**52 held in float64, so sums are exact.
    """
    n = len(hashes)
    if n == 0:
        return 0
    w_all = np.rint(np.asarray(weights, dtype=np.float64) * 1024.0).astype(np.int64)
    if int(np.abs(w_all).sum()) >= 1 << 52:
        raise OverflowError("feature weights too large for exact float64 sums")
    w_f = w_all.astype(np.float64)
    raw = np.ascontiguousarray(hashes, dtype="<u8").view(np.uint8).reshape(n, 16)
    if n < 256:  # few features: unpacking 128 bits each costs less than the bincount
        v = 2 * (w_f @ np.unpackbits(raw, axis=1, bitorder="little")) - w_f.sum()
        return int.from_bytes(np.packbits(v > 0, bitorder="little").tobytes(), "little")
    idx = (raw + _BYTE_OFFSETS).ravel()
    sums = np.bincount(idx, weights=np.repeat(w_f, 16), minlength=16 * 256)
    totals = (sums.reshape(16, 256) @ _BYTE_BITS).ravel().astype(np.int64)
    v = 2 * totals - w_all.sum()
    out = np.packbits(v > 0, bitorder="little")
    return int.from_bytes(out.tobytes(), "little")
