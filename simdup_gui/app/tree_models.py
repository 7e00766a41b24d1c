"""Item models over plain engine data: group -> file tree, problems table.

The rows and texts come from Qt-free presenters (``core.presenters.tree``); the marks are
the session's. These classes only map Qt indexes and roles onto them.

Filtering and sorting a large result build a new :class:`GroupRows` on the thread pool
(the one worker pattern) while the tree keeps showing the old rows; the new ones replace
them in one reset (new data, a filter) or one layout change (a sort, selection and
expansion kept). No loop over every row runs on the GUI thread.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable

from PySide6.QtCore import (QAbstractItemModel, QAbstractTableModel, QModelIndex, QThreadPool,
                            Qt, Signal)
from PySide6.QtGui import QFont

from simdup_gui.core.models import FileRecord, Group, Problem, human_size
from simdup_gui.core.presenters.tree import (COLUMNS, RIGHT_ALIGNED, GroupRows, headers,
                                             problem_reason, problems_headers)
from simdup_gui.core.session import Session

from . import heap
from .workers import Worker

RECORD_ROLE = Qt.ItemDataRole.UserRole + 2  # record index (files) or -1 (groups)
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # position of the group in the model
_GROUP_ID = 0xFFFFFFFF  # internal id of group rows; file rows carry their group's position
REBUILD_IN_WORKER_ABOVE = 5_000  # files shown; more are filtered and sorted on the pool
FETCH_ROWS = 1_000  # groups handed to the view at a time (more as it scrolls: fetchMore)
_SORT_HINT = QAbstractItemModel.LayoutChangeHint.VerticalSortHint  # rows re-ordered, no more
_LAYOUT_ARGS = "QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint"
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_CHECKABLE = _FLAGS | Qt.ItemFlag.ItemIsUserCheckable
_R = Qt.ItemDataRole  # the roles data() answers; the view asks 8 a cell (paint, size hints)
_ANSWERED = frozenset(map(int, (_R.DisplayRole, _R.FontRole, _R.CheckStateRole, _R.ToolTipRole,
                                _R.TextAlignmentRole, RECORD_ROLE, GROUP_ROLE)))


class Positions:
    """Where each group and file of a :class:`GroupRows` is shown, built with its rows (on
    the worker) so that a sort, a selection or a repaint of marks needs no loop over rows."""

    def __init__(self, view: GroupRows) -> None:
        self.rows = view.rows  # the rows these positions are of
        self.row_of_group = {gi: row for row, (gi, _) in enumerate(view.rows)}
        recs = view.records
        self.of_path = {recs[m.index].path: (row, child) for row, (_, members)
                        in enumerate(view.rows) for child, m in enumerate(members)}


def derive(base: GroupRows, changes: dict, *, job=None) -> tuple[GroupRows, Positions]:
    """A copy of ``base`` with ``changes`` (attributes of GroupRows) and its rows rebuilt;
    reads, never changes, ``base``: safe on a worker thread."""
    view = copy.copy(base)
    for name, value in changes.items():
        setattr(view, name, value)
    view.rebuild()
    return view, Positions(view)


def _settings_of(view: GroupRows) -> dict:
    return {k: v for k, v in vars(view).items() if k != "rows"}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k] is b[k] or (isinstance(a[k], (str, int, float)) and a[k] == b[k]) for k in a)

__all__ = ["GROUP_ROLE", "RECORD_ROLE", "GroupTreeModel", "ProblemsModel", "human_size"]


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, their files below. Column 0 of a file is checkable (mark)."""

    marksChanged = Signal()
    rebuilt = Signal()  # the rows asked for by set_data, set_filter or sort are shown

    def __init__(self, session: Session, parent=None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.view = GroupRows()
        self._positions = Positions(self.view)
        self.pool = pool  # None: every rebuild on the calling thread
        self._generation = 0
        self._shown_generation = 0  # the change whose rows are shown
        self._changes: dict = {}  # what the rows on their way differ in from ``view``
        self._reset = False  # they need a reset (new data, a filter), not just a re-order
        self._then: list[Callable[[], None]] = []
        self._workers: set[Worker] = set()
        self._fetched = 0  # groups the view has been given (rowCount); all are in ``rows``
        self.laying_out = False  # the view lays out its rows: no more are handed out then

    # what tests and the window read
    records = property(lambda self: self.view.records)
    groups = property(lambda self: self.view.groups)
    rows = property(lambda self: self.view.rows)
    bits = property(lambda self: self.view.bits)
    marks = property(lambda self: self.session.marks)

    def set_data(self, records: list[FileRecord], groups: list[Group], bits: int,
                 then: Callable[[], None] | None = None) -> None:
        """Show these groups; ``then`` runs once they are shown (at once when small)."""
        self.change_view(reset=True, then=then, records=records, groups=groups, bits=bits)

    def set_filter(self, text: str, then: Callable[[], None] | None = None) -> None:
        """Show only groups with a file whose path contains ``text`` (any case)."""
        self.change_view(reset=True, then=then, filter_text=text)

    def sort(self, column, order=Qt.SortOrder.AscendingOrder) -> None:
        wanted = {"sort_column": column, "descending": order == Qt.SortOrder.DescendingOrder}
        coming = {**_settings_of(self.view), **self._changes}  # shown, or on its way
        if all(coming[k] == v for k, v in wanted.items()):
            return  # asked already: QTreeView.sortByColumn asks twice (indicator, then sort)
        self.change_view(reset=False, **wanted)

    @property
    def positions(self) -> Positions:
        """Where each group and file is shown (rebuilt here if the view's rows were changed
        in place, e.g. ``model.view.set_...()`` between begin/endResetModel)."""
        if self._positions.rows is not self.view.rows:
            self._positions = Positions(self.view)
        return self._positions

    def busy(self) -> bool:
        """Rows are being rebuilt on the pool (the old ones are shown meanwhile)."""
        return self._shown_generation != self._generation

    def change_view(self, reset: bool = True, then: Callable[[], None] | None = None,
                    **changes) -> None:
        """Rebuild the rows with ``changes`` to :class:`GroupRows`' attributes (records,
        groups, bits, filter_text, sort_column, descending, ...): on the pool when more
        than REBUILD_IN_WORKER_ABOVE files would be shown, else at once. A newer change
        supersedes one under way; ``then`` callbacks run when the rows are shown.
        ``reset`` False (a re-order) keeps the selection and expansion."""
        self._generation += 1
        self._changes.update(changes)
        self._reset = self._reset or reset
        if then is not None:
            self._then.append(then)
        groups = self._changes.get("groups", self.view.groups)
        big = (self.pool is not None
               and sum(len(g.members) for g in groups) > REBUILD_IN_WORKER_ABOVE)
        base, wanted, gen = self.view, dict(self._changes), self._generation
        settings = _settings_of(base)
        if not big:
            self._apply(gen, base, settings, derive(base, wanted))
            return
        worker = Worker(heap.building(derive), base, wanted)
        worker.signals.returned.connect(lambda res: self._apply(gen, base, settings, res))
        worker.signals.errored.connect(lambda e: self._failed(gen, e))
        worker.signals.finished.connect(lambda: self._workers.discard(worker))
        self._workers.add(worker)
        self.pool.start(worker)

    def _failed(self, gen: int, error: BaseException) -> None:
        print(f"simdup-gui: cannot rebuild the groups tree: {error!r}", file=sys.stderr)
        if gen == self._generation:  # the old rows stay; nothing is on its way
            self._shown_generation, self._changes, self._then = gen, {}, []

    def _apply(self, gen: int, base: GroupRows, settings: dict,
               result: tuple[GroupRows, Positions]) -> None:
        if gen != self._generation:
            return  # a newer change is on its way
        if base is not self.view or not _same(settings, _settings_of(self.view)):
            self.change_view(reset=self._reset)  # the view changed meanwhile: again from it
            return
        view, positions = result
        self._changes, self._shown_generation = {}, gen
        if self._reset:
            self._reset = False
            self.beginResetModel()
            self.view, self._positions = view, positions
            self._fetched = min(FETCH_ROWS, len(view.rows))
            self.endResetModel()
        else:
            # a sort hint: the header then keeps no persistent index of its own in row 0 (it
            # would hold that group's new row, maybe the last, fetched)
            self.layoutAboutToBeChanged[_LAYOUT_ARGS].emit([], _SORT_HINT)
            old = self.persistentIndexList()  # the expanded groups, the selection
            keys = [self._key_of(i) for i in old]
            self.view, self._positions = view, positions
            new = []
            for idx, (gi, path) in zip(old, keys):
                row = positions.row_of_group.get(gi)
                if row is None:
                    new.append(QModelIndex())
                elif path is None:
                    new.append(self.createIndex(row, idx.column(), _GROUP_ID))
                else:
                    at = positions.of_path.get(path)
                    new.append(self.createIndex(at[1], idx.column(), at[0]) if at
                               else QModelIndex())
            rows = [i.row() if i.internalId() == _GROUP_ID else int(i.internalId())
                    for i in new if i.isValid()]
            # the view keeps the first groups and those holding the selection, the current
            # file and the expanded groups; groups fetched further down (as the user
            # scrolled) are handed back, so a sort never lays out more rows than that: four
            # Python calls a row, 20 us
            need = max([min(FETCH_ROWS, len(view.rows)), *(r + 1 for r in rows)])
            self._fetched = max(self._fetched, need)
            self.changePersistentIndexList(old, new)
            self.layoutChanged[_LAYOUT_ARGS].emit([], _SORT_HINT)
            if self._fetched > need:
                self.beginRemoveRows(QModelIndex(), need, self._fetched - 1)
                self._fetched = need
                self.endRemoveRows()
        then, self._then = self._then, []
        for fn in then:
            fn()
        self.rebuilt.emit()
        self.marksChanged.emit()

    def _key_of(self, index) -> tuple[int, str | None]:
        """(group position, path of the file or None for a group row)."""
        if index.internalId() == _GROUP_ID:
            return self.rows[index.row()][0], None
        gi, members = self.rows[int(index.internalId())]
        return gi, self.records[members[index.row()].index].path

    def group_at(self, index) -> Group:
        """The group of a group row or of a file row."""
        row = index.row() if index.internalId() == _GROUP_ID else int(index.internalId())
        return self.view.group_at(row)

    # lazy population: the view asks for more groups as it scrolls to the end
    def canFetchMore(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return (not parent.isValid() and not self.laying_out
                and self._fetched < len(self.rows))

    def fetchMore(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        if not parent.isValid():
            self.fetch_to(self._fetched + FETCH_ROWS - 1)

    def fetch_to(self, row: int) -> None:
        """Hand the view the groups up to ``row`` (to expand or select a file there)."""
        last = min(row, len(self.rows) - 1)
        if last >= self._fetched:
            self.beginInsertRows(QModelIndex(), self._fetched, last)
            self._fetched = last + 1
            self.endInsertRows()

    def shown_group_count(self) -> int:
        """Groups that pass the filter (the view may not have fetched them all yet)."""
        return len(self.rows)

    # structure
    def index(self, row, column, parent=QModelIndex()):
        if column < 0 or column >= COLUMNS or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP_ID) if row < self._fetched else QModelIndex()
        if parent.internalId() != _GROUP_ID or parent.column() != 0:
            return QModelIndex()
        prow = parent.row()
        if prow >= self._fetched or row >= len(self.rows[prow][1]):
            return QModelIndex()
        return self.createIndex(row, column, prow)

    def parent(self, index=QModelIndex()):
        if not index.isValid() or index.internalId() == _GROUP_ID:
            return QModelIndex()
        return self.createIndex(int(index.internalId()), 0, _GROUP_ID)

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        if not parent.isValid():
            return self._fetched
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
        return _CHECKABLE if index.internalId() != _GROUP_ID and index.column() == 0 else _FLAGS

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in _ANSWERED or not index.isValid():
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
        where = self.positions.of_path
        rows = {r for p in changed if p in where and (r := where[p][0]) < self._fetched}
        if len(rows) > 200:  # one signal: the view repaints what it shows
            self.dataChanged.emit(self.index(0, 0), self.index(self._fetched - 1, 0),
                                  [Qt.ItemDataRole.CheckStateRole])
            rows = ()
        for row in sorted(rows):
            parent = self.index(row, 0)
            members = self.rows[row][1]
            self.dataChanged.emit(self.index(0, 0, parent), self.index(len(members) - 1, 0, parent),
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
