"""Ground truth for the accuracy lab, and pair counts of a grouping against it.

A grouping is given as one component label per file (files with the same label were
put in one group). Counting works on labels, never on lists of every pair, so a
16-bit grouping that lumps thousands of files together costs O(N), not O(N^2).

Two kinds of truth:

- :class:`ClassTruth`: each file has a duplicate class and an ambiguity class
  (CSV groups, old synthetic manifests). Same duplicate class: duplicate. Otherwise same
  ambiguity class: left out. Otherwise: not a duplicate. A synthetic manifest of measured
  pairs keeps its per-file classes for information (recall per transformation) and counts
  with its ``pairs``.
- :class:`PairTruth`: explicitly labelled pairs with weights (CSV pairs, reference
  similarity, measured manifests). Unlisted pairs are either not duplicates
  (``closed_world``) or not measured (weighted samples stand for them). Label -1 is the
  grey zone, left out of the scores.
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass, field

import numpy as np


@dataclass(slots=True)
class Counts:
    """Pair counts; floats when sampled pairs carry weights."""

    tp: float
    fp: float
    fn: float
    ambiguous: float = 0.0  # predicted pairs left out of the metrics


def _pairs_in(keys: np.ndarray) -> int:
    """Number of pairs of equal values in ``keys``."""
    if keys.size < 2:
        return 0
    _, c = np.unique(keys, return_counts=True)
    return int((c * (c - 1) // 2).sum())


def _combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.int64) * (int(b.max(initial=0)) + 1) + b.astype(np.int64)


@dataclass
class ClassTruth:
    """Per-file classes; see the module docstring for the labelling rule."""

    names: list[str]
    positive: np.ndarray  # duplicate class per file, -1: none
    ambiguous: np.ndarray  # ambiguity class per file, -1: none (must contain ``positive``)
    rule: str
    source: str
    transform: list[str] | None = None  # per file, for recall per transformation
    level: list[str] | None = None  # per file: the recipe's level (information)
    original: np.ndarray | None = None  # per file: index of its base's original, -1 none
    notes: list[str] = field(default_factory=list)
    pairs: PairTruth | None = None  # measured pair labels: these count, not the classes

    def __post_init__(self) -> None:
        n = len(self.names)
        if len(self.positive) != n or len(self.ambiguous) != n:
            raise ValueError("positive and ambiguous need one entry per file")
        if self.pairs is not None and len(self.pairs.names) != n:
            raise ValueError("pairs must be over the same files")

    @property
    def positives(self) -> int:
        if self.pairs is not None:
            return int(self.pairs.positives)
        p = self.positive[self.positive >= 0]
        return _pairs_in(p)

    def count(self, comp: np.ndarray) -> Counts:
        """Pair counts of the grouping ``comp`` (component label per file)."""
        if self.pairs is not None:
            return self.pairs.count(comp)
        comp = np.asarray(comp, dtype=np.int64)
        total = _pairs_in(comp)
        pos = self.positive >= 0
        tp = _pairs_in(_combine(comp[pos], self.positive[pos]))
        amb = self.ambiguous >= 0
        same_amb = _pairs_in(_combine(comp[amb], self.ambiguous[amb]))
        both = amb & pos
        same_amb_pos = _pairs_in(_combine(_combine(comp[both], self.ambiguous[both]),
                                          self.positive[both]))
        ambiguous = same_amb - same_amb_pos
        return Counts(tp, total - tp - ambiguous, self.positives - tp, ambiguous)

    def subset(self, keep: np.ndarray) -> ClassTruth:
        """The truth restricted to files ``keep`` (indices), re-indexed."""
        keep = np.asarray(keep, dtype=np.int64)
        orig = None
        if self.original is not None:
            remap = np.full(len(self.names), -1, dtype=np.int64)
            remap[keep] = np.arange(len(keep))
            o = self.original[keep]
            orig = np.where(o >= 0, remap[np.maximum(o, 0)], -1)
        pick = keep.tolist()
        return ClassTruth([self.names[i] for i in pick], self.positive[keep],
                          self.ambiguous[keep], self.rule, self.source,
                          [self.transform[i] for i in pick] if self.transform else None,
                          [self.level[i] for i in pick] if self.level else None, orig,
                          list(self.notes),
                          self.pairs.subset(keep) if self.pairs is not None else None)


@dataclass
class PairTruth:
    """Labelled pairs (a < b, indices into ``names``) with weights."""

    names: list[str]
    a: np.ndarray
    b: np.ndarray
    label: np.ndarray  # 1 duplicate, 0 not, -1 ambiguous
    weight: np.ndarray
    closed_world: bool  # unlisted pairs are not duplicates
    rule: str
    source: str
    sampling: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def positives(self) -> float:
        return float(self.weight[self.label == 1].sum())

    def count(self, comp: np.ndarray) -> Counts:
        comp = np.asarray(comp, dtype=np.int64)
        same = comp[self.a] == comp[self.b]
        pos, neg, amb = self.label == 1, self.label == 0, self.label == -1
        tp = float(self.weight[same & pos].sum())
        fn = float(self.weight[~same & pos].sum())
        ambiguous = float(self.weight[same & amb].sum())
        if self.closed_world:
            fp = _pairs_in(comp) - float((same & (pos | amb)).sum())
        else:
            fp = float(self.weight[same & neg].sum())
        if self.closed_world:
            tp, fn, ambiguous = int(tp), int(fn), int(ambiguous)
            fp = int(fp)
        return Counts(tp, fp, fn, ambiguous)

    def subset(self, keep: np.ndarray) -> PairTruth:
        """The truth restricted to files ``keep`` (indices), re-indexed; pairs with a file
        outside ``keep`` are dropped."""
        keep = np.asarray(keep, dtype=np.int64)
        remap = np.full(len(self.names), -1, dtype=np.int64)
        remap[keep] = np.arange(len(keep))
        a, b = remap[self.a], remap[self.b]
        ok = (a >= 0) & (b >= 0)
        a, b = a[ok], b[ok]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        return PairTruth([self.names[i] for i in keep.tolist()], lo, hi, self.label[ok],
                         self.weight[ok], self.closed_world, self.rule, self.source,
                         self.sampling, list(self.notes))


Truth = ClassTruth | PairTruth


def _norm(name: str) -> str:
    if os.path.isabs(name):
        return name
    name = name.replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return name


def load_manifest(path: str, threshold: float | None = None) -> ClassTruth:
    """A synthetic corpus's ``manifest.json`` as truth over its file names.

    A manifest with ``pairs`` (written by this version of ``simdup synth``) is labelled by
    measured similarity: each listed pair [i, j, J] is a duplicate at J >= ``threshold``
    (default: the manifest's ``threshold``), grey (left out) at J >= ``different_below``;
    every pair not listed was measured below ``different_below``. An older manifest without
    ``pairs`` is labelled by the recipe levels of its files, with a note saying so.
    """
    with open(path, encoding="utf-8") as fh:
        m = json.load(fh)
    files = m.get("files")
    if not isinstance(files, list) or not files:
        raise ValueError(f"{path}: not a simdup synthetic manifest (no 'files' list)")
    names, pos, amb, tr, lv = [], [], [], [], []
    originals: dict[int, int] = {}
    for i, f in enumerate(files):
        level = f.get("level")
        if level not in ("near", "middle", "far"):
            raise ValueError(f"{path}: file {f.get('name')!r} has level {level!r}; "
                             "allowed: near, middle, far")
        base = int(f["base"])
        names.append(_norm(f["name"]))
        pos.append(base if level == "near" else -1)
        amb.append(base if level != "far" else -1)
        tr.append(f.get("transform", ""))
        lv.append(f.get("recipe_level", level))
        if f.get("transform") == "original":
            originals[base] = i
    orig = np.array([originals.get(int(f["base"]), -1) for f in files], dtype=np.int64)
    notes = list(m.get("notes", []))
    pairs = None
    source = "synthetic manifest"
    if "pairs" in m:
        pairs = _measured_pairs(path, m, names, threshold)
        source = pairs.source
    else:
        notes.append("this manifest has no measured pairs (an older `simdup synth`): pairs "
                     "are labelled by the recipe that made each file; write it again for "
                     "labels by measured similarity")
    rule = m.get("rule", "")
    if pairs is not None:
        rule = pairs.rule
    return ClassTruth(names, np.array(pos, dtype=np.int64), np.array(amb, dtype=np.int64),
                      rule, source, tr, lv, orig, notes, pairs)


def _measured_pairs(path: str, m: dict, names: list[str],
                    threshold: float | None) -> PairTruth:
    from ..textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW

    t = float(threshold if threshold is not None else m.get("threshold", DEFAULT_SIMILARITY))
    if not 0.0 < t <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], not {t}")
    lower = min(float(m.get("different_below", DIFFERENT_BELOW)), t)
    rows = m["pairs"]
    n = len(names)
    try:
        arr = np.array(rows, dtype=np.float64).reshape(-1, 3)
    except ValueError as e:
        raise ValueError(f"{path}: 'pairs' must be a list of [i, j, J]") from e
    i, j, sim = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64), arr[:, 2]
    if ((i < 0) | (j < 0) | (i >= n) | (j >= n) | (i == j)).any():
        raise ValueError(f"{path}: 'pairs' has a file index out of range (or a self-pair)")
    a, b = np.minimum(i, j), np.maximum(i, j)
    label = np.where(sim >= t, 1, np.where(sim >= lower, -1, 0)).astype(np.int8)
    rule = (f"measured: every pair of files is labelled by the exact Jaccard similarity J of "
            f"the character 5-gram sets of their decoded, normalised texts "
            f"(shared/near-duplicate.md): duplicate at J >= {t}, not a duplicate below "
            f"{lower}" + (f", {lower} <= J < {t} is a grey zone left out of the scores"
                          if lower < t else "")
            + "; the recipe that made each file is information only")
    return PairTruth(list(names), a, b, label, np.ones(label.size), True, rule,
                     f"synthetic manifest, measured J >= {t}")


CSV_FORMATS = ("group,path", "path_a,path_b[,label]")


def load_csv(path: str, names: list[str], root: str = "") -> Truth:
    """A user's CSV of known duplicates, aligned to ``names`` (paths relative to the root).

    Columns ``group,path``: files of one group are duplicates; every other pair is
    not. Columns ``path_a,path_b[,label]``: listed pairs (label 1/yes/true: duplicate,
    0/no/false: not, ?: ambiguous, default 1); unlisted pairs are not duplicates.
    """
    index = {n: i for i, n in enumerate(names)}
    notes: list[str] = []

    def find(p: str) -> int | None:
        p = p.strip()
        if os.path.isabs(p) and root:
            p = os.path.relpath(p, root)
        i = index.get(_norm(p))
        if i is None:
            notes.append(f"not among the scanned files: {p}")
        return i

    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
        fields = [f.strip().lower() for f in (rows[0].keys() if rows else [])]
    if not rows:
        raise ValueError(f"{path}: empty CSV; expected columns {' or '.join(CSV_FORMATS)}")
    rows = [{k.strip().lower(): (v or "") for k, v in r.items() if k} for r in rows]
    if "group" in fields and "path" in fields:
        pos = np.full(len(names), -1, dtype=np.int64)
        gids: dict[str, int] = {}
        for r in rows:
            i = find(r["path"])
            if i is not None:
                pos[i] = gids.setdefault(r["group"].strip(), len(gids))
        rule = ("CSV groups: files in one group are duplicates; all other pairs, including "
                "files not listed, are not duplicates.")
        return ClassTruth(list(names), pos, pos.copy(), rule, f"CSV groups ({path})",
                          notes=notes)
    if "path_a" in fields and "path_b" in fields:
        labelled: dict[tuple[int, int], int] = {}
        for r in rows:
            i, j = find(r["path_a"]), find(r["path_b"])
            if i is None or j is None or i == j:
                continue
            v = r.get("label", "").strip().lower()
            lab: list[int] = []
            if v in ("", "1", "yes", "true", "dup", "duplicate"):
                lab.append(1)
            elif v in ("0", "no", "false", "not"):
                lab.append(0)
            elif v in ("?", "-1", "ambiguous"):
                lab.append(-1)
            else:
                raise ValueError(f"{path}: label {v!r}; allowed 1/yes/true, 0/no/false, ?")
            labelled[(min(i, j), max(i, j))] = lab.pop()
        rule = ("CSV pairs: listed pairs carry their label (default duplicate); pairs not "
                "listed are not duplicates.")
        keys = sorted(labelled)
        a = np.array([k[0] for k in keys], dtype=np.int64)
        b = np.array([k[1] for k in keys], dtype=np.int64)
        lab_arr = np.array([labelled[k] for k in keys], dtype=np.int8)
        return PairTruth(list(names), a, b, lab_arr, np.ones(len(keys)), True, rule,
                         f"CSV pairs ({path})", notes=notes)
    raise ValueError(f"{path}: columns {', '.join(fields)}; expected {' or '.join(CSV_FORMATS)}")
