"""The Duplicates tab: a filter, the groups table (groups and, below each expanded one, its
files, as the rows of a flat table) and, below it, the bit and text diffs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from simdup_gui.core.models import FileRecord
from simdup_gui.core.presenters.details import compare_bits, names
from simdup_gui.core.presenters.tree import COL_FOLDER, COLUMNS

from .bitgrid import BitDiffView
from .column_widths import FIT_ROWS, ColumnWidths
from .groups_table import GroupsDelegate, GroupsTable
from .textdiffview import TextDiffView
from .tree_models import RECORD_ROLE, GroupTreeModel

EXPAND_UP_TO = 200  # groups; more are left collapsed


@dataclass
class ViewState:
    """What the user made of the tree, by path, so it outlives a regroup: groups expanded
    and collapsed (by their files), the selected files and the current one."""

    expanded: set[str] = field(default_factory=set)
    collapsed: set[str] = field(default_factory=set)
    selected: set[str] = field(default_factory=set)
    current: str | None = None
    all_expanded: bool = False  # every group was expanded (Expand all)


class GroupsView(QWidget):
    """Widgets only; the window fills the model and says which pair to compare."""

    def __init__(self, model: GroupTreeModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.tree = GroupsTable()
        self.tree.setModel(model)
        self.delegate = GroupsDelegate(model, self.tree)
        self.tree.setItemDelegateForColumn(0, self.delegate)
        self.tree.setSortingEnabled(True)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.widths = ColumnWidths(self.tree)  # fitted once, the user's kept, Folder the rest
        self.act_reset_widths = QAction(self, triggered=self.widths.reset)  # (header menu)
        # fit columns to a few rows: the default (1,000 rows) calls the model thousands of
        # times per column on the GUI thread, and 0 (the rows on screen) means every row
        # to a table view that is not shown
        self.tree.header().setResizeContentsPrecision(FIT_ROWS)
        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter)
        self.expand_btn = QPushButton()
        self.expand_btn.clicked.connect(self.expand_all)
        self.collapse_btn = QPushButton()
        self.collapse_btn.clicked.connect(self.collapse_all)
        self.bitdiff = BitDiffView()
        self.textdiff = TextDiffView()
        self.summary = QLabel()  # groups, marks, space to reclaim (filled by the window)
        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.summary)
        top.addWidget(self.expand_btn)
        top.addWidget(self.collapse_btn)
        tree_side = QWidget()
        tl = QVBoxLayout(tree_side)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(top)
        tl.addWidget(self.tree)
        diff_split = QSplitter(Qt.Orientation.Horizontal)
        diff_split.addWidget(self.bitdiff)
        diff_split.addWidget(self.textdiff)
        diff_split.setStretchFactor(1, 2)
        vsplit = QSplitter(Qt.Orientation.Vertical)
        vsplit.addWidget(tree_side)
        vsplit.addWidget(diff_split)
        vsplit.setStretchFactor(0, 3)
        vsplit.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(vsplit)

    def retranslate(self) -> None:
        self.filter_edit.setPlaceholderText(self.tr("Filter by name or folder"))
        self.expand_btn.setText(self.tr("Expand all"))
        self.collapse_btn.setText(self.tr("Collapse all"))
        self.act_reset_widths.setText(self.tr("Reset column widths"))
        self.textdiff.retranslate()
        self.bitdiff.retranslate()

    def _path(self, index) -> str | None:
        rec = self.record_at(index)
        return self.model.records[rec].path if rec is not None else None

    def view_state(self) -> ViewState:
        """Expansion and selection, by path (call before the model is reset). The expanded
        groups are the model's, so no row is visited here."""
        st = ViewState()
        m = self.model
        shown = m.positions.of_path.keys()
        if m.all_expanded():
            st.expanded = set(shown)
            st.all_expanded = True
        else:
            for gi in m.expanded_groups():
                if 0 <= gi < len(m.groups):
                    st.expanded.update(m.records[x.index].path for x in m.groups[gi].members)
            st.expanded &= shown
        st.collapsed = set(shown) - st.expanded
        recs = m.records
        st.selected = {recs[i].path for i in self.selected_records()}
        st.current = self._path(self.tree.currentIndex())
        return st

    def restore_state(self, st: ViewState) -> None:
        """Expand the groups holding a file of an expanded group (and new groups, when few),
        select the files selected before; a group of only collapsed files stays collapsed."""
        m = self.model
        where = m.positions.of_path
        if st.all_expanded:
            self.expand_all()
        else:
            rows = {where[p][0] for p in st.expanded if p in where}
            if m.shown_group_count() <= EXPAND_UP_TO:
                rows |= {row for row, (_, members) in enumerate(m.rows)
                         if not any(m.records[x.index].path in st.collapsed for x in members)}
            m.set_expanded_rows(sorted(rows))
        selection = QItemSelection()
        for p in st.selected:
            if p in where:
                idx = m.file_index(*where[p])
                if idx.isValid():
                    selection.select(idx, idx)
        sm = self.tree.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.Rows
        if st.current in where:
            row, child = where[st.current]
            current = m.file_index(row, child)
            sm.setCurrentIndex(current if current.isValid() else m.group_index(row),
                               QItemSelectionModel.SelectionFlag.NoUpdate)
        sm.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect | flags)

    # ---- expansion: the model's --------------------------------------------------------
    def expand_all(self) -> None:
        self.tree.expandAll()

    def collapse_all(self) -> None:
        self.tree.collapseAll()

    def show_file(self, row: int, child: int) -> QModelIndex:
        """Expand group row ``row`` and make its file ``child`` the current row."""
        self.model.set_expanded(row, True)
        idx = self.model.file_index(row, child)
        if idx.isValid():
            self.tree.setCurrentIndex(idx)
            self.tree.scrollTo(idx)
        return idx

    def shown_groups_changed(self, count: int, state: ViewState | None = None) -> None:
        """After new groups: restore ``state`` (a regroup) or expand small results (a new
        scan), fit the columns; the diffs stay when the compared file is still shown."""
        if state is not None:
            self.restore_state(state)
        elif count <= EXPAND_UP_TO:
            self.expand_all()
        self.widths.groups_shown()  # fitted the first time, then only widened (no jumps)
        self.fit_headers()
        if not self.tree.currentIndex().isValid():
            self.bitdiff.set_diff(None)
            self.textdiff.clear()

    def fit_headers(self) -> None:
        """Widen a column narrower than its title: widths kept from a run in another
        language (距离 is narrower than Distance) must not cut the new one."""
        header = self.tree.header()
        for col in range(COLUMNS):
            if col != COL_FOLDER and self.tree.columnWidth(col) < header.sectionSizeHint(col):
                self.tree.setColumnWidth(col, header.sectionSizeHint(col))

    def _filter(self, text: str) -> None:
        def shown() -> None:
            if text and self.model.shown_group_count() <= EXPAND_UP_TO:
                self.expand_all()

        self.model.set_filter(text, then=shown)

    def record_at(self, index) -> int | None:
        """The record index of a file row (None for a group row or nothing)."""
        rec = index.data(RECORD_ROLE) if index.isValid() else None
        return rec if rec is not None and rec >= 0 else None

    def selected_records(self) -> list[int]:
        """The records of the selected file rows, from the selection's ranges (Qt's
        selectedRows() asks the model about every cell of every selected row: 1.2 s for
        13,625 selected groups)."""
        import numpy as np

        from simdup_gui.core.textsim import sorted_unique

        ranges = [(r.top(), r.bottom()) for r in self.tree.selectionModel().selection()
                  if r.isValid() and not r.parent().isValid()]
        if not ranges:
            return []
        rows = sorted_unique(np.concatenate([np.arange(t, b + 1) for t, b in ranges]))
        return self.model.records_at(rows)

    def compare(self, records: Sequence[FileRecord], i: int, j: int, bits: int,
                distance: int) -> None:
        self.bitdiff.set_diff(compare_bits(records, i, j, bits, distance), *names(records, i, j))
        self.textdiff.compare(records[i].path, records[j].path)
