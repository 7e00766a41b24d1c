"""What a dupeGuru or Czkawka user reaches for while reviewing (issue 38, items 7 and
14-17): make the selected file its group's reference, copy the marked files to a folder,
rename a file, open a file with the user's own command (Preferences), remove the marked
files from the results, the folder of a file (mark, unmark, remove, exclude), the name,
path or folder to the clipboard, and keys for the keep rules and marks.

Each command is a step of the session (core/session.py; the file actions are journaled and
undone like a move: core/act/copying.py); this controller wires menus and keys to them.
"""

from __future__ import annotations

import os
import shlex

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QInputDialog, QLabel, QLineEdit,
                               QMenu, QMessageBox, QVBoxLayout)

from simdup_gui.core.command import command_args, run_detached
from simdup_gui.core.models import human_size
from simdup_gui.core.presenters.engine_text import outcome_reason
from simdup_gui.core.session import KEEP_RULES, Refusal

from . import dialogs
from . import options as opt
from .columns import ColumnChooser
from .errors import show_error
from .workers import Worker

SHOWN_LEFT = 12  # files that left a group named in the message; the rest counted
# The keys (no clash with the others: tests/app/test_gui_review.py checks every key)
KEEP_RULE_KEYS = {rule: f"Ctrl+{i}" for i, rule in enumerate(KEEP_RULES, 1)}
KEYS = {"invert": "Ctrl+I", "clear": "Ctrl+Shift+A", "reference": "Ctrl+Shift+R",
        "copy": "Ctrl+Shift+M", "rename": "F2", "command": "Ctrl+Alt+I"}


class PreferencesDialog(QDialog):
    """The preferences that no panel shows: the custom command."""

    def __init__(self, prefs: opt.Preferences, parent=None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.setWindowTitle(self.tr("Preferences"))
        self.resize(620, 0)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("Custom command (Actions > Open with the custom command):")))
        self.command = QLineEdit(prefs.get(opt.CUSTOM_COMMAND))
        self.command.setPlaceholderText("meld %a %b")
        lay.addWidget(self.command)
        help_ = QLabel(self.tr(
            "%a is the selected file, %b the reference of its group (for the reference "
            "itself, the member closest to it). For example: meld %a %b, kdiff3 %a %b, "
            "code --diff %a %b. The command runs without a shell: a file name with spaces "
            "or quotes stays one argument."))
        help_.setWordWrap(True)
        lay.addWidget(help_)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay.addWidget(box)

    def accept(self) -> None:
        self.prefs.set(opt.CUSTOM_COMMAND, self.command.text().strip())
        super().accept()


class ReviewController(QObject):
    """Adds the review's commands to a window's menus, context menu and keys."""

    def __init__(self, win, deltas: QAction) -> None:
        super().__init__(win)
        self.win = win
        self.session = win.session
        self._build()
        self.columns = ColumnChooser(win, deltas)

    def _build(self) -> None:
        w, a = self.win, self.win.actions
        self.act_reference = QAction(w, triggered=lambda: self.make_reference())
        self.act_copy = QAction(w, triggered=lambda: self.copy_marked())
        self.act_rename = QAction(w, triggered=lambda: self.rename())
        self.act_command = QAction(w, triggered=lambda: self.run_command())
        self.act_remove_marked = QAction(w, triggered=self.remove_marked)
        self.act_prefs = QAction(w, triggered=self.edit_preferences)
        a.mark_menu.insertAction(a.act_refs, self.act_reference)
        a.mark_menu.insertSeparator(a.act_refs)
        a.actions_menu.insertActions(a.act_trash, [self.act_copy, self.act_rename])
        a.actions_menu.addAction(self.act_remove_marked)
        a.actions_menu.addSeparator()
        a.actions_menu.addAction(self.act_command)
        w.file_menu.insertAction(w.act_quit, self.act_prefs)
        w.file_menu.insertSeparator(w.act_quit)
        for rule, key in KEEP_RULE_KEYS.items():
            a.rule_actions[rule].setShortcut(QKeySequence(key))
        keyed = {"invert": a.act_invert, "clear": a.act_clear, "reference": self.act_reference,
                 "copy": self.act_copy, "rename": self.act_rename, "command": self.act_command}
        for name, action in keyed.items():
            action.setShortcut(QKeySequence(KEYS[name]))
        self.act_prefs.setShortcut(QKeySequence(QKeySequence.StandardKey.Preferences))
        # F2 renames the tree's file, not a file in another widget's sense of F2
        self.act_rename.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        w.tree.addAction(self.act_rename)

    def retranslate(self) -> None:
        self.act_reference.setText(self.tr("Make the selected file its group's reference"))
        self.act_copy.setText(self.tr("Copy marked files to…"))
        self.act_rename.setText(self.tr("Rename the selected file…"))
        self.act_command.setText(self.tr("Open with the custom command"))
        self.act_remove_marked.setText(self.tr("Remove the marked files from the results "
                                               "(they stay on disk)"))
        self.act_prefs.setText(self.tr("Preferences…"))
        self.columns.retranslate()

    # ------------------------------------------------------------ context menu
    def add_copy_menu(self, menu: QMenu, path: str) -> None:
        """Copy the file's name, full path or folder to the clipboard."""
        sub = menu.addMenu(self.tr("Copy to the clipboard"))
        for text, value in ((self.tr("Name"), os.path.basename(path)),
                            (self.tr("Full path"), path),
                            (self.tr("Folder"), os.path.dirname(path))):
            sub.addAction(text, lambda v=value: QGuiApplication.clipboard().setText(v))

    def extend_context_menu(self, menu: QMenu, path: str) -> None:
        """The file's own commands and its folder's (Czkawka's folder-scoped actions)."""
        menu.addSeparator()
        for command, fn in ((self.act_reference, self.make_reference),
                            (self.act_rename, self.rename), (self.act_command, self.run_command)):
            # the clicked file's, with the key of the menu's command for the current file
            key = command.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            menu.addAction(f"{command.text()}\t{key}", lambda fn=fn: fn(path))
        folder = os.path.dirname(path)
        sub = menu.addMenu(self.tr("This folder: {0}").format(os.path.basename(folder)
                                                              or folder))
        sub.setToolTip(folder)
        sub.addAction(self.tr("Mark every file in it (and below)"),
                      lambda: self.mark_folder(folder, True))
        sub.addAction(self.tr("Unmark every file in it (and below)"),
                      lambda: self.mark_folder(folder, False))
        sub.addAction(self.tr("Remove its files from the results"),
                      lambda: self.remove_folder(folder))
        sub.addAction(self.tr("Exclude it from later scans"),
                      lambda: self.exclude_folder(folder))

    # ------------------------------------------------------------ commands
    def _say(self, text: str) -> None:
        self.win.statusBar().showMessage(text, 15000)

    def _path(self, path: str | None) -> str | None:
        """``path``, else the current file of the tree (None, and a word, when none)."""
        if path is None:
            rec = self.win.groups_view.record_at(self.win.tree.currentIndex())
            path = self.session.records[rec].path if rec is not None else None
        if path is None:
            self._say(self.tr("Select a file first."))
        return path

    def make_reference(self, path: str | None = None) -> None:
        """Make the file its group's reference; the files that left the group are named."""
        path = self._path(path)
        if path is None:
            return
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            change = self.session.make_reference(path)
        except Refusal as e:
            show_error(self.win, self.tr("Cannot make it the reference"), e)
            return
        finally:
            QGuiApplication.restoreOverrideCursor()
        self.win._show_groups()
        self.win.model.marks_changed(change.marks_changed)
        name = os.path.basename(path)
        self._say(self.tr("{0} is now the reference of its group; keep rules keep it.")
                  .format(name))
        if change.left:
            shown = "\n".join(change.left[:SHOWN_LEFT]) + (
                "\n" + self.tr("and {0} more").format(len(change.left) - SHOWN_LEFT)
                if len(change.left) > SHOWN_LEFT else "")
            QMessageBox.information(self.win, self.tr("Files left the group"), self.tr(
                "{0} is now the reference of its group. Measured against it, these files are "
                "less similar than the threshold ({1} %) and left the group:\n\n{2}").format(
                    name, round(100 * self.session.settings.similarity), shown))

    def copy_marked(self, copy_to: str | None = None, flat: bool = False) -> bool:
        """Copy the marked files into a folder (asked for); False when refused or declined."""
        a = self.win.actions
        if a._busy():
            return False
        if copy_to is None:
            copy_to, flat = a._ask_move_to(self.tr("Copy marked files to"))
            if not copy_to:
                return False
        self.win._sync_settings()
        try:
            plan = self.session.plan_copy(copy_to, flat=flat)
        except ValueError as e:
            show_error(self.win, self.tr("Refused"), e)
            return False
        if not plan.ops:
            QMessageBox.information(self.win, self.tr("Nothing marked"),
                                    self.tr("Mark the files to copy first."))
            return False
        dry = a.act_dry.isChecked()
        text = self.tr("Copy the marked files ({0}: {1}) to {2}? Nothing is removed or "
                       "written over; undo removes the copies.").format(
                           len(plan.ops), human_size(plan.total_bytes), copy_to)
        if not dry and not dialogs.confirm(self.win, self.tr("Confirm"), text, self.tr("Copy"),
                                           destructive=False):
            return False
        a._start(Worker(self.session.execute, plan, dry_run=dry))
        return True

    def rename(self, path: str | None = None, new_name: str | None = None) -> bool:
        """Rename the file in its folder (asked for); False when refused or declined."""
        path = self._path(path)
        a = self.win.actions
        if path is None or a._busy():
            return False
        old = os.path.basename(path)
        if new_name is None:
            new_name, ok = QInputDialog.getText(self.win, self.tr("Rename"),
                                                self.tr("New name for {0}:").format(old),
                                                text=old)
            if not ok or new_name == old:
                return False
        try:
            plan = self.session.plan_rename(path, new_name)
        except ValueError as e:
            show_error(self.win, self.tr("Cannot rename"), e)
            return False
        dry = a.act_dry.isChecked()
        a._start(Worker(self.session.execute, plan, dry_run=dry), None if dry else self._renamed)
        return True

    def _renamed(self, report) -> None:
        if self.session.finish_action(report):
            self.win.regroup()
        out = report.outcomes[0] if report.outcomes else None
        if out is not None and out.status == "done":
            self._say(self.tr("Renamed to {0}; Undo gives it its old name back.")
                      .format(os.path.basename(out.dest or "")))
        else:
            QMessageBox.warning(self.win, self.tr("Not renamed"), outcome_reason(
                out.reason if out is not None else report.summary()))
        self.win.actions.actionFinished.emit(report)

    def run_command(self, path: str | None = None) -> bool:
        """Open the file with the custom command (%a the file, %b what to compare it with)."""
        path = self._path(path)
        if path is None:
            return False
        template = self.win.prefs.get(opt.CUSTOM_COMMAND)
        if not template.strip():
            QMessageBox.information(self.win, self.tr("No custom command"), self.tr(
                "Set the command first, e.g. meld %a %b (File > Preferences)."))
            if not self.edit_preferences() or not self.win.prefs.get(opt.CUSTOM_COMMAND):
                return False
            template = self.win.prefs.get(opt.CUSTOM_COMMAND)
        try:
            args = command_args(template, path, self.session.compare_with(path))
            run_detached(args)
        except (ValueError, OSError) as e:
            show_error(self.win, self.tr("Cannot run the custom command"), e)
            return False
        self._say(self.tr("Started: {0}").format(shlex.join(args)))
        return True

    def edit_preferences(self) -> bool:
        return PreferencesDialog(self.win.prefs, self.win).exec() == QDialog.DialogCode.Accepted

    def remove_marked(self) -> None:
        gone = self.session.remove_marked_from_results()
        if not gone:
            self._say(self.tr("Nothing is marked."))
            return
        self.win._show_groups()
        self.win.model.marks_changed(gone)
        self._say(self.tr("Marked files removed from the results: {0}. They stay on disk; a "
                          "new scan shows them again.").format(len(gone)))

    def mark_folder(self, folder: str, on: bool) -> None:
        self.win.model.marks_changed(self.session.mark(self.session.grouped_under(folder), on))

    def remove_folder(self, folder: str) -> None:
        self.session.remove_from_results(self.session.grouped_under(folder))
        self.win._show_groups()
        self._say(self.tr("The files of {0} are removed from the results; a new scan shows "
                          "them again.").format(folder))

    def exclude_folder(self, folder: str) -> None:
        """Leave the folder out of later scans (the settings' Exclude field, remembered)
        and its files out of these results."""
        try:
            pattern = self.session.exclude_folder(folder)
        except Refusal as e:
            show_error(self.win, self.tr("Cannot exclude the folder"), e)
            return
        edit = self.win.panel.exclude_edit
        words = edit.text().split()
        if pattern not in words:
            edit.setText(" ".join([*words, pattern]))
        self.win.prefs.set(opt.EXCLUDE, edit.text())
        self.win._show_groups()
        self._say(self.tr("{0} is left out of later scans (Settings: Exclude) and its files "
                          "out of these results.").format(folder))
