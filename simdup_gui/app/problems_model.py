"""The Problems tab's table: the files that were skipped, and why."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QTableView

from simdup_gui.core.models import Problem
from simdup_gui.core.presenters.engine_text import problem_kind
from simdup_gui.core.presenters.tree import problem_reason, problems_headers

from .fit_when_shown import FitsWhenShown


class ProblemsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.problems: list[Problem] = []
        # each row's texts, made when first asked for: the view asks about 8 times a cell,
        # and a reason is a translation with patterns (about 60 µs)
        self._texts: dict[int, tuple[str, str, str]] = {}

    def set_problems(self, problems: list[Problem]) -> None:
        self.beginResetModel()
        self.problems = list(problems)
        self._texts = {}
        self.endResetModel()

    def retranslate(self) -> None:
        """Show the headers and reasons in the current language."""
        self._texts = {}
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)
        if self.problems:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.problems) - 1, 2))

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.problems)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else 3

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return problems_headers()[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            row = index.row()
            texts = self._texts.get(row)
            if texts is None:
                p = self.problems[row]
                texts = self._texts[row] = (problem_kind(p.kind), problem_reason(p), p.path)
            return texts[index.column()]
        return None


class ProblemsTable(FitsWhenShown, QTableView):
    """The Problems tab's table; its columns are fitted to a scan's problems when the tab
    is shown (FitsWhenShown: 13-21 ms of the window's thread for the 84 problems of the
    768 MB tree after each scan, the tab not even looked at)."""

    def __init__(self, model: ProblemsModel, parent=None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.horizontalHeader().setStretchLastSection(True)
        self.verticalHeader().hide()
