"""Stage 2 of verified grouping: each candidate pair measured by its text similarity.

SimHash distance only proposes pairs. Each candidate pair is verified by its text
similarity (textsim: 5-gram Jaccard of the normalised texts), estimated from the files'
512-byte sketches; a pair whose estimate falls within ``MARGIN`` of the threshold (and
whose sets are not both held whole by their sketches) is measured exactly from the files
when a measurer is given (exact.py's :class:`Measurer`). Only verified pairs make groups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .candidates import Candidates
from .edges import PairGraph
from .graph import component_order
from ..job import NULL_JOB, Job
from ..models import FileRecord, ProgressEvent
from ..textsim import estimate, sketch_array

# Estimates this close to the threshold are measured exactly (k=128: about 2 sd at J=0.7).
# On the dev corpus, estimates that land on the wrong side of 0.70 were all within 0.08
# but one (117 within 0.04, 18 within 0.04-0.08, 1 within 0.08-0.12, of 1,180 pairs).
MARGIN = 0.08
PREFETCH_PAIRS = 512  # doubtful pairs measured together (one or more components: 400 MB mix,
# 15,654 files in 28,532 pairs: 128 a block read 18,700 files, 512 16,100)

Measure = Callable[[int, int], "float | None"]


@dataclass(slots=True)
class VerifyStats:
    candidates: int = 0  # candidate pairs of distinct texts proposed by SimHash
    estimated: int = 0  # of them, verified from the sketches alone
    measured: int = 0  # of them, measured exactly from the files
    verified: int = 0  # pairs at or above the threshold

    def describe(self) -> str:
        return (f"{self.candidates} candidate pairs, {self.verified} verified at the threshold "
                f"({self.measured} measured from the files, {self.estimated} from sketches)")


@dataclass
class Verified:
    """The class pairs at or above the threshold, their similarity and whether it was
    measured exactly (or is exact from sketches that hold both sets whole)."""

    pairs: np.ndarray
    sim: np.ndarray
    exact: np.ndarray
    stats: VerifyStats = field(default_factory=VerifyStats)


def check_threshold(similarity: float) -> float:
    if not 0.0 < float(similarity) <= 1.0:
        raise ValueError(f"similarity must be in (0, 1], not {similarity}")
    return float(similarity)


def measure_candidates(records: Sequence[FileRecord], found: Candidates, threshold: float,
                       measure: Measure | None = None, job: Job = NULL_JOB) -> Verified:
    """The candidates ``found`` that reach ``threshold`` (:func:`verified_pairs`)."""
    job.check()
    stats = VerifyStats()
    pairs, sim, exact = verified_pairs(records, found.pairs, found.first, threshold, measure,
                                       stats, found.estimates, job)
    return Verified(pairs, sim, exact, stats)


EAGER_UP_TO = 64  # classes: a component this small has its doubtful pairs measured at once
RESOLVE_ALL = False  # tests: measure every doubtful pair first (the exhaustive path)


def candidate_graph(records: Sequence[FileRecord], found: Candidates, threshold: float,
                    measure: Measure | None = None, stats: VerifyStats | None = None,
                    job: Job = NULL_JOB) -> PairGraph:
    """The candidates ``found`` as a graph of the pairs that may reach ``threshold``, their
    doubtful pairs measured when the stars ask (edges.py), those of components of at most
    EAGER_UP_TO classes at once now. ``stats`` counts what is measured.

    The graph then holds every pair the grouping needs, so ``found.pairs`` (and its cluster
    estimates) is released, left empty, and the heap the estimates freed is handed back to
    the system (trim_heap): the 768 MB tree's 7.6 million candidate pairs (61 MB) were
    held through the stars and their verification, and the main process's resident size
    stayed near its peak (grouping that tree's records: 399 MB RSS during the stars
    before, 328 MB with this; the whole scan's main RSS peak went from 1,478 MB at 308c39d
    to 512 MB with this and the blocked steps)."""
    job.check()
    stats = stats if stats is not None else VerifyStats()
    stats.candidates = len(found.pairs)
    pairs, sim, exact, doubt = (_from_sketches(records, found.pairs, found.first, threshold,
                                               found.estimates) if len(found.pairs) else
                                (found.pairs, np.zeros(0), np.zeros(0, dtype=bool),
                                 np.zeros(0, dtype=bool)))
    graph = PairGraph(len(found.members), pairs, sim, exact, doubt, threshold)
    del pairs, sim, exact, doubt
    found.pairs, found.estimates = found.pairs[:0], None  # released: see the docstring
    from ..scan.fingerprint import trim_heap

    trim_heap()
    if measure is not None:
        graph.measure_with(lambda rows: _measure_doubtful(
            graph.pairs, found.first, rows, graph.sim, graph.exact, measure, stats, job))
    graph.resolve_small(EAGER_UP_TO)
    if RESOLVE_ALL:
        graph.resolve_all()
    return graph


def verified_pairs(records: Sequence[FileRecord], cpairs: np.ndarray, first: np.ndarray,
                   threshold: float, measure: Measure | None, stats: VerifyStats,
                   estimates: tuple[np.ndarray, np.ndarray] | None = None,
                   job: Job = NULL_JOB) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of class pairs ``cpairs`` (first record of each class in ``first``), those at or
    above ``threshold``: (pairs, similarity, measured exactly?). ``estimates``: the sketch
    estimates (and held-whole flags) of ``cpairs`` when already made (on a cluster)."""
    stats.candidates = len(cpairs)
    if not len(cpairs):
        return cpairs, np.zeros(0), np.zeros(0, dtype=bool)
    cpairs, sim, exact, doubt = _from_sketches(records, cpairs, first, threshold, estimates)
    if measure is not None:
        _measure_doubtful(cpairs, first, np.flatnonzero(doubt), sim, exact, measure, stats,
                          job)
    stats.estimated = int(stats.candidates - stats.measured)
    ok = sim >= threshold
    stats.verified = int(ok.sum())
    return cpairs[ok], sim[ok], exact[ok]


ESTIMATE_BLOCK = 1 << 18  # candidate pairs estimated at once (about 20 MB of temporaries)
# From this many candidate pairs the grouping loads the compiled kernels (kernels.settle) for
# textsim.estimate's merge (and, loaded, the files this process reads itself use them too);
# below, numpy's. numba costs the scan's process 55-90 MB, which the 500 MB target of a cold
# scan of the 764 MB tree (1.1 million pairs) cannot afford; without it that scan took 3-7 %
# more CPU (its estimates 1.66 CPU s against 1.0 plus 0.4 of loading; its own reads of
# doubtful pairs' files; docs/performance.md). A million synthetic records
# (benchmarks/grouping.py, 517,000 pairs, nothing read) group in 31.0 s against 31.5. The
# 100,000 tiny files warm (benchmarks/tiny_tree.py, 11 million pairs): 20.0 CPU s and 789 MB
# PSS compiled, 23.8 s and 697 MB numpy.
COMPILED_PAIRS = 4_000_000


def _from_sketches(records: Sequence[FileRecord], cpairs: np.ndarray, first: np.ndarray,
                   threshold: float, estimates: tuple[np.ndarray, np.ndarray] | None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of ``cpairs`` that may reach ``threshold`` (their estimate does, or they are
    in doubt), with (each one's similarity by its sketches, exact?, in doubt?): a pair is in
    doubt when a file has no sketch, or its estimate is within MARGIN of ``threshold`` and
    not exact. The others are dropped as each block of ESTIMATE_BLOCK pairs is estimated:
    nothing measures or groups them. On the 768 MB tree 1.3 of 7.6 million pairs are kept;
    estimating them all at once peaked at 720 MB of Python and numpy memory, by blocks
    138 MB (tracemalloc, records included; the same verdicts)."""
    if len(cpairs) >= COMPILED_PAIRS and estimates is None:
        from ..scan import kernels

        kernels.settle()
    used = np.zeros(len(first), dtype=bool)
    used[cpairs[:, 0]] = True
    used[cpairs[:, 1]] = True
    used = np.flatnonzero(used)
    local = np.zeros(len(first), dtype=np.int64)
    local[used] = np.arange(len(used))
    recs = [records[first[c]] for c in used.tolist()]
    sk = sketch_array((r.sketch for r in recs), len(recs)) if estimates is None else None
    has = np.fromiter((bool(r.sketch) for r in recs), dtype=bool, count=len(recs))
    n = np.fromiter((r.shingles for r in recs), dtype=np.float64, count=len(recs))
    away = np.fromiter((bool(r.catalog) for r in recs), dtype=bool, count=len(recs))
    del recs
    out = []
    for s in range(0, len(cpairs), ESTIMATE_BLOCK):
        p = cpairs[s:s + ESTIMATE_BLOCK]
        la, lb = local[p[:, 0]], local[p[:, 1]]
        est, whole = (estimate(sk, la, lb) if estimates is None else
                      (estimates[0][s:s + len(p)], estimates[1][s:s + len(p)]))
        known = has[la] & has[lb]
        sim = np.where(known, est, 0.0)
        exact = whole & known
        # J <= |smaller set| / |larger set|: pairs of very different sizes need no measuring
        too_far = known & (np.minimum(n[la], n[lb]) < threshold * np.maximum(n[la], n[lb]))
        sim = np.where(too_far, np.minimum(sim, threshold - 1e-9), sim)
        doubt = ~exact & ~too_far & (~known | (np.abs(est - threshold) < MARGIN))
        doubt &= ~(away[la] | away[lb])  # a catalogued file is not here to be measured:
        keep = (sim >= threshold) | doubt  # its estimate stands
        out.append((p[keep], sim[keep], exact[keep], doubt[keep]))
    return tuple(np.concatenate(x) for x in zip(*out))  # type: ignore[return-value]


def _measure_doubtful(cpairs: np.ndarray, first: np.ndarray, todo_a: np.ndarray,
                      sim: np.ndarray, exact: np.ndarray, measure: Measure,
                      stats: VerifyStats, job: Job) -> None:
    """Measure the pairs ``cpairs[todo_a]`` from the files, into ``sim`` and ``exact``. The
    pairs of files that are copies of each other go next to each other: their files are
    read once (kept while their pairs are measured), not once per pair; a measurer with a
    ``prefetch`` reads each block's files at once on its pool, the next block's sent
    meanwhile."""
    order, label = component_order(cpairs[todo_a])
    todo = todo_a[order].tolist()
    bounds = [0, *block_ends(label[order], even_block(len(todo), PREFETCH_PAIRS)), len(todo)]
    labels = label[order].tolist()

    def block(i: int) -> tuple[list[tuple[int, int]], list[int]]:
        lo, hi = bounds[i], bounds[i + 1]
        return ([(int(first[cpairs[y, 0]]), int(first[cpairs[y, 1]])) for y in todo[lo:hi]],
                labels[lo:hi])

    job.report(ProgressEvent("verify", 0, len(todo)))
    prefetch = getattr(measure, "prefetch", None)
    nxt = 0  # the next block to prefetch
    for done, x in enumerate(todo, 1):
        if prefetch is not None and nxt + 1 < len(bounds) and done - 1 == bounds[nxt]:
            # this block's files read at once on the pool, the next one's sent meanwhile
            prefetch(*block(nxt), ahead=[block(nxt + 1)] if nxt + 2 < len(bounds) else [])
            nxt += 1
        if done % 32 == 0:  # progress and cancel between pairs read from the files
            job.check()
            job.report(ProgressEvent("verify", done, len(todo)))
        a, b = int(first[cpairs[x, 0]]), int(first[cpairs[x, 1]])
        j = measure(a, b)
        if j is not None:
            sim[x], exact[x] = j, True
            stats.measured += 1


def even_block(n: int, size: int) -> int:
    """The block size that cuts ``n`` pairs into the number of blocks of about ``size`` that
    comes nearest, of equal sizes: 544 doubtful pairs (the 25 MB mix) make one block, not one
    of 512 and one of 32, whose files, too few to start the pool for (PARALLEL_READS), this
    process read alone after the pool's block (33 of the grouping's 180 ms)."""
    blocks = max(1, round(n / max(1, size)))
    return max(1, -(-n // blocks))


def block_ends(labels: np.ndarray, size: int) -> list[int]:
    """Where blocks of about ``size`` pairs end, at a change of component when one comes
    within another ``size`` pairs (a component larger than that is cut). Fewer than half of
    ``size`` left after a block join it: no block is smaller than that."""
    n = len(labels)
    change = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    ends, at = [], 0
    while at + size < n:
        k = int(np.searchsorted(change, at + size))
        nxt = int(change[k]) if k < len(change) and change[k] <= at + 2 * size else at + size
        if n - nxt < (size + 1) // 2:
            break
        ends.append(nxt)
        at = nxt
    return ends
