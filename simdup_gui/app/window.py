"""The main window: the scan panel, the groups and diffs, problems, the accuracy lab.

The review's state and flow live in a Qt-free :class:`~simdup_gui.core.session.Session`;
the texts in ``core.presenters``. This window wires widgets to them and runs the long
steps on the thread pool.
"""

from __future__ import annotations

import time

# Modules the grouping would otherwise import on its worker thread, mid-run: an import
# holds the GIL through file loading and extension set-up, so the window froze meanwhile
# (numpy.random, first used by index.safe_distance: 14 ms on an idle machine, a 333 ms
# stall of benchmarks/gui_stalls.py's 100,000-file scan when other work loaded both cores).
# Imported here, on the GUI thread before the window shows.
import numpy.random  # noqa: F401
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QScrollArea, QSplitter, QTabWidget

from simdup_gui.core import presenters
from simdup_gui.core.group import lsh  # noqa: F401 - imported up front: see numpy.random above
from simdup_gui.core.models import FileRecord, ProgressEvent
from simdup_gui.core.presenters import engine_text, progress
from simdup_gui.core.presenters.details import comparison_pair
from simdup_gui.core.scan.pipeline import ScanOptions, ScanResult
from simdup_gui.core.session import Session

from . import excerpts_ui, heap, i18n, kept_ui
from . import options as opt
from .desktop import open_path  # noqa: F401 - the window's open_path, as before
from .errors import show_error
from .groups_view import GroupsView
from .recent_ui import LayoutMemory, RecentMenus
from .results_ui import ResultsController
from .scan_panel import ScanPanel
from .shortcuts import MenuShortcuts
from .theme import ThemeWatcher
from .problems_model import ProblemsModel, ProblemsTable
from .tree_models import GroupTreeModel
from .workers import Worker, share_the_interpreter

CONFIRM_CANCEL_AFTER_S = 5.0
REGROUP_IN_WORKER_ABOVE = 500  # files; fewer are grouped at once on the GUI thread
LAB_TAB = 2


class MainWindow(QMainWindow):
    scanFinished = Signal(object)  # the ScanResult
    groupsChanged = Signal()
    keep_view_on_scan = False  # the next scan checks the groups shown: keep the view (kept_ui)

    def __init__(self, roots: list[str] | None = None, bits: int | None = None,
                 distance: int | None = None, language: str | None = None,
                 settings: QSettings | None = None, keep_session: str | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("simdup", "simdup")
        self.prefs = opt.Preferences(self.settings)
        self.session = Session(reference=self.prefs.get(opt.REFERENCE_FOLDERS))
        self.pool = QThreadPool(self)
        self.pool.setObjectName("scan-pool")
        share_the_interpreter()  # the window's thread gets Python's lock back in 1 ms
        self.worker: Worker | None = None
        self._regroup_worker: Worker | None = None
        self._scan_t0 = 0.0
        self._outcome_text = None  # how the last scan ended, as a text in the current language
        self._new_scan = True  # the next groups come from a new scan: no view state to keep
        self._build()
        from .actions_ui import ActionsController

        self.actions = ActionsController(self)
        self.results_ui = ResultsController(self)  # View menu, ignore list, keys, context menu
        self.recent, self.layout_memory = RecentMenus(self), LayoutMemory(self)
        self.theme, self.excerpts_tab = ThemeWatcher(self), excerpts_ui.attach(self)
        self._restore(roots, bits, distance)
        presenters.set_translator(QCoreApplication.translate)
        self.set_language(language or self.prefs.get(opt.LANGUAGE) or i18n.system_language())
        self.kept = kept_ui.SessionKeeper(self, keep_session, restore=not roots)

    # ---------------------------------------------------------------- state
    @property
    def records(self) -> list[FileRecord]:
        return self.session.records

    @records.setter
    def records(self, records: list[FileRecord]) -> None:
        self.session.records = records

    @property
    def problems(self):
        return self.session.problems

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        self.panel = ScanPanel(self.prefs)
        p = self.panel
        self.folders, self.bits_box, self.distance_box = p.folders, p.bits_box, p.distance_box
        self.verify_box, self.threshold_box, self.scan_btn = p.verify_box, p.threshold_box, p.scan_btn
        self.progress_label = p.progress_label
        p.scan_btn.clicked.connect(self.start_scan)
        p.cancel_btn.clicked.connect(self.request_cancel)
        p.settingsChanged.connect(self.regroup)
        self.model = GroupTreeModel(self.session, self, pool=self.pool)
        self.groups_view = GroupsView(self.model)
        g = self.groups_view
        self.tree, self.filter_edit, self.bitdiff, self.textdiff = (g.tree, g.filter_edit,
                                                                   g.bitdiff, g.textdiff)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.problems_model = ProblemsModel(self)
        self.problems_view = ProblemsTable(self.problems_model)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.groups_view, "")
        self.tabs.addTab(self.problems_view, "")
        self.accuracy_tab = self._make_accuracy_tab()
        if self.accuracy_tab is not None:
            scroller = QScrollArea()  # its charts must not force the window wider than a screen
            scroller.setWidget(self.accuracy_tab)
            scroller.setWidgetResizable(True)
            self.tabs.addTab(scroller, "")
        # the scan folders and settings do not apply to the lab, which has its own corpus
        self.tabs.currentChanged.connect(lambda i: p.setVisible(i != LAB_TAB))
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(p)
        main.addWidget(self.tabs)
        main.setStretchFactor(1, 1)
        main.setSizes([300, 1100])
        self.setCentralWidget(main)
        self.status_label = QLabel()
        # a normal (not permanent) widget: a message (saved to, undone, ...) takes its place
        # for a while; beside a stretching permanent label it had no room and was never seen
        self.statusBar().addWidget(self.status_label, 1)
        self.model.marksChanged.connect(self._update_status)
        self._build_menus()
        self.shortcuts = MenuShortcuts(self)

    def _make_accuracy_tab(self):
        try:
            from .accuracy import AccuracyTab
        except ImportError:  # no QtCharts
            return None
        return AccuracyTab(self, pool=self.pool)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        self.file_menu = mb.addMenu("")
        self.act_add = QAction(self, triggered=self.panel.choose_folder)
        self.act_scan = QAction(self, triggered=self.start_scan)
        self.act_scan.setShortcut(QKeySequence("Ctrl+R"))
        self.act_quit = QAction(self, triggered=self.close)
        self.act_quit.setShortcut(QKeySequence.StandardKey.Quit)
        self.file_menu.addActions([self.act_add, self.act_scan])
        self.file_menu.addSeparator()
        self.extra_file_anchor = self.file_menu.addSeparator()
        self.file_menu.addAction(self.act_quit)
        self.lang_menu = mb.addMenu("")
        self.lang_group = QActionGroup(self)
        self.lang_actions = {}
        for code, name in i18n.LANGUAGES.items():
            a = QAction(name, self, checkable=True)
            a.triggered.connect(lambda _c=False, code=code: self.set_language(code))
            self.lang_group.addAction(a)
            self.lang_menu.addAction(a)
            self.lang_actions[code] = a
        self.help_menu = mb.addMenu("")
        self.act_about = QAction(self, triggered=self._about)
        self.help_menu.addAction(self.act_about)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("simdup: near-duplicate text files"))
        self.panel.retranslate()
        self.groups_view.retranslate()
        self.tabs.setTabText(0, self.tr("Duplicates"))
        self.tabs.setTabText(1, self.tr("Problems ({0})").format(len(self.problems)))
        if self.accuracy_tab is not None:
            self.tabs.setTabText(LAB_TAB, self.tr("Accuracy lab"))
            self.accuracy_tab.retranslate()
        self.file_menu.setTitle(self.tr("&File"))
        self.act_add.setText(self.tr("Add folder…"))
        self.act_scan.setText(self.tr("Scan"))
        self.act_quit.setText(self.tr("Quit"))
        self.lang_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.act_about.setText(self.tr("About simdup"))
        self._update_status()
        if hasattr(self, "actions"):
            self.actions.retranslate()
        if hasattr(self, "results_ui"):
            self.results_ui.retranslate()
            self.recent.retranslate()
        if self.worker is None:
            self.progress_label.setText(self._outcome_text() if self._outcome_text
                                        else self.tr("Ready."))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0,
                                          self.model.columnCount() - 1)
        self.groups_view.fit_headers()
        self.problems_model.retranslate()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_language(self, code: str) -> bool:
        """Switch the interface to ``code``; False (English, and a message saying why)
        when its translation cannot be loaded."""
        return i18n.switch_window(self, code)

    # ---------------------------------------------------------------- settings
    def _restore(self, roots, bits, distance) -> None:
        geo = self.prefs.get(opt.GEOMETRY)
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 900)
        self.panel.restore(roots, bits, distance)
        self.layout_memory.restore()
        self._sync_settings()

    def save_settings(self) -> None:
        self.prefs.set(opt.GEOMETRY, self.saveGeometry())
        self.layout_memory.save()
        self.panel.save()
        self.prefs.sync()

    def _sync_settings(self) -> None:
        """The session takes the settings and folders the panel shows."""
        self.session.settings = self.panel.review_settings()
        self.session.roots = self.folders.folders()

    def bits(self) -> int:
        return self.panel.bits()

    def distance(self) -> int:
        return self.panel.distance()

    def scan_options(self) -> ScanOptions:
        return self.panel.review_settings().scan_options()

    # ---------------------------------------------------------------- scanning
    def is_scanning(self) -> bool:
        return self.worker is not None

    def start_scan(self) -> None:
        if self.worker is not None or self.actions.worker is not None or self.actions.loading():
            return
        if not self.folders.folders():
            QMessageBox.information(self, self.tr("Nothing to scan"),
                                    self.tr("Add at least one folder first."))
            return
        problem = self.panel.settings_problem()
        if problem:
            show_error(self, self.tr("Check the settings"), ValueError(problem))
            return
        self.save_settings()
        self._sync_settings()
        # collection paused while the records are made: a full collection over them holds
        # the GIL (and so the window) for 50-130 ms at 100,000 files; frozen after
        self.worker = Worker(heap.building(self.session.scan_request(self.scan_options()).run))
        sig = self.worker.signals
        sig.progress.connect(self._on_progress)
        sig.returned.connect(self._on_scanned)
        sig.errored.connect(self._on_error)
        sig.finished.connect(self._on_worker_finished)
        self._scan_t0 = time.monotonic()
        self.panel.set_running(True, self.tr("Listing files…"))
        self.pool.start(self.worker)

    def request_cancel(self, confirm: bool = True) -> None:
        if self.worker is None:
            return
        long_scan = time.monotonic() - self._scan_t0 > CONFIRM_CANCEL_AFTER_S
        if confirm and long_scan:
            ans = QMessageBox.question(
                self, self.tr("Cancel the scan?"),
                self.tr("The scan has run for a while. Cancel it? The results shown now stay "
                        "as they are; a first scan shows the files fingerprinted so far."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            if ans != QMessageBox.StandardButton.Yes:
                return
        self.progress_label.setText(self.tr("Cancelling…"))
        self.worker.cancel()

    def _on_progress(self, ev: ProgressEvent) -> None:
        view = progress.scan_progress(ev, time.monotonic() - self._scan_t0)
        if view is not None:
            self.panel.show_progress(view)

    def _on_scanned(self, result: ScanResult) -> None:
        if self.session.keeps_previous(result):  # a cancelled re-scan: nothing is lost
            g, m = len(self.session.groups), len(self.session.marks)
            return self._said(result, lambda: progress.scan_cancelled_kept(g, m))
        self.session.set_scan(result)
        heap.settle()
        self.problems_model.set_problems(self.problems)
        self.problems_view.fit_when_shown()
        self.panel.set_file_count(len(self.records))
        self._new_scan, self.keep_view_on_scan = not self.keep_view_on_scan, False
        self.regroup()
        files, cancelled = len(result.records), result.cancelled
        elapsed = time.monotonic() - self._scan_t0
        self._said(result, lambda: progress.scan_finished(files, cancelled, elapsed))

    def _said(self, result: ScanResult, outcome) -> None:
        self._outcome_text = outcome  # (a text in the current language, each time asked)
        self.progress_label.setText(outcome())
        self.scanFinished.emit(result)

    def _on_error(self, error: BaseException) -> None:
        self._outcome_text = lambda: self.tr("The scan failed.")
        self.progress_label.setText(self._outcome_text())
        show_error(self, self.tr("Scan failed"), error)

    def _on_worker_finished(self) -> None:
        self.worker = None
        self.panel.set_running(False)

    # ---------------------------------------------------------------- groups
    def regroup(self) -> None:
        """Group the fingerprints already computed at the current settings.

        Small collections are grouped at once; large ones on the pool, so the window
        stays responsive (a change made meanwhile is grouped right after), the files of
        their doubtful pairs read on as many processes as a scan's (the grouping after a
        cold scan of the 768 MB tree, gui_stalls.py ABBA: 45.4, 48.4 -> 39.3, 40.6 s).
        """
        self._sync_settings()
        if len(self.records) < REGROUP_IN_WORKER_ABOVE:
            QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self.session.regroup()
            finally:
                QGuiApplication.restoreOverrideCursor()
            self._show_groups()
            return
        request = self.session.begin_regroup(self.scan_options().worker_count())
        if request is None:
            return  # one is running; the session runs this change after it
        worker = Worker(heap.building(request.run))
        t0 = time.monotonic()
        worker.signals.progress.connect(lambda ev: self._on_group_progress(ev, t0))
        worker.signals.returned.connect(self._regrouped)
        worker.signals.errored.connect(lambda e: (self._regrouped(None), self._on_error(e)))
        self._regroup_worker = worker
        self.status_label.setText(self.tr("Grouping {0} files…").format(len(self.records)))
        self.pool.start(worker)

    def _on_group_progress(self, ev: ProgressEvent, t0: float) -> None:
        text = progress.group_progress(ev, time.monotonic() - t0)
        if text:
            self.status_label.setText(text)

    def _regrouped(self, result) -> None:
        self._regroup_worker = None
        kept, again = self.session.end_regroup(result)
        if kept:
            self._show_groups()
        if again:
            self.regroup()

    def _show_groups(self) -> None:
        s = self.session
        state = None if self._new_scan else self.groups_view.view_state()
        self._new_scan = False
        count = len(s.groups)

        def shown() -> None:  # once the tree shows them (its rows may be built on the pool)
            self.groups_view.shown_groups_changed(count, state)
            self.tabs.setTabText(1, self.tr("Problems ({0})").format(len(self.problems)))
            self._update_status()
            self.groupsChanged.emit()

        self.model.set_data(s.records, s.groups, s.group_bits, then=shown)

    def _update_status(self) -> None:
        self.status_label.setText(progress.status_line(self.session))

    def _current_changed(self, current, _previous) -> None:
        if not current.isValid():
            return
        i, j = comparison_pair(self.model.group_at(current), self.groups_view.record_at(current))
        self.compare(i, j)

    def compare(self, i: int, j: int) -> None:
        self.groups_view.compare(self.records, i, j, self.bits(), self.distance())

    def _about(self) -> None:
        QMessageBox.about(self, self.tr("About simdup"), self.tr(
            "simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, "
            "re-wrapped or lightly edited copies that byte-hash tools miss.\n\nIndex: {0}").format(
                engine_text.index_plan(self.session.index_plan) or "-"))

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if self.worker is not None:
            self.worker.cancel()
        self.pool.waitForDone(3000)
        self.save_settings()
        super().closeEvent(event)
