"""The Excerpts tab (issue 41, part 3): each text that is mostly inside a longer one, and
the two texts side by side, shown from where they start to match."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt
from PySide6.QtWidgets import QSplitter, QTableView, QTabWidget, QVBoxLayout, QWidget

from simdup_gui.core.presenters.excerpts import ExcerptRow, ExcerptRows, first_matching_row

from .fit_when_shown import FitsWhenShown
from .textdiffview import TextDiffView


RESIZE_ROWS = 200  # rows a column is fitted to


class ExcerptsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: Sequence[ExcerptRow] = []

    def set_rows(self, rows: Sequence[ExcerptRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else 3

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [self.tr("Excerpt"), self.tr("Is inside"), self.tr("Contained")][section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole,
                                               Qt.ItemDataRole.ToolTipRole):
            return None
        r = self.rows[index.row()]  # (made now: the roles asked for first)
        if role == Qt.ItemDataRole.DisplayRole:
            return [r.part, r.whole, r.shown][index.column()]
        return self.tr("{0} of the text of {1} is inside {2}").format(r.shown, r.part, r.whole)


class ExcerptsTab(FitsWhenShown, QWidget):
    """The excerpts of the session's review; selecting one shows both texts, the excerpt
    on the left, from the first line they share."""

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = ExcerptsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        # columns fitted to the first rows, not all of them: fitting to all 18,344 excerpts
        # of the 768 MB tree stalled the window 140 ms after each scan (gui_stalls.py)
        self.table.horizontalHeader().setResizeContentsPrecision(RESIZE_ROWS)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        self.textdiff = TextDiffView()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.textdiff)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)

    def refresh(self) -> None:
        """Show the session's excerpts now (after a grouping); the columns are fitted to
        them when the tab is next shown (at once if it is): fitting to 200 rows of paths
        asks the model for 4,800 cells, 16-24 ms of the window's thread after each scan
        of the 768 MB tree while the tab was not even looked at (gui_stalls.py)."""
        self.model.set_rows(ExcerptRows(self.session.records, self.session.excerpts))
        self.textdiff.clear()
        self.fit_when_shown()
        self._title()

    def fitted_table(self) -> QTableView:
        return self.table

    def _title(self) -> None:
        tabs = self.tabs()
        if tabs is not None:
            tabs.setTabText(tabs.indexOf(self), self.tr("Excerpts ({0})").format(self.count()))

    def tabs(self) -> QTabWidget | None:
        """The tab widget it is a page of (a QStackedWidget's parent), if any."""
        p = self.parentWidget()
        p = p.parentWidget() if p is not None else None
        return p if isinstance(p, QTabWidget) else None

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def count(self) -> int:
        return len(self.model.rows)

    def retranslate(self) -> None:
        self.model.retranslate()
        self.textdiff.retranslate()
        self._title()

    def _show(self, current: QModelIndex, _previous=None) -> None:
        if not current.isValid():
            return
        r = self.model.rows[current.row()]
        self.textdiff.compare(r.part, r.whole)
        if self.textdiff.diff is not None:
            self.textdiff.show_row(first_matching_row(self.textdiff.diff.rows))


def attach(win) -> ExcerptsTab:
    """The Excerpts tab of the window ``win``, added after its other tabs (the accuracy
    lab's index stays), shown again whenever the groups are."""
    tab = ExcerptsTab(win.session)
    win.tabs.addTab(tab, "")
    win.groupsChanged.connect(tab.refresh)
    tab.retranslate()
    return tab
