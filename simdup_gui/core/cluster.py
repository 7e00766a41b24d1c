"""Groups of near-duplicates from verified pairs.

"linked" (default): union-find, so A~B and B~C put A, B, C in one group even when
A and C are further apart than k (chaining). Good for finding every copy of an
edited document; it can merge a long chain of edits into one group.
"strict": every pair in a group is within k. Greedy cliques, largest degree first;
a file that fits no existing group starts its own. Fewer surprises, and a file
may be left out of a group it is linked to by a chain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from .index import near_pairs
from .models import FileRecord, Group, Member

GROUPING_MODES = ("linked", "strict")


class UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        p = self.parent
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if ra < rb:
                ra, rb = rb, ra
            self.parent[ra] = rb


def _file_pairs_adjacency(inverse: np.ndarray, pairs: np.ndarray) -> tuple[dict, dict]:
    members: dict[int, list[int]] = defaultdict(list)
    for i, u in enumerate(inverse.tolist()):
        members[u].append(i)
    adj: dict[int, set[int]] = defaultdict(set)
    for a, b in pairs.tolist():
        adj[a].add(b)
        adj[b].add(a)
    return members, adj


def build_groups(records: Sequence[FileRecord], bits: int, distance: int,
                 mode: str = "linked") -> tuple[list[Group], str]:
    """Group ``records`` at (bits, distance). Returns the groups and the index plan text."""
    if mode not in GROUPING_MODES:
        raise ValueError(f"grouping must be one of {', '.join(GROUPING_MODES)}, not {mode!r}")
    fps = [r.fingerprint for r in records]
    npairs = near_pairs(fps, bits, distance)
    members, adj = _file_pairs_adjacency(npairs.inverse, npairs.pairs)
    # Work on distinct fingerprints; identical ones always share a group.
    n_u = len(npairs.lo)
    weight = [len(members[u]) for u in range(n_u)]
    degree = [weight[u] - 1 + sum(weight[v] for v in adj.get(u, ())) for u in range(n_u)]

    clusters: list[list[int]] = []
    if mode == "linked":
        uf = UnionFind(n_u)
        for a, b in npairs.pairs.tolist():
            uf.union(a, b)
        by_root: dict[int, list[int]] = defaultdict(list)
        for u in range(n_u):
            by_root[uf.find(u)].append(u)
        clusters = [c for c in by_root.values() if len(c) > 1 or weight[c[0]] > 1]
    else:
        assigned = [False] * n_u
        for u in sorted(range(n_u), key=lambda x: (-degree[x], x)):
            if assigned[u]:
                continue
            assigned[u] = True
            clique = [u]
            for v in sorted(adj.get(u, ()), key=lambda x: (-degree[x], x)):
                if not assigned[v] and all(v in adj[w] for w in clique[1:]):
                    clique.append(v)
                    assigned[v] = True
            if len(clique) > 1 or weight[u] > 1:
                clusters.append(clique)

    groups: list[Group] = []
    mask = (1 << bits) - 1
    for cl in clusters:
        files = [i for u in cl for i in members[u]]
        # representative: the best-connected file, then the oldest, then the path
        rep_u = max(cl, key=lambda u: (degree[u], -min(records[i].mtime_ns for i in members[u])))
        rep = min(members[rep_u], key=lambda i: (records[i].mtime_ns, records[i].path))
        rfp = records[rep].fingerprint & mask
        rhash = records[rep].text_hash
        mem = [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                      records[i].text_hash == rhash) for i in files]
        mem.sort(key=lambda m: (m.index != rep, m.distance, records[m.index].path))
        groups.append(Group(0, rep, mem))
    groups.sort(key=lambda g: (-len(g.members), records[g.representative].path))
    for n, g in enumerate(groups, 1):
        g.id = n
    return groups, npairs.plan.describe()
