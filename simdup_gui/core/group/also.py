""""Also similar to ...": near-duplicates that sit in two different groups (issue 37, part 2).

A file sits in one star only, the one of the reference it is most similar to (stars.py). When
it is also a near-duplicate (verified at or above the threshold) of a member of another
group, both groups say so beside their members: "v3 is also similar to v4, in group 2
(72 %)". The notes are information beside the groups; nothing marks or acts on them.

They come from the pairs the grouping knows (edges.PairGraph: decided by the sketches, or
measured); the pairs across two groups still in doubt are measured when they are few
(MEASURE_UP_TO), else left out: a dense family (858 generated man pages) is not measured
pair by pair for a note. Each member keeps its PER_MEMBER most similar notes and each group
its PER_GROUP, so memory stays bounded. A note holds record indices only; the other file's
group is found when the groups are shown or written (:func:`resolve`), after numbering, the
ignore list and the user's choice of reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..models import Also, Group
from .edges import PairGraph
from .graph import star_labels

PER_MEMBER = 3  # notes a member keeps (its most similar files elsewhere)
PER_GROUP = 20  # notes a group keeps
MEASURE_UP_TO = 1_000  # pairs across groups in doubt measured for the notes; more: left out


def _first_of_runs(keys: np.ndarray, limit: int) -> np.ndarray:
    """Which items of ``keys`` (sorted, equal keys in runs) are among the first ``limit``
    of their run."""
    if not len(keys):
        return np.zeros(0, dtype=bool)
    new = np.concatenate(([True], keys[1:] != keys[:-1]))
    start = np.maximum.accumulate(np.where(new, np.arange(len(keys)), 0))
    return np.arange(len(keys)) - start < limit


def collect(stars: dict[int, list[int]], graph: PairGraph,
            first: dict[int, int]) -> dict[int, list[Also]]:
    """{reference class: its notes} for the final ``stars`` (reference class -> member
    classes, each a group): the known pairs at or above the threshold that join classes of
    two different stars, named by each class's ``first`` record (the one the group shows
    first: its oldest file)."""
    n = len(graph.start) - 1
    if not len(graph.pairs) or len(stars) < 2:
        return {}
    label = star_labels(n, stars)
    la, lb = label[graph.pairs[:, 0]], label[graph.pairs[:, 1]]
    cross = np.flatnonzero((la >= 0) & (lb >= 0) & (la != lb))
    doubtful = cross[graph.doubt[cross]]
    if 0 < len(doubtful) <= MEASURE_UP_TO:
        graph.resolve(doubtful)
    rows = cross[~graph.doubt[cross] & (graph.sim[cross] >= graph.threshold)]
    if not len(rows):
        return {}
    a, b, s = graph.pairs[rows, 0], graph.pairs[rows, 1], graph.sim[rows]
    src, dst, sim = np.concatenate((a, b)), np.concatenate((b, a)), np.concatenate((s, s))
    order = np.lexsort((dst, -sim, src))  # each member's most similar first
    src, dst, sim = src[order], dst[order], sim[order]
    keep = _first_of_runs(src, PER_MEMBER)
    src, dst, sim = src[keep], dst[keep], sim[keep]
    star = label[src]
    order = np.lexsort((dst, src, -sim, star))  # each group's most similar first
    src, dst, sim, star = src[order], dst[order], sim[order], star[order]
    keep = _first_of_runs(star, PER_GROUP)
    out: dict[int, list[Also]] = {}
    for r, x, y, v in zip(star[keep].tolist(), src[keep].tolist(), dst[keep].tolist(),
                          sim[keep].tolist()):
        out.setdefault(r, []).append(Also(first[x], first[y], round(float(v), 4)))
    return out


@dataclass(frozen=True, slots=True)
class Note:
    """A note as shown: member ``member`` of this group is also similar to ``other``, a
    member of group ``group`` (its id), at ``similarity``."""

    member: int
    other: int
    group: int
    similarity: float


def resolve(groups: Sequence[Group]) -> list[list[Note]]:
    """Each group's notes (in the order of ``groups``) whose member is still in it and
    whose other file is in another of ``groups`` (after the ignore list, a chosen
    reference, a catalog's groups left out), with that group's id."""
    if not any(g.also for g in groups):
        return [[] for _ in groups]
    where = {m.index: g.id for g in groups for m in g.members}
    out = []
    for g in groups:
        notes = []
        for a in g.also:
            other = where.get(a.other)
            if where.get(a.member) == g.id and other is not None and other != g.id:
                notes.append(Note(a.member, a.other, other, a.similarity))
        out.append(notes)
    return out


def member_notes(notes: Sequence[Note], index: int) -> list[Note]:
    """The notes of the member with record ``index``."""
    return [n for n in notes if n.member == index]
