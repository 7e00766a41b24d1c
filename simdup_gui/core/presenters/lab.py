"""The accuracy lab's results as the views show them: table cells, chart series, headline.

Colours are names ("#1f77b4") from the current light or dark scheme (:mod:`.colours`); the
app turns them into pens and brushes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lab.evaluate import Score
from ..lab.experiment import LabReport
from ..models import ProgressEvent
from . import colours
from .i18n import translate

COLUMNS = ("bits", "distance", "precision", "recall", "f1", "tp", "fp", "fn", "chance")
METRICS = ("precision", "recall", "f1")


def colour(name: str) -> str:
    """A line's colour in the current scheme: a metric, "chance", "one_match", "verified"
    or a size ("size64")."""
    return colours.current().lab.get(name, colours.current().text)
CHANCE_FLOOR = 1e-3  # chance values below this are drawn at the floor of the log axis
CHART_SIZES = (16, 32, 64, 128)


def headers() -> list[str]:
    names = {"bits": translate("AccuracyModel", "bits"), "distance": translate("AccuracyModel", "k"),
             "precision": translate("AccuracyModel", "precision"),
             "recall": translate("AccuracyModel", "recall"), "f1": translate("AccuracyModel", "F1"),
             "tp": translate("AccuracyModel", "TP"), "fp": translate("AccuracyModel", "FP"),
             "fn": translate("AccuracyModel", "FN"),
             "chance": translate("AccuracyModel", "chance/file")}
    return [names[c] for c in COLUMNS]


class ScoreTable:
    """One row per (bits, k); the best k per size is flagged (bold in the view)."""

    def __init__(self, report: LabReport | None = None) -> None:
        self.rows: list[Score] = [s for size in report.sizes for s in size.scores] if report else []
        self.best = {(s.bits, s.best.distance) for s in report.sizes} if report else set()

    def raw(self, row: int, col: int) -> float:
        return getattr(self.rows[row], COLUMNS[col])

    def text(self, row: int, col: int) -> str:
        raw, name = self.raw(row, col), COLUMNS[col]
        if name in ("precision", "recall", "f1"):
            return f"{raw:.3f}"
        if name == "chance":
            return f"{raw:.3g}"
        return str(int(raw)) if float(raw).is_integer() else f"{raw:.0f}"

    def is_best(self, row: int) -> bool:
        s = self.rows[row]
        return (s.bits, s.distance) in self.best

    def drowned(self, row: int) -> bool:
        return self.rows[row].chance >= 1


def progress_text(ev: ProgressEvent) -> str:
    phases = {"generate": translate("AccuracyTab", "Generating the corpus"),
              "walk": translate("AccuracyTab", "Listing files"),
              "fingerprint": translate("AccuracyTab", "Fingerprinting"),
              "read": translate("AccuracyTab", "Reading texts for the reference"),
              "reference": translate("AccuracyTab", "Measuring reference similarity"),
              "evaluate": translate("AccuracyTab", "Scoring every size and k"),
              "done": translate("AccuracyTab", "Fingerprinting")}
    return translate("AccuracyTab", "{0}: {1} of {2}").format(
        phases.get(ev.phase, ev.phase), ev.files_done, ev.files_total)


_SOURCES = (  # the engine's names of a truth, as patterns -> translated texts
    (r"synthetic manifest, measured J >= (\S+)", "synthetic manifest, measured J ≥ {0}"),
    (r"synthetic manifest", "synthetic manifest"),
    (r"reference Jaccard >= (\S+)", "reference: exact Jaccard ≥ {0}"),
    (r"CSV groups \((.*)\)", "CSV groups ({0})"),
    (r"CSV pairs \((.*)\)", "CSV pairs ({0})"),
)
_EXACT = re.compile(r"exact, no sampling: all (\d+) pairs of (\d+) files.*?"
                    r"(\d+) candidate pairs measured exactly")


def truth_source(source: str) -> str:
    """The truth's name in the interface language (the engine writes English)."""
    texts = {"synthetic manifest, measured J ≥ {0}":
             translate("AccuracyTab", "synthetic manifest, measured J ≥ {0}"),
             "synthetic manifest": translate("AccuracyTab", "synthetic manifest"),
             "reference: exact Jaccard ≥ {0}":
             translate("AccuracyTab", "reference: exact Jaccard ≥ {0}"),
             "CSV groups ({0})": translate("AccuracyTab", "CSV groups ({0})"),
             "CSV pairs ({0})": translate("AccuracyTab", "CSV pairs ({0})")}
    for pattern, text in _SOURCES:
        m = re.fullmatch(pattern, source)
        if m:
            return texts[text].format(*m.groups())
    return source


def sampling_text(sampling: str) -> str:
    """How the truth was measured, short and translated (the full English text is the
    report's ``sampling``, shown as a tooltip)."""
    m = _EXACT.match(sampling)
    if m:
        return translate("AccuracyTab", "Exact, no sampling: all {0} pairs of {1} files, {2} "
                                        "measured.").format(*m.groups())
    return sampling


def report_status(report: LabReport) -> str:
    return translate("AccuracyTab", "{0} files, truth: {1}; {2} duplicate pairs. {3}").format(
        report.files, truth_source(report.truth_source), f"{report.positives:.0f}",
        sampling_text(report.sampling))


def headline(report: LabReport) -> str:
    """The best F1 (SimHash alone), the verified groups' F1 at the shipped candidate
    distance, and chance matches of every size; a warning when 16 bits drown."""
    parts = []
    for s in report.sizes:
        b = s.best
        text = translate("AccuracyTab", "{0} bits: best F1 {1:.2f} at k={2}, {3} random "
                         "matches per file").format(s.bits, b.f1, b.distance, f"{b.chance:.2g}")
        if s.verified is not None and s.template is not None:
            text += translate("AccuracyTab", " (verified groups: F1 {0:.2f} at k={1}; templates "
                              "kept apart: F1 {2:.2f})").format(
                s.verified.f1, s.verified.distance, s.template.f1)
        elif s.verified is not None:
            text += translate("AccuracyTab", " (verified groups: F1 {0:.2f} at k={1})").format(
                s.verified.f1, s.verified.distance)
        parts.append(text)
    worst = min(report.sizes, key=lambda s: s.bits)
    msg = "; ".join(parts)
    if worst.bits <= 16 and any(sc.chance >= 1 for sc in worst.scores):
        msg += translate("AccuracyTab", ". Red-tinted rows: more chance matches than one per "
                         "file, so small fingerprints drown in coincidences.")
    return msg


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    points: list[tuple[float, float]]
    width: int = 2
    style: str = "solid"  # "solid", "dash", "dot"
    axis: str = "value"  # "value" (0-1, left) or "chance" (log, right)


@dataclass(frozen=True)
class SizeChart:
    """P, R, F1 against k on a 0-1 axis, chance matches on a log axis, one-match line."""

    k_range: tuple[int, int]
    k_ticks: int
    chance_top: float
    series: list[Series]
    drowned: bool


def size_chart(scores: list[Score]) -> SizeChart:
    names = {"precision": translate("AccuracyTab", "precision"),
             "recall": translate("AccuracyTab", "recall"), "f1": translate("AccuracyTab", "F1")}
    series = [Series(names[m], colour(m), [(s.distance, getattr(s, m)) for s in scores],
                     3 if m == "f1" else 2) for m in METRICS]
    series.append(Series(translate("AccuracyTab", "chance matches/file (log)"), colour("chance"),
                         [(s.distance, max(CHANCE_FLOOR, s.chance)) for s in scores],
                         2, "dash", "chance"))
    series.append(Series(translate("AccuracyTab", "1 random match/file"), colour("one_match"),
                         [(scores[0].distance, 1.0), (scores[-1].distance, 1.0)],
                         1, "dot", "chance"))
    lo = scores[0].distance
    return SizeChart((lo, max(scores[-1].distance, lo + 1)),
                     min(9, len(scores)) if len(scores) > 1 else 2,
                     max(10.0, max(s.chance for s in scores)), series,
                     any(s.chance >= 1 for s in scores))


def best_f1(report: LabReport) -> tuple[list[str], list[float]]:
    """(category per size, best F1 per size) for the bar chart."""
    return ([translate("AccuracyTab", "{0} bits").format(s.bits) for s in report.sizes],
            [s.best.f1 for s in report.sizes])


def f1_bars(report: LabReport) -> tuple[list[str], list[tuple[str, str, list[float]]]]:
    """Categories (one per size) and bar sets (name, colour, F1 per size): SimHash alone at
    its best k, and, when the report has them, verified groups at the shipped distance, so
    the fingerprint-size lesson and what the product does are side by side. (The template
    verdict's F1 is in the headline: a third name in the legend was cut at the chart's
    width.)"""
    cats, best = best_f1(report)
    sets = [(translate("AccuracyTab", "SimHash only"), colour("f1"), best)]
    if any(s.verified is not None for s in report.sizes):
        sets.append((translate("AccuracyTab", "verified"), colour("verified"),
                     [s.verified.f1 if s.verified is not None else 0.0 for s in report.sizes]))
    return cats, sets


def pr_curves(report: LabReport) -> list[Series]:
    """One precision-recall curve per size: (recall, precision) per k."""
    return [Series(translate("AccuracyTab", "{0} bits").format(s.bits),
                   colour(f"size{s.bits}"),
                   [(sc.recall, sc.precision) for sc in s.scores]) for s in report.sizes]
