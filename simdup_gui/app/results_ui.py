"""The results view's own commands: the View menu (duplicates only, the columns against the
reference, the ignore list), "not duplicates" and "remove from results", the keys of the
tree (Space marks, Delete acts, Enter opens) and marking by name pattern.

The state lives in the session (ignore list, removed files, marks) and in the tree's Qt-free
rows (duplicates only); this controller only wires menus and keys to them.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QMenu, QVBoxLayout)

from simdup_gui.core.group.ignore import default_path
from simdup_gui.core.presenters import i18n as counts  # "1 file", "3 files"
from simdup_gui.core.presenters.tree import DELTA_COLUMNS, results_summary
from simdup_gui.core.session import Refusal

from . import options as opt
from .desktop import open_path
from .dry_run import DryRunBadge
from .errors import show_error

FILE_ROLE = Qt.ItemDataRole.UserRole + 1  # an ignored file's path, or a pair (a, b)


class IgnoreListDialog(QDialog):
    """The ignore list, one line a file or pair, with Remove and Clear all."""

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(self.tr("Ignore list"))
        self.resize(760, 420)
        lay = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.list = QListWidget()
        self.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.remove_btn = box.addButton(self.tr("Remove selected"),
                                        QDialogButtonBox.ButtonRole.ActionRole)
        self.clear_btn = box.addButton(self.tr("Clear all"), QDialogButtonBox.ButtonRole.ResetRole)
        self.remove_btn.clicked.connect(self.remove_selected)
        self.clear_btn.clicked.connect(self.clear_all)
        box.rejected.connect(self.reject)
        for w in (self.where, self.list, box):
            lay.addWidget(w)
        self.refresh()

    def refresh(self) -> None:
        ign = self.session.ignore
        self.list.clear()
        for p in sorted(ign.files):
            item = QListWidgetItem(self.tr("file: {0}").format(p))
            item.setData(FILE_ROLE, p)
            self.list.addItem(item)
        for a, b in sorted(ign.pairs):
            item = QListWidgetItem(self.tr("pair: {0}  ↔  {1}").format(a, b))
            item.setData(FILE_ROLE, (a, b))
            self.list.addItem(item)
        self.where.setText(self.tr("{0} and {1} are never shown as duplicates. Kept in {2}")
                           .format(counts.files(len(ign.files)), counts.pairs(len(ign.pairs)),
                                   self.session.ignore_path or "-"))
        self.clear_btn.setEnabled(len(ign) > 0)

    def _change(self, fn, *args) -> None:
        try:
            fn(*args)
        except Refusal as e:
            show_error(self, self.tr("Cannot change the ignore list"), e)
        self.refresh()

    def remove_selected(self) -> None:
        chosen = [i.data(FILE_ROLE) for i in self.list.selectedItems()]
        files = [c for c in chosen if isinstance(c, str)]
        pairs = [tuple(c) for c in chosen if not isinstance(c, str)]
        self._change(self.session.unignore, files, pairs)

    def clear_all(self) -> None:
        self._change(self.session.clear_ignore)


class PatternDialog(QDialog):
    """A name pattern: a glob such as *.bak, or a regular expression."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Mark by name"))
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("Mark the files whose name matches (a pattern such as "
                                     "*.bak or *副本*; any case):")))
        self.edit = QLineEdit("*")
        self.regex = QCheckBox(self.tr("Regular expression"))
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        for w in (self.edit, self.regex, box):
            lay.addWidget(w)


class ResultsController(QObject):
    """Adds the View menu, the ignore and remove commands and the tree's keys to a window."""

    def __init__(self, win) -> None:
        super().__init__(win)
        self.win = win
        self.session = win.session
        warning = self.session.load_ignore(default_path())
        if warning:
            print(f"simdup-gui: warning: {warning}", flush=True)
            win.statusBar().showMessage(warning, 30000)
        self._build_view_menu()
        self._build_commands()
        self._build_keys()
        self.dry_badge = DryRunBadge(win, win.actions.act_dry)  # the switch's state, seen
        win.tree.customContextMenuRequested.connect(self.context_menu)
        win.tree.doubleClicked.connect(self._open_index)
        m = win.model
        for sig in (m.marksChanged, m.modelReset, m.layoutChanged):
            sig.connect(self.update_summary)
        from .review_ui import ReviewController

        self.review = ReviewController(win, self.act_deltas)  # reference, copy, rename,
        # custom command, folders, keys, the column chooser

    # ------------------------------------------------------------ menus
    def _build_view_menu(self) -> None:
        w = self.win
        self.view_menu = QMenu(w)
        w.menuBar().insertMenu(w.lang_menu.menuAction(), self.view_menu)
        self.act_dupes_only = QAction(w, checkable=True, toggled=self.set_dupes_only)
        self.act_deltas = QAction(w, checkable=True, toggled=self.show_deltas)
        self.act_ignore_list = QAction(w, triggered=self.show_ignore_list)
        self.view_menu.addActions([self.act_dupes_only, self.act_deltas])
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.act_ignore_list)
        self.act_deltas.setChecked(w.prefs.get(opt.SHOW_DELTAS))
        self.show_deltas(self.act_deltas.isChecked())
        self.act_dupes_only.setChecked(w.prefs.get(opt.DUPES_ONLY))

    def _build_commands(self) -> None:
        w = self.win
        self.act_ignore_pair = QAction(w, triggered=self.ignore_with_reference)
        self.act_ignore_file = QAction(w, triggered=self.ignore_files)
        self.act_remove = QAction(w, triggered=self.remove_from_results)
        menu = w.actions.actions_menu
        menu.addSeparator()
        menu.addActions([self.act_ignore_pair, self.act_ignore_file, self.act_remove])
        self.act_pattern = QAction(w, triggered=self._ask_pattern)
        mark_menu = w.actions.mark_menu
        mark_menu.insertAction(w.actions.act_invert, self.act_pattern)

    def _build_keys(self) -> None:
        """Keys of the tree alone (a spin box or the filter keeps Space, Delete, Enter)."""
        w, tree = self.win, self.win.tree
        self.act_toggle = QAction(w, triggered=self.toggle_selected)
        self.act_toggle.setShortcut(QKeySequence(Qt.Key.Key_Space))
        self.act_open = QAction(w, triggered=self.open_current)
        self.act_open.setShortcuts([QKeySequence(Qt.Key.Key_Return),
                                    QKeySequence(Qt.Key.Key_Enter)])
        # as in file managers and dupeGuru: Delete sends to the trash, Shift+Delete deletes
        # for good (its confirmation says so)
        trash, delete = w.actions.act_trash, w.actions.act_delete
        trash.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setShortcut(QKeySequence(Qt.KeyboardModifier.ShiftModifier | Qt.Key.Key_Delete))
        for a in (self.act_toggle, self.act_open, trash, delete):
            a.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            tree.addAction(a)
        w.actions.mark_menu.insertAction(w.actions.act_invert, self.act_toggle)

    def retranslate(self) -> None:
        self.view_menu.setTitle(self.tr("&View"))
        self.act_dupes_only.setText(self.tr("Duplicates only (hide each group's reference)"))
        self.act_deltas.setText(self.tr("Size and date against the reference"))
        self.act_ignore_list.setText(self.tr("Ignore list…"))
        self.act_ignore_pair.setText(self.tr("Not duplicates of the reference: ignore these "
                                             "pairs in every scan"))
        self.act_ignore_file.setText(self.tr("Ignore the selected files in every scan"))
        self.act_remove.setText(self.tr("Remove the selected files from the results "
                                        "(this session)"))
        self.act_pattern.setText(self.tr("Mark files whose name matches…"))
        self.act_toggle.setText(self.tr("Toggle the marks of the selected files"))
        self.act_open.setText(self.tr("Open"))
        self.review.retranslate()
        self.update_summary()

    def context_menu(self, pos) -> None:
        w = self.win
        rec = w.groups_view.record_at(w.tree.indexAt(pos))
        if rec is None:
            return
        path = self.session.records[rec].path
        menu = QMenu(w)
        menu.addAction(self.tr("Open"), lambda: open_path(path, w))
        menu.addAction(self.tr("Reveal in folder"), lambda: open_path(os.path.dirname(path), w))
        self.review.add_copy_menu(menu, path)
        w.actions.extend_context_menu(menu, path)
        menu.addAction(self.act_toggle)
        menu.addSeparator()
        menu.addActions([self.act_ignore_pair, self.act_ignore_file, self.act_remove])
        self.review.extend_context_menu(menu, path)
        menu.exec(w.tree.viewport().mapToGlobal(pos))

    def _open_index(self, index) -> None:
        rec = self.win.groups_view.record_at(index)
        if rec is not None:
            open_path(self.session.records[rec].path, self.win)

    # ------------------------------------------------------------ view
    def update_summary(self) -> None:
        s = self.session
        label = self.win.groups_view.summary
        label.setText(results_summary(self.win.model.shown_group_count(), len(s.groups),
                                      len(s.grouped_marks()), s.marked_size()))

    def set_dupes_only(self, on: bool) -> None:
        self.win.prefs.set(opt.DUPES_ONLY, on)
        state = self.win.groups_view.view_state()
        # the rows rebuilt on the pool when large (100,000 files: 60-130 ms here), expansion
        # and selection put back once they are shown
        self.win.model.change_view(reset=True, then=lambda: self.win.groups_view.restore_state(
            state), dupes_only=on)

    def show_deltas(self, on: bool) -> None:
        self.win.prefs.set(opt.SHOW_DELTAS, on)
        for col in DELTA_COLUMNS:
            self.win.tree.setColumnHidden(col, not on)

    def show_ignore_list(self) -> None:
        IgnoreListDialog(self.session, self.win).exec()
        self.win._show_groups()

    # ------------------------------------------------------------ not duplicates
    def _selected(self) -> list[str]:
        return self.win.actions.selected_paths()

    def _change(self, fn, paths: list[str]) -> None:
        if not paths:
            self.win.statusBar().showMessage(self.tr("Select one or more files first."), 10000)
            return
        try:
            fn(paths)
        except Refusal as e:
            show_error(self.win, self.tr("Cannot change the ignore list"), e)
        self.win._show_groups()

    def ignore_with_reference(self) -> None:
        self._change(self.session.ignore_with_reference, self._selected())

    def ignore_files(self) -> None:
        self._change(self.session.ignore_files, self._selected())

    def remove_from_results(self) -> None:
        self._change(self.session.remove_from_results, self._selected())

    # ------------------------------------------------------------ keys and marks
    def toggle_selected(self) -> None:
        self.win.model.marks_changed(self.session.toggle(self._selected()))

    def open_current(self) -> None:
        tree = self.win.tree
        index = tree.currentIndex()
        rec = self.win.groups_view.record_at(index)
        if rec is not None:
            open_path(self.session.records[rec].path, self.win)
        elif index.isValid():  # a group row: open or close it
            tree.toggle(index)

    def mark_matching(self, pattern: str, regex: bool = False) -> bool:
        try:
            changed = self.session.mark_matching(pattern, regex=regex)
        except ValueError as e:
            show_error(self.win, self.tr("Cannot mark by name"), e)
            return False
        self.win.model.marks_changed(changed)
        return True

    def _ask_pattern(self) -> None:
        d = PatternDialog(self.win)
        if d.exec() == QDialog.DialogCode.Accepted:
            self.mark_matching(d.edit.text().strip(), d.regex.isChecked())


__all__ = ["IgnoreListDialog", "PatternDialog", "ResultsController"]
