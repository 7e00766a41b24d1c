"""What the app remembers across runs besides the settings: the recent folders and results
(File menu, last 8) and the window's layout (splitter sizes, the tree's column widths).

The lists are preferences (``options.RECENT_FOLDERS`` / ``RECENT_RESULTS``), kept newest
first by the Qt-free :func:`~simdup_gui.core.presenters.recent.push_recent`.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSplitter

from simdup_gui.core.presenters.recent import push_recent, recent_label

from . import options as opt


class RecentMenus(QObject):
    """File > Recent folders and File > Recent results; choosing one opens it again."""

    def __init__(self, win) -> None:
        super().__init__(win)
        self.win = win
        self.folders_menu = QMenu(win)
        self.results_menu = QMenu(win)
        win.file_menu.insertMenu(win.extra_file_anchor, self.folders_menu)
        win.file_menu.insertMenu(win.extra_file_anchor, self.results_menu)
        self.folders_menu.aboutToShow.connect(self.refresh)
        self.results_menu.aboutToShow.connect(self.refresh)
        win.scanFinished.connect(lambda _result: self.add_folders(win.session.roots))
        self.refresh()

    def retranslate(self) -> None:
        self.folders_menu.setTitle(self.tr("Recent folders"))
        self.results_menu.setTitle(self.tr("Recent results"))
        self.refresh()

    def add_folders(self, folders: list[str]) -> None:
        prefs = self.win.prefs
        prefs.set(opt.RECENT_FOLDERS, push_recent(prefs.get(opt.RECENT_FOLDERS), folders))
        self.refresh()

    def add_result(self, path: str) -> None:
        prefs = self.win.prefs
        prefs.set(opt.RECENT_RESULTS, push_recent(prefs.get(opt.RECENT_RESULTS), path))
        self.refresh()

    def refresh(self) -> None:
        prefs = self.win.prefs
        for menu, option, fn in ((self.folders_menu, opt.RECENT_FOLDERS, self.open_folder),
                                 (self.results_menu, opt.RECENT_RESULTS, self.open_result)):
            menu.clear()
            paths = push_recent(prefs.get(option), [])
            for i, path in enumerate(paths):
                a = QAction(recent_label(i, path), menu,
                            triggered=lambda _c=False, p=path, fn=fn: fn(p))
                a.setEnabled(os.path.exists(path))  # a folder or file gone is shown, greyed
                a.setToolTip(path)
                menu.addAction(a)
            if not paths:
                empty = menu.addAction(self.tr("(none yet)"))
                empty.setEnabled(False)

    def open_folder(self, path: str) -> None:
        """Make this folder the one to scan (the Scan button then scans it)."""
        self.win.folders.clear()
        self.win.folders.add_folder(path)

    def open_result(self, path: str) -> None:
        self.win.actions.load_from(path)


class LayoutMemory:
    """Splitter sizes and the tree's header (sort, order) saved with the settings, and the
    column widths the user set (column_widths.py: only theirs; the rest are fitted)."""

    def __init__(self, win) -> None:
        self.win = win
        gv = win.groups_view
        splits = gv.findChildren(QSplitter)
        self.splitters = {
            opt.MAIN_SPLIT: win.centralWidget(),
            opt.RESULTS_SPLIT: next(s for s in splits
                                    if s.orientation() == Qt.Orientation.Vertical),
            opt.DIFF_SPLIT: next(s for s in splits
                                 if s.orientation() == Qt.Orientation.Horizontal),
        }
        # "Reset column widths" in the header's menu, below the column chooser's columns
        win.results_ui.review.columns.add_action(gv.act_reset_widths)

    def restore(self) -> None:
        prefs = self.win.prefs
        for option, splitter in self.splitters.items():
            state = prefs.get(option)
            if state is not None:
                splitter.restoreState(state)
        header = prefs.get(opt.TREE_HEADER)
        if header is not None and self.win.tree.header().restoreState(header):
            self.win.results_ui.show_deltas(self.win.results_ui.act_deltas.isChecked())
        # the widths the user set; the others fitted (never a saved width nobody chose)
        self.win.groups_view.widths.restore(prefs.get(opt.COLUMN_WIDTHS))

    def save(self) -> None:
        prefs = self.win.prefs
        for option, splitter in self.splitters.items():
            prefs.set(option, splitter.saveState())
        prefs.set(opt.TREE_HEADER, self.win.tree.header().saveState())
        prefs.set(opt.COLUMN_WIDTHS, self.win.groups_view.widths.saved())
