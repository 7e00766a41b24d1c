"""Pairwise precision, recall and F1 of grouping against known truth, for every size.

``evaluate`` takes records fingerprinted once (128 bits) and, for each size f, the
low f bits: it finds the near pairs at the largest k once, then adds them in order
of distance to a union-find, so the groups at every k come from one pass. Pair
counts come from the truth's :meth:`count` over component labels (O(N) per k).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..group.cluster import GROUPING_MODES, build_groups
from ..group.exact import Measurer
from ..group.graph import UnionFind
from ..group.index import as_words, chance_matches, near_pairs
from ..job import NULL_JOB, Job
from ..models import ALLOWED_BITS, FileRecord, ProgressEvent
from ..defaults import DEFAULT_DISTANCE
from .truth import ClassTruth, Truth
from ..validate import one_of


@dataclass(slots=True)
class Score:
    """Pair counts at one (bits, distance); floats when sampled pairs carry weights."""

    bits: int
    distance: int
    tp: float
    fp: float
    fn: float
    ambiguous: float = 0.0
    chance: float = 0.0  # expected random matches per file at this N, f, k

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict:
        def num(x: float) -> float | int:
            return int(x) if float(x).is_integer() else round(float(x), 1)

        return {"bits": self.bits, "distance": self.distance, "tp": num(self.tp),
                "fp": num(self.fp), "fn": num(self.fn), "ambiguous": num(self.ambiguous),
                "precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "f1": round(self.f1, 4), "chance": round(self.chance, 4)}


def score_pairs(predicted: set[tuple[int, int]], truth: dict[tuple[int, int], bool],
                bits: int = 0, distance: int = 0) -> Score:
    """Pairs are (i, j) with i < j; ``truth`` holds only the labelled (non-ambiguous) pairs."""
    tp = sum(1 for p, dup in truth.items() if dup and p in predicted)
    positives = sum(1 for dup in truth.values() if dup)
    fp = sum(1 for p in predicted if truth.get(p) is False)
    return Score(bits, distance, tp, fp, positives - tp)


def grouped_pairs(records: Sequence[FileRecord], bits: int, distance: int,
                  mode: str = "linked", verify: str = "none",
                  similarity: float = 0.7) -> set[tuple[int, int]]:
    """Every pair inside one group (SimHash alone unless ``verify`` says otherwise)."""
    groups, _ = build_groups(records, bits, distance, mode, verify=verify,
                             similarity=similarity)
    out: set[tuple[int, int]] = set()
    for g in groups:
        out.update(itertools.combinations(sorted(g.indices()), 2))
    return out


def truth_pairs(n: int, label: Callable[[int, int], bool | None]) -> dict[tuple[int, int], bool]:
    out = {}
    for i in range(n):
        for j in range(i + 1, n):
            lab = label(i, j)
            if lab is not None:
                out[(i, j)] = lab
    return out


def sweep(records: Sequence[FileRecord], truth: dict[tuple[int, int], bool], bits: int,
          distances: Sequence[int], mode: str = "linked") -> list[Score]:
    return [score_pairs(grouped_pairs(records, bits, k, mode), truth, bits, k) for k in distances]


def default_distances(bits: int) -> list[int]:
    """k from 0 to f/4: the same angular range at every size."""
    one_of("bits", bits, ALLOWED_BITS)
    return list(range(0, bits // 4 + 1))


def linked_components(lo: np.ndarray, hi: np.ndarray, bits: int,
                      distances: Sequence[int]) -> list[np.ndarray]:
    """Union-find component label per file at each k in ``distances`` (ascending)."""
    ks = sorted(distances)
    if not ks:
        return []
    npairs = near_pairs((lo, hi), bits, ks[-1])
    a, b = npairs.pairs[:, 0], npairs.pairs[:, 1]
    d = (np.bitwise_count(npairs.lo[a] ^ npairs.lo[b]).astype(np.int64)
         + np.bitwise_count(npairs.hi[a] ^ npairs.hi[b]))
    order = np.argsort(d, kind="stable")
    a, b, d = a[order].tolist(), b[order].tolist(), d[order]
    uf = UnionFind(len(npairs.lo))
    out, x = [], 0
    for k in ks:
        end = int(np.searchsorted(d, k, side="right"))
        for i in range(x, end):
            uf.union(a[i], b[i])
        x = end
        roots = np.fromiter((uf.find(u) for u in range(len(npairs.lo))), dtype=np.int64,
                            count=len(npairs.lo))
        out.append(roots[npairs.inverse])
    return out


def strict_components(records: Sequence[FileRecord], bits: int, distance: int) -> np.ndarray:
    """Component labels of the "strict" grouping (every pair within k)."""
    comp = np.arange(len(records), dtype=np.int64)
    groups, _ = build_groups(records, bits, distance, "strict", verify="none")
    for g in groups:
        comp[g.indices()] = len(records) + g.id
    return comp


@dataclass
class TransformRecall:
    """How often a variant of one transformation was grouped with its original."""

    transform: str
    level: str
    found: int
    total: int

    @property
    def rate(self) -> float:
        return self.found / self.total if self.total else 0.0

    def to_dict(self) -> dict:
        return {"transform": self.transform, "level": self.level, "found": self.found,
                "total": self.total, "rate": round(self.rate, 4)}


@dataclass
class SizeResult:
    bits: int
    scores: list[Score]
    by_transform: list[TransformRecall] = field(default_factory=list)
    verified: Score | None = None  # verified groups (the shipped pipeline) at the default k
    template: Score | None = None  # the same with the template verdict (templates.py): different
    # documents built on one template kept apart (the user sees what it gains and costs)

    @property
    def best(self) -> Score:
        """Highest F1; ties go to the smaller k."""
        return max(self.scores, key=lambda s: (round(s.f1, 12), -s.distance))

    def at(self, distance: int) -> Score | None:
        return next((s for s in self.scores if s.distance == distance), None)


def recall_by_transform(truth: ClassTruth, comp: np.ndarray) -> list[TransformRecall]:
    """Share of each transformation's variants grouped with their base's original."""
    if truth.original is None or truth.transform is None:
        return []
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    level: dict[str, str] = {}
    for i, (t, o) in enumerate(zip(truth.transform, truth.original.tolist())):
        if o < 0 or o == i:
            continue
        total[t] += 1
        found[t] += int(comp[i] == comp[o])
        level[t] = truth.level[i] if truth.level else ""
    order = {"near": 0, "middle": 1, "far": 2}
    return [TransformRecall(t, level[t], found[t], total[t])
            for t in sorted(total, key=lambda t: (order.get(level[t], 3), t))]


def _verified(records: Sequence[FileRecord], truth: Truth, bits: int, verdict: str) -> Score:
    """The score of verified groups at the default k with ``verdict`` (templates.MEASURES)."""
    n, dk = len(records), DEFAULT_DISTANCE[bits]
    groups, _ = build_groups(records, bits, dk, measure=Measurer(records), verdict=verdict)
    comp = np.arange(n, dtype=np.int64)
    for g in groups:
        comp[g.indices()] = n + g.id
    c = truth.count(comp)
    return Score(bits, dk, c.tp, c.fp, c.fn, c.ambiguous, chance_matches(n, bits, dk))


def evaluate(records: Sequence[FileRecord], truth: Truth,
             bits_list: Sequence[int] = ALLOWED_BITS,
             distances: dict[int, Sequence[int]] | None = None, grouping: str = "linked",
             job: Job = NULL_JOB) -> list[SizeResult]:
    """Score the grouping at every (f, k) against ``truth`` (aligned with ``records``)."""
    one_of("grouping", grouping, GROUPING_MODES)
    if len(truth.names) != len(records):
        raise ValueError("truth must hold one entry per record")
    for bits in bits_list:
        one_of("bits", bits, ALLOWED_BITS)
    n = len(records)
    lo_all, hi_all = as_words([r.fingerprint for r in records], 128)
    out: list[SizeResult] = []
    for step, bits in enumerate(bits_list):
        job.check()
        job.report(ProgressEvent("evaluate", step, len(bits_list)))
        ks = sorted((distances or {}).get(bits) or default_distances(bits))
        lo, hi = as_words((lo_all, hi_all), bits)
        if grouping == "linked":
            comps = linked_components(lo, hi, bits, ks)
        else:
            comps = [strict_components(records, bits, k) for k in ks]
        scores = []
        for k, comp in zip(ks, comps):
            c = truth.count(comp)
            scores.append(Score(bits, k, c.tp, c.fp, c.fn, c.ambiguous,
                                chance_matches(n, bits, k)))
        res = SizeResult(bits, scores)
        if all(r.sketch for r in records):
            res.verified, res.template = (_verified(records, truth, bits, v)
                                          for v in ("plain", "template"))
        if isinstance(truth, ClassTruth):
            res.by_transform = recall_by_transform(truth, comps[ks.index(res.best.distance)])
        out.append(res)
    job.report(ProgressEvent("evaluate", len(bits_list), len(bits_list)))
    return out


__all__ = ["DEFAULT_DISTANCE", "Score", "SizeResult", "TransformRecall", "chance_matches",
           "default_distances", "evaluate", "grouped_pairs", "linked_components",
           "recall_by_transform", "score_pairs", "strict_components", "sweep", "truth_pairs"]
