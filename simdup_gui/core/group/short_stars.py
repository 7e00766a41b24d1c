"""A star of short texts does not join members far from each other (issue 37, part 2).

A star's members are each at the threshold against its reference, not against each other.
For long texts that is what a user expects of versions around a middle one; for tiny files
it joins texts that share little: two families of tiny ``setup.cfg`` files whose members are
at J 0.42-0.46 to each other, each at 0.71 to a reference that holds a bit of both.

For short texts the check is free: a sketch that is not full holds the whole 5-gram set, so
textsim.estimate of two such sketches is their exact J. So, in each star, the short members
(whole sketches) must be pairwise at least DIFFERENT_BELOW (0.50): while two are below it,
of the members in such a pair the one farthest from the reference leaves the star. The
files that left form stars among themselves by the same rule (a reference with the most
near-duplicates among them, its members verified against it, then this check again); a file
with no near-duplicate among them is in no group (it is then named beside its old star,
"also similar to ...", also.py). Long members and stars of long texts are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..models import FileRecord
from ..textsim import DIFFERENT_BELOW, EMPTY, SKETCH_BYTES, estimate, sketch_array
from .edges import PairGraph

SLACK = 0.05  # the triangle filter's margin, for a reference whose similarity is estimated


def whole_sketches(records: Sequence[FileRecord], members: list[list[int]],
                   classes: Sequence[int]) -> set[int]:
    """The ``classes`` whose sketch holds their whole 5-gram set (not full)."""
    tail = EMPTY.tobytes()
    out = set()
    for c in classes:
        sk = records[members[c][0]].sketch
        if len(sk) == SKETCH_BYTES and sk[-4:] == tail:
            out.add(c)
    return out


def _far_pairs(records: Sequence[FileRecord], members: list[list[int]], short: list[int],
               to_ref: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (positions in ``short``) of short classes below DIFFERENT_BELOW. Jaccard
    distance is a metric, so only pairs whose distances to the reference add up to more
    than 1 - DIFFERENT_BELOW (less SLACK) can be that far apart: only those are estimated."""
    far = 1.0 - to_ref
    a, b = np.triu_indices(len(short), 1)
    pick = far[a] + far[b] > (1.0 - DIFFERENT_BELOW) - SLACK
    a, b = a[pick], b[pick]
    if not len(a):
        return []
    sk = sketch_array((records[members[c][0]].sketch for c in short), len(short))
    est, _ = estimate(sk, a, b)
    low = est < DIFFERENT_BELOW
    return list(zip(a[low].tolist(), b[low].tolist()))


def split_far(records: Sequence[FileRecord], members: list[list[int]], graph: PairGraph,
              ref: int, star: list[int], whole: set[int]) -> tuple[list[int], list[int]]:
    """(members kept, members that leave) of the star of ``ref``: while two short members
    (``whole``) are below DIFFERENT_BELOW, a member of such a pair leaves: the one far
    from the most others, then the farthest from the reference (then the later one)."""
    short = [d for d in star if d in whole]
    if len(short) < 2:
        return star, []
    to_ref = np.array([graph.sim[graph.row_of(ref, d)] for d in short], dtype=np.float64)
    bad = _far_pairs(records, members, short, to_ref)
    gone: set[int] = set()
    while bad:
        count: dict[int, int] = {}
        for p in bad:
            for x in p:
                count[x] = count.get(x, 0) + 1
        drop = max(count, key=lambda x: (count[x], -to_ref[x], x))
        gone.add(short[drop])
        bad = [p for p in bad if drop not in p]
    return [d for d in star if d not in gone], [d for d in star if d in gone]


def regroup_far(records: Sequence[FileRecord], members: list[list[int]], graph: PairGraph,
                stars: dict[int, list[int]], oldest: dict) -> dict[int, list[int]]:
    """``stars`` (reference class -> member classes) with every star's far short members
    (:func:`split_far`) taken out, and those that left in stars among themselves (added
    after the others; module docstring)."""
    whole = whole_sketches(records, members, {c for r, ms in stars.items() for c in (r, *ms)})
    if len(whole) < 2:
        return stars
    out: dict[int, list[int]] = {}
    pool: list[int] = []
    for r, ms in stars.items():
        out[r], gone = split_far(records, members, graph, r, ms, whole)
        pool += gone
    free = np.zeros(len(graph.start) - 1, dtype=bool)
    free[pool] = True
    near = {c: graph.verified(c, free)[0] for c in sorted(set(pool))}
    alone = []
    while near:
        c = min(near, key=lambda x: (-len(near[x]), oldest[x]))
        kept, _ = split_far(records, members, graph, c, near.pop(c).tolist(), whole)
        out[c] = kept  # (no member: a group only when c has copies of its own text)
        if not kept and len(members[c]) == 1:
            alone.append(c)
        free[[c, *kept]] = False  # those that left again stay in the pool
        for x in [c, *kept]:
            near.pop(x, None)
        for x, nb in near.items():
            near[x] = nb[free[nb]]
    for c in alone:
        _join_where_near(records, members, graph, out, c, whole)
    return out


def _join_where_near(records: Sequence[FileRecord], members: list[list[int]],
                     graph: PairGraph, out: dict[int, list[int]], c: int,
                     whole: set[int]) -> None:
    """A file that left a star and found no near-duplicate among the others that left
    joins the most similar star it is near (the threshold to the reference, at least
    DIFFERENT_BELOW to every short member): the stars' choice of whom to let go was
    greedy."""
    del out[c]
    refs = np.zeros(len(graph.start) - 1, dtype=bool)
    refs[[r for r, ms in out.items() if ms or len(members[r]) > 1]] = True
    nb, rows = graph.verified(c, refs)
    for r in nb[np.argsort(-graph.sim[rows], kind="stable")].tolist():
        short = [d for d in (r, *out[r]) if d in whole]
        if not short:
            out[r].append(c)
            return
        sk = sketch_array((records[members[d][0]].sketch
                           for d in (c, *short)), len(short) + 1)
        est, _ = estimate(sk, np.zeros(len(short), dtype=np.int64),
                          np.arange(1, len(short) + 1))
        if (est >= DIFFERENT_BELOW).all():
            out[r].append(c)
            return
