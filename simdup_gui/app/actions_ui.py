"""Marking, acting on marked files, undo, save/load and export, in the main window."""

from __future__ import annotations

import html
import os

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QInputDialog, QLabel,
                               QMenu, QMessageBox, QTextBrowser, QVBoxLayout)

from simdup_gui.core.act import marking
from simdup_gui.core.act.actions import (ActionRefused, Report, bind_scan_identity, execute,
                                    plan_action)
from simdup_gui.core.review.export import export_results, load_results, save_results
from simdup_gui.core.scan.cache import FingerprintCache
from simdup_gui.core.act.journal import journal_dir
from simdup_gui.core.act.lock import ActionLocked
from simdup_gui.core.act.recovery import resume, undo
from simdup_gui.core.review.results import Results

from .tree_models import RECORD_ROLE, human_size
from .workers import Worker

RULES = ("oldest", "newest", "largest", "smallest", "shortest-path", "longest-path")


class Refusal(Exception):
    """What the core refused, to be shown in a message box (the CLI's error text)."""


def _run_execute(job, plan, dry_run: bool, journal: str | None) -> Report | Refusal:
    try:
        return execute(plan, job, dry_run=dry_run, journal=journal)
    except ActionLocked as e:
        return Refusal(str(e))
    except OSError as e:  # the journal could not be started: nothing was done
        return Refusal(f"cannot write the journal, so nothing was done: {e.strerror or e}"
                       + (f": {e.filename}" if e.filename else ""))


def _run_undo(job, journal: str | None) -> Report | Refusal:
    try:
        return undo(journal, job)
    except FileNotFoundError:
        return Report("undo")  # nothing left to undo: the report says "nothing to do"
    except (ActionLocked, ValueError) as e:
        return Refusal(str(e))


def _run_resume(job, journal: str) -> Report | Refusal:
    try:
        return resume(journal, job)
    except (ActionLocked, ValueError) as e:
        return Refusal(str(e))


class ReportDialog(QDialog):
    """Each file's outcome, failures first and never shown as success."""

    def __init__(self, report: Report, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("What happened"))
        self.resize(900, 500)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("<b>" + html.escape(report.summary()) + "</b>"))
        view = QTextBrowser()
        colours = {"done": "#137333", "planned": "#1a73e8", "skipped": "#b06000", "failed": "#c5221f"}
        rows = []
        order = {"failed": 0, "skipped": 1}
        for o in sorted(report.outcomes, key=lambda o: order.get(o.status, 2)):
            c = colours.get(o.status, "#202124")
            dest = f" → {html.escape(o.dest)}" if o.dest else ""
            why = f" <i>({html.escape(o.reason)})</i>" if o.reason else ""
            rows.append(f'<div><b style="color:{c}">{html.escape(o.status)}</b> '
                        f"{html.escape(o.path)}{dest}{why}</div>")
        if report.journal:
            rows.append("<p>" + html.escape(self.tr("Journal: {0}").format(report.journal)) + "</p>")
        view.setHtml("".join(rows) or self.tr("Nothing to do."))
        lay.addWidget(view)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        box.accepted.connect(self.accept)
        lay.addWidget(box)
        self.text = view.toPlainText()


class ActionsController(QObject):
    """Adds the Mark and Actions menus and the File menu's save/load/export to a MainWindow."""

    actionFinished = Signal(object)  # the Report

    def __init__(self, win) -> None:
        super().__init__(win)
        self.win = win
        self.worker: Worker | None = None
        self.last_report: Report | None = None
        self.confirm = True  # tests switch confirmations off
        self.show_reports = True
        refs = win.settings.value("reference_folders", []) or []
        self.reference: list[str] = [refs] if isinstance(refs, str) else list(refs)
        self._build()

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
        for rule in RULES:
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
        self.act_dry = QAction(w, checkable=True)
        self.act_dry.setChecked(False)
        self.act_move = QAction(w, triggered=lambda: self.act_on_marked("move"))
        self.act_trash = QAction(w, triggered=lambda: self.act_on_marked("trash"))
        self.act_delete = QAction(w, triggered=lambda: self.act_on_marked("delete"))
        self.act_undo = QAction(w, triggered=self.undo_last)
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.actions_menu.addActions([self.act_dry])
        self.actions_menu.addSeparator()
        self.actions_menu.addActions([self.act_move, self.act_trash, self.act_delete])
        self.actions_menu.addSeparator()
        self.actions_menu.addAction(self.act_undo)
        self.act_resume = QAction(w, triggered=self._choose_resume)
        self.act_rollback = QAction(w, triggered=self._choose_rollback)
        self.actions_menu.addActions([self.act_resume, self.act_rollback])
        self.actions_menu.addSeparator()
        self.act_clear_cache = QAction(w, triggered=self.clear_cache)
        self.actions_menu.addAction(self.act_clear_cache)
        # file menu: save / load / export
        self.act_save = QAction(w, triggered=self._save)
        self.act_load = QAction(w, triggered=self._load)
        self.export_menu = QMenu(w)
        self.export_actions = {}
        for fmt in ("csv", "json", "html"):
            a = QAction(fmt.upper(), w, triggered=lambda _c=False, f=fmt: self._export(f))
            self.export_menu.addAction(a)
            self.export_actions[fmt] = a
        w.file_menu.insertAction(w.extra_file_anchor, self.act_save)
        w.file_menu.insertAction(w.extra_file_anchor, self.act_load)
        w.file_menu.insertMenu(w.extra_file_anchor, self.export_menu)

    def retranslate(self) -> None:
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
        self.act_undo.setText(self.tr("Undo the last action"))
        self.act_resume.setText(self.tr("Resume an interrupted action from its journal…"))
        self.act_rollback.setText(self.tr("Roll back an action from its journal…"))
        self.act_clear_cache.setText(self.tr("Clear the fingerprint cache"))
        self.act_save.setText(self.tr("Save results…"))
        self.act_load.setText(self.tr("Load results…"))
        self.export_menu.setTitle(self.tr("Export groups as"))

    def extend_context_menu(self, menu: QMenu, path: str) -> None:
        menu.addSeparator()
        menu.addAction(self.act_mark_sel)
        menu.addAction(self.act_unmark_sel)

    # ------------------------------------------------------------ data
    def results(self) -> Results:
        w = self.win
        settings = {"bits": w.bits(), "distance": w.distance(),
                    "features": w.mode_box.currentData(),
                    "grouping": w.grouping_box.currentData(), "roots": w.folders.folders()}
        return Results(w.records, w.model.groups, w.problems, settings, w.stats,
                       w.model.grouped_marks())

    def set_marks(self, marks: set[str]) -> None:
        self.win.model.set_marks(marks)

    def mark_all_but_one(self, rule: str, **kw) -> None:
        res = self.results()
        self.set_marks(marking.mark_all_but_one(res, marking.KeepRule(rule, **kw), self.reference,
                                                res.marks))

    def _keep_encoding(self) -> None:
        enc, ok = QInputDialog.getText(self.win, self.tr("Preferred encoding"),
                                       self.tr("Keep the copy in this encoding:"), text="utf-8")
        if ok and enc.strip():
            self.mark_all_but_one("encoding", encoding=enc.strip())

    def _keep_folder(self) -> None:
        d = QFileDialog.getExistingDirectory(self.win, self.tr("Keep the copies under this folder"))
        if d:
            self.mark_all_but_one("folder", folder=d)

    def selected_paths(self) -> list[str]:
        w = self.win
        out = []
        for idx in w.tree.selectionModel().selectedRows(0):
            rec = idx.data(RECORD_ROLE)
            if rec is not None and rec >= 0:
                out.append(w.records[rec].path)
        return out

    def mark_selected(self, on: bool) -> None:
        marks = self.win.model.marks
        paths = self.selected_paths()
        new = (marking.mark_selected(marks, paths, self.reference) if on
               else marking.unmark_selected(marks, paths))
        self.set_marks(new)

    def invert(self) -> None:
        res = self.results()
        self.set_marks(marking.invert_marks(res, res.marks, self.reference))

    def clear(self) -> None:
        self.set_marks(marking.clear_marks())

    def _edit_reference(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self.win, self.tr("Reference folders"),
            self.tr("Files under these folders are never marked (one folder per line):"),
            "\n".join(self.reference))
        if ok:
            self.set_reference([line.strip() for line in text.splitlines() if line.strip()])

    def set_reference(self, folders: list[str]) -> None:
        self.reference = [os.path.abspath(f) for f in folders]
        self.win.settings.setValue("reference_folders", self.reference)
        self.set_marks(marking.without_reference(self.win.model.marks, self.reference))

    # ------------------------------------------------------------ actions
    def act_on_marked(self, action: str, move_to: str | None = None, flat: bool = False,
                      dry_run: bool | None = None, journal: str | None = None) -> bool:
        """Plan and run ``action`` on the marked files; False when refused or declined."""
        w = self.win
        if self.worker is not None or w.is_scanning():
            return False
        dry = self.act_dry.isChecked() if dry_run is None else dry_run
        if action == "move" and move_to is None:
            move_to = QFileDialog.getExistingDirectory(w, self.tr("Move marked files to"))
            if not move_to:
                return False
            flat = QMessageBox.question(
                w, self.tr("Keep folder structure?"),
                self.tr("Keep each file's folders relative to its scan root? (No: put all files "
                        "directly in the destination; name clashes get a unique name.)"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes) == QMessageBox.StandardButton.No
        try:
            res = self.results()
            plan = bind_scan_identity(plan_action(res, res.marks, action, move_to=move_to,
                                                  flat=flat, reference=self.reference), res)
        except (ActionRefused, ValueError) as e:
            if self.confirm:
                QMessageBox.warning(w, self.tr("Refused"), str(e))
            self.last_report = None
            self.actionFinished.emit(e)
            return False
        if not plan.ops:
            if self.confirm:
                QMessageBox.information(w, self.tr("Nothing marked"),
                                        self.tr("Mark the copies to act on first."))
            return False
        if self.confirm and not dry:
            size = human_size(plan.total_bytes)
            if action == "delete":
                text = self.tr("Delete {0} files ({1}) permanently? This cannot be undone.")
            elif action == "trash":
                text = self.tr("Send {0} files ({1}) to the trash?")
            else:
                text = self.tr("Move {0} files ({1}) to {2}?")
            ans = QMessageBox.question(w, self.tr("Confirm"), text.format(len(plan.ops), size,
                                                                          move_to or ""))
            if ans != QMessageBox.StandardButton.Yes:
                return False
        self._start(Worker(_run_execute, plan, dry, journal))
        return True

    def undo_last(self, journal: str | None = None) -> None:
        if self.worker is None and not self.win.is_scanning():
            self._start(Worker(_run_undo, journal))

    def _pick_journal(self, title: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self.win, title, journal_dir(),
                                              self.tr("Journals (*.jsonl)"))
        return path or None

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
        if self.worker is None and not self.win.is_scanning():
            self._start(Worker(_run_resume, journal))

    def clear_cache(self) -> int:
        """Empty the fingerprint cache (the next scan reads every file again)."""
        cache = FingerprintCache(getattr(self.win.scan_options(), "cache_path", None))
        try:
            n = cache.count()
            cache.clear()
        finally:
            cache.close()
        self.win.statusBar().showMessage(
            self.tr("Cleared {0} cached fingerprints.").format(n), 10000)
        return n

    def _start(self, worker: Worker) -> None:
        self.worker = worker
        worker.signals.returned.connect(self._done)
        worker.signals.errored.connect(self._failed)
        worker.signals.finished.connect(self._finished)
        self.win.pool.start(worker)

    def _finished(self) -> None:
        self.worker = None

    def _failed(self, text: str) -> None:
        QMessageBox.critical(self.win, self.tr("Action failed"), text)
        self.actionFinished.emit(RuntimeError(text))

    def _done(self, report: Report | Refusal) -> None:
        if isinstance(report, Refusal):  # nothing was done: say why, as the CLI does
            self.last_report = None
            if self.show_reports:
                QMessageBox.warning(self.win, self.tr("Refused"), str(report))
            self.win.statusBar().showMessage(str(report), 15000)
            self.actionFinished.emit(report)
            return
        self.last_report = report
        if not report.dry_run:
            self._refresh_after(report)
        if self.show_reports:
            ReportDialog(report, self.win).exec()
        self.win.statusBar().showMessage(report.summary(), 15000)
        self.actionFinished.emit(report)

    def _refresh_after(self, report: Report) -> None:
        """Drop files that are gone from the review; bring back files an undo restored."""
        w = self.win
        gone = {o.path for o in report.outcomes if o.status == "done"
                and report.action in ("move", "trash", "delete")}
        if report.action == "undo" or report.action.startswith("undo"):
            w.records = list(getattr(self, "_removed", [])) + w.records
            w.records = [r for r in {r.path: r for r in w.records}.values()
                         if os.path.exists(r.path)]
            w.records.sort(key=lambda r: r.path)
            self._removed = []
        elif gone:
            self._removed = [r for r in w.records if r.path in gone]
            w.records = [r for r in w.records if r.path not in gone]
        w.model.marks -= gone
        w.regroup()

    # ------------------------------------------------------------ files
    def _save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.win, self.tr("Save results"), "results.json",
                                              "JSON (*.json)")
        if path:
            self._write(save_results, path)

    def _write(self, fn, path: str, *args) -> bool:
        """Save or export; a failure is shown, never swallowed."""
        try:
            fn(self.results(), path, *args)
        except (OSError, ValueError) as e:
            QMessageBox.warning(self.win, self.tr("Cannot save"), f"{path}:\n{e}")
            return False
        self.win.statusBar().showMessage(self.tr("Saved {0}").format(path), 10000)
        return True

    def save_to(self, path: str) -> None:
        save_results(self.results(), path)

    def _load(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.win, self.tr("Load results"), "",
                                              "JSON (*.json)")
        if path:
            self.load_from(path)

    def load_from(self, path: str) -> None:
        if self.worker is not None or self.win.is_scanning():
            return
        try:
            res = load_results(path)
        except (OSError, ValueError) as e:
            QMessageBox.warning(self.win, self.tr("Cannot load"), str(e))
            return
        w = self.win
        w.records, w.problems, w.stats = res.records, res.problems, res.stats
        w.problems_model.set_problems(w.problems)
        bits = int(res.settings.get("bits", w.bits()))
        w.bits_box.blockSignals(True)
        w.bits_box.setCurrentIndex(w.bits_box.findData(bits))
        w.bits_box.blockSignals(False)
        w.distance_box.blockSignals(True)
        w.distance_box.setMaximum(bits)
        w.distance_box.setValue(int(res.settings.get("distance", w.distance())))
        w.distance_box.blockSignals(False)
        w._update_similarity()
        marks = marking.without_reference(res.marks, self.reference)  # never marked
        w.model.marks = set(marks)
        w.regroup()
        w.model.set_marks(marks)

    def _export(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self.win, self.tr("Export groups"),
                                              f"simdup-groups.{fmt}", f"{fmt.upper()} (*.{fmt})")
        if path:
            self._write(export_results, path, fmt)
