"""Questions with named answers: every button says what it does, and a destructive
question defaults to Cancel (Enter or Esc never deletes anything).

Every question goes through :func:`run`, the one place a modal box is shown, so tests can
answer it (and read the box) without a person.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget


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
