"""Stage 3 of verified grouping: groups as stars around reference files (no chains).

Each group is a *star* around a reference file, and every member is verified at or above
the threshold against that reference. References are chosen greedily: the file with the
most verified, not yet grouped neighbours (counting copies) first, then the oldest. Files
with identical text (one class) always group, at similarity 1.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from .measure import Verified
from ..models import FileRecord, Group, Member


def oldest_of(records: Sequence[FileRecord], idx: list[int]) -> tuple[int, str, int]:
    """(mtime_ns, path, index) of the oldest of the records ``idx`` (then by path)."""
    if len(idx) == 1:  # most classes: one file
        r = records[idx[0]]
        return r.mtime_ns, r.path, idx[0]
    return min((records[i].mtime_ns, records[i].path, i) for i in idx)


def members_around(records: Sequence[FileRecord], ref: int, idx: list[int], bits: int,
                   similarity: float | None = None, measured: bool = False) -> list[Member]:
    """The records ``idx`` as members of a group whose reference is ``ref``: their SimHash
    distance to it at ``bits``, whether their text is its text, and their similarity."""
    mask = (1 << bits) - 1
    rfp, rhash = records[ref].fingerprint & mask, records[ref].text_hash
    return [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                   records[i].text_hash == rhash, similarity, measured) for i in idx]


def star_groups(records: Sequence[FileRecord], members: list[list[int]], verified: Verified,
                bits: int, templates: dict[tuple[int, int], int] | None = None) -> list[Group]:
    """Groups of records around references; every member verified against its reference.
    ``members``: the records of each class; ``verified``: the class pairs at the
    threshold; ``templates``: class pairs whose shared text is a template, and in how many
    other documents it is found (their members are flagged, Member.template)."""
    adj: dict[int, dict[int, tuple[float, bool]]] = {}
    for (a, b), s, e in zip(verified.pairs.tolist(), verified.sim.tolist(),
                            verified.exact.tolist()):
        adj.setdefault(a, {})[b] = (s, e)
        adj.setdefault(b, {})[a] = (s, e)
    weight = [len(m) for m in members]
    nodes = set(adj) | {c for c, w in enumerate(weight) if w > 1}
    # each class's oldest file (by mtime, then path): its reference if it becomes one
    oldest = {c: oldest_of(records, members[c]) for c in nodes}
    assigned: set[int] = set()

    def score(c: int) -> int:
        return weight[c] - 1 + sum(weight[d] for d in adj.get(c, ()) if d not in assigned)

    heap = [(-score(c), oldest[c], c) for c in nodes]
    heapq.heapify(heap)
    stars: dict[int, list[int]] = {}  # reference class -> member classes, in order
    while heap:
        neg, _, c = heapq.heappop(heap)
        if c in assigned:
            continue
        s = score(c)
        if s != -neg:
            heapq.heappush(heap, (-s, oldest[c], c))
            continue
        if s == 0:
            continue
        assigned.add(c)
        stars[c] = [d for d in adj.get(c, {}) if d not in assigned]
        assigned.update(stars[c])
    return [_group(records, members, adj, bits, r, ms, oldest, templates or {})
            for r, ms in _closest(stars, adj).items() if ms or weight[r] > 1]


def _closest(stars: dict[int, list[int]], adj: dict) -> dict[int, list[int]]:
    """Each member class moved to the reference it is most similar to (of the references it
    was verified against; the first chosen wins a tie): a version close to its neighbour
    (J 0.96) is not left with a far one (J 0.70) because that star was chosen first. A
    reference left alone joins its most similar reference's star."""
    refs = list(stars)
    rank = {r: i for i, r in enumerate(refs)}
    out: dict[int, list[int]] = {r: [] for r in refs}
    for r in refs:
        for d in stars[r]:
            best = max((x for x in adj.get(d, {}) if x in rank),
                       key=lambda x: (adj[d][x][0], -rank[x]))
            out[best].append(d)
    for r in refs:
        if out[r]:
            continue
        near = [x for x in adj.get(r, {}) if x in out and x != r]
        if near:  # a star that has members first, then any
            best = max(near, key=lambda x: (bool(out[x]), adj[r][x][0], -rank[x]))
            out[best].append(r)
            del out[r]
    return out


def _group(records: Sequence[FileRecord], members: list[list[int]], adj: dict, bits: int,
           c: int, star: list[int], oldest: dict, templates: dict) -> Group:
    """The group of reference class ``c`` and its member classes ``star``, each member with
    its closest other member and, when its text shared with the reference is a template,
    the number of documents that hold it."""
    ref = oldest[c][2]
    mem = members_around(records, ref, members[c], bits, 1.0, True)
    for d in star:
        sv, ex = adj[c][d]
        more = members_around(records, ref, members[d], bits, round(sv, 4), ex)
        for m in more:
            m.template = templates.get((c, d), 0)
        mem += more
    _set_closest(records, members, adj, [c, *star], mem)
    if templates:
        _set_copy_sets(members, adj, [c, *star], mem, templates)
    mem.sort(key=lambda m: (m.index != ref, -(m.similarity or 0), m.distance,
                            records[m.index].path))
    return Group(0, ref, mem)


def _set_closest(records: Sequence[FileRecord], members: list[list[int]], adj: dict,
                 classes: list[int], mem: list[Member]) -> None:
    """Each member's most similar other member of the group: a file of its own class (the
    same text) when there is one, else the class it is most similar to among the verified
    pairs inside the group (then the oldest file of that class)."""
    rank = {c: i for i, c in enumerate(classes)}
    of_class = {i: c for c in classes for i in members[c]}
    first = {c: min(members[c], key=lambda i: (records[i].mtime_ns, records[i].path))
             for c in classes}
    for m in mem:
        c = of_class[m.index]
        twin = next((i for i in members[c] if i != m.index), None)
        if twin is not None:
            m.closest, m.closest_similarity = twin, 1.0
            continue
        near = [(s, -rank[d], d) for d, (s, _) in adj.get(c, {}).items()
                if d in rank and d != c]
        if near:
            s, _, d = max(near)
            m.closest, m.closest_similarity = first[d], round(s, 4)


def _set_copy_sets(members: list[list[int]], adj: dict, classes: list[int], mem: list[Member],
                   templates: dict) -> None:
    """Number the group's copy sets: its classes joined by verified pairs that are not
    template pairs (the reference's set is 0). Two pages of one generator in one group are
    two sets; a page and its backup, one."""
    parent = {c: c for c in classes}

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a in classes:
        for b in adj.get(a, {}):
            if b in parent and (a, b) not in templates:
                parent[root(a)] = root(b)
    label: dict[int, int] = {}
    for c in classes:  # the reference's class first
        label.setdefault(root(c), len(label))
    of_class = {i: c for c in classes for i in members[c]}
    for m in mem:
        m.copy_set = label[root(of_class[m.index])]
