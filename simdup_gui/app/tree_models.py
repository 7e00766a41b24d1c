"""The groups table's item model over plain engine data: group rows and, below each
expanded group, its files, as the rows of a flat table (``core.presenters.flat``).

The rows and texts come from Qt-free presenters (``core.presenters.tree``); the marks are
the session's. Filtering and sorting a large result build a new :class:`GroupRows` on the
thread pool (the one worker pattern) while the table keeps showing the old rows; the new
ones replace them in one reset (new data, a filter) or one layout change (a sort, selection
and expansion kept). No loop over every row runs on the GUI thread.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

import numpy as np
from PySide6.QtCore import (QAbstractItemModel, QAbstractTableModel, QModelIndex, QThreadPool,
                            Qt, Signal)
from PySide6.QtGui import QFont

from simdup_gui.core.models import FileRecord, Group, human_size
from simdup_gui.core.presenters.flat import (FlatRows, Positions, derive, records_at, same_settings,
                                            settings_of)
from simdup_gui.core.presenters.tree import COLUMNS, RIGHT_ALIGNED, GroupRows, headers
from simdup_gui.core.session import Session

from . import heap
from .workers import Worker

RECORD_ROLE = Qt.ItemDataRole.UserRole + 2  # record index (files) or -1 (groups)
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # position of the group in the model
REBUILD_IN_WORKER_ABOVE = 5_000  # files shown; more are filtered and sorted on the pool
_SORT_HINT = QAbstractItemModel.LayoutChangeHint.VerticalSortHint  # rows changed, not columns
_LAYOUT_ARGS = "QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint"
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_CHECKABLE = _FLAGS | Qt.ItemFlag.ItemIsUserCheckable
_R = Qt.ItemDataRole  # the roles data() answers; the view asks 8 a cell (paint, size hints)
_ANSWERED = frozenset(map(int, (_R.DisplayRole, _R.FontRole, _R.CheckStateRole, _R.ToolTipRole,
                                _R.TextAlignmentRole, RECORD_ROLE, GROUP_ROLE)))

__all__ = ["GROUP_ROLE", "RECORD_ROLE", "GroupTreeModel", "human_size"]


class GroupTreeModel(QAbstractTableModel):
    """The groups as a flat table: each group's row, then (when expanded) one row per file,
    mapped by ``core.presenters.flat.FlatRows``. Column 0 of a file is checkable (mark)."""

    marksChanged = Signal()
    rebuilt = Signal()  # the rows asked for by set_data, set_filter or sort are shown

    def __init__(self, session: Session, parent=None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.around_relayout: Callable = nullcontext
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
        self.flat = FlatRows()  # the flat rows of ``_map_of`` (the positions laid out)
        self._map_of: Positions | None = None
        self._flat()

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
        coming = {**settings_of(self.view), **self._changes}  # shown, or on its way
        if all(coming[k] == v for k, v in wanted.items()):
            return  # asked already: sortByColumn may ask twice (indicator, then sort)
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
        settings = settings_of(base)
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
        if base is not self.view or not same_settings(settings, settings_of(self.view)):
            self.change_view(reset=self._reset)  # the view changed meanwhile: again from it
            return
        view, positions = result
        self._changes, self._shown_generation = {}, gen
        if self._reset:
            self._reset = False
            self.beginResetModel()
            self.view, self._positions = view, positions
            self._map_of = None  # a reset collapses every group
            self._flat()
            self.endResetModel()
        else:
            # a re-order: the same groups, files and expansion, in other rows; the selection
            # and the current file follow their files (a loop over the persistent indexes,
            # not over the rows)
            with self._relaid():
                self.view, self._positions = view, positions
                self._map_of = positions
                self.flat.lay_out(positions.group_ids, positions.sizes, len(view.groups))
        then, self._then = self._then, []
        for fn in then:
            fn()
        self.rebuilt.emit()
        self.marksChanged.emit()

    # ---- the flat map ---------------------------------------------------------------
    def _flat(self) -> FlatRows:
        """The flat rows, laid out again if the rows were replaced (a reset collapses every
        group)."""
        pos = self.positions
        if self._map_of is not pos:
            self._map_of = pos
            self.flat.lay_out(pos.group_ids, pos.sizes, len(self.view.groups), keep=False)
        return self.flat

    def records_at(self, flat_rows) -> list[int]:
        """The record indexes of the file rows among ``flat_rows`` (group rows left out)."""
        return records_at(self._flat(), self.rows, flat_rows)

    def locate(self, flat: int) -> tuple[int, int]:
        """(group row, child) of a flat row; child -1 for the group's own row."""
        if self._map_of.rows is not self.view.rows:
            self._flat()
        return self.flat.locate(flat)

    @contextmanager
    def _relaid(self) -> Iterator[None]:
        """Around a change of the flat map (a sort, Expand or Collapse all): the persistent
        indexes (selection, current) follow their group (in numpy) or file; a file now
        hidden gives way to its group row. ``around_relayout``: the view's (Select all)."""
        with self.around_relayout():
            yield from self._relaid_rows()

    def _relaid_rows(self) -> Iterator[None]:
        self.layoutAboutToBeChanged[_LAYOUT_ARGS].emit([], _SORT_HINT)
        old = self.persistentIndexList()
        at, child = self._flat().locate_many(np.fromiter((i.row() for i in old), np.int64,
                                                         count=len(old)))
        gis = self.positions.group_ids[at]
        is_file = child >= 0
        files = {k: self.records[self.rows[r][1][c].index].path for k, r, c in zip(
            np.flatnonzero(is_file).tolist(), at[is_file].tolist(), child[is_file].tolist())}
        yield
        positions, flat = self.positions, self._flat()
        row_of = np.full(len(flat.open), -1, dtype=np.int64)
        row_of[positions.group_ids] = np.arange(len(positions.group_ids))
        rows = row_of[gis]
        starts = flat.starts[np.maximum(rows, 0)] if len(flat.starts) else np.zeros_like(rows)
        flats = np.where(rows >= 0, starts, -1).tolist()
        for k, path in files.items():  # files: by path (a sort may re-order a group's files)
            if rows[k] >= 0 and flat.open[gis[k]]:
                there = positions.of_path.get(path)
                flats[k] = -1 if there is None else flat.flat_of(int(rows[k]), there[1])
        new = [self.createIndex(f, i.column()) if f >= 0 else QModelIndex()
               for f, i in zip(flats, old)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged[_LAYOUT_ARGS].emit([], _SORT_HINT)

    # ---- helpers: rows by group and file ----------------------------------------------
    def shown_group_count(self) -> int:
        """Groups that pass the filter."""
        return len(self.rows)

    def member_count(self, row: int) -> int:
        """Files shown in the group of group row ``row`` (expanded or not)."""
        return len(self.rows[row][1])

    def group_index(self, row: int, column: int = 0) -> QModelIndex:
        """The index of group row ``row``'s own row."""
        if not 0 <= row < len(self.rows):
            return QModelIndex()
        return self.index(self._flat().flat_of(row), column)

    def file_index(self, row: int, child: int, column: int = 0) -> QModelIndex:
        """The index of file ``child`` of group row ``row``; invalid if the group is
        collapsed (expand it first: :meth:`set_expanded`)."""
        if not (0 <= row < len(self.rows) and 0 <= child < len(self.rows[row][1])
                and self.is_expanded(row)):
            return QModelIndex()
        return self.index(self.flat.flat_of(row, child), column)

    def group_row(self, index) -> int:
        """The group row of an index of a group or of a file (-1: none)."""
        return self.locate(index.row())[0] if index.isValid() else -1

    def is_group(self, index) -> bool:
        return index.isValid() and self.locate(index.row())[1] < 0

    def level_at(self, flat: int) -> tuple[int, bool]:
        """(0 for a group row, 1 for a file row; the group is expanded): for the delegate."""
        row, child = self.locate(flat)
        return (0 if child < 0 else 1), self.flat.is_open(row)

    def is_expanded(self, row: int) -> bool:
        return 0 <= row < len(self.rows) and self._flat().is_open(row)

    def expanded_groups(self) -> set[int]:
        """Positions in ``groups`` of the expanded groups."""
        return self._flat().open_groups()

    def all_expanded(self) -> bool:
        return self._flat().all_open()

    def set_expanded(self, row: int, on: bool) -> None:
        """Expand (insert its files right below it) or collapse group row ``row``."""
        flat = self._flat()
        if not 0 <= row < len(self.rows) or flat.is_open(row) == on:
            return
        first, k = flat.files_range(row)
        if k == 0:
            flat.set_open(row, on)
        elif on:
            self.beginInsertRows(QModelIndex(), first, first + k - 1)
            flat.set_open(row, on)
            self.endInsertRows()
        else:
            self.beginRemoveRows(QModelIndex(), first, first + k - 1)
            flat.set_open(row, on)
            self.endRemoveRows()

    def set_expanded_rows(self, rows, on: bool = True) -> None:
        """Expand (or collapse) several group rows at once: one layout change."""
        rows = list(rows)
        if len(rows) == 1:
            self.set_expanded(rows[0], on)
        elif rows and self._flat().differs(rows, on):
            with self._relaid():
                self.flat.set_open_rows(rows, on)

    def set_all_expanded(self, on: bool) -> None:
        """Expand all or Collapse all: one layout change, a cumulative sum over the groups."""
        flat = self._flat()
        if not flat.differs(None, on):
            flat.open[:] = on  # groups the filter hides too
            return
        with self._relaid():
            flat.set_open_rows(None, on)

    def group_at(self, index) -> Group:
        """The group of a group row or of a file row."""
        return self.view.group_at(self.locate(index.row())[0])

    # ---- structure ----------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else self._flat().total

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return headers()[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        row, child = self.locate(index.row())  # (a catalogued file has no box: never marked)
        here = child >= 0 and not self.records[self.view.member_at(row, child)[1].index].catalog
        return _CHECKABLE if here and index.column() == 0 else _FLAGS

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in _ANSWERED or not index.isValid():
            return None
        row, child = self.locate(index.row())
        if child < 0:
            return self._group_data(row, index.column(), role)
        g, m = self.view.member_at(row, child)
        col = index.column()
        if role == RECORD_ROLE:
            return m.index
        if role == GROUP_ROLE:
            return self.rows[row][0]
        if role == Qt.ItemDataRole.CheckStateRole and col == 0:
            r = self.records[m.index]  # (a catalogued file: no box; Checked is 2)
            return None if r.catalog else Qt.CheckState(2 * (r.path in self.session.marks))
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
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.column():
            return False
        row, child = self.locate(index.row())
        if child < 0:
            return False
        _, m = self.view.member_at(row, child)
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
        """Repaint the check boxes of the expanded groups holding ``changed`` paths."""
        where = self.positions.of_path
        flat = self._flat()
        rows = {where[p][0] for p in changed if p in where}
        if len(rows) > 200:  # one signal: the view repaints what it shows
            if flat.total:
                self.dataChanged.emit(self.index(0, 0), self.index(flat.total - 1, 0),
                                      [Qt.ItemDataRole.CheckStateRole])
            rows = ()
        for row in sorted(r for r in rows if flat.is_open(r)):
            first, k = flat.files_range(row)
            self.dataChanged.emit(self.index(first, 0), self.index(first + k - 1, 0),
                                  [Qt.ItemDataRole.CheckStateRole])
        self.marksChanged.emit()

    def file_count(self) -> int:
        return self.session.file_count()

    def grouped_marks(self) -> set[str]:
        """The marks on files that are in a group now: what an action would touch."""
        return self.session.grouped_marks()

    def marked_size(self) -> int:
        return self.session.marked_size()
