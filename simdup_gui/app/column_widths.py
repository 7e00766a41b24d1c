"""The groups table's column widths (issue 38, item 10).

Each column the user did not size is fitted to its title, to the rows around those on
screen and to a sample of its widest usual text ("999.9 MB", a date), so a size or a date
further down is not cut ("10.8 …"). That is done when the first groups show and again only
to widen, so the widths do not jump from one scan to the next. The Folder column takes the
room left, never less than FOLDER_MIN (then the table scrolls sideways rather than showing
"/t…"), and elides a long folder in the middle. A width the user drags (or double-clicks)
is theirs: kept across scans and runs, by column name, so a header saved before a column
was added (Closest) restores sensibly. "Reset column widths" (the header's context menu)
forgets them and fits again.
"""

from __future__ import annotations

import json
from contextlib import contextmanager

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHeaderView, QStyledItemDelegate
from shiboken6 import isValid

from simdup_gui.core.presenters.tree import (
    COL_AGE_DELTA,
    COL_CLOSEST,
    COL_DISTANCE,
    COL_ENCODING,
    COL_FOLDER,
    COL_MODIFIED,
    COL_NAME,
    COL_SIMILARITY,
    COL_SIZE,
    COL_SIZE_DELTA,
    COLUMNS,
    GROUP_COLUMNS,
)

FOLDER_MIN = 160  # px: the Folder column is never narrower (the table scrolls instead)
NAME_WIDTH = (160, 360)  # the name column fits its contents within these bounds
FIT_ROWS = 20  # rows at least (around those on screen) a column is fitted to
PADDING = 16  # px around a sample text (the cell's margins)
KEYS = ("name", "folder", "size", "modified", "encoding", "distance", "similarity",
        "size_delta", "age_delta", "closest")  # each column's name in the saved widths
SAMPLES = {COL_SIZE: "999.9 MB", COL_MODIFIED: "2000-12-31 23:59", COL_DISTANCE: "128",
           COL_SIMILARITY: "100% =", COL_CLOSEST: "100%", COL_SIZE_DELTA: "−999.9 MB",
           COL_AGE_DELTA: "−999 min", COL_ENCODING: "utf-8-sig"}
USER_WIDTH = (20, 4000)  # px: a saved width outside these is ignored
assert len(KEYS) == COLUMNS


class _MiddleElided(QStyledItemDelegate):
    """A long folder loses its middle ("/home/me/…/licenses"), not its end."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 - Qt API
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class ColumnWidths(QObject):
    """Sizes the columns of ``tree`` (a GroupsTable); ``user``: the widths the user set."""

    def __init__(self, tree) -> None:
        super().__init__(tree)
        self.tree = tree
        self.header = h = tree.header()
        self.user: dict[int, int] = {}
        self.fitted = False  # fitted to rows of groups (not only to the titles) once
        self._pressed = False  # a mouse button is down on the titles: a resize is the user's
        self._busy = False  # resizing here
        self._folder_delegate = _MiddleElided(tree)
        tree.setItemDelegateForColumn(COL_FOLDER, self._folder_delegate)
        self.set_modes()
        h.sectionResized.connect(self._resized)
        self._titles, self._rows = h.viewport(), tree.viewport()
        self._titles.installEventFilter(self)
        self._rows.installEventFilter(self)

    def set_modes(self) -> None:
        """Every column resizable but the folder's, which takes the room left (a restored
        header state brings its own modes back: call again after one)."""
        h = self.header
        h.setStretchLastSection(False)
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setSectionResizeMode(COL_FOLDER, QHeaderView.ResizeMode.Fixed)

    @contextmanager
    def _resizing(self):
        """Around the widths set here. The titles' signals are held meanwhile and the table
        laid out and repainted at once after: the table view's own answer to a resized
        column is a zero timer that lays out and repaints it, which came after the first
        paint of new groups and painted the table a second time (the 768 MB tree: 7-10 ms
        of the window's thread, benchmarks/show_groups.py)."""
        busy, self._busy = self._busy, True
        outer = not busy and isValid(self.header)
        before = [self.header.sectionSize(c) for c in range(COLUMNS)] if outer else []
        held = self.header.blockSignals(True) if outer else False
        try:
            yield
        finally:
            self._busy = busy
            if outer:
                self.header.blockSignals(held)
                if before != [self.header.sectionSize(c) for c in range(COLUMNS)]:
                    self.tree.updateGeometries()
                    self.tree.viewport().update()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            self._pressed = self._pressed or obj is self._titles
        elif kind == QEvent.Type.MouseButtonRelease:
            self._pressed = False
        elif kind == QEvent.Type.Resize and obj is self._rows:
            self.give_slack()
        return False

    def _resized(self, col: int, _old: int, new: int) -> None:
        if self._busy or col == COL_FOLDER:
            return
        if self._pressed and new > 0:  # dragged or double-clicked by the user
            self.user[col] = new
        self.give_slack()

    def set_user_width(self, col: int, width: int) -> None:
        """Give column ``col`` the width the user chose (kept across scans and runs)."""
        self.user[col] = width
        with self._resizing():
            self.tree.setColumnWidth(col, width)
        self.give_slack()

    def _shown(self) -> list[int]:
        return [c for c in range(COLUMNS) if not self.tree.isColumnHidden(c)]

    def give_slack(self) -> None:
        """The Folder column takes the room the others leave, FOLDER_MIN at least."""
        tree = self.tree
        if not isValid(self.header) or tree.isColumnHidden(COL_FOLDER):
            return  # (the window is being taken down)
        others = sum(tree.columnWidth(c) for c in self._shown() if c != COL_FOLDER)
        width = max(FOLDER_MIN, tree.viewport().width() - others)
        if width != tree.columnWidth(COL_FOLDER):
            with self._resizing():
                tree.setColumnWidth(COL_FOLDER, width)

    def _only_group_rows_sampled(self) -> bool:
        """No file row is among those a column is fitted to: a table view fits a column to
        at most resizeContentsPrecision() rows, one after the other, from the first row on
        screen (down, then up and down by turns)."""
        model, n = self.tree.model(), self.header.resizeContentsPrecision()
        if not hasattr(model, "records_at") or n <= 0:
            return False
        top = max(0, self.tree.verticalHeader().visualIndexAt(0))
        return not model.records_at(range(max(0, top - n), top + n + 1))

    def _fitted_width(self, col: int, only_groups: bool = False) -> int:
        """``only_groups``: no file row is fitted to, so a column a group row leaves empty
        fits its title and sample alone. Asking the table for its content width there went
        over 20 rows of empty cells, 8 questions to the model each: 4 of the 7 columns
        fitted after a scan of the 768 MB tree, whose groups are all collapsed (1-3 ms of
        the window's thread, benchmarks/show_groups.py)."""
        tree = self.tree
        content = 0 if only_groups and col not in GROUP_COLUMNS else tree.sizeHintForColumn(col)
        width = max(self.header.sectionSizeHint(col), content)
        if col in SAMPLES:
            width = max(width, tree.fontMetrics().horizontalAdvance(SAMPLES[col]) + PADDING)
        if col == COL_NAME:
            lo, hi = NAME_WIDTH
            width = max(lo, min(hi, width))
        return width

    def fit(self, *, grow_only: bool = False) -> None:
        """Fit the columns the user did not size (``grow_only``: only widen them); the name
        gives up width down to its lower bound while the folder would get less than
        FOLDER_MIN; the folder then gets the rest."""
        tree = self.tree
        rows = tree.viewport().height() // max(1, tree.verticalHeader().defaultSectionSize())
        self.header.setResizeContentsPrecision(max(FIT_ROWS, rows + 1))
        only_groups = self._only_group_rows_sampled()
        widths = {c: self._fitted_width(c, only_groups) for c in self._shown()
                  if c != COL_FOLDER and c not in self.user}
        if COL_NAME in widths and tree.isVisible():
            used = sum(widths.get(c, tree.columnWidth(c)) for c in self._shown()
                       if c != COL_FOLDER)
            short = FOLDER_MIN - (tree.viewport().width() - used)
            if short > 0:
                widths[COL_NAME] = max(NAME_WIDTH[0], widths[COL_NAME] - short)
        if grow_only:
            widths = {c: max(w, tree.columnWidth(c)) for c, w in widths.items()}
        with self._resizing():
            for col, width in widths.items():
                tree.setColumnWidth(col, width)
        self.give_slack()

    def groups_shown(self) -> None:
        """New groups are shown: fit the columns the first time, after that only widen."""
        if self.tree.model().rowCount() == 0:
            return
        self.fit(grow_only=self.fitted)
        self.fitted = True

    def reset(self) -> None:
        """Forget the user's widths and fit every column again."""
        self.user.clear()
        self.fit()
        self.fitted = self.tree.model().rowCount() > 0

    # ---- saved with the preferences, by column name ----------------------------------
    def saved(self) -> str:
        return json.dumps({KEYS[c]: w for c, w in sorted(self.user.items())})

    def restore(self, text: str) -> None:
        """Take the user's widths saved by :meth:`saved` (anything else in ``text`` is
        ignored: it is a hand-editable preference) and fit the rest to their titles."""
        self.set_modes()
        try:
            saved = json.loads(text) if text else {}
        except ValueError:
            saved = {}
        lo, hi = USER_WIDTH
        self.user = {KEYS.index(k): w for k, w in (saved.items() if isinstance(saved, dict)
                                                   else ())
                     if k in KEYS and k != "folder" and type(w) is int and lo <= w <= hi}
        with self._resizing():
            for col, width in self.user.items():
                self.tree.setColumnWidth(col, width)
        self.fit()
