"""Catalogs in the app (issue 41, part 2): File > Save catalog… and Compare with catalog…,
the keep rule that keeps the catalogued copy, and the question before the last copy here
of a file goes on a catalog's word (the engine: core/review/catalog.py)."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from simdup_gui.core.act.marking import last_copies
from simdup_gui.core.review.catalog import SUFFIX, read_catalog

from . import dialogs, heap
from .errors import show_error
from .workers import Worker

REMOVING = ("move", "trash")  # what can let a file go on a catalog's word (never a delete:
# the last copy here is never gone for good on an untrusted file's word)


class CatalogController(QObject):
    """Adds the catalog entries to the File and Mark menus of the window ``win``."""

    def __init__(self, win, actions) -> None:
        super().__init__(win)
        self.win, self.actions, self.session = win, actions, win.session
        self.worker: Worker | None = None
        self.act_save = QAction(win, triggered=self._save)
        self.act_compare = QAction(win, triggered=self._compare)
        self.act_forget = QAction(win, triggered=self.forget)
        for a in (self.act_save, self.act_compare, self.act_forget):
            win.file_menu.insertAction(win.extra_file_anchor, a)
        self.act_keep = QAction(win, triggered=lambda: actions.mark_all_but_one("catalog"))
        self.act_last = QAction(win, triggered=self.mark_last_copies)
        actions.keep_menu.addSeparator()
        actions.keep_menu.addActions([self.act_keep, self.act_last])
        win.file_menu.aboutToShow.connect(self._enable)

    def retranslate(self) -> None:
        self.act_save.setText(self.tr("Save catalog…"))
        self.act_save.setToolTip(self.tr(
            "Keep what the scan knows of every file (not the texts), to compare with it while "
            "this drive is not plugged in"))
        self.act_compare.setText(self.tr("Compare with catalog…"))
        self.act_forget.setText(self.tr("Stop comparing with catalogs"))
        self.act_keep.setText(self.tr("copy in a catalog (mark the copies here but one)"))
        self.act_last.setText(self.tr("copy in a catalog, and mark the last copy here too…"))

    def _enable(self) -> None:
        here = any(not r.catalog for r in self.session.records)
        self.act_save.setEnabled(here and self.worker is None)
        self.act_forget.setEnabled(bool(self.session.catalogs))

    # ------------------------------------------------------------ saving
    def _save(self) -> None:
        path = dialogs.pick_save_file(self.win, self.tr("Save catalog"), "drive" + SUFFIX,
                                      self.tr("Catalogs (*{0})").format(SUFFIX))
        if path:
            self.save_to(path if path.endswith(SUFFIX) else path + SUFFIX)

    def save_to(self, path: str) -> bool:
        """Write the scanned files' catalog on the pool; the status bar says where."""
        if self.worker is not None:
            return False
        self.win._sync_settings()
        self.worker = w = Worker(heap.building(_save_job), self.session, os.path.abspath(path))
        w.signals.returned.connect(lambda n, p=path: self.win.statusBar().showMessage(
            self.tr("Catalogued {0} files in {1}").format(n, p), 30000))
        w.signals.errored.connect(lambda e, p=path: show_error(
            self.win, self.tr("Cannot save the catalog"), e, about=p))
        w.signals.finished.connect(self._finished)
        self.win.pool.start(w)
        return True

    def _finished(self) -> None:
        self.worker = None

    # ------------------------------------------------------------ comparing
    def _compare(self) -> None:
        path = dialogs.pick_open_file(self.win, self.tr("Compare with catalog"), "",
                                      self.tr("Catalogs (*{0})").format(SUFFIX))
        if path:
            self.compare_with(path)

    def compare_with(self, path: str) -> bool:
        """Read the catalog on the pool, then group its files with the files here."""
        if self.worker is not None:
            return False
        taken = [c.name for c in self.session.catalogs]
        self.worker = w = Worker(heap.building(_read_job), path, taken)
        w.signals.returned.connect(self._read)
        w.signals.errored.connect(lambda e: show_error(
            self.win, self.tr("Cannot compare with the catalog"), e))
        w.signals.finished.connect(self._finished)
        self.win.status_label.setText(self.tr("Reading the catalog {0}…").format(path))
        self.win.pool.start(w)
        return True

    def _read(self, cat) -> None:
        try:
            info = self.session.add_catalog(cat)
        except ValueError as e:  # another fingerprint setting
            show_error(self.win, self.tr("Cannot compare with the catalog"), e)
            return
        say = self.tr("Comparing with the catalog {0}: {1} files of a drive that is not "
                      "connected").format(info.name, info.files)
        self.win.statusBar().showMessage(say, 30000)
        if any(not r.catalog for r in self.session.records):
            self.win.regroup()
        elif self.win.folders.folders():
            self.win.start_scan()

    def forget(self) -> None:
        self.session.forget_catalogs()
        self.win.regroup()

    # ------------------------------------------------------------ the last copies
    def mark_last_copies(self) -> bool:
        """The catalog rule that also marks the last copy here of a file whose bytes a
        catalog has: only after a question that says what that means."""
        self.win._sync_settings()
        res = self.session.results()
        marks = self.session.keep_marks("catalog", last_copy=True)(res)
        last = last_copies(res, marks)
        if last and not dialogs.confirm(
                self.win, self.tr("Mark the last copies?"),
                self.tr("{0} of the files to mark are the last copy on this computer: only "
                        "a catalog says that a copy with the same bytes is on a drive that is "
                        "not connected, and simdup cannot check that it still is. An action "
                        "on them removes the last copy here.\n\nMark them too?").format(
                            len(last)),
                self.tr("Mark the last copies too")):
            return False
        self.actions._marked(self.session.set_marks(marks))
        return True

    def let_go(self, action: str) -> bool | None:
        """Before ``action`` on the marks: when some marked files keep no copy here but one
        a catalog names, ask whether they may go on its word (True), else cancel (None);
        False when no such file is marked."""
        if action not in REMOVING:
            return False
        last = last_copies(self.session.results(), self.session.grouped_marks())
        if not last:
            return False
        names = ", ".join(c.name for c in self.session.catalogs)
        if dialogs.confirm(
                self.win, self.tr("The last copy here"),
                self.tr("{0} marked files have no other copy on this computer. Only the catalog "
                        "{1} says that a copy with the same bytes is on a drive that is not "
                        "connected; simdup cannot check that it still is.\n\nLet them go on the "
                        "catalog's word?").format(len(last), names),
                self.tr("Let them go")):
            return True
        return None


def _save_job(session, path: str, job=None) -> int:
    return session.save_catalog(path)


def _read_job(path: str, taken: list[str], job=None):
    return read_catalog(path, taken)
