"""The Mark and Actions menus over the session (the File menu's save/load/export: files_ui)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox

from simdup_gui.core.act.actions import ActionRefused, ActionReport
from simdup_gui.core.act.journal import journal_dir
from simdup_gui.core.presenters.actions import report_summary
from simdup_gui.core.presenters import i18n as counts
from simdup_gui.core.presenters.i18n import counted
from simdup_gui.core.session import KEEP_RULES, Refusal, Session

from . import dialogs
from .dialogs import ReportDialog
from .files_ui import FilesController
from .remark import Remarker
from . import options as opt
from .errors import show_error
from .tree_models import human_size
from .workers import Worker

__all__ = ["ActionsController", "Refusal", "ReportDialog"]


class ActionsController(QObject):
    """Adds the Mark and Actions menus and the File menu's save/load/export to a MainWindow;
    each runs a step of the window's session and shows what came of it."""

    actionFinished = Signal(object)  # the ActionReport, the Refusal / error, or None (declined)

    def __init__(self, win) -> None:
        super().__init__(win)
        self.win = win
        self.session: Session = win.session
        self.worker: Worker | None = None
        self.remarker = Remarker(self.session, win.pool,
                                 lambda marks: self._marked(self.session.set_marks(marks)))
        self._build()

    @property
    def reference(self) -> list[str]:
        return self.session.reference

    @reference.setter
    def reference(self, folders: list[str]) -> None:
        self.session.reference = list(folders)

    @property
    def last_report(self) -> ActionReport | None:
        return self.session.last_report

    # ------------------------------------------------------------ menus
    def _build(self) -> None:
        w = self.win
        mb = w.menuBar()
        self.mark_menu = QMenu(w)
        self.actions_menu = QMenu(w)
        mb.insertMenu(w.lang_menu.menuAction(), self.mark_menu)
        mb.insertMenu(w.lang_menu.menuAction(), self.actions_menu)
        self.keep_menu = QMenu(w)
        self.mark_menu.addMenu(self.keep_menu)
        self.rule_actions = {}
        for rule in KEEP_RULES:
            a = QAction(w, triggered=lambda _c=False, r=rule: self.mark_all_but_one(r))
            self.keep_menu.addAction(a)
            self.rule_actions[rule] = a
        self.act_keep_enc = QAction(w, triggered=self._keep_encoding)
        self.act_keep_folder = QAction(w, triggered=self._keep_folder)
        self.keep_menu.addActions([self.act_keep_enc, self.act_keep_folder])
        self.act_mark_sel = QAction(w, triggered=lambda: self.mark_selected(True))
        self.act_unmark_sel = QAction(w, triggered=lambda: self.mark_selected(False))
        self.act_invert = QAction(w, triggered=self.invert)
        self.act_clear = QAction(w, triggered=self.clear)
        self.act_refs = QAction(w, triggered=self._edit_reference)
        self.mark_menu.addActions([self.act_mark_sel, self.act_unmark_sel, self.act_invert,
                                   self.act_clear])
        self.mark_menu.addSeparator()
        self.mark_menu.addAction(self.act_refs)
        self._build_actions_menu()
        self.files = FilesController(self.win, self)

    def _build_actions_menu(self) -> None:
        w = self.win
        self.act_dry = QAction(w, checkable=True)
        self.act_dry.setChecked(False)
        self.act_move = QAction(w, triggered=lambda: self.act_on_marked("move"))
        self.act_trash = QAction(w, triggered=lambda: self.act_on_marked("trash"))
        self.act_delete = QAction(w, triggered=lambda: self.act_on_marked("delete"))
        self.act_hardlink = QAction(w, triggered=lambda: self.act_on_marked("hardlink"))
        self.act_symlink = QAction(w, triggered=lambda: self.act_on_marked("symlink"))
        self.act_undo = QAction(w, triggered=self.undo_last)
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.actions_menu.addActions([self.act_dry])
        self.actions_menu.addSeparator()
        self.actions_menu.addActions([self.act_move, self.act_trash, self.act_delete,
                                      self.act_hardlink, self.act_symlink])
        self.actions_menu.addSeparator()
        self.actions_menu.addAction(self.act_undo)
        self.act_resume = QAction(w, triggered=self._choose_resume)
        self.act_rollback = QAction(w, triggered=self._choose_rollback)
        self.actions_menu.addActions([self.act_resume, self.act_rollback])
        self.act_release = QAction(w, triggered=lambda: self.release_held())
        self.actions_menu.addAction(self.act_release)
        self.actions_menu.addSeparator()
        self.act_clear_cache = QAction(w, triggered=self.clear_cache)
        self.actions_menu.addAction(self.act_clear_cache)

    def retranslate(self) -> None:
        self.files.retranslate()
        self.mark_menu.setTitle(self.tr("&Mark"))
        self.actions_menu.setTitle(self.tr("&Actions"))
        self.keep_menu.setTitle(self.tr("Mark all but one in each group, keeping the…"))
        names = {"oldest": self.tr("oldest file"), "newest": self.tr("newest file"),
                 "largest": self.tr("largest file"), "smallest": self.tr("smallest file"),
                 "shortest-path": self.tr("shortest path"), "longest-path": self.tr("longest path")}
        for rule, a in self.rule_actions.items():
            a.setText(names[rule])
        self.act_keep_enc.setText(self.tr("copy in a preferred encoding…"))
        self.act_keep_folder.setText(self.tr("copy under a preferred folder…"))
        self.act_mark_sel.setText(self.tr("Mark selected"))
        self.act_unmark_sel.setText(self.tr("Unmark selected"))
        self.act_invert.setText(self.tr("Invert marks"))
        self.act_clear.setText(self.tr("Clear marks"))
        self.act_refs.setText(self.tr("Reference folders (never marked)…"))
        self.act_dry.setText(self.tr("Dry run: list what would happen, touch nothing"))
        self.act_move.setText(self.tr("Move marked files to…"))
        self.act_trash.setText(self.tr("Send marked files to the trash"))
        self.act_delete.setText(self.tr("Delete marked files permanently…"))
        self.act_hardlink.setText(self.tr("Replace marked files with hard links to the kept copy"))
        self.act_symlink.setText(self.tr("Replace marked files with symbolic links to the kept "
                                         "copy"))
        self.act_undo.setText(self.tr("Undo the last action"))
        self.act_resume.setText(self.tr("Resume an interrupted action from its journal…"))
        self.act_rollback.setText(self.tr("Roll back an action from its journal…"))
        self.act_release.setText(self.tr("Release held originals…"))
        self.act_release.setToolTip(self.tr(
            "Free the space of the originals that replacing files with links holds for undo, "
            "where the kept copy still has their bytes"))
        self.act_clear_cache.setText(self.tr("Clear the fingerprint cache"))

    def extend_context_menu(self, menu: QMenu, path: str) -> None:
        menu.addSeparator()
        menu.addAction(self.act_mark_sel)
        menu.addAction(self.act_unmark_sel)

    # ------------------------------------------------------------ marks
    def results(self):
        self.win._sync_settings()
        return self.session.results()

    def _marked(self, changed: set[str]) -> None:
        self.win.model.marks_changed(changed)

    def mark_all_but_one(self, rule: str, **kw) -> None:
        self.win._sync_settings()
        templates = self._templates_too()
        if templates is None:
            return
        self.remarker.run(self.session.keep_marks(rule, templates=templates, **kw))

    def _templates_too(self) -> bool | None:
        """When some members share mostly template text with their reference: ask whether
        the keep rule may mark them too (True), should keep one per copy set (False), or
        not run (None). No such member: False, without a question."""
        files, groups = self.session.template_members()
        if not files:
            return False
        text = self.tr("{0} files in {1} groups share mostly template text with their "
                       "group's reference: text found in many other files, like man pages "
                       "of one generator or one licence in many projects. They may not be "
                       "copies.\n\nLeave them unmarked (each keeps its own copies apart), or "
                       "mark them like the others?").format(files, groups)
        answer = dialogs.choose(self.win, self.tr("Template text"), text,
                                [self.tr("Leave them unmarked"), self.tr("Mark them too")])
        return None if answer is None else answer == 1

    def _keep_encoding(self) -> None:
        enc, ok = QInputDialog.getText(self.win, self.tr("Preferred encoding"),
                                       self.tr("Keep the copy in this encoding:"), text="utf-8")
        if ok and enc.strip():
            self.mark_all_but_one("encoding", encoding=enc.strip())

    def _keep_folder(self) -> None:
        d = dialogs.pick_folder(self.win, self.tr("Keep the copies under this folder"))
        if d:
            self.mark_all_but_one("folder", folder=d)

    def selected_paths(self) -> list[str]:
        return [self.session.records[i].path for i in self.win.groups_view.selected_records()]

    def mark_selected(self, on: bool) -> None:
        self._marked(self.session.mark(self.selected_paths(), on))

    def invert(self) -> None:
        self.remarker.run(self.session.inverted_marks())

    def clear(self) -> None:
        self._marked(self.session.clear_marks())

    def _edit_reference(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self.win, self.tr("Reference folders"),
            self.tr("Files under these folders are never marked (one folder per line):"),
            "\n".join(self.reference))
        if ok:
            self.set_reference([line.strip() for line in text.splitlines() if line.strip()])

    def set_reference(self, folders: list[str]) -> None:
        changed = self.session.set_reference(folders)
        self.win.prefs.set(opt.REFERENCE_FOLDERS, self.session.reference)
        self._marked(changed)

    # ------------------------------------------------------------ actions
    def _busy(self) -> bool:
        return self.worker is not None or self.win.is_scanning()

    def _ask_move_to(self, title: str | None = None) -> tuple[str | None, bool]:
        move_to = dialogs.pick_folder(self.win, title or self.tr("Move marked files to"))
        if not move_to:
            return None, False
        layout = dialogs.choose(
            self.win, self.tr("Folder layout in {0}").format(move_to),
            self.tr("Keep each file's folders below its scan root, or put every file directly "
                    "in {0} (a name that clashes gets a unique name)?").format(move_to),
            [self.tr("Keep folder structure"), self.tr("Put all files in one folder")])
        if layout is None:
            return None, False
        return move_to, layout == 1

    def _confirm(self, action: str, count: int, size: int, move_to: str | None) -> bool:
        if action == "delete":
            text = self.tr("Delete {0} ({1}) permanently? This cannot be undone.")
            answer = self.tr("Delete {0}")
        elif action == "trash":
            text = self.tr("Send {0} ({1}) to the trash?")
            answer = self.tr("Send {0} to the trash")
        elif action in ("hardlink", "symlink"):
            text = self.tr("Replace {0} ({1}) with links to their kept copy? Only exact "
                           "(byte-identical) copies are replaced; near duplicates are skipped. "
                           "Undo puts the originals back.")
            answer = self.tr("Replace {0}")
        else:
            text = self.tr("Move {0} ({1}) to {2}?")
            answer = self.tr("Move {0}")
        what = counts.files(count)  # "1 file", "3 files"
        return dialogs.confirm(self.win, self.tr("Confirm"),
                               text.format(what, human_size(size), move_to or ""),
                               answer.format(what))

    def act_on_marked(self, action: str, move_to: str | None = None, flat: bool = False,
                      dry_run: bool | None = None, journal: str | None = None) -> bool:
        """Plan and run ``action`` on the marked files; False when refused or declined."""
        if self._busy():
            return False
        dry = self.act_dry.isChecked() if dry_run is None else dry_run
        if action == "move" and move_to is None:
            move_to, flat = self._ask_move_to()
            if not move_to:
                return False
        self.win._sync_settings()
        let_go = self.files.catalogs.let_go(action)  # the last copies here: asked (catalog_ui)
        if let_go is None:
            return False
        try:
            plan = self.session.plan(action, move_to=move_to, flat=flat, catalog_copies=let_go)
        except (ActionRefused, ValueError) as e:
            show_error(self.win, self.tr("Refused"), e)
            self.session.last_report = None
            self.actionFinished.emit(e)
            return False
        if not plan.ops:
            QMessageBox.information(self.win, self.tr("Nothing marked"),
                                    self.tr("Mark the copies to act on first."))
            return False
        if not dry and not self._confirm(action, len(plan.ops), plan.total_bytes, move_to):
            return False
        self._start(Worker(self.session.execute, plan, dry_run=dry, journal=journal))
        return True

    def undo_last(self, journal: str | None = None) -> None:
        """Undo (Ctrl+Z) or roll back a journal; what it did goes to the status bar and the
        report, and a refusal to start says why."""
        if self._busy():
            self.win.statusBar().showMessage(self.tr(
                "Cannot undo now: wait for the scan or action under way to finish."), 15000)
            return
        self.win.statusBar().showMessage(self.tr("Undoing the last action…"))
        self._start(Worker(self.session.undo, journal))

    def _pick_journal(self, title: str) -> str | None:
        return dialogs.pick_open_file(self.win, title, journal_dir(),
                                      self.tr("Journals (*.jsonl)")) or None

    def _choose_resume(self) -> None:
        path = self._pick_journal(self.tr("Resume which action?"))
        if path:
            self.resume_journal(path)

    def _choose_rollback(self) -> None:
        path = self._pick_journal(self.tr("Roll back which action?"))
        if path:
            self.undo_last(path)

    def resume_journal(self, journal: str) -> None:
        """Finish an interrupted action: the half-done file first, then those not reached."""
        if not self._busy():
            self._start(Worker(self.session.resume, journal))

    def release_held(self, journal: str | None = None) -> bool:
        """Free the originals the newest link action (or ``journal``'s) holds for undo: a
        dry run on the pool says what would be freed, a confirmation (Cancel by default)
        asks, then the release runs on the pool and its report is shown. False if busy."""
        if self._busy():
            self.win.statusBar().showMessage(self.tr(
                "Cannot release now: wait for the scan or action under way to finish."), 15000)
            return False
        self.win.statusBar().showMessage(self.tr("Checking the held originals…"))
        self._start(Worker(self.session.release, journal, dry_run=True), self._release_checked)
        return True

    def _release_checked(self, preview: ActionReport) -> None:
        """The dry run's answer: nothing to free (show why), or ask, then release."""
        count = preview.count("planned")
        if not count or not preview.journal:
            self._done(preview)
            return
        size = human_size(getattr(preview, "freed", 0))
        held = counted(count, self.tr("1 held original"), self.tr("{0} held originals"))
        if not dialogs.confirm(
                self.win, self.tr("Release held originals"),
                self.tr("Delete {0} ({1})? Each was replaced by a link, and its kept copy has "
                        "the same bytes now. Undo can then no longer put these originals back; "
                        "the links stay.").format(held, size),
                counted(count, self.tr("Release 1 original"),
                        self.tr("Release {0} originals"))):
            self.win.statusBar().showMessage(self.tr("Nothing released."), 15000)
            self.actionFinished.emit(None)
            return
        self._start(Worker(self.session.release, preview.journal))

    def clear_cache(self) -> int:
        """Empty the fingerprint cache (the next scan reads every file again)."""
        try:
            n = self.session.clear_cache()
        except Refusal as e:
            show_error(self.win, self.tr("Cannot clear the cache"), e)
            return 0
        self.win.statusBar().showMessage(
            self.tr("Cleared {0} cached fingerprints.").format(n), 10000)
        return n

    def _start(self, worker: Worker, returned=None) -> None:
        """Run ``worker`` on the pool; its result goes to ``returned`` (default: show it
        as an action's report)."""
        self.worker = worker
        worker.signals.returned.connect(returned or self._done)
        worker.signals.errored.connect(self._failed)
        worker.signals.finished.connect(lambda w=worker: self._finished(w))
        self.win.pool.start(worker)

    def _finished(self, worker: Worker) -> None:
        if self.worker is worker:  # not one started since (a release after its dry run)
            self.worker = None

    def _failed(self, error: BaseException) -> None:
        """Refused (nothing was done: say why, as the CLI does) or failed."""
        self.session.last_report = None
        if isinstance(error, Refusal):
            show_error(self.win, self.tr("Refused"), error)
            self.win.statusBar().showMessage(str(error), 15000)
        else:
            show_error(self.win, self.tr("Action failed"), error)
        self.actionFinished.emit(error)

    def _done(self, report: ActionReport) -> None:
        if self.session.finish_action(report):
            self.win.regroup()
        self.win.statusBar().showMessage(report_summary(report), 15000)
        ReportDialog(report, self.win).exec()
        self.actionFinished.emit(report)

    # ------------------------------------------------------------ files (files_ui.py)
    def save_to(self, path: str) -> None:
        self.files.save_to(path)

    def load_from(self, path: str) -> None:
        self.files.load_from(path)

    def loading(self) -> bool:
        return self.files.loading()

    def export_to(self, path: str, fmt: str) -> bool:
        return self.files.export_to(path, fmt)
