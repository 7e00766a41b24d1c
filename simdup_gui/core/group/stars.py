"""Stage 3 of verified grouping: groups as stars around reference files (no chains).

Each group is a *star* around a reference file, and every member is verified at or above
the threshold against that reference. References are chosen greedily: the file with the
most near-duplicates not yet grouped (counting copies; in a dense family the pairs in doubt
by their estimates, edges.py) first, then the most counting every pair in doubt, then the
oldest; its pairs with the files not yet grouped are then verified (measured exactly
near the threshold: edges.py measures only the pairs asked about), and those that reach
the threshold are its members. Each member then moves to the reference it is most similar
to. Files with identical text (one class) always group, at similarity 1. Short members far
from each other leave a star (short_stars.py); a member's near-duplicates in other groups
are noted beside it (also.py).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

import numpy as np

from . import also
from .edges import PairGraph
from .graph import components, star_labels
from .short_stars import regroup_far
from ..models import FileRecord, Group, Member
from ..textsim import sorted_unique


def oldest_of(records: Sequence[FileRecord], idx: list[int]
              ) -> tuple[tuple[bool, int], str, int]:
    """((catalogued?, mtime_ns), path, index) of the oldest of the records ``idx`` (then
    by path), a file here before one from a catalog (review/catalog.py): a reference here
    lets its members' similarities be measured."""
    if len(idx) == 1:  # most classes: one file
        r = records[idx[0]]
        return (bool(r.catalog), r.mtime_ns), r.path, idx[0]
    return min(((bool(records[i].catalog), records[i].mtime_ns), records[i].path, i)
               for i in idx)


def members_around(records: Sequence[FileRecord], ref: int, idx: list[int], bits: int,
                   similarity: float | None = None, measured: bool = False) -> list[Member]:
    """The records ``idx`` as members of a group whose reference is ``ref``: their SimHash
    distance to it at ``bits``, whether their text is its text, and their similarity."""
    mask = (1 << bits) - 1
    rfp, rhash = records[ref].fingerprint & mask, records[ref].text_hash
    return [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                   records[i].text_hash == rhash, similarity, measured) for i in idx]


def catalogued_estimated(records: Sequence[FileRecord], group: Group) -> Group:
    """``group`` with every similarity that involves a catalogued file (review/catalog.py:
    its text is not here) said to be estimated, never measured: its members from a
    catalog, and every member when the reference is one. Returns ``group``."""
    ref_away = bool(records[group.representative].catalog)
    for m in group.members:
        if records[m.index].catalog or (ref_away and m.index != group.representative):
            m.measured = False
    return group


Templates = Callable[[np.ndarray], dict[tuple[int, int], int]]


def star_groups(records: Sequence[FileRecord], members: list[list[int]], graph: PairGraph,
                bits: int, templates: Templates | None = None) -> list[Group]:
    """Groups of records around references; every member verified against its reference.
    ``members``: the records of each class; ``graph``: the class pairs that may reach the
    threshold (edges.py); ``templates``: given class pairs, those whose shared text is a
    template and in how many other documents it is found (their members are flagged,
    Member.template)."""
    weight = np.fromiter((len(m) for m in members), dtype=np.int64, count=len(members))
    nodes = set(graph.nodes().tolist()) | set(np.flatnonzero(weight > 1).tolist())
    # each class's oldest file (by mtime, then path): its reference if it becomes one
    oldest = {c: oldest_of(records, members[c]) for c in nodes}
    free = np.ones(len(members), dtype=bool)

    def score(c: int) -> tuple[int, int]:
        """(copies and near-duplicates not yet grouped, and counting every pair in doubt
        too): references are chosen by the first, the second lets a file whose pairs are
        all in doubt still become one."""
        nb, rows = graph.neighbours(c)
        free_nb = free[nb]
        return (int(weight[c] - 1 + weight[nb[graph.counts(rows) & free_nb]].sum()),
                int(weight[c] - 1 + weight[nb[free_nb]].sum()))

    s1, s2 = _first_scores(graph, weight)
    heap = [(-s1[c], -s2[c], oldest[c], c) for c in nodes]
    heapq.heapify(heap)
    stars: dict[int, list[int]] = {}  # reference class -> member classes
    while heap:
        neg1, neg2, _, c = heapq.heappop(heap)
        if not free[c]:
            continue
        s = score(c)
        if s != (-neg1, -neg2):
            heapq.heappush(heap, (-s[0], -s[1], oldest[c], c))
            continue
        if s[1] == 0:
            continue
        free[c] = False
        star = graph.verified(c, free)[0]
        if not len(star) and weight[c] == 1:  # its possible near-duplicates were not
            free[c] = True
            continue
        free[star] = False
        stars[c] = star.tolist()
    stars = regroup_far(records, members, graph, _closest(stars, graph), oldest)
    stars = {r: ms for r, ms in stars.items() if ms or weight[r] > 1}  # the groups
    closest = _closest_rows(stars, graph)
    judged = {r: _judged_rows(graph, r, ms, closest[r]) for r, ms in stars.items()}
    flags = templates(np.concatenate([np.zeros(0, np.int64), *judged.values()])) \
        if templates is not None else {}
    groups = [_group(records, members, graph, bits, r, ms, oldest, flags, closest[r],
                     judged[r]) for r, ms in stars.items()]
    notes = also.collect(stars, graph, {c: oldest[c][2] for r, ms in stars.items()
                                        for c in (r, *ms)})
    for r, g in zip(stars, groups):
        g.also = notes.get(r, [])
    return groups


def _first_scores(graph: PairGraph, weight: np.ndarray) -> tuple[list[int], list[int]]:
    """star_groups' ``score`` of every class while all are free, from the whole graph at
    once: the stars of 300,000 records of benchmarks/grouping.py took 24.7 s with a call
    per class (6.9 s of it), 15.2 s so (cProfile; the same groups)."""
    n = len(weight)
    owner = np.repeat(np.arange(n), np.diff(graph.start))
    w = weight[graph.nbr]
    counted = np.bincount(owner, weights=w * graph.counts(graph.row), minlength=n)
    every = np.bincount(owner, weights=w, minlength=n)
    return ((weight - 1 + counted.astype(np.int64)).tolist(),
            (weight - 1 + every.astype(np.int64)).tolist())


def _closest(stars: dict[int, list[int]], graph: PairGraph) -> dict[int, list[int]]:
    """Each member class moved to the reference it is most similar to (of the references it
    reaches the threshold with; the first chosen wins a tie): a version close to its
    neighbour (J 0.96) is not left with a far one (J 0.70) because that star was chosen
    first. A reference left alone joins its most similar reference's star."""
    refs = list(stars)
    rank = {r: i for i, r in enumerate(refs)}
    is_ref = np.zeros(len(graph.start) - 1, dtype=bool)
    is_ref[refs] = True
    _resolve_with(graph, [d for r in refs for d in stars[r]], is_ref)
    out: dict[int, list[int]] = {r: [] for r in refs}
    for r in refs:
        for d in stars[r]:
            out[_best(graph, d, is_ref, rank)].append(d)
    _resolve_with(graph, [r for r in refs if not out[r]], is_ref)
    for r in refs:
        if out[r]:
            continue
        nb, rows = graph.neighbours(r)  # its pairs with references (measured just above)
        pick = is_ref[nb] & (graph.sim[rows] >= graph.threshold)
        near = [(x, s) for x, s in zip(nb[pick].tolist(), graph.sim[rows[pick]].tolist())
                if x in out and x != r]
        if near:  # a star that has members first, then any
            best = max(near, key=lambda t: (bool(out[t[0]]), t[1], -rank[t[0]]))[0]
            out[best].append(r)
            del out[r]
    return out


def _resolve_with(graph: PairGraph, classes: list[int], targets: np.ndarray) -> None:
    """Measure, in one batch, the doubtful pairs of ``classes`` with the ``targets``."""
    rows = []
    for c in classes:
        nb, rw = graph.neighbours(c)
        rows.append(rw[targets[nb]])
    if rows:
        graph.resolve(sorted_unique(np.concatenate(rows)))


def _best(graph: PairGraph, d: int, among: np.ndarray, rank: dict[int, int]) -> int:
    """Of the classes ``among`` that ``d`` reaches the threshold with, the most similar
    (the first ranked on a tie)."""
    nb, rows = graph.verified(d, among)
    sims = graph.sim[rows].tolist()
    return max(zip(nb.tolist(), sims), key=lambda t: (t[1], -rank[t[0]]))[0]


def _known_rows(stars: dict[int, list[int]], graph: PairGraph
                ) -> tuple[np.ndarray, np.ndarray]:
    """(rows, label): the rows of the stars' pairs that the grouping knows whichever pairs
    were measured (the reference's with each member, measured, and the decided pairs inside
    a group) and that reach the threshold, and each class's star (graph.star_labels). What
    the template verdict judges, the closest members and copy sets use. All stars at once
    from the pairs: a loop over each star's classes took 9.3 s of the 56.4 s of the stars
    of benchmarks/grouping.py's million records (cProfile); with :func:`_closest_rows` at
    once too, the stars took 38.3 s."""
    label = star_labels(len(graph.start) - 1, stars)
    a, b = graph.pairs[:, 0], graph.pairs[:, 1]
    ref = label[a]
    rows = np.flatnonzero((ref >= 0) & (label[b] == ref))
    ref, a, b = ref[rows], a[rows], b[rows]
    keep = graph.sure(rows) | (a == ref) | (b == ref)
    rows = rows[keep]
    return rows[graph.sim[rows] >= graph.threshold], label


def _closest_rows(stars: dict[int, list[int]], graph: PairGraph
                  ) -> dict[int, dict[int, tuple[int, float, int]]]:
    """{reference: {class: (its most similar other class of the group, their similarity, the
    pair's row)}} among each group's known rows (:func:`_known_rows`); a tie goes to the
    class listed first in the group (the reference first). Vectorised over every group at
    once: a dense family's group knows every pair of its members (in a Python loop, 1.9 s of
    grouping 10,000 tiny files in families of 500, benchmarks/tiny_tree.py), and a call per
    group took 8.2 s of the stars of benchmarks/grouping.py's million records (137,372
    groups; cProfile), this and :func:`_known_rows` together under 2.5 s (the same groups,
    closest members, copy sets and flags there, on the tiny tree and the held-out halves of
    docs/accuracy.md)."""
    rows, label = _known_rows(stars, graph)
    out: dict[int, dict[int, tuple[int, float, int]]] = {r: {} for r in stars}
    rank = np.zeros(len(label), dtype=np.int64)  # a class's place in its group
    rank[[c for r, ms in stars.items() for c in (r, *ms)]] = \
        [i for ms in stars.values() for i in range(len(ms) + 1)]
    ref = label[graph.pairs[rows, 0]]
    by = np.argsort(ref, kind="stable")  # a group's rows together: blocks of whole groups
    rows, ref = rows[by], ref[by]
    change = np.flatnonzero(ref[1:] != ref[:-1]) + 1
    at = 0
    while at < len(rows):  # benchmarks/tiny_tree.py warm: main RSS 932 -> 658 MB here
        k = int(np.searchsorted(change, at + CLOSEST_BLOCK))
        end = int(change[k]) if k < len(change) else len(rows)
        _closest_block(graph, rows[at:end], rank, label, out)
        at = end
    return out


CLOSEST_BLOCK = 1 << 18  # known rows whose closest classes are found at once (whole groups)


def _closest_block(graph: PairGraph, rows: np.ndarray, rank: np.ndarray, label: np.ndarray,
                   out: dict[int, dict[int, tuple[int, float, int]]]) -> None:
    """:func:`_closest_rows` of the whole groups whose known rows are ``rows``, into
    ``out``."""
    pairs, sims = graph.pairs[rows], graph.sim[rows]
    x = np.concatenate((pairs[:, 0], pairs[:, 1]))
    y = np.concatenate((pairs[:, 1], pairs[:, 0]))
    s = np.concatenate((sims, sims))
    w = np.concatenate((rows, rows))
    order = np.lexsort((rank[y], -s, x))
    x, y, s, w = x[order], y[order], s[order], w[order]
    first = np.concatenate(([True], x[1:] != x[:-1]))
    x, y, s, w = x[first], y[first], s[first], w[first]
    for r, a, b, v, k in zip(label[x].tolist(), x.tolist(), y.tolist(), s.tolist(),
                             w.tolist(), strict=True):
        out[r][a] = (b, v, k)


def _judged_rows(graph: PairGraph, ref: int, star: list[int],
                 closest: dict[int, tuple[int, float, int]]) -> np.ndarray:
    """The rows whose shared text the template stage judges for a group: each member's pair
    with the reference (its flag) and each class's pair with its closest class (its copy
    set). At most two a member, where every known pair of a dense family's group took 7.4
    of the 16 s of grouping 10,000 tiny files in families of 500 (benchmarks/tiny_tree.py)."""
    rows = [graph.row_of(ref, d) for d in star] + [v[2] for v in closest.values()]
    return sorted_unique(np.array(rows, dtype=np.int64)) if rows else np.zeros(0, np.int64)


def _group(records: Sequence[FileRecord], members: list[list[int]], graph: PairGraph,
           bits: int, c: int, star: list[int], oldest: dict, templates: dict,
           closest: dict[int, tuple[int, float, int]], judged: np.ndarray) -> Group:
    """The group of reference class ``c`` and its member classes ``star``, each member with
    its closest other member and, when its text shared with the reference is a template,
    the number of documents that hold it."""
    ref = oldest[c][2]
    mem = members_around(records, ref, members[c], bits, 1.0, True)
    for d in star:
        r = graph.row_of(c, d)
        more = members_around(records, ref, members[d], bits, round(float(graph.sim[r]), 4),
                              bool(graph.exact[r]))
        for m in more:
            m.template = templates.get((c, d), 0)
        mem += more
    _set_closest(members, oldest, closest, [c, *star], mem)
    if templates:
        _set_copy_sets(members, graph.pairs[judged], [c, *star], mem, templates)
    mem.sort(key=lambda m: (m.index != ref, -(m.similarity or 0), m.distance,
                            records[m.index].text_hash, records[m.index].path))
    return catalogued_estimated(records, Group(0, ref, mem))


def _set_closest(members: list[list[int]], oldest: dict,
                 closest: dict[int, tuple[int, float, int]], classes: list[int],
                 mem: list[Member]) -> None:
    """Each member's most similar other member of the group: a file of its own class (the
    same text) when there is one, else the oldest file of its closest class."""
    of_class = {i: c for c in classes for i in members[c]}
    for m in mem:
        c = of_class[m.index]
        twin = next((i for i in members[c] if i != m.index), None)
        if twin is not None:
            m.closest, m.closest_similarity = twin, 1.0
        elif c in closest:
            d, sim, _ = closest[c]
            m.closest, m.closest_similarity = oldest[d][2], round(sim, 4)


def _set_copy_sets(members: list[list[int]], pairs: np.ndarray, classes: list[int],
                   mem: list[Member], templates: dict) -> None:
    """Number the group's copy sets: its classes joined by judged pairs (_judged_rows) that
    are not template pairs (the reference's set is 0). Two pages of one generator in one
    group are two sets; a page and its backup, one."""
    local = {c: i for i, c in enumerate(classes)}
    keep = [(local[a], local[b]) for a, b in pairs.tolist() if (a, b) not in templates]
    label = components(len(classes), np.array(keep, dtype=np.int64).reshape(-1, 2))
    number: dict[int, int] = {}
    for lab in label.tolist():  # the reference's class first
        number.setdefault(lab, len(number))
    of_class = {i: local[c] for c in classes for i in members[c]}
    for m in mem:
        m.copy_set = number[int(label[of_class[m.index]])]
