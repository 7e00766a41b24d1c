"""The File menu's save, load and export of results, over the window's session."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from simdup_gui.core.act.trust import results_file_problem
from simdup_gui.core.review.export import export_results, load_results, save_results
from simdup_gui.core.review.process_load import load_results_in_process

from . import dialogs, heap
from .catalog_ui import CatalogController
from .errors import show_error
from .workers import Worker

LOAD_IN_WORKER_ABOVE = 512 << 10  # bytes; smaller results files are loaded at once


class FilesController(QObject):
    """Save results…, Load results…, Export groups as: adds them to the window's File menu."""

    def __init__(self, win, actions) -> None:
        super().__init__(win)
        self.win = win
        self.actions = actions
        self.session = win.session
        self._loader: Worker | None = None  # reading a results file
        self._writer: Worker | None = None  # saving or exporting on the pool
        self._build_file_menu()
        self.catalogs = CatalogController(win, actions)  # Save catalog…, Compare with…

    def _build_file_menu(self) -> None:
        w = self.win
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
        self.act_save.setText(self.tr("Save results…"))
        self.act_load.setText(self.tr("Load results…"))
        self.export_menu.setTitle(self.tr("Export groups as"))
        self.catalogs.retranslate()

    def _save(self) -> None:
        path = dialogs.pick_save_file(self.win, self.tr("Save results"), "results.json",
                                      "JSON (*.json)")
        if path:
            self.write(path)

    def write(self, path: str, fmt: str | None = None) -> bool:
        """Save the results (``fmt`` None) or export the groups as ``fmt``, on the pool from a
        snapshot taken now (the review goes on); True means the writing started. A failure
        is shown when it comes, never swallowed; success names the file.

        Always on the pool, whatever the size: 100,000 records take about 2 s to write, and
        even a small file is synced to the disk before it replaces the old one, which took
        156 ms on a busy disk here (more on a network share or a USB stick)."""
        if self._writer is not None:
            self.win.statusBar().showMessage(self.tr("Still writing the last file…"), 5000)
            return False
        self.win._sync_settings()
        path = os.path.abspath(path)
        res = self.session.results()
        self._writer = w = Worker(heap.building(_write_job), res.snapshot(), path, fmt)
        w.signals.returned.connect(lambda _r, p=path, m=set(res.marks): self._written(p, fmt, m))
        w.signals.errored.connect(lambda e, p=path: self._failed(e, p))
        w.signals.finished.connect(lambda w=w: self._write_finished(w))
        self.win.statusBar().showMessage(self.tr("Writing {0}…").format(path))
        self.win.pool.start(w)
        return True

    def writing(self) -> bool:
        return self._writer is not None

    def _write_finished(self, worker: Worker) -> None:
        if self._writer is worker:
            self._writer = None

    def _failed(self, e: BaseException, path: str) -> None:
        if not isinstance(e, (OSError, ValueError)):
            show_error(self.win, self.tr("Cannot save"), e)
            return
        show_error(self.win, self.tr("Cannot save"), e, about=path)

    def _written(self, path: str, fmt: str | None, marks: set[str]) -> None:
        msg = (self.tr("Exported {0} groups to {1}").format(len(self.session.groups), path)
               if fmt else self.tr("Saved the results to {0}").format(path))
        if not fmt:
            self.win.recent.add_result(path)
            self.session.saved_marks = marks  # quitting loses none of them
        self.win.statusBar().showMessage(msg, 30000)

    def save_to(self, path: str) -> None:
        """Save at once, whatever the size (scripts and tests; raises OSError)."""
        self.win._sync_settings()
        self.session.save(path)

    def _load(self) -> None:
        path = dialogs.pick_open_file(self.win, self.tr("Load results"), "", "JSON (*.json)")
        if path:
            self.load_from(path)

    def load_from(self, path: str) -> None:
        """Load saved results: a large file is read and checked on the pool (the window stays
        usable; :meth:`loading` meanwhile), a small one at once."""
        if self.actions._busy() or self.loading():
            return
        why = results_file_problem(path) if os.path.exists(path) else None
        if why is not None:  # it names the files the app would act on
            show_error(self.win, self.tr("Cannot load"), ValueError(
                self.tr("{0} is not used: {1}").format(path, why)))
            return
        self.win.recent.add_result(path)  # File > Recent results
        try:
            big = os.path.getsize(path) > LOAD_IN_WORKER_ABOVE
        except OSError:
            big = False  # load_results says why it cannot be read
        if big:
            # parsed and checked in a child process: json.loads alone would hold this
            # process's GIL, and so the window, for most of a second
            self._loader = Worker(heap.building(load_results_in_process), path)
            self._loader.signals.returned.connect(self._loaded)
            self._loader.signals.errored.connect(
                lambda e: show_error(self.win, self.tr("Cannot load"), e))
            self._loader.signals.finished.connect(
                lambda w=self._loader: self._load_finished(w))
            self.win.status_label.setText(self.tr("Loading {0}…").format(path))
            self.win.pool.start(self._loader)
            return
        try:
            res = load_results(path)
        except (OSError, ValueError) as e:
            show_error(self.win, self.tr("Cannot load"), e)
            return
        self._loaded(res)

    def loading(self) -> bool:
        return self._loader is not None

    def _load_finished(self, worker: Worker) -> None:
        if self._loader is worker:  # not a load started since
            self._loader = None

    def _loaded(self, res) -> None:
        self._loader = None  # the results are in: loading is over before anything shows
        self.session.set_loaded(res)
        heap.settle()
        w = self.win
        w.problems_model.set_problems(w.problems)
        w.panel.show_size(self.session.settings.bits, self.session.settings.distance)
        w.regroup()
        w.model.marks_changed(set(self.session.marks))

    def _export(self, fmt: str) -> None:
        path = dialogs.pick_save_file(self.win, self.tr("Export groups"),
                                      f"simdup-groups.{fmt}", f"{fmt.upper()} (*.{fmt})")
        if path:
            self.export_to(path, fmt)

    def export_to(self, path: str, fmt: str) -> bool:
        """Export the groups as ``fmt``; the status bar says where."""
        return self.write(path, fmt)


def _write_job(res, path: str, fmt: str | None, job=None) -> None:
    if fmt is None:
        save_results(res, path)
    else:
        export_results(res, path, fmt)
