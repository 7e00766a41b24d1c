"""A second, linear candidate source: LSH bands over MinHash values of the per-file sketches.

At the loose candidate distances that verification needs (64 bits k=16, 128 bits k=26) no
pigeonhole split beats a quadratic scan, so on large folders candidates come from two
linear sources instead, and their union is verified as before:

1. SimHash pairs at a tight distance (the block index is fast there);
2. pairs whose bottom-k sketches (textsim: the 128 smallest 32-bit 5-gram hashes) collide
   in a band, kept only if their SimHash distance is within the loose distance too.

The MinHash values come from the sketches by one-permutation hashing: each sketch value goes
to one of ``BUCKETS`` buckets by a hash of the value, and a bucket's MinHash is its smallest
value (the sketch is sorted, so: its first value there). For two files, a bucket agrees with
probability about the Jaccard similarity of the two sketches as sets, which is about J of the
texts when their sizes are alike; an empty bucket takes the next non-empty bucket's value
(densified one-permutation hashing). ``BANDS`` bands of ``ROWS`` buckets: a pair becomes a
candidate when all buckets of some band agree, probability 1 - (1 - J^ROWS)^BANDS (J=0.7:
0.9998; J=0.5: 0.94; J=0.3: 0.44). A band bucket shared by more than ``_MAX_RUN`` files
(boilerplate) is left out. A bucket shared by more than ``DENSE_RUN`` files (a dense family:
hundreds of near-copies) gives each of its files a pair with its ``ANCHORS`` first files only,
not every pair: the stars need a reference's pairs with its members, and a family of n files
then costs about ANCHORS * n pairs, not n^2 / 2. Source 2 only adds pairs that
the loose-distance scan would have proposed, so the union's candidates are a subset of the
scan's; ``benchmarks/grouping.py`` measures how many of the scan's verified pairs it keeps.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..models import FileRecord
from ..textsim import EMPTY, SKETCH_K, sketch_array
from ..textsim import mix64 as _mix  # splitmix64's finaliser, shared
from .graph import CodeSet, pairs_of_codes, union_pairs
from .index import DENSE_RUN, anchor_pairs, run_pair_chunks

BUCKETS = 63
ROWS = 3
BANDS = BUCKETS // ROWS
_FILES_PER_PASS = 1 << 13  # (the hashes' temporaries: 1 << 15 took 126 MB, 1 << 13 about 32)
_MAX_RUN = 2000  # a band bucket shared by more files than this is boilerplate: left out


def minhashes(sk: np.ndarray) -> np.ndarray:
    """(n, BUCKETS) uint32 MinHash values of (n, SKETCH_K) sketches (see module doc);
    all EMPTY for a file without a sketch."""
    n = len(sk)
    out = np.full((n, BUCKETS), EMPTY, dtype=np.uint32)
    for s in range(0, n, _FILES_PER_PASS):
        part = sk[s : s + _FILES_PER_PASS]
        m = len(part)
        v = part.ravel()
        bucket = (_mix(v.astype(np.uint64)) % np.uint64(BUCKETS)).astype(np.int64)
        key = np.repeat(np.arange(m, dtype=np.int64) * BUCKETS, SKETCH_K) + bucket
        real = v != EMPTY
        flat = out[s : s + m].reshape(-1)
        np.minimum.at(flat, key[real], v[real])
    # densify: an empty bucket takes the value of the next non-empty one (cyclically), so
    # every band of a file with a sketch can collide (about 13 % of buckets are empty)
    for _ in range(BUCKETS - 1):
        empty = out == EMPTY
        if not empty.any():
            break
        out = np.where(empty, np.roll(out, -1, axis=1), out)
    return out


def record_minhashes(records: Sequence[FileRecord]) -> np.ndarray:
    """:func:`minhashes` of the ``records``' sketches, made _FILES_PER_PASS records at a
    time: the (n, SKETCH_K) sketch array of every record is never held (512 MB at a million
    records: the candidate step of benchmarks/grouping.py's million records peaked at 2,988 MB
    resident with it, 1,899 MB so; the same pairs)."""
    out = np.empty((len(records), BUCKETS), dtype=np.uint32)
    for s in range(0, len(records), _FILES_PER_PASS):
        part = records[s:s + _FILES_PER_PASS]
        out[s:s + len(part)] = minhashes(sketch_array((r.sketch for r in part), len(part)))
    return out


def band_keys(mh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, BANDS) uint64 keys of each file's bands (the band number mixed in, so keys of
    different bands never meet) and the (n, BANDS) mask of bands with no empty bucket."""
    keys = np.empty((len(mh), BANDS), dtype=np.uint64)
    full = np.empty((len(mh), BANDS), dtype=bool)
    for band in range(BANDS):
        cols = mh[:, band * ROWS : (band + 1) * ROWS].astype(np.uint64)
        full[:, band] = (cols != np.uint64(EMPTY)).all(axis=1)
        key = np.full(len(cols), ((band + 1) * 0x9E3779B97F4A7C15) & (2**64 - 1), dtype=np.uint64)
        for j in range(ROWS):
            key = _mix(key ^ cols[:, j])
        keys[:, band] = key
    return keys, full


PAIR_CHUNK = 1 << 20  # pairs made at once from runs before ``keep`` filters them (on the
# 768 MB tree the LSH step peaked at 199 MB more Python and numpy memory, 225 MB at 1 << 22)


def pairs_of_equal_keys(key: np.ndarray, ids: np.ndarray, keep=None) -> np.ndarray:
    """(m, 2) pairs of ``ids`` whose ``key`` is equal (runs longer than _MAX_RUN, a
    boilerplate bucket, are left out); unsorted, may repeat. ``keep(pairs) -> mask``
    filters them PAIR_CHUNK at a time, so files that all share keys (texts from one small
    vocabulary) never hold every raw pair in memory."""
    order = np.lexsort((ids, key))  # a run's files by id: its anchors are its first
    key, ids = key[order], ids[order]
    same = key[1:] == key[:-1]
    if not same.any():
        return np.zeros((0, 2), dtype=np.int64)
    start = np.flatnonzero(np.concatenate(([True], ~same)))
    length = np.diff(np.concatenate((start, [len(key)])))
    sel = (length > 1) & (length <= _MAX_RUN)
    start, length = start[sel], length[sel]
    dense = length > DENSE_RUN
    anchored = anchor_pairs(start[dense], length[dense], ids)
    start, length = start[~dense], length[~dense]
    out = [anchored[keep(anchored)] if keep is not None and len(anchored) else anchored]
    for pa, pb in run_pair_chunks(start, length, PAIR_CHUNK):
        pairs = np.stack((ids[pa], ids[pb]), axis=1)
        out.append(pairs[keep(pairs)] if keep is not None else pairs)
    return np.concatenate(out) if out else np.zeros((0, 2), dtype=np.int64)


def unique_pairs(pairs: np.ndarray, n: int) -> np.ndarray:
    """Pairs as (a < b), each once, sorted (graph.union_pairs: one int64 code a pair, sorted
    in place, which releases the GIL; numpy 2's hash-based np.unique held it 450-670 ms on
    the LSH pairs of 100,000 alike files, a frozen window when grouping runs on a GUI's
    worker thread)."""
    return union_pairs((np.sort(pairs, axis=1),), n).astype(np.int64, copy=False)


def band_pairs(mh: np.ndarray, keep=None) -> np.ndarray:
    """(m, 2) index pairs (a < b, each once, sorted; int32 below 2**31 files) that agree on
    every bucket of some band (and pass ``keep``, see pairs_of_equal_keys).

    The pairs found are kept as one int64 code each (a * n + b), folded (sorted, each once)
    when those not yet folded outnumber PAIR_CHUNK and the folded ones: on the 768 MB
    tree's 7.2 million pairs the candidate step (with union_pairs) peaked at 299 MB of
    Python and numpy memory, not 564 MB (tracemalloc, records included; the same pairs),
    and took 4.8 s, not 16.4 s (it folded at every band)."""
    n = len(mh)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    keys, full = band_keys(mh)
    idx = np.arange(n, dtype=np.int64)
    found = CodeSet(PAIR_CHUNK)  # (pairs repeat across bands)
    for b in range(BANDS):
        p = pairs_of_equal_keys(keys[full[:, b], b], idx[full[:, b]], keep)
        found.add(np.minimum(p[:, 0], p[:, 1]) * n + np.maximum(p[:, 0], p[:, 1]))
        del p
    return pairs_of_codes(found.sorted(), n)
