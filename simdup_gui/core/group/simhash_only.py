"""Groups by SimHash alone (``verify="none"``), for comparison: the accuracy lab shows
them beside the verified groups.

"linked": union-find, so A~B and B~C put A, B, C in one group even when
A and C are further apart than k (chaining). Good for finding every copy of an
edited document; it can merge a long chain of edits into one group.
"strict": every pair in a group is within k. Greedy cliques, largest degree first;
a file that fits no existing group starts its own. Fewer surprises, and a file
may be left out of a group it is linked to by a chain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .graph import components
from .index import NearPairs, near_pairs
from .stars import members_around, oldest_of
from ..models import FileRecord, Group
from ..textsim import estimate, sketch_array


@dataclass
class _Nodes:
    """The distinct fingerprints that can end up in a group (with a copy or a near pair):
    their degree and weight (both counting copies) and records, in input order."""

    ids: np.ndarray
    degree: dict[int, int]
    weight: dict[int, int]
    members: dict[int, list[int]]


def simhash_groups(records: Sequence[FileRecord], bits: int, distance: int, mode: str,
                   fingerprints: tuple[np.ndarray, np.ndarray]) -> tuple[list[Group], str]:
    """Groups of ``records`` whose fingerprints are within ``distance`` at ``bits``, by
    ``mode`` ("linked" or "strict"), unnumbered; and the index plan's description. Members
    get their estimated text similarity to the representative, for display."""
    npairs = near_pairs(fingerprints, bits, distance)
    nodes = _involved(npairs)
    if mode == "linked":
        clusters = _linked(len(npairs.lo), npairs.pairs, nodes)
    else:
        clusters = _strict(npairs.pairs, nodes)
    groups = [_group(records, cl, nodes, bits) for cl in clusters]
    annotate_estimates(records, groups)
    return groups, npairs.plan.describe()


def _involved(npairs: NearPairs) -> _Nodes:
    """Work on distinct fingerprints; identical ones always share a group."""
    inverse, pairs = npairs.inverse, npairs.pairs
    n_u = len(npairs.lo)
    weight_a = np.bincount(inverse, minlength=n_u).astype(np.int64)
    deg_a = weight_a - 1
    if len(pairs):
        pa, pb = pairs[:, 0], pairs[:, 1]
        deg_a = deg_a + np.bincount(pa, weights=weight_a[pb], minlength=n_u).astype(np.int64)
        deg_a = deg_a + np.bincount(pb, weights=weight_a[pa], minlength=n_u).astype(np.int64)
    # Only distinct fingerprints with a copy or a near pair can end up in a group.
    involved = weight_a > 1
    if len(pairs):
        involved[pairs.ravel()] = True
    nodes = np.flatnonzero(involved)
    degree = dict(zip(nodes.tolist(), deg_a[nodes].tolist()))
    weight = dict(zip(nodes.tolist(), weight_a[nodes].tolist()))
    # members of each involved distinct fingerprint, in input order
    rec_idx = np.flatnonzero(involved[inverse])
    rec_idx = rec_idx[np.argsort(inverse[rec_idx], kind="stable")]
    bounds = np.cumsum(weight_a[nodes])[:-1]
    members: dict[int, list[int]] = dict(zip(nodes.tolist(),
                                             (a.tolist() for a in np.split(rec_idx, bounds))))
    return _Nodes(nodes, degree, weight, members)


def _linked(n_u: int, pairs: np.ndarray, nodes: _Nodes) -> list[list[int]]:
    """The connected components of the involved fingerprints (chains included)."""
    comp = components(n_u, pairs)
    lab = comp[nodes.ids]
    order = np.argsort(lab, kind="stable")
    lab_s, nodes_s = lab[order], nodes.ids[order]
    cut = np.flatnonzero(lab_s[1:] != lab_s[:-1]) + 1
    return [cl.tolist() for cl in np.split(nodes_s, cut) if cl.size]


def _strict(pairs: np.ndarray, nodes: _Nodes) -> list[list[int]]:
    """Greedy cliques of the involved fingerprints, largest degree first."""
    degree = nodes.degree
    adj: dict[int, set[int]] = defaultdict(set)
    for a, b in pairs.tolist():
        adj[a].add(b)
        adj[b].add(a)
    assigned = dict.fromkeys(degree, False)
    clusters: list[list[int]] = []
    for u in sorted(degree, key=lambda x: (-degree[x], x)):
        if assigned[u]:
            continue
        assigned[u] = True
        clique = [u]
        for v in sorted(adj.get(u, ()), key=lambda x: (-degree[x], x)):
            if not assigned[v] and all(v in adj[w] for w in clique[1:]):
                clique.append(v)
                assigned[v] = True
        if len(clique) > 1 or nodes.weight[u] > 1:
            clusters.append(clique)
    return clusters


def _group(records: Sequence[FileRecord], cl: list[int], nodes: _Nodes, bits: int) -> Group:
    """The group of the fingerprints ``cl``: its representative the best-connected file,
    then the oldest, then the path."""
    degree, members = nodes.degree, nodes.members
    files = [i for u in cl for i in members[u]]
    rep_u = max(cl, key=lambda u: (degree[u], -min(records[i].mtime_ns for i in members[u])))
    rep = oldest_of(records, members[rep_u])[2]
    mem = members_around(records, rep, files, bits)
    mem.sort(key=lambda m: (m.index != rep, m.distance, records[m.index].path))
    return Group(0, rep, mem)


def annotate_estimates(records: Sequence[FileRecord], groups: list[Group]) -> None:
    """Give members of unverified (SimHash only) groups their estimated text similarity to
    the representative, for display."""
    a, b, where = [], [], []
    for g in groups:
        for m in g.members:
            a.append(g.representative)
            b.append(m.index)
            where.append(m)
    if not where:
        return
    idx = sorted(set(a) | set(b))
    pos = {i: k for k, i in enumerate(idx)}
    sk = sketch_array((records[i].sketch for i in idx), len(idx))
    est, whole = estimate(sk, np.array([pos[i] for i in a]), np.array([pos[i] for i in b]))
    for m, ra, e, w in zip(where, a, est.tolist(), whole.tolist()):
        if records[ra].sketch and records[m.index].sketch:
            m.similarity, m.measured = round(e, 4), bool(w)
