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
    owner = np.repeat(np.arange(len(cls)), sk.shape[1])
    vals = sk.ravel()
    keep = vals != EMPTY
    owner, vals = owner[keep], vals[keep]
    uniq, inv, freq = np.unique(vals, return_inverse=True, return_counts=True)
    # each text's values rarest first; its prefix: the first n - ceil(t n) + 1
    order = np.lexsort((vals, freq[inv], owner))
    owner, token = owner[order], inv[order]
    sizes = np.bincount(owner, minlength=len(cls))
    start = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    prefix = sizes - np.ceil(JOIN_J * sizes).astype(np.int64) + 1
    rank = np.arange(len(owner)) - start[owner]
    inside = rank < prefix[owner]
    owner, token = owner[inside], token[inside]
    by = np.lexsort((owner, token))
    owner, token = owner[by], token[by]
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
