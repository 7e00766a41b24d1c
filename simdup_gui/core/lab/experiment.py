"""The accuracy lab: scan a labelled folder once, then score every fingerprint size.

``run_eval`` is what the CLI (``simdup eval``) and the app's Accuracy tab call: the
engine's parallel ``scan`` (progress, cancel), the truth (synthetic manifest, a CSV,
or reference Jaccard), then :func:`evaluate.evaluate` for each size.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field

import numpy as np

from ..scan.decode import decode_bytes
from .evaluate import SizeResult, evaluate
from ..scan.features import DEFAULT_MODE, FEATURE_MODES
from ..scan.fingerprint import FeatureSettings
from ..job import NULL_JOB, Cancelled, Job
from ..models import ALLOWED_BITS, FileRecord, Problem, ProgressEvent
from .reference import DEFAULT_SAMPLE, reference_truth
from ..scan.pipeline import ScanOptions, scan
from ..defaults import DEFAULT_DISTANCE
from .synth import MANIFEST_NAME
from .truth import ClassTruth, Truth, load_csv, load_manifest
from ..validate import one_of

TRUTH_KINDS = ("synthetic", "csv", "reference")


@dataclass(frozen=True)
class TruthSpec:
    """Where the truth comes from: ``synthetic`` (manifest.json in the folder or ``path``),
    ``csv`` (``path``), or ``reference`` (Jaccard >= ``threshold``)."""

    kind: str = "synthetic"
    path: str = ""
    threshold: float = 0.7
    sample: int = DEFAULT_SAMPLE

    def __post_init__(self) -> None:
        one_of("truth kind", self.kind, TRUTH_KINDS)
        if self.kind == "csv" and not self.path:
            raise ValueError("a CSV truth needs the CSV file's path")
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")

    @classmethod
    def parse_reference(cls, text: str) -> TruthSpec:
        """``jaccard:0.7`` -> a reference truth at 0.7."""
        method, _, value = text.partition(":")
        if method.strip().lower() != "jaccard":
            raise ValueError(f"reference must look like jaccard:0.7, not {text!r}")
        try:
            t = float(value) if value else 0.7
        except ValueError as e:
            raise ValueError(f"reference threshold must be a number, not {value!r}") from e
        return cls("reference", threshold=t)


@dataclass
class EvalOptions:
    bits: tuple[int, ...] = ALLOWED_BITS
    features: str = DEFAULT_MODE
    grouping: str = "linked"
    workers: int = 0
    distances: dict[int, list[int]] | None = None

    def __post_init__(self) -> None:
        bad = [b for b in self.bits if b not in ALLOWED_BITS]
        if bad or not self.bits:
            raise ValueError(f"bits must be drawn from {', '.join(map(str, ALLOWED_BITS))}")
        one_of("feature mode", self.features, FEATURE_MODES)


@dataclass
class LabReport:
    """Everything one evaluation found; plain data for the CLI, JSON and the app."""

    root: str
    files: int
    truth_source: str
    rule: str
    sampling: str
    features: str
    grouping: str
    sizes: list[SizeResult]
    positives: float
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    def size(self, bits: int) -> SizeResult:
        return next(s for s in self.sizes if s.bits == bits)

    def to_dict(self) -> dict:
        return {
            "root": self.root, "files": self.files, "truth": self.truth_source,
            "rule": self.rule, "sampling": self.sampling, "features": self.features,
            "grouping": self.grouping, "positive_pairs": self.positives,
            "default_distance": {str(b): DEFAULT_DISTANCE[b] for b in ALLOWED_BITS},
            "sizes": [{"bits": s.bits, "best": s.best.to_dict(),
                       "scores": [x.to_dict() for x in s.scores],
                       "by_transform": [t.to_dict() for t in s.by_transform],
                       "verified": s.verified.to_dict() if s.verified else None,
                       "verified_template": s.template.to_dict() if s.template else None}
                      for s in self.sizes],
            "notes": self.notes, "problems": [p.to_dict() for p in self.problems],
            "seconds": round(self.seconds, 2),
        }


def to_json(report: LabReport) -> str:
    return json.dumps(report.to_dict(), ensure_ascii=False, indent=1)


CSV_FIELDS = ("bits", "distance", "tp", "fp", "fn", "ambiguous", "precision", "recall", "f1",
              "chance")


def to_csv(report: LabReport) -> str:
    """One row per (bits, k)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for s in report.sizes:
        for sc in s.scores:
            w.writerow(sc.to_dict())
    return buf.getvalue()


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.0f}"


def to_text(report: LabReport, full: bool = True) -> str:
    """The summary table (best k per size), then each size's sweep and recall by type."""
    r = report
    lines = [f"{r.files} files in {r.root}; features {r.features}, grouping {r.grouping}",
             f"truth: {r.truth_source}; {_fmt(r.positives)} duplicate pairs",
             f"rule: {' '.join(r.rule.split())}"]
    if r.sampling:
        lines.append(f"sampling: {r.sampling}")
    lines += ["", "SimHash alone (linked groups):",
              "bits  best k  precision  recall     F1      TP      FP      FN  "
              "chance/file  default k  F1 at default"]
    for s in r.sizes:
        b = s.best
        dk = DEFAULT_DISTANCE[s.bits]
        at = s.at(dk)
        lines.append(f"{s.bits:>4}  {b.distance:>6}  {b.precision:>9.3f}  {b.recall:>6.3f}  "
                     f"{b.f1:>5.3f}  {_fmt(b.tp):>6}  {_fmt(b.fp):>6}  {_fmt(b.fn):>6}  "
                     f"{b.chance:>11.3g}  {dk:>9}  "
                     f"{(f'{at.f1:.3f}' if at else '-'):>13}")
    ver = [s for s in r.sizes if s.verified is not None]
    if ver:
        lines += ["", "Verified groups (candidates at the default k, text similarity checked; "
                  "template: documents built on one template kept apart, --measure template):",
                  "bits  verdict   cand. k  precision  recall     F1      TP      FP      FN"]
        for s in ver:
            for name, v in (("plain", s.verified), ("template", s.template)):
                if v is not None:
                    lines.append(
                        f"{s.bits:>4}  {name:<8}  {v.distance:>7}  {v.precision:>9.3f}  "
                        f"{v.recall:>6.3f}  {v.f1:>5.3f}  {_fmt(v.tp):>6}  {_fmt(v.fp):>6}  "
                        f"{_fmt(v.fn):>6}")
    if full:
        for s in r.sizes:
            lines += ["", f"{s.bits} bits: k, precision, recall, F1, chance matches per file"]
            for sc in s.scores:
                lines.append(f"  k={sc.distance:<3} P {sc.precision:.3f}  R {sc.recall:.3f}  "
                             f"F1 {sc.f1:.3f}  chance {sc.chance:.3g}")
            if s.by_transform:
                lines.append(f"  grouped with the original at k={s.best.distance}:")
                for t in s.by_transform:
                    lines.append(f"    {t.transform:<28} {t.level:<7} {t.found}/{t.total} "
                                 f"({t.rate:.0%})")
    if r.notes:
        lines += ["", "notes:"] + [f"  {n}" for n in r.notes[:20]]
        if len(r.notes) > 20:
            lines.append(f"  ... and {len(r.notes) - 20} more")
    if r.problems:
        lines += ["", f"{len(r.problems)} files not fingerprinted (see --format json)"]
    return "\n".join(lines) + "\n"


def _relname(rec: FileRecord, root: str) -> str:
    return os.path.relpath(rec.path, root).replace(os.sep, "/")


def _texts(records: list[FileRecord], job: Job) -> list[str]:
    out = []
    for i, r in enumerate(records):
        if i % 50 == 0:
            job.check()
            job.report(ProgressEvent("read", i, len(records)))
        with open(r.path, "rb") as fh:
            out.append(decode_bytes(fh.read()).text)
    return out


def build_truth(records: list[FileRecord], root: str, spec: TruthSpec,
                job: Job = NULL_JOB) -> tuple[list[FileRecord], Truth, list[str]]:
    """The truth aligned with ``records`` (records outside a manifest are dropped)."""
    names = [_relname(r, root) for r in records]
    notes: list[str] = []
    if spec.kind == "synthetic":
        path = spec.path or os.path.join(root, MANIFEST_NAME)
        if not os.path.isfile(path):
            raise ValueError(f"no synthetic manifest at {path}; make one with `simdup synth`")
        full = load_manifest(path)
        where = {n: i for i, n in enumerate(full.names)}
        keep_rec = [i for i, n in enumerate(names) if n in where]
        extra = len(names) - len(keep_rec)
        if extra:
            notes.append(f"{extra} scanned files are not in the manifest and were left out")
        missing = len(full.names) - len(keep_rec)
        if missing:
            notes.append(f"{missing} manifest files were not fingerprinted and were left out")
        truth: Truth = full.subset(np.array([where[names[i]] for i in keep_rec], dtype=np.int64))
        records = [records[i] for i in keep_rec]
    elif spec.kind == "csv":
        truth = load_csv(spec.path, names, root)
    else:
        texts = _texts(records, job)
        truth = reference_truth(names, texts, spec.threshold,
                                [r.fingerprint for r in records], spec.sample, job=job)
    notes.extend(truth.notes)
    return records, truth, notes


def run_eval(job: Job, root: str, spec: TruthSpec | None = None,
             options: EvalOptions | None = None) -> LabReport:
    """Scan ``root`` once and score every size. Raises Cancelled when cancelled.

    ``job`` comes first so the app's ``Worker(run_eval, root, spec, options)`` can run it.
    """
    import time

    spec = spec or TruthSpec()
    opt = options or EvalOptions()
    if not os.path.isdir(root):
        raise ValueError(f"not a folder: {root}")
    t0 = time.perf_counter()
    root = os.path.abspath(root)
    skip = [MANIFEST_NAME]
    if spec.path and os.path.abspath(os.path.dirname(spec.path)) == root:
        skip.append(os.path.basename(spec.path))
    from ..scan.walk import WalkOptions

    so = ScanOptions(walk=WalkOptions(exclude=tuple(skip)), features=FeatureSettings(opt.features),
                     workers=opt.workers, use_cache=False)
    result = scan([root], so, job)
    if result.cancelled:
        raise Cancelled()
    records, truth, notes = build_truth(result.records, root, spec, job)
    sizes = evaluate(records, truth, opt.bits, opt.distances, opt.grouping, job)
    return LabReport(root, len(records), truth.source, truth.rule,
                  getattr(truth, "sampling", ""), opt.features, opt.grouping, sizes,
                  truth.positives, notes, result.problems, time.perf_counter() - t0)


__all__ = ["CSV_FIELDS", "EvalOptions", "LabReport", "TRUTH_KINDS", "TruthSpec", "build_truth",
           "run_eval", "to_csv", "to_json", "to_text", "ClassTruth"]
