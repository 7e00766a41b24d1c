"""Verified groups: SimHash candidates, text similarity checks, one reference per group.

SimHash distance only proposes pairs. Each candidate pair is verified by its text
similarity (textsim: 5-gram Jaccard of the normalised texts), estimated from the files'
512-byte sketches; a pair whose estimate falls within ``MARGIN`` of the threshold (and
whose sets are not both held whole by their sketches) is measured exactly from the files
when a measurer is given. Only verified pairs make groups.

Groups have no chains: each group is a *star* around a reference file, and every member
is verified at or above the threshold against that reference. References are chosen
greedily: the file with the most verified, not yet grouped neighbours (counting copies)
first, then the oldest. Files with identical text (the same text hash and sketch) are one
node: they always group, at similarity 1.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import index as _index
from .index import near_pairs, safe_distance
from ..job import NULL_JOB, Job
from ..models import FileRecord, Group, Member, ProgressEvent
from ..textsim import DEFAULT_SIMILARITY, estimate, jaccard, jaccard_distinct, sketch_array

VERIFY_MODES = ("sketch", "none")
# Estimates this close to the threshold are measured exactly (k=128: about 2 sd at J=0.7).
# On the dev corpus, estimates that land on the wrong side of 0.70 were all within 0.08
# but one (117 within 0.04, 18 within 0.04-0.08, 1 within 0.08-0.12, of 1,180 pairs).
MARGIN = 0.08

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


def check_threshold(similarity: float) -> float:
    if not 0.0 < float(similarity) <= 1.0:
        raise ValueError(f"similarity must be in (0, 1], not {similarity}")
    return float(similarity)


def _classes(records: Sequence[FileRecord]) -> tuple[np.ndarray, list[list[int]]]:
    """Records with identical text (text hash and sketch) share a class."""
    key_to: dict = {}
    cls = np.empty(len(records), dtype=np.int64)
    members: list[list[int]] = []
    for i, r in enumerate(records):
        key = (r.text_hash, r.sketch) if (r.sketch and r.text_hash) else i
        c = key_to.get(key)
        if c is None:
            c = key_to[key] = len(members)
            members.append([])
        members[c].append(i)
        cls[i] = c
    return cls, members


class RecordsMemo:
    """What grouping derives from a records list alone, made once per list: the classes of
    identical texts and the fingerprints as arrays. A regroup at another size, distance or
    threshold reuses them; the classing is a Python loop over every record (85-95 ms at
    100,000, during which a window's thread waits for the GIL). The list is known by
    identity (a review replaces its records, never changes them in place)."""

    def __init__(self) -> None:
        self._memo: tuple = (None, None, None)  # (records, classes, fingerprints), one tuple

    def classes(self, records: Sequence[FileRecord]) -> tuple[np.ndarray, list[list[int]]]:
        of, cls, fps = self._memo
        if of is not records or cls is None:
            cls = _classes(records)
            self._memo = (records, cls, fps if of is records else None)
        return cls

    def fingerprints(self, records: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray]:
        from .cluster import fingerprint_words

        of, cls, fps = self._memo
        if of is not records or fps is None:
            fps = fingerprint_words(records)
            self._memo = (records, cls if of is records else None, fps)
        return fps


def _class_pairs(inverse: np.ndarray, fp_pairs: np.ndarray, cls: np.ndarray,
                 n_cls: int) -> np.ndarray:
    """Pairs of classes whose fingerprints are candidates (or equal), each once, a < b."""
    rep = np.full(n_cls, -1, dtype=np.int64)
    rep[cls[::-1]] = np.arange(len(cls))[::-1]  # first record of each class
    fp_of_cls = inverse[rep]
    order = np.argsort(fp_of_cls, kind="stable")
    n_fp = int(inverse.max()) + 1 if len(inverse) else 0
    counts = np.bincount(fp_of_cls, minlength=n_fp)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out = []
    if len(fp_pairs):
        pa, pb = fp_pairs[:, 0], fp_pairs[:, 1]
        single = (counts[pa] == 1) & (counts[pb] == 1)
        out.append(np.stack((order[starts[pa[single]]], order[starts[pb[single]]]), axis=1))
        if not single.all():  # every class of p with every class of q, in numpy
            p, q = pa[~single], pb[~single]
            cq = counts[q]
            sizes = counts[p] * cq
            k = np.repeat(np.arange(len(p)), sizes)
            off = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            out.append(np.stack((order[starts[p][k] + off // cq[k]],
                                 order[starts[q][k] + off % cq[k]]), axis=1))
    for f in np.flatnonzero(counts > 1).tolist():  # distinct texts with one fingerprint
        cs = order[starts[f] : starts[f] + counts[f]]
        ia, ib = np.triu_indices(len(cs), 1)
        out.append(np.stack((cs[ia], cs[ib]), axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(out).astype(np.int64)
    pairs.sort(axis=1)
    return unique_pairs(pairs)


def unique_pairs(pairs: np.ndarray) -> np.ndarray:
    """``np.unique(pairs, axis=0)`` for (n, 2) arrays of non-negative indices below 2**31:
    the same rows in the same order. np.unique by rows sorts them as one structured value
    each, holding the GIL throughout (70-140 ms for the LSH candidates of 100,000 files, a
    frozen window when grouping runs on a GUI's worker thread); here each row is one int64
    key, whose sort releases it."""
    if len(pairs) == 0 or int(pairs.max()) >= 1 << 31 or int(pairs.min()) < 0:
        return np.unique(pairs, axis=0)
    keys = np.sort((pairs[:, 0].astype(np.int64) << 32) | pairs[:, 1])
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return np.stack((keys >> 32, keys & 0xFFFFFFFF), axis=1).astype(pairs.dtype)


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
    used, local = np.unique(cpairs, return_inverse=True)
    local = local.reshape(-1, 2)
    recs = [records[first[c]] for c in used.tolist()]
    if estimates is None:
        sk = sketch_array((r.sketch for r in recs), len(recs))
        est, whole = estimate(sk, local[:, 0], local[:, 1])
    else:
        est, whole = estimates
    has = np.fromiter((bool(r.sketch) for r in recs), dtype=bool, count=len(recs))
    known = has[local[:, 0]] & has[local[:, 1]]
    sim = np.where(known, est, 0.0)
    exact = whole & known
    # J <= |smaller set| / |larger set|: pairs of very different sizes need no measuring
    n = np.fromiter((r.shingles for r in recs), dtype=np.float64, count=len(recs))
    na, nb = n[local[:, 0]], n[local[:, 1]]
    too_far = known & (np.minimum(na, nb) < threshold * np.maximum(na, nb))
    sim = np.where(too_far, np.minimum(sim, threshold - 1e-9), sim)
    doubt = ~exact & ~too_far & (~known | (np.abs(est - threshold) < MARGIN))
    if measure is not None:
        todo_a = np.flatnonzero(doubt)
        # the pairs of files that are copies of each other next to each other: their files
        # are read once (kept while their pairs are measured), not once per pair
        order, label = component_order(cpairs[todo_a])
        todo = todo_a[order].tolist()
        bounds = [0, *_block_ends(label[order], even_block(len(todo), PREFETCH_PAIRS)),
                  len(todo)]
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
    stats.estimated = int(len(cpairs) - stats.measured)
    ok = sim >= threshold
    stats.verified = int(ok.sum())
    return cpairs[ok], sim[ok], exact[ok]


def component_order(pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(an order of ``pairs`` (n, 2) that puts the pairs of each connected component of the
    graph they make together, by component then pair; each pair's component label, in the
    given order)."""
    if not len(pairs):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    nodes, inv = np.unique(pairs, return_inverse=True)
    inv = inv.reshape(-1, 2)
    comp = components(len(nodes), inv)[inv[:, 0]]
    return np.lexsort((pairs[:, 1], pairs[:, 0], comp)), comp


def components(n: int, pairs: np.ndarray) -> np.ndarray:
    """Connected components of ``n`` nodes joined by ``pairs``, vectorised.

    Returns for each node the smallest node of its component (isolated nodes are
    their own label). Label propagation with pointer jumping: a few numpy passes
    even for millions of pairs, no Python loop per node.
    """
    labels = np.arange(n, dtype=np.int64)
    if n == 0 or len(pairs) == 0:
        return labels
    a = np.ascontiguousarray(pairs[:, 0], dtype=np.int64)
    b = np.ascontiguousarray(pairs[:, 1], dtype=np.int64)
    while True:
        la, lb = labels[a], labels[b]
        m = np.minimum(la, lb)
        if not (la != lb).any():
            break
        np.minimum.at(labels, la, m)
        np.minimum.at(labels, lb, m)
        while True:  # pointer jumping: every node to its root
            nxt = labels[labels]
            if (nxt == labels).all():
                break
            labels = nxt
    return labels


def even_block(n: int, size: int) -> int:
    """The block size that cuts ``n`` pairs into the number of blocks of about ``size`` that
    comes nearest, of equal sizes: 544 doubtful pairs (the 25 MB mix) make one block, not one
    of 512 and one of 32, whose files, too few for the pool (PARALLEL_READS), this process
    read alone after the pool's block (33 of the grouping's 180 ms)."""
    blocks = max(1, round(n / max(1, size)))
    return max(1, -(-n // blocks))


def _block_ends(labels: np.ndarray, size: int) -> list[int]:
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


def oldest_of(records: Sequence[FileRecord], idx: list[int]) -> tuple[int, str, int]:
    """(mtime_ns, path, index) of the oldest of the records ``idx`` (then by path)."""
    if len(idx) == 1:  # most classes: one file
        r = records[idx[0]]
        return r.mtime_ns, r.path, idx[0]
    return min((records[i].mtime_ns, records[i].path, i) for i in idx)


def star_groups(records: Sequence[FileRecord], members: list[list[int]], pairs: np.ndarray,
                sim: np.ndarray, exact: np.ndarray, bits: int) -> list[Group]:
    """Groups of records around references; every member verified against its reference."""
    adj: dict[int, dict[int, tuple[float, bool]]] = {}
    for (a, b), s, e in zip(pairs.tolist(), sim.tolist(), exact.tolist()):
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
    groups: list[Group] = []
    mask = (1 << bits) - 1
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
        ref = oldest[c][2]
        rfp, rhash = records[ref].fingerprint & mask, records[ref].text_hash
        mem = [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                      records[i].text_hash == rhash, 1.0, True) for i in members[c]]
        for d, (sv, ex) in adj.get(c, {}).items():
            if d in assigned:
                continue
            assigned.add(d)
            mem += [Member(i, ((records[i].fingerprint & mask) ^ rfp).bit_count(),
                           records[i].text_hash == rhash, round(sv, 4), ex) for i in members[d]]
        mem.sort(key=lambda m: (m.index != ref, -(m.similarity or 0), m.distance,
                                records[m.index].path))
        groups.append(Group(0, ref, mem))
    return groups


def verified_groups(records: Sequence[FileRecord], bits: int, distance: int,
                    fingerprints: tuple[np.ndarray, np.ndarray], threshold: float = DEFAULT_SIMILARITY,
                    measure: Measure | None = None, candidates: str | None = None,
                    client=None, job: Job = NULL_JOB,
                    memo: RecordsMemo | None = None) -> tuple[list[Group], str, VerifyStats]:
    """Groups whose members are each verified against the group's reference. ``job``
    hears the phases "candidates" (finding candidate pairs), "verify" (pairs near the
    threshold measured from the files, counted) and "stars" (making the groups)."""
    threshold = check_threshold(threshold)
    job.report(ProgressEvent("candidates", 0, len(records)))
    note = ""
    k, expected = safe_distance(fingerprints, bits, distance, _index.MAX_CANDIDATES)
    if k < distance:  # the files are too alike at this distance: bounded, and said
        note = (f"candidate distance lowered from {distance} to {k}: at k={distance} about "
                f"{expected:,.0f} pairs of these files "
                f"would be candidates (more than {_index.MAX_CANDIDATES:,}); ")
        distance = k
    cls, members = memo.classes(records) if memo is not None else _classes(records)
    first = np.fromiter((m[0] for m in members), dtype=np.int64, count=len(members))
    source = choose_source(len(members), bits, distance, candidates, client)
    cpairs, described = candidate_pairs(records, bits, distance, fingerprints, cls, members,
                                        first, source, client)
    estimates = None
    if source == "cluster" and len(cpairs):  # the sketch estimates on the workers too
        from .distributed import cluster_estimates

        used, local = np.unique(cpairs, return_inverse=True)
        sk = sketch_array((records[first[c]].sketch for c in used.tolist()), len(used))
        estimates = cluster_estimates(client, sk, local.reshape(-1, 2))
    job.check()
    stats = VerifyStats()
    pairs, sim, exact = verified_pairs(records, cpairs, first, threshold, measure, stats,
                                       estimates, job)
    job.report(ProgressEvent("stars", 0, len(pairs)))
    groups = star_groups(records, members, pairs, sim, exact, bits)
    return groups, note + described, stats



# Above this many distinct texts, the loose candidate distance (which the block index can
# only serve by a quadratic scan or a costly probe) is served by a tight SimHash distance
# plus sketch LSH within the loose distance (lsh.py).
LSH_ABOVE = 20_000
# With a Dask scheduler, above this many distinct texts the band step runs on the cluster
# (records on the client cost about 1.3 KB each: 2 million take about 2.7 GB).
CLUSTER_ABOVE = 2_000_000
TIGHT_DISTANCE = {16: 1, 32: 3, 64: 6, 128: 10}


def choose_source(n_texts: int, bits: int, distance: int, source: str | None = None,
                  client=None) -> str:
    """The candidate source for ``n_texts`` distinct texts (see :func:`candidate_pairs`)."""
    if source is not None:
        return source
    tight = min(distance, TIGHT_DISTANCE.get(bits, distance))
    # distinct texts (about the distinct fingerprints): past LSH_ABOVE, a loose distance
    # costs a quadratic scan or a probe index with millions of candidates
    source = "lsh" if n_texts > LSH_ABOVE and tight < distance else "scan"
    if source == "lsh" and client is not None and n_texts > CLUSTER_ABOVE:
        source = "cluster"
    return source


def candidate_pairs(records: Sequence[FileRecord], bits: int, distance: int,
                    fingerprints: tuple[np.ndarray, np.ndarray], cls: np.ndarray,
                    members: list[list[int]], first: np.ndarray, source: str | None = None,
                    client=None) -> tuple[np.ndarray, str]:
    """Class pairs to verify, and how they were found.

    ``source``: "scan" (every pair within ``distance``, by the index's plan), "lsh" (pairs
    within the tight distance, plus sketch-LSH pairs within ``distance``), or None: "lsh" on
    more than LSH_ABOVE distinct texts when the tight distance is smaller than ``distance``,
    else "scan". On the real corpora measured (benchmarks/grouping.py --corpus) "lsh" kept
    every verified pair of "scan". With a Dask ``client``, "cluster" is "lsh" with the band
    step run on the cluster (distributed.py), chosen by None above CLUSTER_ABOVE texts.
    """
    from .index import as_words

    tight = min(distance, TIGHT_DISTANCE.get(bits, distance))
    source = choose_source(len(members), bits, distance, source, client)
    if source == "cluster" and client is None:
        raise ValueError("the cluster candidate step needs a Dask client")
    if source == "scan":
        npairs = near_pairs(fingerprints, bits, distance)
        return (_class_pairs(npairs.inverse, npairs.pairs, cls, len(members)),
                npairs.plan.describe())
    from .lsh import BANDS, ROWS, band_pairs, minhashes

    npairs = near_pairs(fingerprints, bits, tight)
    near = _class_pairs(npairs.inverse, npairs.pairs, cls, len(members))
    reps = [records[i] for i in first.tolist()]
    has = np.fromiter((len(r.sketch) > 0 for r in reps), dtype=bool, count=len(reps))
    sk = sketch_array((r.sketch for r in reps), len(reps))
    lo, hi = as_words(tuple(np.asarray(w)[first] for w in fingerprints), bits)
    if source == "cluster":
        from .distributed import cluster_band_pairs

        lp = cluster_band_pairs(client, sk, lo, hi, distance)
    else:
        def within(p: np.ndarray) -> np.ndarray:  # applied as pairs are made: bounded memory
            return (np.bitwise_count(lo[p[:, 0]] ^ lo[p[:, 1]]).astype(np.int16)
                    + np.bitwise_count(hi[p[:, 0]] ^ hi[p[:, 1]])) <= distance
        lp = band_pairs(minhashes(sk), within)
    if len(lp):
        lp = lp[has[lp[:, 0]] & has[lp[:, 1]]]
    n_lsh = len(lp)
    both = np.concatenate((near, lp)) if n_lsh else near
    if len(both):
        both = unique_pairs(both)
    where = " on the Dask cluster" if source == "cluster" else ""
    return both, (f"SimHash k={tight} ({npairs.plan.describe()}) plus sketch LSH{where} "
                  f"({BANDS} bands of {ROWS}) within k={distance}: {len(near)} + {n_lsh} "
                  f"candidate pairs, {len(both)} distinct")


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


PREFETCH_PAIRS = 512  # doubtful pairs measured together (one or more components: 400 MB mix,
# 15,654 files in 28,532 pairs: 128 a block read 18,700 files, 512 16,100)
PARALLEL_READS = 64  # files to read at once that are worth the pool
PREFETCH_TIMEOUT = 120.0  # seconds for one block of pairs, plus a second per READ_RATE bytes
READ_RATE = 4 << 20  # of its files: a lost worker's block is given up on after that
KEEP_SHINGLES = 8 << 20  # shingles (8 bytes each) of recently read files kept per process


class _SetCache:
    """The shingle sets of the files read last, keyed by record index: at most ``keep``
    sets and ``KEEP_SHINGLES`` shingles in all (one 16 MB file alone has millions)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.sets: OrderedDict[object, np.ndarray | None] = OrderedDict()
        self.size = 0

    def get(self, key):
        s = self.sets.get(key, _MISSING)
        if s is not _MISSING:
            self.sets.move_to_end(key)
        return s

    def put(self, key, s: np.ndarray | None) -> None:
        self.sets[key] = s
        self.size += 0 if s is None else s.size
        while len(self.sets) > 1 and (len(self.sets) > self.keep or self.size > KEEP_SHINGLES):
            _, old = self.sets.popitem(last=False)
            self.size -= 0 if old is None else old.size


    def read(self, key, r: FileRecord) -> tuple[np.ndarray | None, int]:
        """(the set of ``r``, kept under ``key``; files read for it: 0 or 1)."""
        s = self.get(key)
        if s is not _MISSING:
            return s, 0
        s = read_shingles(r, ordered=False)
        self.put(key, s)
        return s, 1


_MISSING = object()
_WORKER_SETS = _SetCache(256)  # a pool worker's, kept between the blocks it is sent


def measure_pairs(pairs: list[tuple[FileRecord, FileRecord]]) -> tuple[list[float | None], int]:
    """A pool worker's part of :meth:`Measurer.prefetch`: the exact J of each pair (None
    when a file changed or is unreadable), and how many files it read. Only the numbers
    go back to the scan's process, not the shingle sets (megabytes each, and a
    multiprocessing.Pool's worker-handler thread spins while results wait in its pipe)."""
    from ..scan.features import release_vocab
    from ..scan.fingerprint import trim_heap

    if release_vocab():  # a worker that fingerprinted: its vocabulary is not needed here
        trim_heap()
    out: list[float | None] = []
    read = 0
    for pair in pairs:
        (a, ra), (b, rb) = (_WORKER_SETS.read((r.path, r.content_hash, r.size, r.mtime_ns), r)
                            for r in pair)
        read += ra + rb
        out.append(None if a is None or b is None else round(jaccard_distinct(a, b), 6))
    return out, read


def _block_key(pairs: list[tuple[int, int]]) -> tuple:
    return (len(pairs), pairs[0], pairs[-1]) if pairs else (0,)


def _spread(pairs: list, comp: list[int], n: int) -> list[list]:
    """``pairs`` (in component order, ``comp`` each one's) in about ``n`` contiguous slices,
    cut between components where :func:`_block_ends` finds a change near the cut."""
    ends = _block_ends(np.asarray(comp), -(-len(pairs) // max(1, n)))
    return [pairs[a:b] for a, b in zip([0, *ends], [*ends, len(pairs)])]


class Measurer:
    """Exact J of two records from the files themselves (None when a file changed or is
    unreadable). Shingle sets of the last few files are kept; results can be remembered
    in ``store`` (keyed by both content hashes) so a warm rescan reads no file.

    ``workers`` > 1: :meth:`prefetch` measures a block of pairs on that many processes of
    the scan's pool (forked from its warm fork server; the command line's scan hands over
    its fingerprinting pool, poolctx.take) when they need at least PARALLEL_READS files;
    only the similarities come back. :meth:`close` ends the pool.
    The similarities are the same either way."""

    def __init__(self, records: Sequence[FileRecord], store=None, keep: int = 320,
                 workers: int = 1) -> None:
        self.records = records
        self.store = store
        self._sets = _SetCache(keep)
        self._measured: dict[tuple[int, int], float | None] = {}  # by prefetch, not yet asked
        self.read = 0
        self.workers = workers
        self._pool = None
        self._known: tuple[int, ...] = ()  # its worker pids when made or taken
        self._pending: dict = {}  # blocks sent to the pool, not yet waited for

    def prefetch(self, pairs: list[tuple[int, int]], labels: list[int] | None = None,
                 ahead: Sequence[tuple[list[tuple[int, int]], list[int]]] = ()) -> None:
        """Measure ``pairs`` (not remembered in the store, nor measured already) on the
        pool; :meth:`__call__` then answers them without reading. ``labels``: each pair's
        component (:func:`component_order`), so that a component's pairs go to one worker,
        which then reads each of its files once. ``ahead``: the next blocks (pairs, labels),
        sent now so the workers go on while this process uses the answers."""
        if self.workers < 2:
            return
        key = _block_key(pairs)
        try:
            if key not in self._pending:
                self._send(key, pairs, labels)
            for p, lab in ahead:
                if _block_key(p) not in self._pending:
                    self._send(_block_key(p), p, lab)
            sent = self._pending.pop(key, None)
            if sent is None:  # too few files to be worth the pool
                return
            blocks, result, timeout = sent
            answers = result.get(timeout=timeout)
        except Exception:  # noqa: BLE001 - no pool, a worker lost (its task never comes
            if self._pool is not None:  # back: the timeout), ...: measure them here instead
                from ..scan.poolctx import abandon

                abandon(self._pool)  # terminate() could wait for ever on a dead worker's lock
                self._pool = None
            self._pending.clear()
            self.workers = 1
            return
        for blk, (js, read) in zip(blocks, answers):
            self.read += read
            self._measured.update(zip(blk, js))

    def _send(self, key, pairs: list[tuple[int, int]], labels: list[int] | None) -> None:
        """Send a block's pairs to the pool (in :func:`_spread`'s slices), unless its files
        are too few to be worth it."""
        todo: list[tuple[int, int]] = []
        comp: list[int] = []
        files: set[int] = set()
        for k, (a, b) in enumerate(pairs):
            if (a, b) in self._measured or self._stored(a, b) is not None:
                continue
            todo.append((a, b))
            comp.append(labels[k] if labels is not None else k)
            files.update((a, b))
        if len(files) < PARALLEL_READS:
            return
        blocks = _spread(todo, comp, 4 * self.workers)
        if self._pool is None:
            from ..scan.poolctx import make_pool, pids, take

            kept = take(self.workers)  # the command line's scan's workers, if kept
            if kept is None:
                pool = make_pool(self.workers)
                kept = pool, pids(pool)
            self._pool, self._known = kept
        timeout = PREFETCH_TIMEOUT + sum(self.records[i].size for i in files) / READ_RATE
        self._pending[key] = blocks, self._pool.map_async(
            measure_pairs, [[(self.records[a], self.records[b]) for a, b in blk]
                            for blk in blocks], chunksize=1), timeout

    def close(self) -> None:
        """End the pool (given up, not waited on, if a worker died: poolctx.end_pool)."""
        if self._pool is not None:
            from ..scan.poolctx import end_pool

            end_pool(self._pool, self.workers, self._known)
            self._pool = None

    def _key(self, a: int, b: int) -> tuple[str, str] | None:
        """The store's key of a pair (both content hashes), or None: no store, or a
        record without a hash."""
        key = tuple(sorted((self.records[a].content_hash, self.records[b].content_hash)))
        return key if self.store is not None and all(key) else None

    def _stored(self, a: int, b: int) -> float | None:
        key = self._key(a, b)
        return None if key is None else self.store.get_pair(*key)

    def _set(self, i: int) -> np.ndarray | None:
        s, read = self._sets.read(i, self.records[i])
        self.read += read
        return s

    def __call__(self, a: int, b: int) -> float | None:
        key = self._key(a, b)
        j = None if key is None else self.store.get_pair(*key)
        if j is not None:
            return j
        if (a, b) in self._measured:
            j = self._measured.pop((a, b))
        else:
            sa, sb = self._set(a), self._set(b)
            if sa is None or sb is None:
                return None
            j = round(jaccard_distinct(sa, sb), 6)
        if j is not None and key is not None:
            self.store.put_pair(*key, j)
        return j


def read_shingles(r: FileRecord, ordered: bool = True) -> np.ndarray | None:
    """The record's shingle set, from its file; None if it changed since the scan.
    ``ordered=False``: in any order (features.distinct_shingles, for jaccard_distinct)."""
    from ..scan.decode import decode_bytes
    from ..scan.features import distinct_shingles, shingle_set as fast_shingle_set
    from ..scan.fingerprint import MAX_FEATURE_CHARS, STREAM_ABOVE

    try:
        if r.size > STREAM_ABOVE:
            return None  # huge files: the sketch's estimate stands
        with open(r.path, "rb") as fh:
            data = fh.read(STREAM_ABOVE + 1)
    except OSError:
        return None
    if r.content_hash and hashlib.blake2b(data, digest_size=16).hexdigest() != r.content_hash:
        return None
    try:
        text = decode_bytes(data).text
    except Exception:  # noqa: BLE001 - undecodable now: no measurement
        return None
    text = text[:MAX_FEATURE_CHARS]
    return fast_shingle_set(text) if ordered else distinct_shingles(text)  # textsim's set


class PairSimilarity:
    """Text similarity of two records, for keep rules and for the check before acting.

    ``measured`` reads both files (shingle sets kept by path) and gives None when either
    changed since the scan or cannot be read: the files themselves are the evidence, never
    a results file's claims. Identical bytes (equal content hashes, which the action
    checks again just before it acts) are 1.0 without reading. ``estimated`` uses the
    sketches when both records have one, and measures otherwise.
    """

    def __init__(self) -> None:
        self._sets: dict[tuple[str, str], np.ndarray | None] = {}

    def _set(self, r: FileRecord) -> np.ndarray | None:
        key = (r.path, r.content_hash)
        if key not in self._sets:
            self._sets[key] = read_shingles(r) if r.content_hash else None
        return self._sets[key]

    def readable(self, r: FileRecord) -> bool:
        """The file is still there, readable, with the scan's content."""
        return self._set(r) is not None

    def measured(self, a: FileRecord, b: FileRecord) -> float | None:
        if a.content_hash and a.content_hash == b.content_hash:
            return 1.0
        sa, sb = self._set(a), self._set(b)
        if sa is None or sb is None:
            return None
        return jaccard(sa, sb)

    def estimated(self, a: FileRecord, b: FileRecord) -> float | None:
        if a.content_hash and a.content_hash == b.content_hash:
            return 1.0
        if a.sketch and b.sketch:
            est, _ = estimate(sketch_array((a.sketch, b.sketch), 2), np.array([0]), np.array([1]))
            return float(est[0])
        return self.measured(a, b)
