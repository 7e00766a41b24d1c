"""Item models over plain engine data: group -> file tree, problems table.

The rows and texts come from Qt-free presenters (``core.presenters.tree``); the marks are
the session's. These classes only map Qt indexes and roles onto them.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from simdup_gui.core.models import FileRecord, Group, Problem, human_size
from simdup_gui.core.presenters.tree import (COLUMNS, RIGHT_ALIGNED, GroupRows, headers,
                                             problem_reason, problems_headers)
from simdup_gui.core.session import Session

RECORD_ROLE = Qt.ItemDataRole.UserRole + 2  # record index (files) or -1 (groups)
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # position of the group in the model
_GROUP_ID = 0xFFFFFFFF  # internal id of group rows; file rows carry their group's position

__all__ = ["GROUP_ROLE", "RECORD_ROLE", "GroupTreeModel", "ProblemsModel", "human_size"]


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, their files below. Column 0 of a file is checkable (mark)."""

    marksChanged = Signal()

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.view = GroupRows()

    # what tests and the window read
    records = property(lambda self: self.view.records)
    groups = property(lambda self: self.view.groups)
    rows = property(lambda self: self.view.rows)
    bits = property(lambda self: self.view.bits)
    marks = property(lambda self: self.session.marks)

    def set_data(self, records: list[FileRecord], groups: list[Group], bits: int) -> None:
        self.beginResetModel()
        self.view.set_data(records, groups, bits)
        self.endResetModel()
        self.marksChanged.emit()

    def set_filter(self, text: str) -> None:
        """Show only groups with a file whose path contains ``text`` (any case)."""
        self.beginResetModel()
        self.view.set_filter(text)
        self.endResetModel()

    def sort(self, column, order=Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        keys = [self._key_of(i) for i in old]
        self.view.set_sort(column, order == Qt.SortOrder.DescendingOrder)
        where_g = {gi: row for row, (gi, _) in enumerate(self.rows)}
        where_m = {(gi, m.index): r for gi, members in self.rows
                   for r, m in enumerate(members)}
        new = []
        for idx, (gi, rec) in zip(old, keys):
            if rec is None and gi in where_g:
                new.append(self.createIndex(where_g[gi], idx.column(), _GROUP_ID))
            elif rec is not None and (gi, rec) in where_m and gi in where_g:
                new.append(self.createIndex(where_m[(gi, rec)], idx.column(), where_g[gi]))
            else:
                new.append(QModelIndex())
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _key_of(self, index) -> tuple[int, int | None]:
        if index.internalId() == _GROUP_ID:
            return self.rows[index.row()][0], None
        gi, members = self.rows[int(index.internalId())]
        return gi, members[index.row()].index

    def group_at(self, index) -> Group:
        """The group of a group row or of a file row."""
        row = index.row() if index.internalId() == _GROUP_ID else int(index.internalId())
        return self.view.group_at(row)

    # structure
    def index(self, row, column, parent=QModelIndex()):
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP_ID)
        return self.createIndex(row, column, parent.row())

    def parent(self, index=QModelIndex()):
        if not index.isValid() or index.internalId() == _GROUP_ID:
            return QModelIndex()
        return self.createIndex(int(index.internalId()), 0, _GROUP_ID)

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        if not parent.isValid():
            return len(self.rows)
        if parent.internalId() == _GROUP_ID and parent.column() == 0:
            return len(self.rows[parent.row()][1])
        return 0

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return headers()[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() != _GROUP_ID and index.column() == 0:
            f |= Qt.ItemFlag.ItemIsUserCheckable
        return f

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if index.internalId() == _GROUP_ID:
            return self._group_data(index.row(), index.column(), role)
        row = int(index.internalId())
        g, m = self.view.member_at(row, index.row())
        col = index.column()
        if role == RECORD_ROLE:
            return m.index
        if role == GROUP_ROLE:
            return self.rows[row][0]
        if role == Qt.ItemDataRole.CheckStateRole and col == 0:
            marked = self.records[m.index].path in self.session.marks
            return Qt.CheckState.Checked if marked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.DisplayRole:
            return self.view.member_text(g, m, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.view.member_tooltip(g, m)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in RIGHT_ALIGNED:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _group_data(self, row: int, col: int, role):
        if role == RECORD_ROLE:
            return -1
        if role == GROUP_ROLE:
            return self.rows[row][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.view.group_text(row, col)
        if role == Qt.ItemDataRole.FontRole and col == 0:
            f = QFont()
            f.setBold(True)
            return f
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole):  # noqa: N802 - Qt API
        if (role != Qt.ItemDataRole.CheckStateRole or not index.isValid()
                or index.internalId() == _GROUP_ID or index.column() != 0):
            return False
        _, m = self.view.member_at(int(index.internalId()), index.row())
        checked = value if isinstance(value, bool) else (
            Qt.CheckState(value) == Qt.CheckState.Checked)
        self.session.set_mark(self.records[m.index].path, checked)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()
        return True

    def set_marks(self, marks: set[str]) -> None:
        """Replace the session's marks and show them."""
        self.marks_changed(self.session.set_marks(marks))

    def marks_changed(self, changed: set[str]) -> None:
        """Repaint the check boxes of the groups holding ``changed`` paths."""
        if changed:
            for row, (_, members) in enumerate(self.rows):
                if any(self.records[m.index].path in changed for m in members):
                    parent = self.index(row, 0)
                    self.dataChanged.emit(self.index(0, 0, parent),
                                          self.index(len(members) - 1, 0, parent),
                                          [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()

    def file_count(self) -> int:
        return self.session.file_count()

    def grouped_marks(self) -> set[str]:
        """The marks on files that are in a group now: what an action would touch."""
        return self.session.grouped_marks()

    def marked_size(self) -> int:
        return self.session.marked_size()


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
            return [p.kind, problem_reason(p), p.path][index.column()]
        return None
