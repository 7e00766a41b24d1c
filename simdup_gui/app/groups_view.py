"""The Duplicates tab: a filter, the groups tree and, below it, the bit and text diffs."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLineEdit,
                               QPushButton, QSplitter, QTreeView, QVBoxLayout, QWidget)

from simdup_gui.core.models import FileRecord
from simdup_gui.core.presenters.details import compare_bits, names

from .bitgrid import BitDiffView
from .textdiffview import TextDiffView
from .tree_models import RECORD_ROLE, GroupTreeModel

EXPAND_UP_TO = 200  # groups; more are left collapsed


class GroupsView(QWidget):
    """Widgets only; the window fills the model and says which pair to compare."""

    def __init__(self, model: GroupTreeModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.tree = QTreeView()
        self.tree.setModel(model)
        self.tree.setSortingEnabled(True)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.header().setStretchLastSection(False)
        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter)
        self.expand_btn = QPushButton()
        self.expand_btn.clicked.connect(self.tree.expandAll)
        self.collapse_btn = QPushButton()
        self.collapse_btn.clicked.connect(self.tree.collapseAll)
        self.bitdiff = BitDiffView()
        self.textdiff = TextDiffView()
        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
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
        self.textdiff.retranslate()
        self.bitdiff.retranslate()

    def shown_groups_changed(self, count: int) -> None:
        """After new groups: expand small results, size the columns, clear the diffs."""
        if count <= EXPAND_UP_TO:
            self.tree.expandAll()
        for col in range(1, 7):
            self.tree.resizeColumnToContents(col)
        self.tree.setColumnWidth(0, 280)
        self.bitdiff.set_diff(None)
        self.textdiff.clear()

    def _filter(self, text: str) -> None:
        self.model.set_filter(text)
        if text and self.model.rowCount() <= EXPAND_UP_TO:
            self.tree.expandAll()

    def record_at(self, index) -> int | None:
        """The record index of a file row (None for a group row or nothing)."""
        rec = index.data(RECORD_ROLE) if index.isValid() else None
        return rec if rec is not None and rec >= 0 else None

    def selected_records(self) -> list[int]:
        rows = self.tree.selectionModel().selectedRows(0)
        return [r for r in (self.record_at(i) for i in rows) if r is not None]

    def compare(self, records: Sequence[FileRecord], i: int, j: int, bits: int,
                distance: int) -> None:
        self.bitdiff.set_diff(compare_bits(records, i, j, bits, distance), *names(records, i, j))
        self.textdiff.compare(records[i].path, records[j].path)
