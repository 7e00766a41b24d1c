"""What an action or an undo did, as translated text: one summary line (status bar, report
dialog), each outcome's status word, and its reason (:mod:`.engine_text`)."""

from __future__ import annotations

from ..act.actions import STATUSES, ActionReport
from ..models import human_size
from .engine_text import QT_TRANSLATE_NOOP
from .i18n import translate


_ACTIONS = {"move": QT_TRANSLATE_NOOP("Report", "Move"),
            "trash": QT_TRANSLATE_NOOP("Report", "Trash"),
            "delete": QT_TRANSLATE_NOOP("Report", "Delete"),
            "hardlink": QT_TRANSLATE_NOOP("Report", "Replace with hard links"),
            "symlink": QT_TRANSLATE_NOOP("Report", "Replace with symbolic links"),
            "copy": QT_TRANSLATE_NOOP("Report", "Copy"),
            "rename": QT_TRANSLATE_NOOP("Report", "Rename"),
            "undo": QT_TRANSLATE_NOOP("Report", "Undo"),
            "release": QT_TRANSLATE_NOOP("Report", "Release held originals")}
_STATUS_WORDS = {"done": QT_TRANSLATE_NOOP("Report", "done"),
                 "skipped": QT_TRANSLATE_NOOP("Report", "skipped"),
                 "failed": QT_TRANSLATE_NOOP("Report", "failed"),
                 "planned": QT_TRANSLATE_NOOP("Report", "planned")}


def action_name(action: str) -> str:
    """The action as the user knows it ("hardlink": "Replace with hard links")."""
    name = _ACTIONS.get(action)
    return action if name is None else translate("Report", name)


def status_word(status: str) -> str:
    """"done", "skipped", "failed" or "planned" in the interface's language."""
    word = _STATUS_WORDS.get(status)
    return status if word is None else translate("Report", word)


def report_summary(report: ActionReport) -> str:
    """E.g. "Undo: 433 put back", "Move: dry run, nothing touched: 3 planned" or
    "Release held originals: 2 released; 1.5 MB freed"."""
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
    text = translate("Report", "{0}: {1}").format(action_name(report.action), body)
    freed = getattr(report, "freed", 0)  # a release's bytes
    if freed:
        text += (translate("Report", "; would free {0}") if report.dry_run
                 else translate("Report", "; {0} freed")).format(human_size(freed))
    if report.cancelled:
        text += translate("Report", "; cancelled")
    if report.stopped:
        text += translate("Report", "; stopped: {0}").format(report.stopped)
    return text
