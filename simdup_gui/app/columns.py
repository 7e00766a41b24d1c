"""The column chooser (issue 38, item 17): the groups table's header has a context menu that
lists its columns with check boxes; a column unticked is hidden, and the hidden columns are
kept in the preferences (``options.HIDDEN_COLUMNS``) across restarts.

Other commands about the columns (a reset of their widths) join the same menu through
:meth:`ColumnChooser.add_action`.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from simdup_gui.core.presenters.tree import COL_NAME, COLUMNS, DELTA_COLUMNS, headers

from . import options as opt


class ColumnChooser(QObject):
    """The header's context menu: one check box a column (the name always shows)."""

    def __init__(self, win, deltas: QAction) -> None:
        super().__init__(win)
        self.win = win
        self.tree = win.tree
        self.deltas = deltas  # View > "Size and date against the reference"
        self.extra: list[QAction] = []  # more of the header's commands, below the columns
        header = self.tree.header()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._show_menu)
        deltas.toggled.connect(lambda _on: self.save())  # (both delta columns)
        QTimer.singleShot(0, self.restore)  # after the window's layout is restored

    def retranslate(self) -> None:
        pass  # the menu is made, in the current language, each time it is shown

    def add_action(self, action: QAction) -> None:
        """Show ``action`` in the header's menu too (below the columns)."""
        self.extra.append(action)

    def menu(self) -> QMenu:
        """The header's menu as it is now: the columns, checked when shown."""
        menu = QMenu(self.tree)
        names = headers()
        for col in range(COLUMNS):
            a = menu.addAction(names[col])
            a.setCheckable(True)
            a.setChecked(not self.tree.isColumnHidden(col))
            a.setEnabled(col != COL_NAME)  # (its check boxes are the marks)
            a.toggled.connect(lambda on, col=col: self.set_shown(col, on))
        if self.extra:
            menu.addSeparator()
            menu.addActions(self.extra)
        return menu

    def _show_menu(self, pos) -> None:
        header = self.tree.header()
        self.menu().exec(header.viewport().mapToGlobal(pos))

    def set_shown(self, col: int, on: bool) -> None:
        """Show or hide column ``col`` (never the name), and remember it."""
        if col == COL_NAME:
            return
        self.tree.setColumnHidden(col, not on)
        deltas = self.deltas
        if col in DELTA_COLUMNS and on and not deltas.isChecked():
            deltas.blockSignals(True)  # a delta column shown: the View menu says so
            deltas.setChecked(True)
            deltas.blockSignals(False)
            self.win.prefs.set(opt.SHOW_DELTAS, True)
        self.save()

    def hidden(self) -> list[int]:
        return [c for c in range(COLUMNS) if self.tree.isColumnHidden(c)]

    def save(self) -> None:
        self.win.prefs.set(opt.HIDDEN_COLUMNS, [str(c) for c in self.hidden()])

    def restore(self) -> None:
        """Hide the columns the preferences name (numbers only; others are ignored)."""
        saved = self.win.prefs.get(opt.HIDDEN_COLUMNS)
        hidden = {int(c) for c in saved if str(c).isdigit()} - {COL_NAME}
        for col in range(COLUMNS):
            if col in DELTA_COLUMNS and not self.deltas.isChecked():
                continue  # hidden by the View menu's switch, whatever was saved
            self.tree.setColumnHidden(col, col in hidden)
