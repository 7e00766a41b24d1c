"""Questions with named answers: every button says what it does, and a destructive
question defaults to Cancel (Enter or Esc never deletes anything).

Every question goes through :func:`run`, the one place a modal box is shown, so tests can
answer it (and read the box) without a person.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import (QAbstractButton, QDialog, QDialogButtonBox, QLabel, QMessageBox,
                               QTextBrowser, QVBoxLayout, QWidget)

from simdup_gui.core.act.actions import ActionReport
from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.actions import report_summary


def run(box: QMessageBox) -> QAbstractButton | None:
    """Show ``box`` modally; the button clicked (None when closed)."""
    box.exec()
    return box.clickedButton()


def choose(parent: QWidget | None, title: str, text: str, answers: list[str], *,
           default: int = 0, destructive: bool = False) -> int | None:
    """Ask with one named button per answer and a Cancel; the index chosen, None for
    Cancel. ``destructive`` makes Cancel the default button."""
    box = QMessageBox(QMessageBox.Icon.Warning if destructive else QMessageBox.Icon.Question,
                      title, text, QMessageBox.StandardButton.NoButton, parent)
    buttons = [box.addButton(a, QMessageBox.ButtonRole.AcceptRole) for a in answers]
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel if destructive else buttons[default])
    box.setEscapeButton(cancel)
    clicked = run(box)
    return buttons.index(clicked) if clicked in buttons else None


def confirm(parent: QWidget | None, title: str, text: str, answer: str, *,
            destructive: bool = True) -> bool:
    """True when the user clicks ``answer`` (e.g. "Delete 3 files"); Cancel is the default
    of a destructive question."""
    return choose(parent, title, text, [answer], destructive=destructive) == 0


class ReportDialog(QDialog):
    """Each file's outcome, failures first and never shown as success."""

    def __init__(self, report: ActionReport, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("What happened"))
        self.resize(900, 500)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("<b>" + html.escape(report_summary(report)) + "</b>"))
        view = QTextBrowser()
        scheme = colours.current()  # light or dark, as the window is painted
        rows = []
        order = {"failed": 0, "skipped": 1}
        for o in sorted(report.outcomes, key=lambda o: order.get(o.status, 2)):
            c = scheme.status.get(o.status, scheme.text)
            dest = f" → {html.escape(o.dest)}" if o.dest else ""
            why = f" <i>({html.escape(o.reason)})</i>" if o.reason else ""
            rows.append(f'<div><b style="color:{c}">{html.escape(o.status)}</b> '
                        f"{html.escape(o.path)}{dest}{why}</div>")
        if report.journal:
            rows.append("<p>" + html.escape(self.tr("Journal: {0}").format(report.journal)) + "</p>")
        view.setHtml("".join(rows) or self.tr("Nothing to do."))
        lay.addWidget(view)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        box.accepted.connect(self.accept)
        lay.addWidget(box)
        self.text = view.toPlainText()
