"""Scan progress and the status line as texts: rate, elapsed and remaining time; the
settings' names and hints."""

from __future__ import annotations

from dataclasses import dataclass

from ..group.index import chance_matches
from ..models import ProgressEvent, human_size
from . import i18n
from .i18n import counted, translate


def clock(seconds: float) -> str:
    """m:ss, or h:mm:ss from an hour."""
    s = int(max(0, seconds))
    return f"{s // 3600:d}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:d}:{s % 60:02d}"


@dataclass(frozen=True)
class ProgressView:
    """What the progress bar and its label show; ``total`` 0 means busy (no known end)."""

    text: str
    done: int = 0
    total: int = 0
    bar_format: str = ""


def scan_progress(ev: ProgressEvent, elapsed: float) -> ProgressView | None:
    """The progress display for ``ev`` after ``elapsed`` seconds (None: leave it as it is)."""
    if ev.phase == "walk":
        return ProgressView(translate("MainWindow", "Listing files: {0} found\n{1}").format(
            ev.files_done, ev.current))
    if ev.phase == "prepare":
        return ProgressView(translate(
            "MainWindow", "Preparing the fast code, once after an install (about a minute); "
                          "later scans start at once…"))
    if ev.phase != "fingerprint":
        return None
    mbs = ev.bytes_done / 1e6 / max(elapsed, 1e-3)
    if not ev.bytes_done or elapsed <= 0:  # no rate yet, so no time left to say
        text = translate("MainWindow", "{0} of {1} files, elapsed {2}\n{3}").format(
            ev.files_done, ev.files_total, clock(elapsed), ev.current)
    else:
        left = (ev.bytes_total - ev.bytes_done) / (ev.bytes_done / elapsed)
        text = translate("MainWindow",
                         "{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}\n{5}"
                         ).format(ev.files_done, ev.files_total, mbs, clock(elapsed),
                                  clock(left), ev.current)
    return ProgressView(text, ev.files_done, max(1, ev.files_total),
                        f"{ev.files_done} / {ev.files_total}")


def group_progress(ev: ProgressEvent, elapsed: float) -> str | None:
    """The status text while grouping: each phase, and for the pairs measured from the
    files a count and the remaining time (None: not a grouping phase)."""
    if ev.phase == "candidates":
        return translate("MainWindow", "Grouping {0} files: finding candidate pairs…").format(
            ev.files_total)
    if ev.phase == "verify" and not ev.files_done:  # no rate yet
        return translate("MainWindow", "Grouping: measuring {0} pairs near the threshold from "
                         "the files…").format(ev.files_total)
    if ev.phase == "verify":
        left = (ev.files_total - ev.files_done) * elapsed / ev.files_done
        return translate("MainWindow", "Grouping: {0} of {1} pairs near the threshold measured "
                         "from the files, remaining {2}").format(ev.files_done, ev.files_total,
                                                                 clock(left))
    if ev.phase == "stars":
        return translate("MainWindow", "Grouping: making groups from {0} verified pairs…").format(
            ev.files_total)
    return None


def scan_cancelled_kept(groups: int, marks: int) -> str:
    """A re-scan was cancelled: the previous, complete results stay as they were."""
    return translate("MainWindow", "Cancelled: the previous results are kept as they were "
                     "({0} groups, {1} marked); nothing of the cancelled scan replaced them."
                     ).format(groups, marks)


def scan_finished(files: int, cancelled: bool, elapsed: float) -> str:
    msg = (translate("MainWindow", "Cancelled, partial results: {0} fingerprinted before "
                     "the cancel are shown; scan again for all of them.")
           if cancelled else translate("MainWindow", "Scanned {0} in {1}."))
    return msg.format(i18n.files(files), clock(elapsed))


def status_line(session) -> str:
    """Groups, grouped files, marks and their size, files scanned, problems."""
    problems = len(session.problems)
    away = sum(c.files for c in session.catalogs)
    line = translate(
        "MainWindow", "{0}, {1} in groups, {2} marked ({3}); {4} scanned, {5}"
    ).format(i18n.groups(len(session.groups)), i18n.files(session.file_count()),
             len(session.grouped_marks()), human_size(session.marked_size()),
             i18n.files(len(session.records) - away),
             counted(problems, translate("MainWindow", "1 problem"),
                     translate("MainWindow", "{0} problems")))
    if session.catalogs:  # (review/catalog.py: the files of drives that are not connected)
        line += translate("MainWindow", "; compared with the catalog {0} ({1})").format(
            ", ".join(c.name for c in session.catalogs), i18n.files(away))
    return line


def mode_name(mode: str) -> str:
    """A feature or grouping mode (scan.features, group.cluster) as the settings show it."""
    names = {"shingles": translate("MainWindow", "shingles"),
             "tokens": translate("MainWindow", "tokens"),
             "topk": translate("MainWindow", "topk"),
             "linked": translate("MainWindow", "linked"),
             "strict": translate("MainWindow", "strict")}
    return names.get(mode, mode)


def distance_hint(bits: int, distance: int, verify: str) -> str:
    if verify == "none":
        text = translate("MainWindow", "k={0} of {1} bits: files within k are grouped, unchecked")
    else:
        text = translate("MainWindow", "k={0} of {1} bits proposes candidates; their text decides")
    return text.format(distance, bits)


def scale_warning(files: int, scheduler: str) -> str:
    """A note when more than a million files (group.candidates.CLUSTER_ABOVE) are grouped on
    this machine, without a Dask scheduler ("" otherwise)."""
    from ..group.candidates import CLUSTER_ABOVE

    if files <= CLUSTER_ABOVE or scheduler.strip():
        return ""
    return translate(
        "MainWindow", "{0} files, more than a million: grouping them on this machine takes "
                      "about 2 GB of memory a million files, more when many are alike. With a "
                      "Dask scheduler their candidate step runs on the cluster."
    ).format(f"{files:,}")


def chance_warning(files: int, bits: int, distance: int, verify: str) -> str:
    """A warning beside the settings when each of ``files`` files is expected to lie within
    ``distance`` of more than one unrelated file by chance ("" otherwise)."""
    c = chance_matches(files, bits, distance)
    if c <= 1:
        return ""
    what = (translate("MainWindow", "they are grouped as duplicates") if verify == "none" else
            translate("MainWindow", "text similarity rejects them, but each costs time"))
    return translate(
        "MainWindow", "⚠ At {0} bits and k={1}, each of {2} files lies within k of about {3} "
                      "unrelated files by chance: {4}. Choose a larger fingerprint size or a "
                      "smaller k.").format(bits, distance, files,
                                             f"{c:.2g}" if c < 10 else f"{c:,.0f}", what)
