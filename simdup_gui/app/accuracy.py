"""The Accuracy tab: how detection accuracy changes with fingerprint size.

Choose a labelled folder (or generate a synthetic corpus), run ``core.lab.run_eval``
on the worker pool, then read the charts: P/R/F1 and chance matches against k for
each size, the best F1 per size, precision-recall curves, and the table beside them.

Usage::

    tab = AccuracyTab()
    tab.finished.connect(lambda report: ...)   # a core.lab.LabReport
    tab.start_run(root, TruthSpec("synthetic"), EvalOptions())   # or press Run
"""

from __future__ import annotations

import os

from PySide6.QtCharts import QChart
from PySide6.QtCore import QEvent, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QGridLayout, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QProgressBar, QPushButton,
                               QSpinBox, QSplitter, QTableView, QVBoxLayout, QWidget)

from simdup_gui.core.lab.experiment import EvalOptions, LabReport, TruthSpec, to_csv
from simdup_gui.core.lab.workspace import LabWorkspace
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.presenters import engine_text, lab
from simdup_gui.core.presenters.progress import mode_name
from simdup_gui.core.scan.features import DEFAULT_MODE, FEATURE_MODES
from simdup_gui.core.textsim import DEFAULT_SIMILARITY

from . import dialogs
from .errors import first_line
from .lab_charts import (RAW_ROLE, AccuracyModel, clear_chart, fill_bar_chart, fill_size_chart,
                         fill_xy_chart, make_chart, make_view, style_chart)
from .workers import Worker

COLUMNS = lab.COLUMNS
TRUTH_CHOICES = ("synthetic", "csv", "reference", "generate")
__all__ = ["COLUMNS", "RAW_ROLE", "AccuracyModel", "AccuracyTab"]


class AccuracyTab(QWidget):
    """The Accuracy tab widget. Signals: ``started()``, ``finished(LabReport)``,
    ``failed(str)``, ``cancelled()``."""

    started = Signal()
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._worker: Worker | None = None
        self.workspace = LabWorkspace()  # the last report and a generated corpus folder
        self.model = AccuracyModel(self)
        self._build()

    # ---- layout -----------------------------------------------------------------------
    def _build(self) -> None:
        inputs = self._build_inputs()
        split = self._build_results()
        lay = QVBoxLayout(self)
        for row in inputs:
            lay.addLayout(row)
        lay.addWidget(self.status)
        lay.addWidget(self.headline)
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        lay.addWidget(self.legend)
        lay.addWidget(split, 1)
        self.retranslate()
        self._truth_changed()

    def _build_inputs(self) -> tuple[QHBoxLayout, QHBoxLayout]:
        """The corpus, its truth and the run controls, in two rows."""
        self.folder = QLineEdit()
        browse = self.browse_button = QPushButton()
        browse.clicked.connect(self._browse_folder)
        self.truth = QComboBox()
        for key in TRUTH_CHOICES:
            self.truth.addItem("", key)
        self.truth.currentIndexChanged.connect(self._truth_changed)
        self.csv_path = QLineEdit()
        self.csv_browse = QPushButton()
        self.csv_browse.clicked.connect(self._browse_csv)
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.05, 1.0)
        self.threshold.setSingleStep(0.05)
        self.threshold.setValue(DEFAULT_SIMILARITY)  # the app's and the CLI's threshold
        self.n_docs = QSpinBox()
        self.n_docs.setRange(2, 2000)
        self.n_docs.setValue(100)
        self.features = QComboBox()
        for mode in FEATURE_MODES:
            self.features.addItem("", mode)  # named in retranslate
        self.features.setCurrentIndex(self.features.findData(DEFAULT_MODE))
        self.run_button = QPushButton()
        self.run_button.clicked.connect(self._run_clicked)
        self.cancel_button = QPushButton()
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        hf = self.headline.font()
        hf.setPointSizeF(hf.pointSizeF() * 1.15)
        hf.setBold(True)
        self.headline.setFont(hf)

        row1 = QHBoxLayout()
        self.corpus_label, self.truth_label, self.features_label = QLabel(), QLabel(), QLabel()
        row1.addWidget(self.corpus_label)
        row1.addWidget(self.folder, 1)
        row1.addWidget(browse)
        row1.addWidget(self.truth_label)
        row1.addWidget(self.truth)
        row2 = QHBoxLayout()
        row2.addWidget(self.csv_path, 1)
        row2.addWidget(self.csv_browse)
        row2.addWidget(self.threshold)
        row2.addWidget(self.n_docs)
        row2.addWidget(self.features_label)
        row2.addWidget(self.features)
        row2.addWidget(self.run_button)
        row2.addWidget(self.cancel_button)
        row2.addWidget(self.progress, 1)
        return row1, row2

    def _build_results(self) -> QSplitter:
        """The charts, and the table with its export buttons beside them."""
        self.size_charts: dict[int, QChart] = {}
        grid = QGridLayout()
        self.charts_widget = QWidget()
        self.charts_widget.setLayout(grid)
        for i, bits in enumerate(lab.CHART_SIZES):
            ch = make_chart()
            self.size_charts[bits] = ch
            grid.addWidget(make_view(ch), i // 2, i % 2)
        self.best_chart = make_chart()
        self.pr_chart = make_chart()
        grid.addWidget(make_view(self.best_chart), 0, 2)
        grid.addWidget(make_view(self.pr_chart), 1, 2)

        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.export_csv_button = QPushButton()
        self.export_csv_button.clicked.connect(self._export_csv_clicked)
        self.export_png_button = QPushButton()
        self.export_png_button.clicked.connect(self._export_png_clicked)
        for b in (self.export_csv_button, self.export_png_button):
            b.setEnabled(False)
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_csv_button)
        buttons.addWidget(self.export_png_button)
        sl.addLayout(buttons)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.charts_widget)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        side.setMinimumWidth(400)
        return split

    def retranslate(self) -> None:
        """Set every text (again after a language switch)."""
        self.folder.setPlaceholderText(self.tr("Folder of labelled text files"))
        self.browse_button.setText(self.tr("Browse…"))
        for i, text in enumerate((self.tr("Synthetic manifest (manifest.json)"),
                                  self.tr("CSV of known duplicates"),
                                  self.tr("Reference: exact Jaccard ≥ threshold"),
                                  self.tr("Generate a synthetic corpus"))):
            self.truth.setItemText(i, text)
        self.csv_path.setPlaceholderText(self.tr("CSV: group,path or path_a,path_b,label"))
        self.csv_browse.setText(self.tr("CSV…"))
        self.threshold.setPrefix(self.tr("Jaccard ≥ "))
        self.n_docs.setSuffix(self.tr(" documents"))
        self.run_button.setText(self.tr("Run"))
        self.cancel_button.setText(self.tr("Cancel"))
        if self.report is None and self.worker is None:
            self.status.setText(self.tr("Choose a corpus and its truth, then press Run."))
        self.corpus_label.setText(self.tr("Corpus:"))
        self.truth_label.setText(self.tr("Truth:"))
        self.features_label.setText(self.tr("Features:"))
        for i in range(self.features.count()):
            self.features.setItemText(i, mode_name(self.features.itemData(i)))
        for bits, ch in self.size_charts.items():
            ch.setTitle(self.tr("{0} bits: P, R, F1 and chance matches against k").format(bits))
        self.best_chart.setTitle(self.tr("Best F1 per fingerprint size"))
        self.pr_chart.setTitle(self.tr("Precision-recall curves (one point per k)"))
        self.export_csv_button.setText(self.tr("Export CSV…"))
        self.export_png_button.setText(self.tr("Export PNG…"))
        self.legend.setText(self.tr(
            "Per-size charts: <b style='color:{0}'>precision</b>, "
            "<b style='color:{1}'>recall</b>, <b style='color:{2}'>F1</b> (left axis); "
            "<b style='color:{3}'>dashed: chance matches per file</b> (right axis, log "
            "scale); <b style='color:{4}'>dotted: one random match per file</b>. A red-tinted "
            "chart or row means random fingerprints already match more than once per file."
        ).format(*map(lab.colour, ("precision", "recall", "f1", "chance", "one_match"))))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0,
                                          max(0, self.model.columnCount() - 1))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self.report is not None:
                self.show_report(self.report)
        super().changeEvent(event)

    def _truth_changed(self) -> None:
        kind = self.truth.currentData()
        self.csv_path.setVisible(kind == "csv")
        self.csv_browse.setVisible(kind == "csv")
        self.threshold.setVisible(kind == "reference")
        self.n_docs.setVisible(kind == "generate")
        self.folder.setEnabled(kind != "generate")

    def _browse_folder(self) -> None:
        d = dialogs.pick_folder(self, self.tr("Corpus folder"), self.folder.text())
        if d:
            self.folder.setText(d)

    def _browse_csv(self) -> None:
        f = dialogs.pick_open_file(self, self.tr("Known duplicates"), "",
                                   self.tr("CSV files (*.csv)"))
        if f:
            self.csv_path.setText(f)

    # ---- running ----------------------------------------------------------------------
    @property
    def report(self) -> LabReport | None:
        return self.workspace.report

    @property
    def worker(self) -> Worker | None:
        return self._worker

    def _run_clicked(self) -> None:
        kind = self.truth.currentData()
        opts = EvalOptions(features=self.features.currentData())
        try:
            if kind == "generate":
                self.start_generated(self.n_docs.value(), opts)
                return
            if kind == "csv":
                spec = TruthSpec("csv", self.csv_path.text())
            elif kind == "reference":
                spec = TruthSpec("reference", threshold=self.threshold.value())
            else:
                spec = TruthSpec("synthetic")
            self.start_run(self.folder.text(), spec, opts)
        except ValueError as e:
            self._fail(e)

    def start_generated(self, n_docs: int, options: EvalOptions | None = None) -> Worker:
        """Generate a corpus of ``n_docs`` documents in a temporary folder and evaluate it."""
        if self._worker is not None:
            raise ValueError(self.tr("An evaluation is already running"))
        folder = self.workspace.new_corpus_folder()
        self.folder.setText(folder)
        return self._start(Worker(self.workspace.generate_then_evaluate, folder, n_docs,
                                  options))

    def start_run(self, root: str, spec: TruthSpec, options: EvalOptions | None = None) -> Worker:
        """Evaluate ``root`` against ``spec`` on the pool; ``finished`` brings the LabReport."""
        if not os.path.isdir(root):
            raise ValueError(self.tr("Not a folder: {0}").format(root))
        return self._start(Worker(self.workspace.evaluate, root, spec, options))

    def _start(self, worker: Worker) -> Worker:
        if self._worker is not None:
            raise ValueError(self.tr("An evaluation is already running"))
        self._worker = worker
        s = worker.signals
        s.progress.connect(self._on_progress)
        s.returned.connect(self._on_returned)
        s.errored.connect(self._fail)
        s.cancelled.connect(self._on_cancelled)
        s.finished.connect(self._on_finished)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Running…"))
        self.started.emit()
        self._pool.start(worker)
        return worker

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self.status.setText(self.tr("Cancelling…"))

    def _on_progress(self, ev: object) -> None:
        if not isinstance(ev, ProgressEvent):
            return
        if ev.files_total:
            self.progress.setRange(0, ev.files_total)
            self.progress.setValue(ev.files_done)
        else:
            self.progress.setRange(0, 0)
        self.status.setText(lab.progress_text(ev))

    def _on_returned(self, report: object) -> None:
        assert isinstance(report, LabReport)
        self.show_report(report)
        self.finished.emit(report)

    def _fail(self, error: BaseException) -> None:
        message = first_line(error)
        self.status.setText(self.tr("Failed: {0}").format(message))
        self.failed.emit(message)

    def _on_cancelled(self) -> None:
        self.status.setText(self.tr("Cancelled."))
        self.cancelled.emit()

    def _on_finished(self) -> None:
        self._worker = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if self.report else 0)

    # ---- showing ----------------------------------------------------------------------
    def show_report(self, report: LabReport) -> None:
        """Fill the table and the charts from ``report``."""
        self.workspace.report = report
        self.model.set_report(report)
        for b in (self.export_csv_button, self.export_png_button):
            b.setEnabled(True)
        self.status.setText(lab.report_status(report))
        self.status.setToolTip(engine_text.LAB_SAMPLING(report.sampling))
        self.headline.setText(lab.headline(report))
        for bits, chart in self.size_charts.items():
            clear_chart(chart)
            size = next((s for s in report.sizes if s.bits == bits), None)
            if size is not None:
                fill_size_chart(chart, lab.size_chart(size.scores),
                                self.tr("k (max Hamming distance)"),
                                self.tr("chance matches/file"))
        clear_chart(self.best_chart)
        fill_bar_chart(self.best_chart, *lab.f1_bars(report))
        clear_chart(self.pr_chart)
        fill_xy_chart(self.pr_chart, lab.pr_curves(report), self.tr("recall"),
                      self.tr("precision"))

    def recolour(self) -> None:
        """The charts, their legend and the table in the current light or dark scheme."""
        for chart in (*self.size_charts.values(), self.best_chart, self.pr_chart):
            title = chart.title()
            style_chart(chart)  # (Qt's chart theme resets the title's font and colour)
            chart.setTitle(title)
        self.retranslate()
        if self.report is not None:
            self.show_report(self.report)

    # ---- export -----------------------------------------------------------------------
    def export_csv(self, path: str) -> None:
        if self.report is None:
            raise ValueError(self.tr("Nothing to export yet"))
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(to_csv(self.report))

    def export_png(self, path: str) -> bool:
        return self.grab().save(path)

    def _export_csv_clicked(self) -> None:
        f = dialogs.pick_save_file(self, self.tr("Export CSV"), "accuracy.csv",
                                   self.tr("CSV files (*.csv)"))
        if f:
            try:
                self.export_csv(f)
            except OSError as e:
                self._fail(e)

    def _export_png_clicked(self) -> None:
        f = dialogs.pick_save_file(self, self.tr("Export PNG"), "accuracy.png",
                                   self.tr("PNG images (*.png)"))
        if f and not self.export_png(f):
            self._fail(OSError(self.tr("Could not write {0}").format(f)))

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        """Cancel a running evaluation; remove a generated corpus once nothing uses it."""
        self.cancel()
        if self._worker is None:
            self.workspace.remove_generated()
        super().closeEvent(event)
