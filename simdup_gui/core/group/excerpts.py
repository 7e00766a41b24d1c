"""Excerpts: "A is inside B", a text mostly contained in a longer one (issue 41, part 3).

Beside the groups, pairs (part, whole) whose containment |P & W| / |P| of the 5-gram sets
(textsim.py) is at least CONTAINED and whose part has at most PART_AT_MOST of the whole's
distinct 5-grams. SimHash cannot propose them (a 30 % excerpt's fingerprint is far from the
whole's), nor can Jaccard (J of a 30 % truncation is 0.3), so candidates come from the
records' bottom-k sketches (the k smallest 32-bit 5-gram hashes of each text):

* an inverted index of sketch values pairs the texts that share at least MIN_SHARED of
  them (a value held by more than MAX_POSTING texts is a common 5-gram: no evidence, left
  out of both counts below);
* let t be the whole's k-th smallest value. Every 5-gram of the whole hashed below t is in
  its sketch, so for each value of the part's sketch at most t, "is it in the whole?" is
  answered exactly by "is it in the whole's sketch?". Those values of the part are a random
  sample of the part's 5-grams (hashes are uniform), so (shared values) / (part's values
  at most t) estimates the containment, from a sample of about k * |P| / |W| values (a
  whole whose sketch is not full is held whole: the estimate is exact);
* each part keeps its PER_PART best-estimated wholes (ranked by the estimate's posterior
  mean, so that a few shared values do not crowd out a large sample; the cost bound: the files read are at
  most PER_PART pairs a part; a part inside more wholes than that lists only those);
* an estimate of at least SURE from SURE_SAMPLE values or more is taken as it is; one
  between PROPOSE and SURE is measured exactly from the files (exact.Measurer.contained).

An excerpt much shorter than its whole (under about 2 % of it: k * |P| / |W| < MIN_SHARED)
leaves too few values in the sample to be found. Catalogued files (not here) are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..models import Excerpt, FileRecord
from ..textsim import EMPTY, sketch_array
from .exact import Measurer

CONTAINED = 0.90  # |P & W| / |P| at which P is an excerpt of W
PART_AT_MOST = 0.60  # a part has at most this share of the whole's distinct 5-grams
MIN_PART = 100  # distinct 5-grams (about 100 characters): a shorter text is inside too much
MAX_POSTING = 256  # texts holding one sketch value; more: a common 5-gram
MIN_SHARED = 2  # sketch values a candidate pair shares at least
PER_PART = 32  # wholes measured for one part at most (the best estimates)
PROPOSE = 0.60  # estimates below: not an excerpt
SURE = 0.98  # an estimate at least this, from at least SURE_SAMPLE values: not measured
SURE_SAMPLE = 48
BLOCK = 4096  # pairs whose samples are counted at once


KEY_BLOCK = 1 << 22  # candidate pairs made at once before the size filter thins them


def _shared(sk: np.ndarray, size: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, shared, clean): the row pairs i < j of sketches ``sk`` sharing at least
    MIN_SHARED values (common values left out) whose sizes (``size``: distinct 5-grams)
    allow one to be a part of the other, how many; ``clean``: ``sk`` with the common values
    replaced by EMPTY (rows sorted again).

    Pairs are made KEY_BLOCK at a time and those of near-equal sizes (copies, which are no
    excerpts of each other) dropped at once: on the 768 MB tree, nine copies of each of
    thousands of files made every pair of every posting list, 3.7 GB of keys and 65 s,
    before this filter."""
    n, k = sk.shape
    owner = np.repeat(np.arange(n, dtype=np.int64), k)
    vals = sk.ravel()
    keep = vals != EMPTY
    owner, vals = owner[keep], vals[keep]
    order = np.argsort(vals, kind="stable")  # (stable: owners ascending within a value)
    owner, vals = owner[order], vals[order]
    starts = np.flatnonzero(np.concatenate(([True], vals[1:] != vals[:-1])))
    lengths = np.diff(np.concatenate((starts, [len(vals)])))
    keys = [np.zeros(0, dtype=np.int64)]
    for length in np.unique(lengths[(lengths >= 2) & (lengths <= MAX_POSTING)]).tolist():
        runs = starts[lengths == length]
        a, b = np.triu_indices(length, 1)
        per = max(1, KEY_BLOCK // len(a))
        for c in range(0, len(runs), per):
            s = runs[c : c + per, None]
            oa, ob = owner[s + a].ravel(), owner[s + b].ravel()
            sa, sb = size[oa], size[ob]
            fit = np.minimum(sa, sb) <= PART_AT_MOST * np.maximum(sa, sb)
            keys.append(oa[fit] * n + ob[fit])
    uniq, shared = np.unique(np.concatenate(keys), return_counts=True)
    uniq, shared = uniq[shared >= MIN_SHARED], shared[shared >= MIN_SHARED]
    common = vals[starts[lengths > MAX_POSTING]]
    clean = np.sort(np.where(np.isin(sk, common), EMPTY, sk), axis=1) if len(common) else sk
    return uniq // n, uniq % n, shared, clean


def excerpt_candidates(records: Sequence[FileRecord]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(part, whole, estimate, sample) of the candidate excerpt pairs (record indices; the
    estimated containment and the number of the part's values it was estimated from, or
    -1 when exact), at most PER_PART a part, estimates at least PROPOSE."""
    idx = np.flatnonzero(np.fromiter((bool(r.sketch) and not r.catalog
                                      and r.shingles >= MIN_PART for r in records),
                                     dtype=bool, count=len(records)))
    none = np.zeros(0, dtype=np.int64)
    if len(idx) < 2:
        return none, none, np.zeros(0), none
    sk = sketch_array((records[i].sketch for i in idx.tolist()), len(idx))
    size = np.array([records[i].shingles for i in idx.tolist()], dtype=np.int64)
    i, j, shared, clean = _shared(sk, size)
    swap = size[i] > size[j]
    part, whole = np.where(swap, j, i), np.where(swap, i, j)
    fits = size[part] <= PART_AT_MOST * size[whole]
    part, whole, shared = part[fits], whole[fits], shared[fits]
    tau = sk[:, -1]  # the whole's k-th value (EMPTY when its sketch holds its whole set)
    sample = np.zeros(len(part), dtype=np.int64)
    for s in range(0, len(part), BLOCK):
        p = clean[part[s:s + BLOCK]]
        sample[s:s + BLOCK] = ((p <= tau[whole[s:s + BLOCK], None]) & (p != EMPTY)).sum(1)
    est = shared / np.maximum(sample, 1)
    sample[tau[whole] == EMPTY] = -1  # every value of the part was decided: exact
    keep = est >= PROPOSE
    part, whole, est, sample = part[keep], whole[keep], est[keep], sample[keep]
    # a part's wholes best first by (shared + 1) / (sample + 2), the estimate's posterior
    # mean: 3 of 3 values (0.8) ranks below 44 of 45 (0.96)
    order = np.lexsort((-(est * sample + 1) / (sample + 2), part))
    part, whole, est, sample = part[order], whole[order], est[order], sample[order]
    first = np.flatnonzero(np.concatenate(([True], part[1:] != part[:-1])))
    rank = np.arange(len(part)) - np.repeat(first, np.diff(np.concatenate((first,
                                                                           [len(part)]))))
    keep = rank < PER_PART
    return idx[part[keep]], idx[whole[keep]], est[keep], sample[keep]


POOL_ABOVE = 5_000  # doubtful pairs: more are measured on ``workers`` processes (a pool's
# start, about a second, is worth it only then); on the 768 MB tree, 97,452 pairs
MEASURE_BLOCK = 512  # doubtful pairs sent to the pool at once (the next block meanwhile)


def find_excerpts(records: Sequence[FileRecord], workers: int = 1, memo=None,
                  measure: Measurer | None = None) -> list[Excerpt]:
    """The excerpt pairs of ``records`` (module docstring), by the part's then the whole's
    path; ``measure``: what measures the doubtful ones from the files (None: a Measurer of
    ``records`` made here, on ``workers`` processes when more than POOL_ABOVE pairs are in
    doubt). ``memo`` (classes.RecordsMemo): found once per records list."""
    if memo is not None:
        return memo.excerpts(records, lambda: find_excerpts(records, workers, None, measure))
    part, whole, est, sample = excerpt_candidates(records)
    sure = (sample < 0) | ((est >= SURE) & (sample >= SURE_SAMPLE))
    own = measure is None and not sure.all()  # (no pair in doubt: no measurer)
    if own:
        pooled = workers if int((~sure).sum()) > POOL_ABOVE else 1
        measure = Measurer(records, workers=pooled, kind="contained")
    out: list[Excerpt] = []
    try:
        order = np.lexsort((part, whole)).tolist()  # a whole's pairs together: read once
        doubt = [(int(part[k]), int(whole[k])) for k in order if not sure[k]]
        blocks = [doubt[i : i + MEASURE_BLOCK] for i in range(0, len(doubt), MEASURE_BLOCK)]
        at = 0  # the next block to ask the pool for
        for k in order:
            p, w = int(part[k]), int(whole[k])
            if not sure[k] and at < len(blocks) and (p, w) == blocks[at][0]:
                nxt = blocks[at + 1] if at + 1 < len(blocks) else None  # a whole's pairs
                measure.prefetch(blocks[at], [w for _, w in blocks[at]],  # go to one worker
                                 ahead=[(nxt, [w for _, w in nxt])] if nxt else [])
                at += 1
            c = round(float(est[k]), 6) if sure[k] else measure.contained(p, w)
            if c is not None and c >= CONTAINED:
                out.append(Excerpt(p, w, c))
    finally:
        if own:
            measure.close()
    out.sort(key=lambda e: (records[e.part].path, records[e.whole].path))
    return out
