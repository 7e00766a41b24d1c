"""Candidates for short texts from their sketches (issue 37, part 2).

A SimHash fingerprint backed by a few dozen words is unstable: two JSON fixtures or
``setup.cfg`` files of a few hundred characters at J 0.8 can lie 20 bits apart at 64 bits, so
the fingerprint index misses them (recall 0.90 in such a family at 64 bits k=16). A short
text's sketch, though, holds all or most of its 5-grams, so its candidates are found there:
a similarity join with a prefix filter (Chaudhuri et al. 2006; Bayardo et al. 2007).

Each short text's sketch values are ordered rarest first (by how many short texts hold
them); two sets with Jaccard >= t must share at least one of the first
``n - ceil(t * n) + 1`` values of each (their prefixes), so only prefix values are indexed and
joined. A value in more than MAX_POSTING prefixes (text every fixture holds) joins nothing:
such families are near-identical, and the fingerprint index finds them. Candidates are then
verified like any other (measure.py), where a short text's sketch estimate is its exact J
(a sketch that is not full holds the whole set). They must still lie within a looser SimHash
distance, LOOSER times the user's (at most half the bits): distance 0 still asks for equal
fingerprints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..models import FileRecord
from ..textsim import EMPTY, sketch_array
from .graph import union_pairs
from .index import run_pair_chunks

SHORT_FEATURES = 200  # words (features) behind a fingerprint; fewer: a short text
JOIN_J = 0.5  # the join's threshold: looser than any verdict (DIFFERENT_BELOW), a proposal
LOOSER = 2  # a short text's pair joins within this many times the candidate distance
MAX_POSTING = 64  # classes sharing one prefix value; more: a dense family, left to the
# fingerprint index and the LSH bands (at 2,000, 10,000 tiny files in families of 500 took the
# join to 4.2 GB and 9.5 s, 186 MB and 0.6 s at 64; the same groups on the released versions)
PAIR_CHUNK = 1 << 20  # pairs of prefix values filtered at once (then kept once each): all
# of them at once, before the filters, took the step to 490 MB of Python and numpy memory
# on the 768 MB tree (tracemalloc, records included), by chunks 243 MB


def short_classes(records: Sequence[FileRecord], first: np.ndarray) -> np.ndarray:
    """The classes (by their first record) whose text is short and has a sketch."""
    return np.flatnonzero(np.fromiter(
        ((0 < records[i].features < SHORT_FEATURES) and len(records[i].sketch) > 0
         for i in first.tolist()), dtype=bool, count=len(first)))


PACK_BITS = 63  # keys packed into one int64 and sorted (tests: 0 takes the lexsorts)


def _prefixes(owner: np.ndarray, vals: np.ndarray, n: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(owner, token, sizes): the prefix entries of ``n`` texts' sketch values (``owner``
    ascending, ``vals`` their values), sorted by token (the value's rank) then owner, and
    each text's number of values. A text's values go rarest first (then by value); its
    prefix: the first size - ceil(JOIN_J * size) + 1. The keys are packed into one int64
    and sorted where np.unique and two lexsorts were, in int32 where they fit: 100,000
    texts of 128 values each, 12.1 -> 2.3 CPU s (the same entries); the join was 6.5 of the
    36.5 s of grouping benchmarks/tiny_tree.py's 100,000 tiny files (cProfile, warm). Its
    peak there (main RSS while it runs, warm): 968 MB with int64 keys decoded, 585 MB so
    (tracemalloc on 12.8 million values: 574 MB with np.unique, 260 MB so)."""
    if not len(vals):  # (no short text with a value: sketches all padding)
        none = np.zeros(0, dtype=np.int32)
        return none, none, np.zeros(n, dtype=np.int64)
    key = vals.astype(np.uint64)
    key <<= np.uint64(32)
    key |= np.arange(len(vals), dtype=np.uint64)
    key.sort()  # by value, then position (fewer than 2 ** 32 values)
    pos = (key & np.uint64(0xFFFFFFFF)).astype(np.int32)
    key >>= np.uint64(32)
    new = np.empty(len(key), dtype=bool)
    new[:1] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    del key
    ids = np.cumsum(new, dtype=np.int32)
    ids -= 1
    del new
    inv = np.empty(len(vals), dtype=np.int32)  # each value's rank among the distinct ones
    inv[pos] = ids
    del pos
    freq = np.bincount(ids)
    del ids
    sizes = np.bincount(owner, minlength=n)
    ob, tb = max(1, n.bit_length()), max(1, len(freq).bit_length())
    fb = max(1, int(freq.max()).bit_length())
    if ob + fb + tb <= PACK_BITS:  # by (owner, frequency, value): owner's blocks stay put
        packed = owner.astype(np.int64)
        packed <<= fb
        packed |= freq[inv]
        packed <<= tb
        packed |= inv
        packed.sort()
        packed &= (1 << tb) - 1
        token = packed.astype(np.int32)
        del packed
    else:
        token = inv[np.lexsort((inv, freq[inv], owner))]
    del inv
    rank = np.arange(len(owner), dtype=np.int32)
    rank -= np.repeat((np.cumsum(sizes) - sizes).astype(np.int32), sizes)
    inside = rank < np.repeat((sizes - np.ceil(JOIN_J * sizes) + 1).astype(np.int32), sizes)
    del rank
    owner, token = owner[inside], token[inside]
    if ob + tb > PACK_BITS:
        by = np.lexsort((owner, token))
        return owner[by], token[by], sizes
    packed = token.astype(np.int64)
    packed <<= ob
    packed |= owner
    del owner, token
    packed.sort()
    return ((packed & ((1 << ob) - 1)).astype(np.int32), (packed >> ob).astype(np.int32),
            sizes)


def short_pairs(records: Sequence[FileRecord], first: np.ndarray,
                within=None, wanted: np.ndarray | None = None) -> np.ndarray:
    """Class pairs of short texts whose sketches may be at least JOIN_J similar (each once,
    a < b), found by the prefix filter (module docstring); ``within(pairs)``: which of
    them lie within the looser distance (None: all). ``wanted``: which classes a pair
    must hold one of (the files here, not a catalog's: None, any); the prefix values
    held by none of them join nothing."""
    cls = short_classes(records, first)
    if len(cls) < 2:
        return np.zeros((0, 2), dtype=np.int64)
    sk = sketch_array((records[i].sketch for i in first[cls].tolist()), len(cls))
    owner = np.repeat(np.arange(len(cls), dtype=np.int32), sk.shape[1])
    vals = sk.ravel()
    keep = vals != EMPTY
    owner, vals = owner[keep], vals[keep]
    owner, token, sizes = _prefixes(owner, vals, len(cls))
    starts = np.flatnonzero(np.concatenate(([True], token[1:] != token[:-1])))
    lengths = np.diff(np.concatenate((starts, [len(token)])))
    mine = None if wanted is None else wanted[cls]

    def kept(p: np.ndarray) -> np.ndarray:
        """Of local pairs ``p`` (a < b), those that hold a wanted class, pass the size
        filter and lie ``within``, as class pairs."""
        if mine is not None:
            p = p[mine[p[:, 0]] | mine[p[:, 1]]]
        na, nb = sizes[p[:, 0]], sizes[p[:, 1]]
        p = cls[p[np.minimum(na, nb) >= JOIN_J * np.maximum(na, nb)]]  # the size filter
        return p if within is None or not len(p) else p[within(p)]

    two = starts[lengths == 2]  # most shared values: one pair, made at once
    if mine is not None:
        two = two[mine[owner[two]] | mine[owner[two + 1]]]
    out = [kept(np.stack((owner[two], owner[two + 1]), axis=1))]
    sel = (lengths > 2) & (lengths <= MAX_POSTING)
    if mine is not None and sel.any():  # lists that hold a wanted class
        sel[sel] = np.add.reduceat(mine[owner].astype(np.int64), starts)[sel] > 0
    start, length = starts[sel], lengths[sel]
    for pa, pb in run_pair_chunks(start, length, PAIR_CHUNK):
        out.append(kept(np.stack((owner[pa], owner[pb]), axis=1)))
    return union_pairs(out, len(first))
