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

import threading
from collections.abc import Sequence

import numpy as np

from ..models import Excerpt, FileRecord
from ..textsim import EMPTY, sketch_array
from .exact import CONTAINED, Measurer

PART_AT_MOST = 0.60  # a part has at most this share of the whole's distinct 5-grams
MIN_PART = 100  # distinct 5-grams (about 100 characters): a shorter text is inside too much
MAX_POSTING = 256  # texts holding one sketch value; more: a common 5-gram
MIN_SHARED = 2  # sketch values a candidate pair shares at least
PER_PART = 32  # wholes measured for one part at most (the best estimates)
PROPOSE = 0.60  # estimates below: not an excerpt
SURE = 0.98  # an estimate at least this, from at least SURE_SAMPLE values: not measured
SURE_SAMPLE = 48
BLOCK = 4096  # pairs whose samples are counted at once


PAIR_BLOCK = 1 << 19  # candidate pairs counted at once (about 18 MB of temporaries)
ENTRY_BLOCK = 1 << 18  # posting entries whose wholes are placed at once (2 MB int64
# temporaries; 8 MB each at 1 << 20: see _postings)


def _shared(sk: np.ndarray, size: np.ndarray, in_place: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, shared, clean): the row pairs i < j of sketches ``sk`` sharing at least
    MIN_SHARED values (common values left out) whose sizes (``size``: distinct 5-grams)
    allow one to be a part of the other, how many, by i then j; ``clean``: ``sk`` with the
    common values replaced by EMPTY (rows sorted again).

    Rows are ranked by size, so in each posting list a text's possible wholes are a suffix
    of the texts after it (:func:`_postings`); only those pairs are made (copies, of
    near-equal sizes, never), PAIR_BLOCK at a time by parts (:func:`_count_block`), and
    only the pairs sharing MIN_SHARED values are kept. On the 768 MB tree (25.5 million
    such pairs, 2.5 million kept) the excerpt candidates' Python and numpy memory peaked at
    1,248 MB when every pair was made and counted at once, 210 MB by blocks (tracemalloc;
    the same pairs), and the scan's main process at 1.5 GB RSS in this step."""
    n = len(sk)
    rank = np.argsort(size, kind="stable")  # rank -> row, smallest text first
    key, shared, common = _ranked_pairs(sk, size, rank)
    for s in range(0, len(key), PAIR_BLOCK):  # ranks to rows, in place by blocks
        a, b = rank[key[s:s + PAIR_BLOCK] // n], rank[key[s:s + PAIR_BLOCK] % n]
        key[s:s + PAIR_BLOCK] = np.minimum(a, b) * n + np.maximum(a, b)
    order = np.argsort(key)
    key, shared = key[order], shared[order]
    del order
    idx = np.int32 if n < 1 << 31 else np.int64  # (half the bytes of the pairs kept)
    return ((key // n).astype(idx), (key % n).astype(idx), shared.astype(np.int32),
            _without(sk, common, sk if in_place else None))


def _ranked_pairs(sk: np.ndarray, size: np.ndarray, rank: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a * n + b, shared, common values): the pairs a < b of the rows of sketches ``sk``
    ranked by ``size`` (``rank``: rank -> row) that share at least MIN_SHARED values and
    whose sizes allow a to be a part of b, and how many values they share."""
    n = len(sk)
    owner, nxt, end, common = _postings(sk, size[rank], rank)
    per_owner = np.bincount(owner, weights=np.maximum(end - nxt, 0), minlength=n)
    by_owner = np.argsort(owner, kind="stable").astype(nxt.dtype)  # (int32: half the bytes)
    at = np.concatenate(([0], np.cumsum(np.bincount(owner, minlength=n))))
    cum = np.cumsum(per_owner)
    del per_owner
    found = [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint16))]
    lo = 0
    while lo < n:  # parts lo..hi-1 (by rank): about PAIR_BLOCK pairs
        base = cum[lo - 1] if lo else 0.0
        hi = max(lo + 1, int(np.searchsorted(cum, base + PAIR_BLOCK, side="right")))
        found.append(_count_block(by_owner[at[lo]:at[hi]], owner, nxt, end, lo, n))
        lo = hi
    del by_owner, owner, nxt, end  # (before the pairs found are joined)
    return (np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found]),
            common)


def _without(sk: np.ndarray, common: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``sk`` with the values in ``common`` (sorted) replaced by EMPTY, rows sorted again,
    into ``out`` (``sk`` itself: in place); by blocks of rows (np.isin over the whole array
    took 220 MB more on the 768 MB tree)."""
    if not len(common):
        return sk
    out = np.empty_like(sk) if out is None else out
    for s in range(0, len(sk), 1 << 13):
        part = sk[s:s + (1 << 13)]
        hit = common[np.minimum(np.searchsorted(common, part), len(common) - 1)] == part
        out[s:s + len(part)] = np.sort(np.where(hit, EMPTY, part), axis=1)
    return out


def _postings(sk: np.ndarray, size: np.ndarray, rank: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The entries of the posting lists of 2 to MAX_POSTING texts of sketches ``sk`` (rows
    by ``rank``; ``size``: their sizes by rank, ascending), value by value, rows ascending within a value: (each
    entry's row, where its possible wholes begin (the first entry of its list whose size
    allows it to hold this one: sizes only grow along a list), where its list ends), and
    the common values (in more than MAX_POSTING texts). Each entry is sorted as one uint64
    (value, row) in place: no permutation and gathered copies."""
    n, k = sk.shape
    key = np.empty((n, k), dtype="<u8")
    for s in range(0, n, 1 << 13):  # (by blocks: no gathered uint32 copy beside it, 27 MB
        key[s:s + (1 << 13)] = sk[rank[s:s + (1 << 13)]]  # of the 764 MB tree's: the
    # candidates' traced peak above their input 83 -> 75 MB, the same candidates)
    key <<= np.uint64(32)  # in place: one array of the entries
    key |= np.arange(n, dtype="<u8")[:, None]
    key = key.ravel()
    key.sort()  # values, then rows; EMPTY (the largest value) last
    real = int(np.searchsorted(key, np.uint64(EMPTY) << np.uint64(32)))
    halves = key[:real].view("<u4").reshape(-1, 2)  # (row, value): little-endian halves
    vals = halves[:, 1]  # (views: the lists' rows are copied only for the lists kept, a
    # third of the entries on the 764 MB tree, not every value and row; with ENTRY_BLOCK and
    # the pairs' rows and parts made by blocks (_shared, candidates_of), the candidates'
    # traced peak above their input there 110 -> 101 MB, the same candidates)
    new = np.empty(real, dtype=bool)
    new[:1] = True
    np.not_equal(vals[1:], vals[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    del new
    lengths = np.diff(np.concatenate((starts, [real])))
    common = vals[starts[lengths > MAX_POSTING]].copy()
    use = (lengths >= 2) & (lengths <= MAX_POSTING)
    owner = halves[:, 0][np.repeat(use, lengths)].view(np.int32)  # (rows < 2 ** 31)
    del key, halves, vals, starts
    lengths = lengths[use]
    idx = np.int32 if len(owner) < 1 << 31 else np.int64
    end = np.repeat(np.cumsum(lengths).astype(idx), lengths)
    # entry keys (list, size): sorted, since sizes grow along a list (made in place: with
    # the lists' keys kept beside them, the step peaked 56 MB higher on the 768 MB tree)
    top = int(size.max()) + 1 if n else 1
    entry = np.repeat(np.arange(len(lengths), dtype=np.int64) * top, lengths)
    for s in range(0, len(owner), ENTRY_BLOCK):
        entry[s:s + ENTRY_BLOCK] += size[owner[s:s + ENTRY_BLOCK]]
    nxt = np.empty(len(owner), dtype=idx)
    for s in range(0, len(owner), ENTRY_BLOCK):  # where each entry's wholes begin, by blocks
        own = size[owner[s:s + ENTRY_BLOCK]].astype(np.int64)
        # the smallest size of a whole of each entry: PART_AT_MOST * it >= the entry's size
        least = np.ceil(own / PART_AT_MOST).astype(np.int64)
        least += PART_AT_MOST * least < own
        least -= PART_AT_MOST * (least - 1) >= own
        at = np.searchsorted(entry, entry[s:s + len(own)] - own + np.minimum(least, top))
        nxt[s:s + len(own)] = np.maximum(at, np.arange(s + 1, s + len(own) + 1))
    return owner, nxt, end, common


def _count_block(entries: np.ndarray, owner: np.ndarray, nxt: np.ndarray, end: np.ndarray,
                 lo: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(a * n + b, shared): the pairs (a < b, by rank) whose part a holds one of
    ``entries`` and that share at least MIN_SHARED values (at most SKETCH_K)."""
    count = np.maximum(end[entries] - nxt[entries], 0)
    entries, count = entries[count > 0], count[count > 0]
    total = int(count.sum())
    if not total:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint16)
    off = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
    whole = owner[np.repeat(nxt[entries], count) + off]
    del off
    key = (np.repeat(owner[entries].astype(np.int64) - lo, count)) * n + whole
    del whole
    key.sort()
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    shared = np.diff(np.concatenate((starts, [len(key)])))
    keep = shared >= MIN_SHARED
    return key[starts[keep]] + lo * n, shared[keep].astype(np.uint16)


def excerpt_candidates(records: Sequence[FileRecord]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(part, whole, estimate, sample) of the candidate excerpt pairs (record indices; the
    estimated containment and the number of the part's values it was estimated from, or
    -1 when exact), at most PER_PART a part, estimates at least PROPOSE."""
    return candidates_of(*_sketches(records))


def _sketches(records: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(record indices, their sketches as rows, their sizes) of the texts that can be a part
    or a whole."""
    idx = np.flatnonzero(np.fromiter((bool(r.sketch) and not r.catalog
                                      and r.shingles >= MIN_PART for r in records),
                                     dtype=bool, count=len(records)))
    sk = sketch_array((records[i].sketch for i in idx.tolist()), len(idx))
    size = np.array([records[i].shingles for i in idx.tolist()], dtype=np.int64)
    return idx, sk, size


def candidates_of(idx: np.ndarray, sk: np.ndarray, size: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`excerpt_candidates` of the texts of :func:`_sketches` (numpy arrays alone:
    a worker process can find them, :func:`with_excerpts`). ``sk`` is taken: its common
    values are replaced where it is."""
    none = np.zeros(0, dtype=np.int64)
    if len(idx) < 2:
        return none, none, np.zeros(0), none
    tau = sk[:, -1].copy()  # the whole's k-th value (EMPTY when its sketch holds its whole set)
    i, j, shared, clean = _shared(sk, size, in_place=True)  # (``sk`` is the caller's to
    # give: made for this call, or sent to the candidates' process. Its common values are
    # taken out in place, not into a copy, which its caller kept beside it: 27 MB of the
    # 764 MB tree's; the candidates' traced peak above their input 101 -> 83 MB)
    del sk  # with int32 rows and the lists' keys made in place (_postings), the candidates'
    # peak on the 768 MB tree's records: +210 -> +123 MB tracemalloc, +218 -> +180 MB RSS;
    # with PAIR_BLOCK 1 << 19 (was 1 << 21), the entries' order in int32, the postings freed
    # before the pairs are joined and the estimates kept by blocks: 141 -> 112 MB traced
    # above its input, the same candidates, 3.9-4.2 CPU s (traced) either way
    part, whole, fits = np.empty_like(i), np.empty_like(j), np.empty(len(i), dtype=bool)
    for s in range(0, len(i), PAIR_BLOCK):  # the smaller text the part, by blocks
        a, b = i[s:s + PAIR_BLOCK], j[s:s + PAIR_BLOCK]
        sa, sb = size[a], size[b]
        swap = sa > sb
        part[s:s + PAIR_BLOCK], whole[s:s + PAIR_BLOCK] = np.where(swap, b, a), np.where(swap, a, b)
        fits[s:s + PAIR_BLOCK] = np.minimum(sa, sb) <= PART_AT_MOST * np.maximum(sa, sb)
    del i, j
    part, whole, shared = part[fits], whole[fits], shared[fits]
    del fits
    kept = [(part[:0], whole[:0], np.zeros(0), np.zeros(0, dtype=np.int64))]
    for s in range(0, len(part), BLOCK):  # estimated, and those under PROPOSE dropped, by
        # blocks (the 768 MB tree's 2.4 million pairs' estimates and samples were 38 MB)
        p, w = part[s:s + BLOCK], whole[s:s + BLOCK]
        c = clean[p]
        sample = ((c <= tau[w, None]) & (c != EMPTY)).sum(1)
        est = shared[s:s + BLOCK] / np.maximum(sample, 1)
        sample[tau[w] == EMPTY] = -1  # every value of the part was decided: exact
        keep = est >= PROPOSE
        kept.append((p[keep], w[keep], est[keep], sample[keep]))
    part, whole, est, sample = (np.concatenate(a) for a in zip(*kept, strict=True))
    # a part's wholes best first by (shared + 1) / (sample + 2), the estimate's posterior
    # mean: 3 of 3 values (0.8) ranks below 44 of 45 (0.96)
    order = np.lexsort((-(est * sample + 1) / (sample + 2), part))
    part, whole, est, sample = part[order], whole[order], est[order], sample[order]
    first = np.flatnonzero(np.concatenate(([True], part[1:] != part[:-1])))
    rank = np.arange(len(part)) - np.repeat(first, np.diff(np.concatenate((first,
                                                                           [len(part)]))))
    keep = rank < PER_PART
    return idx[part[keep]], idx[whole[keep]], est[keep], sample[keep]


def _measure_order(part: np.ndarray, whole: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """The order the pairs are measured in: a whole's pairs together (its file is read
    once), the wholes by their anchor, the part of theirs in the most doubtful pairs (not
    ``sure``), so that a part shared by many wholes is read once for a run of them rather
    than once a whole (a worker keeps the last 256 files read). On the 768 MB tree (97,452
    doubtful pairs of 23,901 files) the pool read 65,731 files by whole alone, 42,510 so,
    and its CPU in this step went from 36.8 to 26.4 s; a cold scan of the tree, with
    textsim.whole_lookup: 111.2 -> 98.6 CPU s of the process tree (medians of three)."""
    doubt = ~sure
    n = int(max(part.max(), whole.max())) + 1 if len(part) else 0
    shared = np.bincount(part[doubt], minlength=n)
    p, w = part[doubt], whole[doubt]
    by = np.lexsort((p, -shared[p], w))  # each whole's most shared part first
    first = by[np.concatenate(([True], w[by][1:] != w[by][:-1]))] if len(by) else by
    anchor = np.full(n, -1, dtype=np.int64)
    anchor[w[first]] = p[first]
    return np.lexsort((part, whole, anchor[whole]))


POOL_ABOVE = 1_000  # doubtful pairs: more are measured on ``workers`` processes. A pool's
# start took about a second once; forked from the warm fork server it costs about what
# reading 500 pairs here does (by numpy: this process loads no kernels for a small scan).
# At 5,000, a 25 MB mix (`mixcorpus.py --mb 25`, 4,206 doubtful pairs) measured them here:
# `alternate.py MIX 6`, a pool from 256 pairs against 5,000: 2.16 against 2.40 s median wall,
# 3.20 against 3.33 CPU s; a 5 MB mix (497 pairs, 8 rounds): 1.11 against 1.12 s, 1.41
# against 1.39 CPU s; the same groups and excerpts. The 764 MB tree: 97,452 pairs. Where
# workers are spawned (macOS, Windows: poolctx.forks_warm), not measured: 5,000 as before
POOL_ABOVE_SPAWNED = 5_000
MEASURE_BLOCK = 512  # doubtful pairs sent to the pool at once (the next block meanwhile)


def find_excerpts(records: Sequence[FileRecord], workers: int = 1, memo=None,
                  measure: Measurer | None = None, found: tuple | None = None,
                  store=None) -> list[Excerpt]:
    """The excerpt pairs of ``records`` (module docstring), by the part's then the whole's
    path; ``measure``: what measures the doubtful ones from the files (None: a Measurer of
    ``records`` made here, on ``workers`` processes when more than POOL_ABOVE pairs are in
    doubt, remembering what it measures in ``store``, the fingerprint cache). ``memo``
    (classes.RecordsMemo): found once per records list. ``found``: the candidates
    (:func:`excerpt_candidates`), when found already."""
    if memo is not None:
        return memo.excerpts(records, lambda: find_excerpts(records, workers, None, measure,
                                                            found, store))
    part, whole, est, sample = found if found is not None else excerpt_candidates(records)
    from ..scan.fingerprint import trim_heap

    trim_heap()  # the candidates' freed temporaries handed back before the files are read
    sure = (sample < 0) | ((est >= SURE) & (sample >= SURE_SAMPLE))
    own = measure is None and not sure.all()  # (no pair in doubt: no measurer)
    if own:
        from ..scan.poolctx import forks_warm

        above = POOL_ABOVE if forks_warm() else POOL_ABOVE_SPAWNED
        pooled = workers if int((~sure).sum()) > above else 1
        measure = Measurer(records, store, workers=pooled, kind="contained")
    out: list[Excerpt] = []
    try:
        order = _measure_order(part, whole, sure).tolist()
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


AHEAD_ABOVE = 2_000  # records: more (and more than one process to read with), and the
# candidates are found on a process of their own while the groups are made. It was 20,000:
# below, they were found here after the grouping, on one core. `alternate.py MIX N`, 2,000
# against 20,000 (the same groups and excerpts): a 100 MB mix (13,009 files, 5 rounds)
# 4.46 against 4.83 s median wall, 7.78 against 7.71 CPU s, peak PSS 313-314 MB either way
# (`coldscan.py --baseline`); a 25 MB mix (3,319 files, 6 rounds) 1.97 against 2.06 s.
# Where the process is spawned (macOS, Windows: poolctx.forks_warm), its start is an
# interpreter's, numpy's and the kernels': not measured there, 20,000 as before
AHEAD_ABOVE_SPAWNED = 20_000


def with_excerpts(records: Sequence[FileRecord], workers: int, memo, find: bool, grouping,
                  cache: tuple[str | None, bool] = (None, False)) -> tuple:
    """``grouping()``'s groups and plan and the excerpts of ``records``, as
    :func:`find_excerpts` finds them (none unless ``find``), remembering what they
    measure in the fingerprint cache ``cache`` (its path, and whether to use it). With
    ``workers`` > 1 and more than AHEAD_ABOVE records, the excerpt candidates are found on
    a process of their own while ``grouping()`` runs here: they depend on the texts alone,
    and while the grouping makes its candidates a core waits. A whole cold scan of the 768 MB tree
    (``benchmarks/largetree.py run TREE --rounds 3 --no-peer``, a11c552 against fe5dd52,
    ABBA, load 1.3-2): candidates + verify 28.5, 30.3, 34.3 -> 26.5, 27.8, 25.4 s; wall
    55.9, 58.9, 62.8 -> 59.4, 56.3, 56.0 s (the first pair's fingerprinting 25.0 against
    30.5 s: the load); peak PSS 695, 708, 731 -> 712, 745, 698 MB. Its answer is taken on a
    thread as it comes and the process ended then: held until the grouping's end, the peak
    PSS was 766, 779 MB (against 699, 679). A worker that fails leaves the candidates to be
    found here."""
    if not find:
        return *grouping(), []
    pool = _ahead_pool(records, workers, memo)
    if pool is None:
        grouped = grouping()
        return *grouped, _find_stored(records, workers, memo, None, cache)
    answer: list = []  # its one task's (WorkerDied if its worker ended)
    stop = threading.Event()  # the grouping failed (cancelled): the answer is not wanted

    def take() -> None:  # the answer taken as it comes and the process ended then, not
        try:  # kept (with its memory) until the grouping is done
            while not answer and pool.running and not stop.is_set():
                answer.extend(pool.wait(0.25))  # ([] when a worker ended getting ready)
        except RuntimeError:  # its workers kept ending as they started
            pass
        finally:
            pool.end()

    try:
        pool.submit(candidates_of, _sketches(records))
    except BaseException:
        pool.end()
        raise
    taker = threading.Thread(target=take, name="simdup-excerpt-candidates", daemon=True)
    taker.start()  # (from here on the pool is the thread's alone)
    try:
        grouped = grouping()
        taker.join()
    except BaseException:  # a failed grouping, or a Ctrl-C while the answer is awaited
        stop.set()
        taker.join()
        raise
    found = answer[0].value if answer and answer[0].error is None else None
    return *grouped, _find_stored(records, workers, memo, found, cache)


def _ahead_pool(records: Sequence[FileRecord], workers: int, memo):
    """The process to find the excerpt candidates on beside the grouping; None where they
    are found here after it: too few records or processes, the candidates remembered, or
    no worker that could be started (poolctx.PoolFailed)."""
    from ..scan.poolctx import PoolFailed, forks_warm, make_pool

    above = AHEAD_ABOVE if forks_warm() else AHEAD_ABOVE_SPAWNED
    if workers < 2 or len(records) <= above or (memo is not None
                                                and memo.knows_excerpts(records)):
        return None
    try:
        return make_pool(1)
    except PoolFailed:
        return None


def _find_stored(records: Sequence[FileRecord], workers: int, memo, found,
                 cache: tuple[str | None, bool]) -> list[Excerpt]:
    """:func:`find_excerpts` with the fingerprint cache ``cache`` (path, use) as its store."""
    from .cluster import pair_store

    if memo is not None and memo.knows_excerpts(records):  # (no cache opened for them)
        return find_excerpts(records, workers, memo)
    with pair_store(*cache) as store:
        return find_excerpts(records, workers, memo, found=found, store=store)
