"""What an action or an undo did, as one translated line (status bar, report dialog)."""

from __future__ import annotations

from ..act.actions import STATUSES, ActionReport
from ..models import human_size
from .i18n import translate


def report_summary(report: ActionReport) -> str:
    """E.g. "Undo: 433 put back", "Move: dry run, nothing touched: 3 planned" or
    "Release: 2 released; 1.5 MB freed"."""
    names = {"move": translate("Report", "Move"), "trash": translate("Report", "Trash"),
             "delete": translate("Report", "Delete"), "undo": translate("Report", "Undo"),
             "release": translate("Report", "Release held originals")}
    counts = {"done": translate("Report", "{0} done"),
              "skipped": translate("Report", "{0} skipped"),
              "failed": translate("Report", "{0} failed"),
              "planned": translate("Report", "{0} planned")}
    if report.action == "undo":
        counts["done"] = translate("Report", "{0} put back")
    elif report.action == "release":
        counts["done"] = translate("Report", "{0} released")
        counts["planned"] = translate("Report", "{0} to release")
    parts = [counts[s].format(report.count(s)) for s in STATUSES if report.count(s)]
    body = ", ".join(parts) or translate("Report", "nothing to do")
    if report.dry_run:
        body = translate("Report", "dry run, nothing touched: {0}").format(body)
    text = translate("Report", "{0}: {1}").format(names.get(report.action, report.action), body)
    freed = getattr(report, "freed", 0)  # a release's bytes
    if freed:
        text += (translate("Report", "; would free {0}") if report.dry_run
                 else translate("Report", "; {0} freed")).format(human_size(freed))
    if report.cancelled:
        text += translate("Report", "; cancelled")
    if report.stopped:
        text += translate("Report", "; stopped: {0}").format(report.stopped)
    return text
