"""The Problems tab's table: the files that were skipped, and why."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from simdup_gui.core.models import Problem
from simdup_gui.core.presenters.engine_text import problem_kind
from simdup_gui.core.presenters.tree import problem_reason, problems_headers


class ProblemsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.problems: list[Problem] = []

    def set_problems(self, problems: list[Problem]) -> None:
        self.beginResetModel()
        self.problems = list(problems)
        self.endResetModel()

    def retranslate(self) -> None:
        """Show the headers and reasons in the current language."""
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
        p = self.problems[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return [problem_kind(p.kind), problem_reason(p), p.path][index.column()]
        return None
