"""Groups of near-duplicates.

By default (``verify="sketch"``) groups are verified by text similarity, each a star
around a reference file (see :mod:`verify`). With ``verify="none"``, SimHash alone, for
comparison (the accuracy lab shows both):

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

import numpy as np

from .index import near_pairs
from ..job import NULL_JOB, Job
from ..models import FileRecord, Group, Member
from ..textsim import DEFAULT_SIMILARITY
from ..validate import one_of
from .verify import (VERIFY_MODES, Measure, Measurer, RecordsMemo, annotate_estimates,
                     components, oldest_of, verified_groups)

GROUPING_MODES = ("linked", "strict")


class UnionFind:
    """Plain union-find (kept for callers; grouping uses :func:`components`)."""

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


def fingerprint_words(records: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray]:
    """The 128-bit fingerprints of ``records`` as (low, high) uint64 arrays."""
    n = len(records)
    m64 = 0xFFFFFFFFFFFFFFFF
    lo = np.fromiter((r.fingerprint & m64 for r in records), dtype=np.uint64, count=n)
    hi = np.fromiter((r.fingerprint >> 64 for r in records), dtype=np.uint64, count=n)
    return lo, hi


def group_labels(fps, bits: int, distance: int) -> np.ndarray:
    """Linked grouping on arrays alone: for each input a group label, -1 when alone.

    ``fps`` as for :func:`near_pairs` ((lo, hi) uint64 arrays avoid Python ints).
    The labels are the component ids of :func:`build_groups` "linked" mode.
    """
    npairs = near_pairs(fps, bits, distance)
    n_u = len(npairs.lo)
    comp = components(n_u, npairs.pairs)
    lab = comp[npairs.inverse]
    size = np.bincount(lab, minlength=n_u)
    return np.where(size[lab] > 1, lab, -1)


def build_groups(records: Sequence[FileRecord], bits: int, distance: int,
                 mode: str = "linked", fingerprints: tuple[np.ndarray, np.ndarray] | None = None,
                 *, verify: str = "sketch", similarity: float = DEFAULT_SIMILARITY,
                 measure: Measure | None = None, client=None,
                 job: Job = NULL_JOB, memo: RecordsMemo | None = None) -> tuple[list[Group], str]:
    """Group ``records`` with candidates at (bits, distance). Returns the groups and a
    description of the index plan (and of the verification).

    ``verify="sketch"``: candidates are verified at text ``similarity`` (``measure``
    measures doubtful pairs exactly from the files); ``"none"``: SimHash alone, grouped
    by ``mode``. ``fingerprints``: the records' fingerprints as (lo, hi) uint64 arrays,
    when the caller has them already (saves a pass over a million Python ints).
    ``client``: a Dask client; above verify.CLUSTER_ABOVE texts the LSH band step runs there.
    ``memo``: what a regroup of the same records can reuse (verify.RecordsMemo).
    """
    one_of("grouping", mode, GROUPING_MODES)
    one_of("verify", verify, VERIFY_MODES)
    if fingerprints is None:
        fingerprints = (memo.fingerprints(records) if memo is not None
                        else fingerprint_words(records))
    if verify == "sketch":
        groups, plan, stats = verified_groups(records, bits, distance, fingerprints,
                                              similarity, measure, client=client, job=job,
                                              memo=memo)
        _number(groups, records)
        return groups, f"{plan}; {stats.describe()}"
    npairs = near_pairs(fingerprints, bits, distance)
    inverse, pairs = npairs.inverse, npairs.pairs
    # Work on distinct fingerprints; identical ones always share a group.
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

    clusters: list[list[int]] = []
    if mode == "linked":
        comp = components(n_u, pairs)
        lab = comp[nodes]
        order = np.argsort(lab, kind="stable")
        lab_s, nodes_s = lab[order], nodes[order]
        cut = np.flatnonzero(lab_s[1:] != lab_s[:-1]) + 1
        for cl in np.split(nodes_s, cut):
            if cl.size:
                clusters.append(cl.tolist())
    else:
        adj: dict[int, set[int]] = defaultdict(set)
        for a, b in pairs.tolist():
            adj[a].add(b)
            adj[b].add(a)
        assigned = dict.fromkeys(degree, False)
        for u in sorted(degree, key=lambda x: (-degree[x], x)):
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
        rep = oldest_of(records, members[rep_u])[2]
        rfp = records[rep].fingerprint & mask
        rhash = records[rep].text_hash
        mem = [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                      records[i].text_hash == rhash) for i in files]
        mem.sort(key=lambda m: (m.index != rep, m.distance, records[m.index].path))
        groups.append(Group(0, rep, mem))
    annotate_estimates(records, groups)
    _number(groups, records)
    return groups, npairs.plan.describe()


def _number(groups: list[Group], records: Sequence[FileRecord]) -> None:
    """Largest groups first, then by the reference's path; ids from 1."""
    groups.sort(key=lambda g: (-len(g.members), records[g.representative].path))
    for n, g in enumerate(groups, 1):
        g.id = n


def group_records(records: Sequence[FileRecord], bits: int, distance: int, mode: str = "linked",
                  fingerprints: tuple[np.ndarray, np.ndarray] | None = None, *,
                  verify: str = "sketch", similarity: float = DEFAULT_SIMILARITY,
                  cache_path: str | None = None, use_cache: bool = True,
                  scheduler: str = "", read_workers: int = 1,
                  job: Job = NULL_JOB, memo: RecordsMemo | None = None) -> tuple[list[Group], str]:
    """:func:`build_groups` with doubtful pairs measured from the files, and the exact
    similarities remembered in the cache (so a warm regroup reads no file). With a Dask
    ``scheduler`` and more than verify.CLUSTER_ABOVE files, the candidate step's LSH bands
    run on the cluster. ``read_workers`` > 1: the doubtful pairs' files are read on that many
    processes (the CLI; the app keeps 1: a pool's start and its result threads would take
    the GUI thread's time, and a small regroup runs on the GUI thread itself)."""
    from .verify import CLUSTER_ABOVE

    if scheduler and verify != "none" and len(records) > CLUSTER_ABOVE:
        from ..scan.distributed import Cluster

        with Cluster(scheduler) as cluster:
            return _group_records(records, bits, distance, mode, fingerprints, verify=verify,
                                  similarity=similarity, cache_path=cache_path,
                                  use_cache=use_cache, client=cluster.client,
                                  read_workers=read_workers, job=job, memo=memo)
    return _group_records(records, bits, distance, mode, fingerprints, verify=verify,
                          similarity=similarity, cache_path=cache_path, use_cache=use_cache,
                          read_workers=read_workers, job=job, memo=memo)


def _group_records(records: Sequence[FileRecord], bits: int, distance: int, mode: str,
                   fingerprints, *, verify: str, similarity: float, cache_path: str | None,
                   use_cache: bool, client=None, read_workers: int = 1,
                   job: Job = NULL_JOB, memo: RecordsMemo | None = None) -> tuple[list[Group], str]:
    store = None
    if use_cache and verify != "none":
        from ..scan.cache import FingerprintCache

        try:
            store = FingerprintCache(cache_path)
        except Exception:  # noqa: BLE001 - no cache (unwritable, corrupt) only costs speed
            store = None
    measure = Measurer(records, store, workers=read_workers)
    try:
        return build_groups(records, bits, distance, mode, fingerprints, verify=verify,
                            similarity=similarity, measure=measure, client=client, job=job,
                            memo=memo)
    finally:
        measure.close()
        if store is not None:
            store.close()
