"""Pairwise precision, recall and F1 of grouping against known truth."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cluster import build_groups
from .models import FileRecord


@dataclass(slots=True)
class Score:
    bits: int
    distance: int
    tp: int
    fp: int
    fn: int

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
        return {"bits": self.bits, "distance": self.distance, "tp": self.tp, "fp": self.fp,
                "fn": self.fn, "precision": round(self.precision, 4),
                "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


def score_pairs(predicted: set[tuple[int, int]], truth: dict[tuple[int, int], bool],
                bits: int = 0, distance: int = 0) -> Score:
    """Pairs are (i, j) with i < j; ``truth`` holds only the labelled (non-ambiguous) pairs."""
    tp = sum(1 for p, dup in truth.items() if dup and p in predicted)
    positives = sum(1 for dup in truth.values() if dup)
    fp = sum(1 for p in predicted if truth.get(p) is False)
    return Score(bits, distance, tp, fp, positives - tp)


def grouped_pairs(records: Sequence[FileRecord], bits: int, distance: int,
                  mode: str = "linked") -> set[tuple[int, int]]:
    groups, _ = build_groups(records, bits, distance, mode)
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
