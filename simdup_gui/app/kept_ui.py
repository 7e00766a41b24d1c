"""The session kept across runs (issue 38, item 2): kept in the user data folder when the
window closes, shown again when the app starts (folders, settings, groups, marks, files
removed from the results, selection) and then checked against the disk by a warm rescan
(the fingerprint cache makes it quick): files gone or changed since leave the groups as
they are now, lose their marks, and the status bar says how many.

Closing with marks that were not acted on or saved asks first (Save and quit, Quit without
saving, Cancel). The file, its checks and the comparison are the core's
(:mod:`simdup_gui.core.review.kept`); a damaged file gives a one-line note and an empty
window. A window made without a ``path`` (the tests' windows) keeps nothing and asks nothing.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication

from simdup_gui.core.act.actions import ActionReport
from simdup_gui.core.act.trust import results_file_problem
from simdup_gui.core.models import FileRecord
from simdup_gui.core.presenters.i18n import files
from simdup_gui.core.review import kept
from simdup_gui.core.review.export import load_results
from simdup_gui.core.review.process_load import load_results_in_process

from . import dialogs, heap
from .errors import first_line, show_error
from .files_ui import LOAD_IN_WORKER_ABOVE
from .groups_view import ViewState
from .workers import Worker

NOTE_MS = 60_000  # how long a note stays in the status bar


class SessionKeeper(QObject):
    """Restores the session kept in ``path`` (with ``restore``: folders given on the
    command line win over it) and keeps it when the window closes (:meth:`may_close`, which
    can veto the close); ``path`` None: neither."""

    def __init__(self, win, path: str | None, restore: bool = True) -> None:
        super().__init__(win)
        self.win, self.path = win, path
        self._loader: Worker | None = None  # a large session being read
        self._view: kept.KeptView | None = None  # to show once the restored groups are
        self._before: list[FileRecord] | None = None  # the restored files, until checked
        win.scanFinished.connect(self._checked)
        win.actions.actionFinished.connect(self._acted)
        win.installEventFilter(self)  # the close: asked here before the window's closeEvent
        if restore:
            self.restore()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.win and event.type() == QEvent.Type.Close and not self.may_close():
            event.ignore()  # Cancel: the window stays
            return True
        return False

    # ------------------------------------------------------------ start
    def restore(self) -> bool:
        """Show the kept session and check it against the disk; False when there is none
        or it cannot be used (a note then says why, and the window stays empty)."""
        path = self.path
        if not path or not os.path.exists(path):
            return False
        why = results_file_problem(path)
        if why is not None:
            return self._damaged(ValueError(why))
        try:
            big = os.path.getsize(path) > LOAD_IN_WORKER_ABOVE
        except OSError:
            big = False
        if big:  # read and checked in a child process: the window stays usable
            self._loader = w = Worker(heap.building(load_results_in_process), path)
            w.signals.returned.connect(self._loaded)
            w.signals.errored.connect(self._damaged)
            w.signals.finished.connect(lambda: setattr(self, "_loader", None))
            self.win.statusBar().showMessage(self.tr("Restoring the last session…"))
            self.win.pool.start(w)
            return True
        try:
            res = load_results(path)
        except (OSError, ValueError) as e:
            return self._damaged(e)
        return self._loaded(res)

    def restoring(self) -> bool:
        return self._loader is not None

    def _damaged(self, error: BaseException) -> bool:
        note = self.tr("The last session could not be restored ({0}): {1}").format(
            self.path, first_line(error))
        print(f"simdup-gui: {note}", file=sys.stderr, flush=True)
        self.win.statusBar().showMessage(note, NOTE_MS)
        return False

    def _loaded(self, res) -> bool:
        w, s = self.win, self.win.session
        if s.records or w.is_scanning():  # the user scanned or loaded meanwhile: theirs wins
            return False
        try:
            res, view = kept.split(res)
        except ValueError as e:
            return self._damaged(e)
        s.removed = set(view.removed)
        s.set_loaded(res, keep_groups=True)
        w.folders.clear()
        for root in s.scanned_roots():
            w.folders.add_folder(root)
        if not w.panel.run_only:  # --bits or --distance given: they win for this run
            w.panel.show_size(s.settings.bits, s.settings.distance)
        w.panel.set_file_count(len(s.records))
        w.problems_model.set_problems(w.problems)
        self._view, self._before = view, list(s.records)
        w.groupsChanged.connect(self._shown)
        w._new_scan = True  # (the restored view is put back by _shown)
        w._show_groups()
        return True

    def _shown(self) -> None:
        """The restored groups are shown: select what was selected, then rescan."""
        w, view = self.win, self._view
        w.groupsChanged.disconnect(self._shown)
        shown = set(w.model.positions.of_path)
        expanded = set(view.expanded) & shown
        w.groups_view.restore_state(ViewState(expanded, shown - expanded, set(view.selected),
                                              view.current, view.all_expanded))
        w.model.marks_changed(set(w.session.marks))
        w.statusBar().showMessage(self.tr("Restored the last session: {0} in groups; checking "
                                          "them against the disk…").format(
                                              files(w.session.file_count())), NOTE_MS)
        if w.folders.folders():
            w.keep_view_on_scan = True
            w.start_scan()
        else:
            self._before = None

    def _checked(self, result) -> None:
        """The warm rescan ended: drop the marks of files gone or changed, and say so."""
        before, self._before = self._before, None
        if before is None:
            return
        w, s = self.win, self.win.session
        if result.cancelled:
            w.statusBar().showMessage(self.tr(
                "The check of the restored session was cancelled: files changed since the last "
                "session may still be shown. Scan again to check them."), NOTE_MS)
            return
        gone, changed = kept.changed_since(before, s.records)
        dropped = set(gone) | set(changed)
        s.saved_marks -= dropped
        w.model.marks_changed(s.set_marks(s.marks - dropped))
        if not dropped:
            text = self.tr("Restored the last session and checked it against the disk: "
                           "nothing changed since.")
        else:
            text = self.tr("Restored the last session and checked it against the disk: {0} "
                           "gone and {1} changed since: the groups now show the files as they "
                           "are, and those files lost their marks.").format(
                               files(len(gone)), files(len(changed)))
        w.statusBar().showMessage(text, NOTE_MS)

    def _acted(self, report) -> None:
        s = self.win.session
        if isinstance(report, ActionReport) and not report.dry_run:
            s.saved_marks = set(s.marks)  # acted on: nothing to ask about at quit

    # ------------------------------------------------------------ quit
    def may_close(self) -> bool:
        """Keep the session for the next start, first asking when marks were not acted on
        or saved; False: the user chose Cancel (or saving failed), the window stays."""
        if not self.path or self.restoring():
            return True  # (a session still being read is left as it is)
        n = self.win.session.unsaved_marks()
        if n:
            answer = dialogs.choose(
                self.win, self.tr("Quit simdup?"),
                self.tr("Marks on {0} were not acted on or saved. Save this session with its "
                        "marks, to see it again at the next start?").format(files(n)),
                [self.tr("Save and quit"), self.tr("Quit without saving")])
            if answer is None:
                return False
            if answer == 1:
                self.forget()
                return True
        return self.keep(asked=bool(n))

    def keep(self, asked: bool = False) -> bool:
        """Write the session (none: forget the kept one). A failure is shown when the user
        asked to save (False: the window stays open), else printed (True)."""
        w, s = self.win, self.win.session
        if not s.records:
            self.forget()
            return True
        w._sync_settings()
        st = w.groups_view.view_state()
        view = kept.KeptView(sorted(s.removed), sorted(st.selected), st.current,
                             [] if st.all_expanded else sorted(st.expanded), st.all_expanded)
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            kept.save(s.results(), view, self.path)
        except OSError as e:
            if asked:
                show_error(w, self.tr("Cannot save the session"), e, about=self.path)
                return False
            print(f"simdup-gui: cannot keep the session in {self.path}: {first_line(e)}",
                  file=sys.stderr, flush=True)
        finally:
            QGuiApplication.restoreOverrideCursor()
        return True

    def forget(self) -> None:
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass
        except OSError as e:
            print(f"simdup-gui: cannot remove {self.path}: {first_line(e)}", file=sys.stderr)
