"""The groups table: a QTableView over the flat groups model that looks and answers like a
tree (an expand indicator and bold text on group rows, files indented below, Right and Left
to expand and collapse), without a tree view's layout of every row."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QRect, Qt
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHeaderView, QStyle,
                               QStyledItemDelegate, QStyleOption, QStyleOptionViewItem,
                               QTableView)

from .tree_models import GroupTreeModel

WHOLE_SELECTION_ABOVE = 1_000  # rows; a smaller selection of every row is left to Qt


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
        self.horizontalHeader().setHighlightSections(False)
        self._fit_row_height()

    def setModel(self, model) -> None:  # noqa: N802 - Qt API
        super().setModel(model)
        if isinstance(model, GroupTreeModel):
            model.around_relayout = self._whole_selection_kept
        if model is not None:
            model.modelReset.connect(self._lay_out_now)

    def _lay_out_now(self) -> None:
        """New rows (a reset) are laid out at once, not at the view's next zero timer: that
        came after the first paint of new groups, whose scroll bars then appeared and the
        table was painted again. With ColumnWidths' widths set the same way (_resizing),
        the first groups of a scan of the 768 MB tree are painted once, not twice: 7-10 ms
        less of the window's thread (a table paint, benchmarks/show_groups.py)."""
        self.executeDelayedItemsLayout()

    @contextmanager
    def _whole_selection_kept(self) -> Iterator[None]:
        """Around a sort, Expand all or Collapse all: a selection of every row (Select all)
        is dropped first and made again after. Qt would keep a persistent index for each
        selected row through the change (100,000 rows: 0.3-1 s) and then select them again
        row by row."""
        sm, m = self.selectionModel(), self.model()
        sel = sm.selection() if sm is not None and m is not None else []
        whole = (m is not None and m.rowCount() > WHOLE_SELECTION_ABOVE and len(sel) == 1
                 and sel[0].top() == 0 and sel[0].bottom() == m.rowCount() - 1)
        if whole:
            sm.clearSelection()
        try:
            yield
        finally:
            if whole:
                self.selectAll()

    def setSelectionModel(self, selection_model) -> None:  # noqa: N802 - Qt API
        """The column titles get a selection model of their own, always empty: to draw a
        title, QHeaderView asks whether its column and its neighbours are wholly selected,
        which asks the model about every row when every row is selected (Select all over
        13,625 groups froze the window for about a second, and again at each repaint of
        the titles). The titles do not show the selection (highlightSections is off)."""
        super().setSelectionModel(selection_model)
        model = selection_model.model() if selection_model is not None else None
        if model is not None:
            self._titles_selection = QItemSelectionModel(model, self)
            self.horizontalHeader().setSelectionModel(self._titles_selection)

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


__all__ = ["GroupsDelegate", "GroupsTable"]
