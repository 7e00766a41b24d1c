"""The main window: folders and settings, scan with progress, groups, diffs, problems."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from PySide6.QtCore import QEvent, QSettings, Qt, QThreadPool, QUrl, Signal
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QListWidget, QMainWindow, QMenu, QMessageBox, QProgressBar,
                               QPushButton, QScrollArea, QSpinBox, QSplitter, QTableView, QTabWidget,
                               QTreeView, QVBoxLayout, QWidget)

from simdup_gui.core.review.bitdiff import bit_diff
from simdup_gui.core.group.cluster import GROUPING_MODES, group_records
from simdup_gui.core.scan.features import DEFAULT_MODE, FEATURE_MODES
from simdup_gui.core.scan.fingerprint import FeatureSettings
from simdup_gui.core.models import ALLOWED_BITS, FileRecord, ProgressEvent
from simdup_gui.core.scan.pipeline import ScanOptions, ScanResult, scan
from simdup_gui.core.defaults import DEFAULT_BITS, DEFAULT_DISTANCE, DEFAULT_VERIFY
from simdup_gui.core.textsim import DEFAULT_SIMILARITY
from simdup_gui.core.scan.walk import WalkOptions

from . import i18n
from .bitgrid import BitDiffView
from .tree_models import RECORD_ROLE, GroupTreeModel, ProblemsModel, human_size
from .textdiffview import TextDiffView
from .workers import Worker

CONFIRM_CANCEL_AFTER_S = 5.0
REGROUP_IN_WORKER_ABOVE = 20_000  # files; fewer are grouped at once on the GUI thread


class FolderList(QListWidget):
    """Folders to scan; accepts folders dropped from the file manager."""

    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)

    def folders(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def add_folder(self, path: str) -> bool:
        path = os.path.abspath(path)
        if path in self.folders():
            return False
        self.addItem(path)
        self.changed.emit()
        return True

    def remove_selected(self) -> None:
        for item in self.selectedItems():
            self.takeItem(self.row(item))
        self.changed.emit()

    def dragEnterEvent(self, e) -> None:
        if e.mimeData().hasUrls():
            e.acceptProposedAction()
        else:
            super().dragEnterEvent(e)

    def dragMoveEvent(self, e) -> None:
        if e.mimeData().hasUrls():
            e.acceptProposedAction()
        else:
            super().dragMoveEvent(e)

    def dropEvent(self, e) -> None:
        if not e.mimeData().hasUrls():
            return super().dropEvent(e)
        for url in e.mimeData().urls():
            p = url.toLocalFile()
            if p and os.path.exists(p):
                self.add_folder(p)
        e.acceptProposedAction()


def _run_scan(job, roots: list[str], options: ScanOptions) -> ScanResult:
    return scan(roots, options, job)


def _run_grouping(job, records, bits: int, distance: int, mode: str, verify: str,
                  similarity: float):
    return group_records(records, bits, distance, mode, verify=verify, similarity=similarity)


class MainWindow(QMainWindow):
    scanFinished = Signal(object)  # the ScanResult
    groupsChanged = Signal()

    def __init__(self, roots: list[str] | None = None, bits: int | None = None,
                 distance: int | None = None, language: str | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("simdup", "simdup")
        self.pool = QThreadPool(self)
        self.pool.setObjectName("scan-pool")
        self.worker: Worker | None = None
        self.records: list[FileRecord] = []
        self.problems = []
        self.stats: dict = {}
        self.index_plan = ""
        self._scan_t0 = 0.0
        self._regroup_count = 0
        self._regroup_worker: Worker | None = None
        self._regroup_pending = False
        self._build()
        from .actions_ui import ActionsController

        self.actions = ActionsController(self)
        self._restore(roots, bits, distance)
        lang = language or self.settings.value("language", "") or i18n.system_language()
        self.set_language(lang)

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        self.folders = FolderList()
        self.add_btn = QPushButton()
        self.add_btn.clicked.connect(self.choose_folder)
        self.remove_btn = QPushButton()
        self.remove_btn.clicked.connect(self.folders.remove_selected)
        self.bits_box = QComboBox()
        for b in ALLOWED_BITS:
            self.bits_box.addItem(str(b), b)
        self.distance_box = QSpinBox()
        self.distance_box.setRange(0, 64)
        self.similarity_label = QLabel()
        self.mode_box = QComboBox()
        for m in FEATURE_MODES:
            self.mode_box.addItem(m, m)
        self.grouping_box = QComboBox()
        for m in GROUPING_MODES:
            self.grouping_box.addItem(m, m)
        self.verify_box = QComboBox()
        self.verify_box.addItem("", "sketch")
        self.verify_box.addItem("", "none")
        self.threshold_box = QSpinBox()
        self.threshold_box.setRange(30, 100)
        self.threshold_box.setSuffix(" %")
        self.include_edit = QLineEdit()
        self.exclude_edit = QLineEdit()
        self.min_size = QSpinBox()
        self.min_size.setRange(1, 1 << 30)
        self.min_size.setSuffix(" B")
        self.scan_btn = QPushButton()
        self.scan_btn.setDefault(True)
        self.scan_btn.clicked.connect(self.start_scan)
        self.cancel_btn = QPushButton()
        self.cancel_btn.setEnabled(False)
        self.cancel_btn.clicked.connect(self.request_cancel)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)

        self.folders_box = QGroupBox()
        fl = QVBoxLayout(self.folders_box)
        fl.addWidget(self.folders)
        row = QHBoxLayout()
        row.addWidget(self.add_btn)
        row.addWidget(self.remove_btn)
        fl.addLayout(row)
        self.settings_box = QGroupBox()
        self.form = QFormLayout(self.settings_box)
        self.form_labels = [QLabel() for _ in range(10)]
        for label, w in zip(self.form_labels, (self.threshold_box, self.verify_box,
                                               self.bits_box, self.distance_box,
                                               self.similarity_label, self.mode_box,
                                               self.grouping_box, self.include_edit,
                                               self.exclude_edit, self.min_size)):
            self.form.addRow(label, w)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.addWidget(self.folders_box, 1)
        ll.addWidget(self.settings_box)
        row2 = QHBoxLayout()
        row2.addWidget(self.scan_btn)
        row2.addWidget(self.cancel_btn)
        ll.addLayout(row2)
        ll.addWidget(self.progress)
        ll.addWidget(self.progress_label)

        # groups tab
        self.model = GroupTreeModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setSortingEnabled(True)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.doubleClicked.connect(self._open_index)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.header().setStretchLastSection(False)
        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._filter)
        self.expand_btn = QPushButton()
        self.expand_btn.clicked.connect(self.tree.expandAll)
        self.collapse_btn = QPushButton()
        self.collapse_btn.clicked.connect(self.tree.collapseAll)
        self.bitdiff = BitDiffView()
        self.textdiff = TextDiffView()
        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.expand_btn)
        top.addWidget(self.collapse_btn)
        self.groups_toolbar = top
        tree_side = QWidget()
        tl = QVBoxLayout(tree_side)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(top)
        tl.addWidget(self.tree)
        diff_split = QSplitter(Qt.Orientation.Horizontal)
        diff_split.addWidget(self.bitdiff)
        diff_split.addWidget(self.textdiff)
        diff_split.setStretchFactor(1, 2)
        vsplit = QSplitter(Qt.Orientation.Vertical)
        vsplit.addWidget(tree_side)
        vsplit.addWidget(diff_split)
        vsplit.setStretchFactor(0, 3)
        vsplit.setStretchFactor(1, 2)
        self.problems_model = ProblemsModel(self)
        self.problems_view = QTableView()
        self.problems_view.setModel(self.problems_model)
        self.problems_view.horizontalHeader().setStretchLastSection(True)
        self.problems_view.setSortingEnabled(False)
        self.problems_view.verticalHeader().hide()
        self.tabs = QTabWidget()
        self.tabs.addTab(vsplit, "")
        self.tabs.addTab(self.problems_view, "")
        self.accuracy_tab = self._make_accuracy_tab()
        if self.accuracy_tab is not None:
            scroller = QScrollArea()  # its charts must not force the window wider than a screen
            scroller.setWidget(self.accuracy_tab)
            scroller.setWidgetResizable(True)
            self.tabs.addTab(scroller, "")
        main = QSplitter(Qt.Orientation.Horizontal)
        self.left_panel = left
        # the scan folders and settings do not apply to the Accuracy lab, which has its own corpus
        self.tabs.currentChanged.connect(lambda i: left.setVisible(i != 2))
        main.addWidget(left)
        main.addWidget(self.tabs)
        main.setStretchFactor(1, 1)
        main.setSizes([300, 1100])
        self.setCentralWidget(main)
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label, 1)

        self.bits_box.currentIndexChanged.connect(self._bits_changed)
        self.distance_box.valueChanged.connect(self._distance_changed)
        self.grouping_box.currentIndexChanged.connect(lambda _i: self.regroup())
        self.verify_box.currentIndexChanged.connect(self._verify_changed)
        self.threshold_box.valueChanged.connect(lambda _v: self.regroup())
        self.model.marksChanged.connect(self._update_status)
        self._build_menus()

    def _make_accuracy_tab(self):
        try:
            from .accuracy import AccuracyTab
        except ImportError:
            return None
        return AccuracyTab(self, pool=self.pool)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        self.file_menu = mb.addMenu("")
        self.act_add = QAction(self, triggered=self.choose_folder)
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
        self.folders_box.setTitle(self.tr("Folders to scan (drop folders here)"))
        self.add_btn.setText(self.tr("Add folder…"))
        self.remove_btn.setText(self.tr("Remove"))
        self.settings_box.setTitle(self.tr("Settings"))
        labels = [self.tr("Text similarity at least"), self.tr("Verify"),
                  self.tr("Fingerprint size (bits)"), self.tr("Candidate distance k"),
                  "", self.tr("Features"), self.tr("Grouping"),
                  self.tr("Include patterns"), self.tr("Exclude patterns"),
                  self.tr("Minimum size")]
        for label, text in zip(self.form_labels, labels):
            label.setText(text)
        self.include_edit.setPlaceholderText(self.tr("e.g. *.txt *.md (empty: all text files)"))
        self.exclude_edit.setPlaceholderText(self.tr("e.g. *.log build"))
        self.mode_box.setToolTip(self.tr("shingles: words and word pairs, TF-IDF weighted "
                                         "(best measured accuracy); tokens: words only; "
                                         "topk: the seeds' top-K keywords"))
        self.grouping_box.setToolTip(self.tr("With SimHash only: linked joins files by any "
                                             "chain of near pairs; strict keeps every pair "
                                             "in a group within k"))
        self.verify_box.setItemText(0, self.tr("text similarity (recommended)"))
        self.verify_box.setItemText(1, self.tr("SimHash only (for comparison)"))
        self.verify_box.setToolTip(self.tr(
            "The fingerprint size and distance k only propose candidate pairs. With text "
            "similarity, each candidate is checked: a file joins a group when its text "
            "(5-gram Jaccard of the normalised text) is at least the threshold similar to "
            "the group's reference (★). SimHash only groups by fingerprint distance alone."))
        self.threshold_box.setToolTip(self.verify_box.toolTip())
        self.scan_btn.setText(self.tr("Scan"))
        self.cancel_btn.setText(self.tr("Cancel"))
        self.filter_edit.setPlaceholderText(self.tr("Filter by name or folder"))
        self.expand_btn.setText(self.tr("Expand all"))
        self.collapse_btn.setText(self.tr("Collapse all"))
        self.tabs.setTabText(0, self.tr("Duplicates"))
        self.tabs.setTabText(1, self.tr("Problems ({0})").format(len(self.problems)))
        if self.accuracy_tab is not None:
            self.tabs.setTabText(2, self.tr("Accuracy lab"))
        self.file_menu.setTitle(self.tr("&File"))
        self.act_add.setText(self.tr("Add folder…"))
        self.act_scan.setText(self.tr("Scan"))
        self.act_quit.setText(self.tr("Quit"))
        self.lang_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.act_about.setText(self.tr("About simdup"))
        self._update_similarity()
        self._update_status()
        self.textdiff.retranslate()
        if hasattr(self, "actions"):
            self.actions.retranslate()
        if self.accuracy_tab is not None:
            self.accuracy_tab.retranslate()
        self.bitdiff.set_diff(self.bitdiff.diff, *getattr(self, "_diff_names", ("", "")))
        if not self.progress_label.text() or self.worker is None:
            self.progress_label.setText(self.tr("Ready."))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_language(self, code: str) -> None:
        if code not in i18n.LANGUAGES:
            code = "en"
        i18n.set_language(code)
        self.language = code
        self.lang_actions[code].setChecked(True)
        self.settings.setValue("language", code)
        self.retranslate()
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 6)
        self.problems_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)

    # ---------------------------------------------------------------- settings
    def _restore(self, roots, bits, distance) -> None:
        s = self.settings
        geo = s.value("geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 900)
        saved = s.value("folders", []) or []
        if isinstance(saved, str):
            saved = [saved]
        for f in (roots or saved):
            self.folders.add_folder(f)
        b = bits or int(s.value("bits", DEFAULT_BITS))
        self.bits_box.setCurrentIndex(ALLOWED_BITS.index(b if b in ALLOWED_BITS else 64))
        self.distance_box.setMaximum(b)
        k = distance if distance is not None else int(s.value(f"distance/{b}",
                                                              DEFAULT_DISTANCE[b]))
        self.distance_box.setValue(k)
        self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(s.value("mode", DEFAULT_MODE))))
        self.grouping_box.setCurrentIndex(max(0, self.grouping_box.findData(
            s.value("grouping", "linked"))))
        self.verify_box.setCurrentIndex(max(0, self.verify_box.findData(
            s.value("verify", DEFAULT_VERIFY))))
        try:
            pct = int(s.value("similarity_percent", round(100 * DEFAULT_SIMILARITY)))
        except (TypeError, ValueError):
            pct = round(100 * DEFAULT_SIMILARITY)
        self.threshold_box.setValue(pct)
        verified = self.verify_box.currentData() != "none"
        self.threshold_box.setEnabled(verified)
        self.grouping_box.setEnabled(not verified)
        self.include_edit.setText(s.value("include", ""))
        self.exclude_edit.setText(s.value("exclude", ""))
        self.min_size.setValue(int(s.value("min_size", 1)))

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("geometry", self.saveGeometry())
        s.setValue("folders", self.folders.folders())
        s.setValue("bits", self.bits())
        s.setValue(f"distance/{self.bits()}", self.distance())
        s.setValue("mode", self.mode_box.currentData())
        s.setValue("grouping", self.grouping_box.currentData())
        s.setValue("verify", self.verify_box.currentData())
        s.setValue("similarity_percent", self.threshold_box.value())
        s.setValue("include", self.include_edit.text())
        s.setValue("exclude", self.exclude_edit.text())
        s.setValue("min_size", self.min_size.value())
        s.sync()

    def bits(self) -> int:
        return int(self.bits_box.currentData())

    def distance(self) -> int:
        return self.distance_box.value()

    def _bits_changed(self, _i) -> None:
        b = self.bits()
        self.distance_box.blockSignals(True)
        self.distance_box.setMaximum(b)
        self.distance_box.setValue(int(self.settings.value(f"distance/{b}", DEFAULT_DISTANCE[b])))
        self.distance_box.blockSignals(False)
        self._update_similarity()
        self.regroup()

    def _distance_changed(self, _v) -> None:
        self.settings.setValue(f"distance/{self.bits()}", self.distance())
        self._update_similarity()
        self.regroup()

    def _verify_changed(self, _i) -> None:
        verified = self.verify_box.currentData() != "none"
        self.threshold_box.setEnabled(verified)
        self.grouping_box.setEnabled(not verified)
        self._update_similarity()
        self.regroup()

    def _update_similarity(self) -> None:
        b, k = self.bits(), self.distance()
        if self.verify_box.currentData() == "none":
            text = self.tr("k={0} of {1} bits: files within k are grouped, unchecked")
        else:
            text = self.tr("k={0} of {1} bits proposes candidates; their text decides")
        self.similarity_label.setText(text.format(k, b))

    def scan_options(self) -> ScanOptions:
        inc = tuple(self.include_edit.text().split())
        exc = tuple(self.exclude_edit.text().split())
        return ScanOptions(walk=WalkOptions(include=inc, exclude=exc,
                                            min_size=self.min_size.value()),
                           features=FeatureSettings(self.mode_box.currentData()))

    # ---------------------------------------------------------------- scanning
    def choose_folder(self) -> None:
        d = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to scan"))
        if d:
            self.folders.add_folder(d)

    def is_scanning(self) -> bool:
        return self.worker is not None

    def start_scan(self) -> None:
        if self.worker is not None or self.actions.worker is not None:
            return
        roots = self.folders.folders()
        if not roots:
            QMessageBox.information(self, self.tr("Nothing to scan"),
                                    self.tr("Add at least one folder first."))
            return
        self.save_settings()
        opts = self.scan_options()
        self.worker = Worker(_run_scan, roots, opts)
        sig = self.worker.signals
        sig.progress.connect(self._on_progress)
        sig.returned.connect(self._on_scanned)
        sig.errored.connect(self._on_error)
        sig.finished.connect(self._on_worker_finished)
        self._scan_t0 = time.monotonic()
        self.scan_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        self.progress.setRange(0, 0)
        self.progress_label.setText(self.tr("Listing files…"))
        self.pool.start(self.worker)

    def request_cancel(self, confirm: bool = True) -> None:
        if self.worker is None:
            return
        long_scan = time.monotonic() - self._scan_t0 > CONFIRM_CANCEL_AFTER_S
        if confirm and long_scan:
            ans = QMessageBox.question(
                self, self.tr("Cancel the scan?"),
                self.tr("The scan has run for a while. Cancel it? Files fingerprinted so far "
                        "are kept and grouped."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            if ans != QMessageBox.StandardButton.Yes:
                return
        self.progress_label.setText(self.tr("Cancelling…"))
        self.worker.cancel()

    def _on_progress(self, ev: ProgressEvent) -> None:
        elapsed = time.monotonic() - self._scan_t0
        if ev.phase == "walk":
            self.progress.setRange(0, 0)
            self.progress_label.setText(self.tr("Listing files: {0} found\n{1}").format(
                ev.files_done, ev.current))
            return
        if ev.phase != "fingerprint":
            return
        self.progress.setRange(0, max(1, ev.files_total))
        self.progress.setValue(ev.files_done)
        self.progress.setFormat(f"{ev.files_done} / {ev.files_total}")
        mbs = ev.bytes_done / 1e6 / max(elapsed, 1e-3)
        left = ((ev.bytes_total - ev.bytes_done) / (ev.bytes_done / elapsed)
                if ev.bytes_done and elapsed > 0 else 0)
        self.progress_label.setText(self.tr(
            "{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}\n{5}").format(
                ev.files_done, ev.files_total, mbs, _clock(elapsed), _clock(left), ev.current))

    def _on_scanned(self, result: ScanResult) -> None:
        self.records = result.records
        self.problems = result.problems
        self.stats = result.stats
        self.problems_model.set_problems(self.problems)
        self.problems_view.resizeColumnsToContents()
        self.regroup()
        elapsed = time.monotonic() - self._scan_t0
        msg = (self.tr("Cancelled: {0} files fingerprinted before the cancel are kept.")
               if result.cancelled else self.tr("Scanned {0} files in {1}."))
        self.progress_label.setText(msg.format(len(self.records), _clock(elapsed)))
        self.scanFinished.emit(result)

    def _on_error(self, text: str) -> None:
        self.progress_label.setText(self.tr("The scan failed."))
        QMessageBox.critical(self, self.tr("Scan failed"), text)

    def _on_worker_finished(self) -> None:
        self.worker = None
        self.scan_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.progress.setFormat("")

    # ---------------------------------------------------------------- groups
    def regroup(self) -> None:
        """Group the fingerprints already computed at the current size and distance.

        Small collections are grouped at once; large ones on the pool, so the window
        stays responsive (a change made meanwhile is grouped right after).
        """
        if not self.records:
            self.model.set_data([], [], self.bits())
            self._update_status()
            return
        args = (self.records, self.bits(), self.distance(), self.grouping_box.currentData(),
                self.verify_box.currentData(), self.threshold_box.value() / 100)
        if len(self.records) < REGROUP_IN_WORKER_ABOVE:
            QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                groups, plan = _run_grouping(None, *args)
            finally:
                QGuiApplication.restoreOverrideCursor()
            self._set_groups(args[0], args[1], groups, plan)
            return
        if self._regroup_worker is not None:
            self._regroup_pending = True
            return
        worker = Worker(_run_grouping, *args)
        worker.signals.returned.connect(
            lambda res, recs=args[0], bits=args[1]: self._set_groups(recs, bits, *res))
        worker.signals.errored.connect(self._on_error)
        worker.signals.finished.connect(self._regroup_finished)
        self._regroup_worker = worker
        self.status_label.setText(self.tr("Grouping {0} files…").format(len(self.records)))
        self.pool.start(worker)

    def _regroup_finished(self) -> None:
        self._regroup_worker = None
        if self._regroup_pending:
            self._regroup_pending = False
            self.regroup()

    def _set_groups(self, records, bits: int, groups, plan: str) -> None:
        if records is not self.records or bits != self.bits():
            self._regroup_pending = True  # settings or records changed while grouping
            return
        self.index_plan = plan
        self._regroup_count += 1
        self.model.set_data(self.records, groups, bits)
        self.tree.expandAll() if len(groups) <= 200 else None
        for col in range(1, 7):
            self.tree.resizeColumnToContents(col)
        self.tree.setColumnWidth(0, 280)
        self.tabs.setTabText(1, self.tr("Problems ({0})").format(len(self.problems)))
        self.bitdiff.set_diff(None)
        self.textdiff.clear()
        self._update_status()
        self.groupsChanged.emit()

    def _update_status(self) -> None:
        m = self.model
        self.status_label.setText(self.tr(
            "{0} groups, {1} files in groups, {2} marked ({3}); {4} files scanned, {5} problems"
        ).format(len(m.groups), m.file_count(), len(m.grouped_marks()),
                 human_size(m.marked_size()),
                 len(self.records), len(self.problems)))

    def _filter(self, text: str) -> None:
        self.model.set_filter(text)
        if text and self.model.rowCount() <= 200:
            self.tree.expandAll()

    def selected_record(self) -> int:
        idx = self.tree.currentIndex()
        return idx.data(RECORD_ROLE) if idx.isValid() else -1

    def _current_changed(self, current, _previous) -> None:
        if not current.isValid():
            return
        g = self.model.group_at(current)
        rec = current.data(RECORD_ROLE)
        other = rec if rec is not None and rec >= 0 else None
        if other is None or other == g.representative:
            # group row or the representative: compare with the farthest member
            cand = [m for m in g.members if m.index != g.representative]
            other = max(cand, key=lambda m: m.distance).index if cand else g.representative
        self.compare(g.representative, other)

    def compare(self, i: int, j: int) -> None:
        a, b = self.records[i], self.records[j]
        d = bit_diff(a.fingerprint, b.fingerprint, self.bits(), self.distance(),
                     n=len(self.records))
        self._diff_names = (os.path.basename(a.path), os.path.basename(b.path))
        self.bitdiff.set_diff(d, *self._diff_names)
        self.textdiff.compare(a.path, b.path)

    def _open_index(self, index) -> None:
        rec = index.data(RECORD_ROLE)
        if rec is not None and rec >= 0:
            open_path(self.records[rec].path)

    def _context_menu(self, pos) -> None:
        idx = self.tree.indexAt(pos)
        rec = idx.data(RECORD_ROLE) if idx.isValid() else None
        if rec is None or rec < 0:
            return
        path = self.records[rec].path
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: open_path(path))
        menu.addAction(self.tr("Reveal in folder"), lambda: open_path(os.path.dirname(path)))
        menu.addAction(self.tr("Copy path"), lambda: QGuiApplication.clipboard().setText(path))
        self.extend_context_menu(menu, path)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def extend_context_menu(self, menu: QMenu, path: str) -> None:
        self.actions.extend_context_menu(menu, path)

    def _about(self) -> None:
        QMessageBox.about(self, self.tr("About simdup"), self.tr(
            "simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, "
            "re-wrapped or lightly edited copies that byte-hash tools miss.\n\nIndex: {0}").format(
                self.index_plan or "-"))

    def closeEvent(self, event) -> None:
        if self.worker is not None:
            self.worker.cancel()
        self.pool.waitForDone(3000)
        self.save_settings()
        super().closeEvent(event)


def _clock(seconds: float) -> str:
    s = int(max(0, seconds))
    return f"{s // 3600:d}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:d}:{s % 60:02d}"


def open_path(path: str) -> None:
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get(
            "WAYLAND_DISPLAY"):
        return
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(path)) and sys.platform == "darwin":
        subprocess.run(["open", path], check=False)
