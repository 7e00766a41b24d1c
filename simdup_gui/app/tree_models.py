"""Item models over plain engine data: group -> file tree, problems table."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import (QAbstractItemModel, QAbstractTableModel, QCoreApplication,
                            QModelIndex, Qt, Signal)

from simdup_gui.core.models import FileRecord, Group, Problem, human_size

RECORD_ROLE = Qt.ItemDataRole.UserRole + 2  # record index (files) or -1 (groups)
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # position of the group in the model

COL_NAME, COL_FOLDER, COL_SIZE, COL_MODIFIED, COL_ENCODING, COL_DISTANCE, COL_SIMILARITY = range(7)
COLUMNS = 7
_GROUP_ID = 0xFFFFFFFF  # internal id of group rows; file rows carry their group's position


def _sim(m) -> float:
    return -1.0 if m.similarity is None else m.similarity


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, their files below. Column 0 of a file is checkable (mark).

    Sorting and filtering work on the plain data here (Python sorts of lists), not in a
    QSortFilterProxyModel: a proxy calls back into Python for every row and comparison,
    which took tens of seconds at 100,000 files.
    """

    marksChanged = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.records: list[FileRecord] = []
        self.groups: list[Group] = []  # every group, in the engine's order
        self.bits = 64
        self.marks: set[str] = set()
        # what is shown: (position in self.groups, members in display order)
        self.rows: list[tuple[int, list]] = []
        self._grouped: set[str] = set()
        self.filter_text = ""
        self.sort_column = -1
        self.sort_order = Qt.SortOrder.AscendingOrder

    def set_data(self, records: list[FileRecord], groups: list[Group], bits: int,
                 marks: set[str] | None = None) -> None:
        self.beginResetModel()
        self.records, self.groups, self.bits = records, groups, bits
        # Marks are kept by path across re-grouping: a file that leaves every group at a
        # smaller k keeps its mark for when it comes back; only grouped marks are acted on.
        if marks is not None:
            self.marks = set(marks)
        self._grouped = {records[m.index].path for g in groups for m in g.members}
        self._rebuild_rows()
        self.endResetModel()
        self.marksChanged.emit()

    # filtering and sorting over plain data
    def _group_key(self, gi: int):
        g = self.groups[gi]
        col = self.sort_column
        if col == COL_SIZE:
            return sum(self.records[m.index].size for m in g.members)
        if col == COL_DISTANCE:
            return max(m.distance for m in g.members)
        if col == COL_SIMILARITY:
            return min(_sim(m) for m in g.members)
        return g.id

    def _member_key(self, m):
        r = self.records[m.index]
        col = self.sort_column
        return [os.path.basename(r.path).lower(), os.path.dirname(r.path).lower(), r.size,
                r.mtime_ns, r.encoding, m.distance, _sim(m)][col]

    def _rebuild_rows(self) -> None:
        needle = self.filter_text.casefold()
        rows = []
        for gi, g in enumerate(self.groups):
            if needle and not any(needle in self.records[m.index].path.casefold()
                                  for m in g.members):
                continue
            rows.append((gi, list(g.members)))
        if self.sort_column >= 0:
            rev = self.sort_order == Qt.SortOrder.DescendingOrder
            rows.sort(key=lambda r: self._group_key(r[0]), reverse=rev)
            for _, members in rows:
                members.sort(key=self._member_key, reverse=rev)
        self.rows = rows

    def set_filter(self, text: str) -> None:
        """Show only groups with a file whose path contains ``text`` (any case)."""
        self.beginResetModel()
        self.filter_text = text
        self._rebuild_rows()
        self.endResetModel()

    def sort(self, column, order=Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        keys = [self._key_of(i) for i in old]
        self.sort_column, self.sort_order = column, order
        self._rebuild_rows()
        where_g = {gi: row for row, (gi, _) in enumerate(self.rows)}
        where_m = {(gi, m.index): r for gi, members in self.rows
                   for r, m in enumerate(members)}
        new = []
        for idx, key in zip(old, keys):
            gi, rec = key
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
        return self.groups[self.rows[row][0]]

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
            return len(self.rows)
        if parent.internalId() == _GROUP_ID and parent.column() == 0:
            return len(self.rows[parent.row()][1])
        return 0

    def columnCount(self, parent=QModelIndex()):
        return COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [QCoreApplication.translate("GroupTreeModel", "Name"),
                    QCoreApplication.translate("GroupTreeModel", "Folder"),
                    QCoreApplication.translate("GroupTreeModel", "Size"),
                    QCoreApplication.translate("GroupTreeModel", "Modified"),
                    QCoreApplication.translate("GroupTreeModel", "Encoding"),
                    QCoreApplication.translate("GroupTreeModel", "Distance"),
                    QCoreApplication.translate("GroupTreeModel", "Similarity")][section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() != _GROUP_ID and index.column() == 0:
            f |= Qt.ItemFlag.ItemIsUserCheckable
        return f

    def _member(self, index):
        gi, members = self.rows[int(index.internalId())]
        return self.groups[gi], members[index.row()]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        col = index.column()
        if index.internalId() == _GROUP_ID:
            gi, _ = self.rows[index.row()]
            g = self.groups[gi]
            if role == RECORD_ROLE:
                return -1
            if role == GROUP_ROLE:
                return gi
            if role == Qt.ItemDataRole.DisplayRole:
                if col == COL_NAME:
                    kind = (QCoreApplication.translate("GroupTreeModel", "exact text") if g.exact
                            else QCoreApplication.translate("GroupTreeModel", "near-duplicates"))
                    return QCoreApplication.translate(
                        "GroupTreeModel", "Group {0}: {1} files, {2}").format(
                            g.id, len(g.members), kind)
                if col == COL_SIZE:
                    return human_size(sum(self.records[m.index].size for m in g.members))
                if col == COL_DISTANCE:
                    return str(max(m.distance for m in g.members))
                return None
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
            return self.rows[int(index.internalId())][0]
        if role == Qt.ItemDataRole.CheckStateRole and col == COL_NAME:
            return Qt.CheckState.Checked if r.path in self.marks else Qt.CheckState.Unchecked
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
                if r.too_short:
                    return QCoreApplication.translate("GroupTreeModel", "too short")
                if m.similarity is None:
                    return "?"
                return f"{m.similarity:.0%}" + (" =" if m.exact else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = r.path
            if m.index == g.representative:
                tip += "\n" + QCoreApplication.translate("GroupTreeModel",
                                                          "Reference of the group: every member is compared with it")
            if m.exact:
                tip += "\n" + QCoreApplication.translate(
                    "GroupTreeModel", "Same normalised text as the representative")
            if m.similarity is not None and m.index != g.representative:
                how = (QCoreApplication.translate("GroupTreeModel", "measured from both files")
                       if m.measured else
                       QCoreApplication.translate("GroupTreeModel", "estimated from sketches"))
                tip += "\n" + QCoreApplication.translate(
                    "GroupTreeModel", "Text similarity to the reference: {0:.1%} ({1})").format(
                        m.similarity, how)
            if r.too_short:
                tip += "\n" + QCoreApplication.translate(
                    "GroupTreeModel", "Too short to compare (five characters or fewer): "
                    "grouped only with the same text")
            if r.low_confidence:
                tip += "\n" + QCoreApplication.translate(
                    "GroupTreeModel", "Short text: few words, so the fingerprint is less reliable")
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
        checked = value if isinstance(value, bool) else (
            Qt.CheckState(value) == Qt.CheckState.Checked)
        if checked:
            self.marks.add(path)
        else:
            self.marks.discard(path)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()
        return True

    def set_marks(self, marks: set[str]) -> None:
        changed = self.marks.symmetric_difference(marks)
        self.marks = set(marks)
        if changed:
            for row, (_, members) in enumerate(self.rows):
                if any(self.records[m.index].path in changed for m in members):
                    parent = self.index(row, 0)
                    self.dataChanged.emit(self.index(0, 0, parent),
                                          self.index(len(members) - 1, 0, parent),
                                          [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()

    def file_count(self) -> int:
        return sum(len(g.members) for g in self.groups)

    def grouped_marks(self) -> set[str]:
        """The marks on files that are in a group now: what an action would touch."""
        return self.marks & self._grouped

    def marked_size(self) -> int:
        marks = self.grouped_marks()
        if not marks:
            return 0
        return sum(r.size for r in self.records if r.path in marks)


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

