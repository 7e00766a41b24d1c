"""Questions with named answers: every button says what it does, and a destructive
question defaults to Cancel (Enter or Esc never deletes anything).

Every question goes through :func:`run`, the one place a modal box is shown, so tests can
answer it (and read the box) without a person. The file and folder pickers are here too
(:func:`pick_folder`, :func:`pick_open_file`, :func:`pick_save_file`): Qt's own dialog, in
the interface's language, when the system's native one would speak another.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (QAbstractButton, QDialog, QDialogButtonBox, QFileDialog, QLabel,
                               QMessageBox, QTextBrowser, QVBoxLayout, QWidget)

from simdup_gui.core.act.actions import ActionReport
from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.actions import action_name, report_summary, status_word
from simdup_gui.core.presenters.engine_text import outcome_reason


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


# Qt's picker labels these fields with a mnemonic since Qt 6.10; its Chinese translation
# (qtbase_zh_CN.qm) has only the older words, so ours translates them (context QFileDialog)
QT_PICKER_WORDS = (QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
                   QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"))


def picker_options() -> QFileDialog.Option:
    """Qt's own (non-native) picker when the interface's language is not the system's: a
    native picker speaks the system's language (its buttons, its places, its columns)."""
    from . import i18n

    if i18n.current_language() != i18n.system_language():
        return QFileDialog.Option.DontUseNativeDialog
    return QFileDialog.Option(0)


def pick_folder(parent: QWidget | None, title: str, start: str = "") -> str:
    """A folder chosen by the user ("" when cancelled)."""
    return QFileDialog.getExistingDirectory(
        parent, title, start, QFileDialog.Option.ShowDirsOnly | picker_options())


def pick_open_file(parent: QWidget | None, title: str, start: str = "",
                   filters: str = "") -> str:
    """A file to read, chosen by the user ("" when cancelled)."""
    return QFileDialog.getOpenFileName(parent, title, start, filters,
                                       options=picker_options())[0]


def pick_save_file(parent: QWidget | None, title: str, start: str = "",
                   filters: str = "") -> str:
    """A file to write, chosen by the user ("" when cancelled)."""
    return QFileDialog.getSaveFileName(parent, title, start, filters,
                                       options=picker_options())[0]


class ReportDialog(QDialog):
    """Each file's outcome, failures first and never shown as success."""

    def __init__(self, report: ActionReport, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("What happened: {0}").format(action_name(report.action)))
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
            reason = outcome_reason(o.reason)
            why = f" <i>({html.escape(reason)})</i>" if reason else ""
            rows.append(f'<div><b style="color:{c}">{html.escape(status_word(o.status))}</b> '
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
