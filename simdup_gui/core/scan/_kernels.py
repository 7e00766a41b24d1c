"""Compiled kernels of the fingerprint path (numba), bit-identical to the numpy path: their
one namespace, which :func:`kernels.impl` returns (imported only through it: numba's import
costs about 0.4 s and 60 MB).

The numpy path (features.py, vocab.py, simhash.py, textsim.py) turns each token into an id
through a Python dict (one look-up per token), counts ids and word pairs with np.unique,
hashes word pairs 16 bytes per numpy pass and sums the SimHash through a bincount: about
half of a scan's CPU on a user-like mix. Here the same steps run as loops compiled by
numba, in two files by what they work on (each kernel calls only kernels of its own file:
numba's cache sees a change of that file only):

- ``_token_kernels``: tokens to vocabulary ids (:func:`token_ids`), jieba's cut straight to
  ids (:func:`cut_ids`, :func:`new_tokens`), and a file's features to its SimHash
  (:func:`fingerprint`);
- ``_text_kernels``: casefold(NFKC) by table (:func:`fold`), a chunk's feature text in one
  pass (:func:`prepare`), the definition's 5-gram hashes, sketches and set intersections.

Every result equals the numpy path's bit for bit (tests/core/scan/test_compiled_kernels.py
and the golden fingerprints run both). Where a kernel meets a case it does not handle (a
count beyond the log table, weights too large for exact sums) it says so and the caller
takes the numpy path.

numba compiles each kernel on first use and keeps the machine code in its cache (a folder
of ours in the user's cache folder, only this user's: numba_cache.py), so only the first
scan after an install pays the compile (tens of seconds). numba is used through its public
API only (``njit(cache=True, nogil=True)``: _njit.py). When they are used: kernels.py.
"""

from __future__ import annotations

import sys

import numpy as np

from ._text_kernels import (SKETCH_HASHED_MAX, count_hashed,  # noqa: F401
                            distinct_hashes, estimate_pairs, fold, gram_hashes, hashed_table,
                            intersect_count, intersect_hashed, prepare, sketch_hashes,
                            sketch_sorted)
from ._token_kernels import (cut_ids, fingerprint, mmh3_128, new_tokens, rehash,  # noqa: F401
                             token_ids)


def _exercise(k) -> None:
    """Call every kernel the scan's workers use, with tiny inputs and the argument types
    they get in a scan (so numba loads or compiles each specialisation now)."""
    one = np.frombuffer(b"ab\x1fcd", dtype=np.uint8)
    ids = np.empty(2, dtype=np.int32)
    keys = np.zeros((16, 2), dtype=np.uint64)
    vals = np.full(16, -1, dtype=np.int32)
    k.token_ids(one, 0, 0, keys, vals, 0, ids, np.empty(2, dtype=np.int64),
                np.empty((2, 2), dtype=np.uint64), np.zeros(0, dtype=np.int64))
    k.rehash(keys, vals, np.zeros((32, 2), dtype=np.uint64), np.full(32, -1, dtype=np.int32))
    # Code points come read-only to the cut's kernels (np.frombuffer, or vocab._ro of
    # prepare's output): one specialisation of cut_ids and new_tokens is loaded, not two.
    # prepare and gram_hashes get both (below). A trie of one word "ab":
    text = np.frombuffer(np.array([97, 98, 0x4E2D], dtype=np.uint32).tobytes(), dtype=np.uint32)
    root = np.zeros(0x80, dtype=np.int32)
    root[97] = 1
    k.cut_ids(text, 0, 0, root, np.array([1, 2, 3, 3], dtype=np.int32),
              np.array([0, 97, 98], dtype=np.int32), np.array([-1, -1, 0], dtype=np.int32),
              np.zeros(1), -1.0, np.full(1, 0xFF, dtype=np.uint8), np.full(1, -1, dtype=np.int32),
              np.full(16, -1, dtype=np.int32), np.zeros(16, dtype=np.uint64),
              np.full(16, -1, dtype=np.int32), keys.copy(), vals.copy(), 2,
              np.empty(3, dtype=np.int32), np.empty((2, 2), dtype=np.int64),
              np.empty((2, 2), dtype=np.uint64))
    k.fingerprint(ids, np.ones(2), keys[:2].copy(), np.zeros(4), np.zeros(2, dtype=np.int32), True)
    points = np.frombuffer(np.arange(9, dtype=np.uint32).tobytes(), dtype=np.uint32)
    # sketch_sorted and intersect_count for large files (sorted sets)
    k.sketch_hashes(k.gram_hashes(points), 4)
    k.sketch_sorted(np.sort(k.gram_hashes(points)), 4)
    d = k.distinct_hashes(k.gram_hashes(k.prepare(points, np.zeros(0x10000, dtype=np.uint8))[0]))
    k.intersect_hashed(d, d)
    k.count_hashed(*k.hashed_table(d), d)
    k.intersect_count(np.sort(d), np.sort(d))
    sk = np.full((2, 4), 0xFFFFFFFF, dtype=np.uint32)  # textsim.estimate's argument types
    pair = np.zeros(1, dtype=np.int64)
    k.estimate_pairs(sk, pair, pair, np.uint32(0xFFFFFFFF), np.zeros(1), np.zeros(1, np.bool_))
    z8 = np.zeros(1, dtype=np.uint64)
    k.new_tokens(text, np.array([[0, 2]], dtype=np.int64), z8,  # keys come contiguous
                 np.zeros(0x10000, dtype=np.uint8), np.zeros(16, dtype=np.uint8), 0,
                 np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.zeros(1, dtype=np.bool_), np.zeros(1), z8, np.zeros(1), 1.0, z8, 4.0,
                 8.0, np.zeros(1, dtype=np.int64))
    folded = k.fold(points, np.ones(12, dtype=np.bool_), np.arange(12, dtype=np.int32),
                    np.ones(12, dtype=np.uint8), np.arange(12, dtype=np.uint32))
    if folded is not None:  # (a fold's output is writable, and read-only points come too)
        k.prepare(folded, np.zeros(0x10000, dtype=np.uint8))


def warm() -> None:
    """Load every kernel (from numba's cache, or compile it: once per install, tens of
    seconds) with tiny inputs, so that the first file does not pay it."""
    _exercise(sys.modules[__name__])
