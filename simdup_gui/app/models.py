"""Item models over plain engine data: group -> file tree, problems table."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import (QAbstractItemModel, QAbstractTableModel, QCoreApplication,
                            QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal)

from simdup_gui.core.models import FileRecord, Group, Problem

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
RECORD_ROLE = Qt.ItemDataRole.UserRole + 2  # record index (files) or -1 (groups)
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # position of the group in the model

COL_NAME, COL_FOLDER, COL_SIZE, COL_MODIFIED, COL_ENCODING, COL_DISTANCE, COL_SIMILARITY = range(7)
COLUMNS = 7
_GROUP_ID = 0xFFFFFFFF  # internal id of group rows; file rows carry their group's position


def human_size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, their files below. Column 0 of a file is checkable (mark)."""

    marksChanged = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.records: list[FileRecord] = []
        self.groups: list[Group] = []
        self.bits = 64
        self.marks: set[str] = set()

    def set_data(self, records: list[FileRecord], groups: list[Group], bits: int,
                 marks: set[str] | None = None) -> None:
        self.beginResetModel()
        self.records, self.groups, self.bits = records, groups, bits
        paths = {records[m.index].path for g in groups for m in g.members}
        self.marks = {p for p in (marks if marks is not None else self.marks) if p in paths}
        self.endResetModel()
        self.marksChanged.emit()

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

    def rowCount(self, parent=QModelIndex()):
        if not parent.isValid():
            return len(self.groups)
        if parent.internalId() == _GROUP_ID and parent.column() == 0:
            return len(self.groups[parent.row()].members)
        return 0

    def columnCount(self, parent=QModelIndex()):
        return COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [QCoreApplication.translate("GroupTreeModel", "Name"), QCoreApplication.translate("GroupTreeModel", "Folder"), QCoreApplication.translate("GroupTreeModel", "Size"), QCoreApplication.translate("GroupTreeModel", "Modified"), QCoreApplication.translate("GroupTreeModel", "Encoding"),
                    QCoreApplication.translate("GroupTreeModel", "Distance"), QCoreApplication.translate("GroupTreeModel", "Similarity")][section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() != _GROUP_ID and index.column() == 0:
            f |= Qt.ItemFlag.ItemIsUserCheckable
        return f

    def _member(self, index):
        g = self.groups[int(index.internalId())]
        return g, g.members[index.row()]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        col = index.column()
        if index.internalId() == _GROUP_ID:
            g = self.groups[index.row()]
            if role == RECORD_ROLE:
                return -1
            if role == GROUP_ROLE:
                return index.row()
            size = sum(self.records[m.index].size for m in g.members)
            if role == Qt.ItemDataRole.DisplayRole:
                if col == COL_NAME:
                    kind = QCoreApplication.translate("GroupTreeModel", "exact text") if g.exact else QCoreApplication.translate("GroupTreeModel", "near-duplicates")
                    return QCoreApplication.translate("GroupTreeModel", "Group {0}: {1} files, {2}").format(g.id, len(g.members), kind)
                if col == COL_SIZE:
                    return human_size(size)
                if col == COL_DISTANCE:
                    return str(max(m.distance for m in g.members))
                return None
            if role == SORT_ROLE:
                return {COL_NAME: g.id, COL_SIZE: size,
                        COL_DISTANCE: max(m.distance for m in g.members)}.get(col, g.id)
            if role == Qt.ItemDataRole.FontRole and col == COL_NAME:
                from PySide6.QtGui import QFont

                f = QFont()
                f.setBold(True)
                return f
            return None
        g, m = self._member(index)
        r = self.records[m.index]
        if role == RECORD_ROLE:
            return m.index
        if role == GROUP_ROLE:
            return int(index.internalId())
        if role == Qt.ItemDataRole.CheckStateRole and col == COL_NAME:
            return Qt.CheckState.Checked if r.path in self.marks else Qt.CheckState.Unchecked
        sim = 1 - m.distance / self.bits
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_NAME:
                star = " ★" if m.index == g.representative else ""
                return os.path.basename(r.path) + star
            if col == COL_FOLDER:
                return os.path.dirname(r.path)
            if col == COL_SIZE:
                return human_size(r.size)
            if col == COL_MODIFIED:
                return time.strftime("%Y-%m-%d %H:%M", time.localtime(r.mtime_ns / 1e9))
            if col == COL_ENCODING:
                return r.encoding
            if col == COL_DISTANCE:
                return str(m.distance)
            if col == COL_SIMILARITY:
                return f"{sim:.0%}" + (" =" if m.exact else "")
        if role == SORT_ROLE:
            return [os.path.basename(r.path).lower(), os.path.dirname(r.path).lower(), r.size,
                    r.mtime_ns, r.encoding, m.distance, sim][col]
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = r.path
            if m.index == g.representative:
                tip += "\n" + QCoreApplication.translate("GroupTreeModel", "Representative of the group")
            if r.low_confidence:
                tip += "\n" + QCoreApplication.translate("GroupTreeModel", "Short text: few words, so the fingerprint is less reliable")
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_SIZE, COL_DISTANCE,
                                                                 COL_SIMILARITY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole):
        if (role != Qt.ItemDataRole.CheckStateRole or not index.isValid()
                or index.internalId() == _GROUP_ID or index.column() != 0):
            return False
        _, m = self._member(index)
        path = self.records[m.index].path
        checked = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(
            value, bool) else value
        if checked:
            self.marks.add(path)
        else:
            self.marks.discard(path)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()
        return True

    def set_marks(self, marks: set[str]) -> None:
        self.marks = set(marks)
        if self.groups:
            for gi, g in enumerate(self.groups):
                parent = self.index(gi, 0)
                self.dataChanged.emit(self.index(0, 0, parent),
                                      self.index(len(g.members) - 1, 0, parent),
                                      [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()

    def file_count(self) -> int:
        return sum(len(g.members) for g in self.groups)

    def marked_size(self) -> int:
        by_path = {r.path: r.size for r in self.records}
        return sum(by_path.get(p, 0) for p in self.marks)


class GroupFilterProxy(QSortFilterProxyModel):
    """Filters files by name or folder (keeping their group), sorts by SORT_ROLE."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)
        self.setDynamicSortFilter(False)

    def filterAcceptsRow(self, row, parent):
        if not parent.isValid():
            return False if self.filterRegularExpression().pattern() else True
        return super().filterAcceptsRow(row, parent)

    def lessThan(self, left, right):
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        try:
            return a < b
        except TypeError:
            return str(a) < str(b)


class ProblemsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.problems: list[Problem] = []

    def set_problems(self, problems: list[Problem]) -> None:
        self.beginResetModel()
        self.problems = list(problems)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.problems)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 3

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [QCoreApplication.translate("ProblemsModel", "Kind"),
                    QCoreApplication.translate("ProblemsModel", "Reason"),
                    QCoreApplication.translate("ProblemsModel", "Path")][section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        p = self.problems[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return [p.kind, p.reason, p.path][index.column()]
        return None


_ = QPersistentModelIndex
