"""The Duplicates tab: a filter, the groups table (groups and, below each expanded one, its
files, as the rows of a flat table) and, below it, the bit and text diffs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QItemSelection, QItemSelectionModel, QModelIndex, QRect, Qt
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QPushButton, QSplitter, QStyle,
                               QStyledItemDelegate, QStyleOption, QStyleOptionViewItem,
                               QTableView, QVBoxLayout, QWidget)

from simdup_gui.core.models import FileRecord
from simdup_gui.core.presenters.details import compare_bits, names
from simdup_gui.core.presenters.tree import COL_FOLDER, COL_NAME, COLUMNS

from .bitgrid import BitDiffView
from .textdiffview import TextDiffView
from .tree_models import RECORD_ROLE, GroupTreeModel

EXPAND_UP_TO = 200  # groups; more are left collapsed
NAME_WIDTH = (160, 360)  # the name column fits its contents within these bounds
FIT_ROWS = 20  # rows at least (around those on screen) a column is fitted to


@dataclass
class ViewState:
    """What the user made of the tree, by path, so it outlives a regroup: groups expanded
    and collapsed (by their files), the selected files and the current one."""

    expanded: set[str] = field(default_factory=set)
    collapsed: set[str] = field(default_factory=set)
    selected: set[str] = field(default_factory=set)
    current: str | None = None
    all_expanded: bool = False  # every group was expanded (Expand all)


class GroupsDelegate(QStyledItemDelegate):
    """Column 0 of the flat table: a group row starts with its expand indicator, a file row
    is indented below it (as a tree would draw them); the check box moves with the text."""

    def __init__(self, model: GroupTreeModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.indent = 20

    def _indent(self, index) -> tuple[int, bool, bool]:
        """(pixels before the content, a group row, expanded)."""
        level, expanded = self.model.level_at(index.row())
        return self.indent * (level + 1), level == 0, expanded

    def paint(self, painter, option, index) -> None:
        indent, group, expanded = self._indent(index)
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        # the indent's background (the selection spans the whole row)
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget)
        if group:
            branch = QStyleOption()
            if widget is not None:
                branch.initFrom(widget)
            branch.rect = QRect(option.rect.left(), option.rect.top(), self.indent,
                                option.rect.height())
            branch.state = option.state | QStyle.StateFlag.State_Children
            if expanded:
                branch.state |= QStyle.StateFlag.State_Open
            style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorBranch, branch, painter,
                                widget)
        shifted = QStyleOptionViewItem(option)
        shifted.rect = option.rect.adjusted(indent, 0, 0, 0)
        super().paint(painter, shifted, index)

    def editorEvent(self, event, model, option, index) -> bool:  # noqa: N802 - Qt API
        shifted = QStyleOptionViewItem(option)
        shifted.rect = option.rect.adjusted(self._indent(index)[0], 0, 0, 0)
        return super().editorEvent(event, model, shifted, index)

    def sizeHint(self, option, index):  # noqa: N802 - Qt API
        hint = super().sizeHint(option, index)
        hint.setWidth(hint.width() + self._indent(index)[0])
        return hint


class GroupsTable(QTableView):
    """The groups and the files of the expanded groups as the rows of a flat table: a table
    view lays out no rows (uniform height, one section list), so a large result costs only
    the rows it paints. Group rows expand and collapse like a tree's: the indicator, a
    double click, Right and Left; the tree-like methods (isExpanded, setExpanded, expand,
    collapse, expandAll, collapseAll, header) keep the callers' code."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setCornerButtonEnabled(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self._fit_row_height()

    def _fit_row_height(self) -> None:
        style = self.style()
        check = style.pixelMetric(QStyle.PixelMetric.PM_IndicatorHeight, None, self)
        height = max(self.fontMetrics().height(), check) + 4
        header = self.verticalHeader()
        header.setMinimumSectionSize(min(height, header.minimumSectionSize()))
        header.setDefaultSectionSize(height)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_row_height()

    def groups(self) -> GroupTreeModel | None:
        m = self.model()
        return m if isinstance(m, GroupTreeModel) else None

    def header(self) -> QHeaderView:
        return self.horizontalHeader()

    # tree-like expansion, by the index of a group row (of any column)
    def isExpanded(self, index) -> bool:  # noqa: N802 - QTreeView's name
        m = self.groups()
        return bool(m is not None and m.is_group(index) and m.is_expanded(m.group_row(index)))

    def setExpanded(self, index, on: bool) -> None:  # noqa: N802 - QTreeView's name
        m = self.groups()
        if m is None or not m.is_group(index):
            return
        row = m.group_row(index)
        if not on:
            self._current_to_group(row)
        m.set_expanded(row, on)

    def expand(self, index) -> None:
        self.setExpanded(index, True)

    def collapse(self, index) -> None:
        self.setExpanded(index, False)

    def toggle(self, index) -> None:
        self.setExpanded(index, not self.isExpanded(index))

    def expandAll(self) -> None:  # noqa: N802 - QTreeView's name
        if (m := self.groups()) is not None:
            m.set_all_expanded(True)

    def collapseAll(self) -> None:  # noqa: N802 - QTreeView's name
        if (m := self.groups()) is not None:
            m.set_all_expanded(False)

    def _current_to_group(self, row: int) -> None:
        """Before a group collapses: a current file of it gives way to the group row."""
        m = self.groups()
        cur = self.currentIndex()
        if cur.isValid() and not m.is_group(cur) and m.group_row(cur) == row:
            group = m.group_index(row, cur.column())
            sm = self.selectionModel()
            sm.setCurrentIndex(group, QItemSelectionModel.SelectionFlag.NoUpdate)
            sm.select(group, QItemSelectionModel.SelectionFlag.Select
                      | QItemSelectionModel.SelectionFlag.Rows)

    def _on_indicator(self, pos) -> QModelIndex | None:
        """The group row whose expand indicator is at ``pos`` (viewport coordinates)."""
        m = self.groups()
        index = self.indexAt(pos)
        if m is None or index.column() != 0 or not m.is_group(index):
            return None
        rect = self.visualRect(index)
        delegate = self.itemDelegateForColumn(0)
        width = delegate.indent if isinstance(delegate, GroupsDelegate) else 20
        return index if rect.left() <= pos.x() < rect.left() + width else None

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        index = self._on_indicator(event.position().toPoint())
        if index is not None and event.button() == Qt.MouseButton.LeftButton:
            self.toggle(index)
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt API
        pos = event.position().toPoint()
        if self._on_indicator(pos) is not None:  # a second click on the indicator
            self.mousePressEvent(event)
            return
        index = self.indexAt(pos)
        super().mouseDoubleClickEvent(event)
        m = self.groups()
        if (event.button() == Qt.MouseButton.LeftButton and m is not None
                and m.is_group(index)):
            self.toggle(index)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        m = self.groups()
        cur = self.currentIndex()
        key = event.key()
        plain = not (event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier)
        if m is not None and cur.isValid() and plain and key in (Qt.Key.Key_Left,
                                                                  Qt.Key.Key_Right):
            row = m.group_row(cur)
            if key == Qt.Key.Key_Right:
                if m.is_group(cur) and not m.is_expanded(row):
                    m.set_expanded(row, True)
                elif m.is_group(cur) and m.member_count(row):
                    self.setCurrentIndex(m.file_index(row, 0, cur.column()))
            elif m.is_group(cur):
                m.set_expanded(row, False)
            else:
                self.setCurrentIndex(m.group_index(row, cur.column()))
            return
        super().keyPressEvent(event)

    def moveCursor(self, action, modifiers):  # noqa: N802 - Qt API
        """Home and End go to the first and last row (a tree's keys), not column."""
        m = self.model()
        if m is not None and m.rowCount() and action in (
                QAbstractItemView.CursorAction.MoveHome, QAbstractItemView.CursorAction.MoveEnd):
            col = max(0, self.currentIndex().column())
            row = 0 if action == QAbstractItemView.CursorAction.MoveHome else m.rowCount() - 1
            return m.index(row, col)
        return super().moveCursor(action, modifiers)


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
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_FOLDER, QHeaderView.ResizeMode.Stretch)  # no gap
        header.setStretchLastSection(False)
        # fit columns to a few rows: the default (1,000 rows) calls the model thousands of
        # times per column on the GUI thread, and 0 (the rows on screen) means every row
        # to a table view that is not shown
        header.setResizeContentsPrecision(FIT_ROWS)
        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter)
        self.expand_btn = QPushButton()
        self.expand_btn.clicked.connect(self.expand_all)
        self.collapse_btn = QPushButton()
        self.collapse_btn.clicked.connect(self.collapse_all)
        self.bitdiff = BitDiffView()
        self.textdiff = TextDiffView()
        self.keep_widths = False
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
        st.selected = {p for p in map(self._path, self.tree.selectionModel().selectedRows(0))
                       if p}
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
        scan), size the columns; the diffs stay when the compared file is still shown."""
        if state is not None:
            self.restore_state(state)
        elif count <= EXPAND_UP_TO:
            self.expand_all()
        if not self.keep_widths:  # widths the user set (restored from the last run) stay
            # fitted to about the rows on screen (each costs a dozen Python calls a column)
            rows = self.tree.viewport().height() // self.tree.verticalHeader().defaultSectionSize()
            self.tree.header().setResizeContentsPrecision(max(FIT_ROWS, rows + 1))
            for col in range(COLUMNS):
                if col != COL_FOLDER:
                    self.tree.resizeColumnToContents(col)
            lo, hi = NAME_WIDTH
            self.tree.setColumnWidth(COL_NAME, max(lo, min(hi, self.tree.columnWidth(COL_NAME))))
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
        rows = self.tree.selectionModel().selectedRows(0)
        return [r for r in (self.record_at(i) for i in rows) if r is not None]

    def compare(self, records: Sequence[FileRecord], i: int, j: int, bits: int,
                distance: int) -> None:
        self.bitdiff.set_diff(compare_bits(records, i, j, bits, distance), *names(records, i, j))
        self.textdiff.compare(records[i].path, records[j].path)
