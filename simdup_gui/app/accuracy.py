"""The Accuracy tab: how detection accuracy changes with fingerprint size.

Choose a labelled folder (or generate a synthetic corpus), run ``core.lab.run_eval``
on the worker pool, then read the charts: P/R/F1 and chance matches against k for
each size, the best F1 per size, precision-recall curves, and the table beside them.

Usage::

    tab = AccuracyTab()
    tab.finished.connect(lambda report: ...)   # a core.lab.Report
    tab.start_run(root, TruthSpec("synthetic"), EvalOptions())   # or press Run
"""

from __future__ import annotations

import os
import shutil
import tempfile

from PySide6.QtCharts import (QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView,
                              QLineSeries, QLogValueAxis, QValueAxis)
from PySide6.QtCore import (QAbstractTableModel, QMargins, QModelIndex, QPersistentModelIndex,
                            QEvent, Qt, QThreadPool, Signal)
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QGridLayout, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QProgressBar, QPushButton,
                               QSpinBox, QSplitter, QTableView, QVBoxLayout, QWidget)

from simdup_gui.core.lab.evaluate import Score
from simdup_gui.core.scan.features import DEFAULT_MODE, FEATURE_MODES
from simdup_gui.core.lab.experiment import EvalOptions, Report, TruthSpec, run_eval, to_csv
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.lab.synth import generate_corpus

from .workers import Worker

RAW_ROLE = Qt.ItemDataRole.UserRole  # the unformatted number behind a cell
COLUMNS = ("bits", "distance", "precision", "recall", "f1", "tp", "fp", "fn", "chance")
SIZE_COLORS = {16: "#d62728", 32: "#ff7f0e", 64: "#2ca02c", 128: "#1f77b4"}
METRIC_COLORS = {"precision": "#1f77b4", "recall": "#ff7f0e", "f1": "#2ca02c"}
CHANCE_FLOOR = 1e-3  # chance values below this are drawn at the floor of the log axis
TRUTH_CHOICES = ("synthetic", "csv", "reference", "generate")


def _generate_then_eval(job, folder: str, n_docs: int, spec: TruthSpec,
                        options: EvalOptions) -> Report:
    """Worker task: write a generated corpus into ``folder``, then evaluate it."""
    job.report(ProgressEvent("generate", 0, n_docs))
    generate_corpus(n_docs, seed=0).write(folder)
    return run_eval(job, folder, spec, options)


class AccuracyModel(QAbstractTableModel):
    """One row per (bits, k) over a plain list of Scores; the best k per size is bold."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[Score] = []
        self._best: set[tuple[int, int]] = set()

    def set_report(self, report: Report | None) -> None:
        self.beginResetModel()
        self._rows = [s for size in report.sizes for s in size.scores] if report else []
        self._best = {(s.bits, s.best.distance) for s in report.sizes} if report else set()
        self.endResetModel()

    def score(self, row: int) -> Score:
        return self._rows[row]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        names = {"bits": self.tr("bits"), "distance": self.tr("k"),
                 "precision": self.tr("precision"), "recall": self.tr("recall"),
                 "f1": self.tr("F1"), "tp": self.tr("TP"), "fp": self.tr("FP"),
                 "fn": self.tr("FN"), "chance": self.tr("chance/file")}
        return names[COLUMNS[section]]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        s = self._rows[index.row()]
        col = COLUMNS[index.column()]
        raw = getattr(s, col)
        if role == RAW_ROLE:
            return raw
        if role == Qt.ItemDataRole.DisplayRole:
            if col in ("precision", "recall", "f1"):
                return f"{raw:.3f}"
            if col == "chance":
                return f"{raw:.3g}"
            return str(int(raw)) if float(raw).is_integer() else f"{raw:.0f}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and (s.bits, s.distance) in self._best:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.BackgroundRole and s.chance >= 1:
            return QColor("#fde0dd")  # more random matches per file than one: drowned
        return None


def _chart(title: str) -> QChart:
    c = QChart()
    c.setTitle(title)
    c.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
    c.setMargins(QMargins(4, 4, 4, 4))
    c.setBackgroundRoundness(0)
    return c


def _view(chart: QChart, min_w: int = 240, min_h: int = 210) -> QChartView:
    v = QChartView(chart)
    v.setRenderHint(QPainter.RenderHint.Antialiasing)
    v.setMinimumSize(min_w, min_h)
    return v


class AccuracyTab(QWidget):
    """The Accuracy tab widget. Signals: ``started()``, ``finished(Report)``,
    ``failed(str)``, ``cancelled()``."""

    started = Signal()
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._worker: Worker | None = None
        self._report: Report | None = None
        self._tmp: str | None = None  # a generated corpus, removed on close
        self.model = AccuracyModel(self)
        self._build()

    # ---- layout -----------------------------------------------------------------------
    def _build(self) -> None:
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
        self.threshold.setValue(0.8)
        self.n_docs = QSpinBox()
        self.n_docs.setRange(2, 2000)
        self.n_docs.setValue(100)
        self.features = QComboBox()
        self.features.addItems(list(FEATURE_MODES))
        self.features.setCurrentText(DEFAULT_MODE)
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

        self.size_charts: dict[int, QChart] = {}
        grid = QGridLayout()
        self.charts_widget = QWidget()
        self.charts_widget.setLayout(grid)
        for i, bits in enumerate((16, 32, 64, 128)):
            ch = _chart("")
            self.size_charts[bits] = ch
            grid.addWidget(_view(ch), i // 2, i % 2)
        self.best_chart = _chart("")
        self.pr_chart = _chart("")
        grid.addWidget(_view(self.best_chart), 0, 2)
        grid.addWidget(_view(self.pr_chart), 1, 2)

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

        lay = QVBoxLayout(self)
        lay.addLayout(row1)
        lay.addLayout(row2)
        lay.addWidget(self.status)
        lay.addWidget(self.headline)
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        lay.addWidget(self.legend)
        lay.addWidget(split, 1)
        self.retranslate()
        self._truth_changed()

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
        for bits, ch in self.size_charts.items():
            ch.setTitle(self.tr("{0} bits: P, R, F1 and chance matches against k").format(bits))
        self.best_chart.setTitle(self.tr("Best F1 per fingerprint size"))
        self.pr_chart.setTitle(self.tr("Precision-recall curves (one point per k)"))
        self.export_csv_button.setText(self.tr("Export CSV…"))
        self.export_png_button.setText(self.tr("Export PNG…"))
        self.legend.setText(self.tr(
            "Per-size charts: <b style='color:#1f77b4'>precision</b>, "
            "<b style='color:#ff7f0e'>recall</b>, <b style='color:#2ca02c'>F1</b> (left axis); "
            "<b style='color:#7f7f7f'>dashed: chance matches per file</b> (right axis, log "
            "scale); <b style='color:#d62728'>dotted: one random match per file</b>. A pink "
            "chart or row means random fingerprints already match more than once per file."))
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
        d = QFileDialog.getExistingDirectory(self, self.tr("Corpus folder"), self.folder.text())
        if d:
            self.folder.setText(d)

    def _browse_csv(self) -> None:
        f, _ = QFileDialog.getOpenFileName(self, self.tr("Known duplicates"), "",
                                           self.tr("CSV files (*.csv)"))
        if f:
            self.csv_path.setText(f)

    # ---- running ----------------------------------------------------------------------
    @property
    def report(self) -> Report | None:
        return self._report

    @property
    def worker(self) -> Worker | None:
        return self._worker

    def _run_clicked(self) -> None:
        kind = self.truth.currentData()
        opts = EvalOptions(features=self.features.currentText())
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
            self._fail(str(e))

    def start_generated(self, n_docs: int, options: EvalOptions | None = None) -> Worker:
        """Generate a corpus of ``n_docs`` documents in a temporary folder and evaluate it."""
        if self._worker is not None:
            raise ValueError(self.tr("An evaluation is already running"))
        self._remove_generated()
        self._tmp = tempfile.mkdtemp(prefix="simdup-accuracy-")
        self.folder.setText(self._tmp)
        return self._start(Worker(_generate_then_eval, self._tmp, n_docs,
                                  TruthSpec("synthetic"), options or EvalOptions()))

    def start_run(self, root: str, spec: TruthSpec, options: EvalOptions | None = None) -> Worker:
        """Evaluate ``root`` against ``spec`` on the pool; ``finished`` brings the Report."""
        if not os.path.isdir(root):
            raise ValueError(self.tr("Not a folder: {0}").format(root))
        return self._start(Worker(run_eval, root, spec, options or EvalOptions()))

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
        phases = {"generate": self.tr("Generating the corpus"),
                  "walk": self.tr("Listing files"),
                  "fingerprint": self.tr("Fingerprinting"),
                  "read": self.tr("Reading texts for the reference"),
                  "reference": self.tr("Measuring reference similarity"),
                  "evaluate": self.tr("Scoring every size and k"),
                  "done": self.tr("Fingerprinting")}
        if ev.files_total:
            self.progress.setRange(0, ev.files_total)
            self.progress.setValue(ev.files_done)
        else:
            self.progress.setRange(0, 0)
        self.status.setText(self.tr("{0}: {1} of {2}").format(
            phases.get(ev.phase, ev.phase), ev.files_done, ev.files_total))

    def _on_returned(self, report: object) -> None:
        assert isinstance(report, Report)
        self.show_report(report)
        self.finished.emit(report)

    def _fail(self, message: str) -> None:
        self.status.setText(self.tr("Failed: {0}").format(message.splitlines()[0]))
        self.failed.emit(message)

    def _on_cancelled(self) -> None:
        self.status.setText(self.tr("Cancelled."))
        self.cancelled.emit()

    def _on_finished(self) -> None:
        self._worker = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if self._report else 0)

    # ---- showing ----------------------------------------------------------------------
    def show_report(self, report: Report) -> None:
        """Fill the table and the charts from ``report``."""
        self._report = report
        self.model.set_report(report)
        for b in (self.export_csv_button, self.export_png_button):
            b.setEnabled(True)
        self.status.setText(self.tr("{0} files, truth: {1}; {2} duplicate pairs. {3}").format(
            report.files, report.truth_source, f"{report.positives:.0f}", report.sampling))
        self.headline.setText(self._headline(report))
        for bits, chart in self.size_charts.items():
            chart.removeAllSeries()
            for ax in chart.axes():
                chart.removeAxis(ax)
            size = next((s for s in report.sizes if s.bits == bits), None)
            if size is not None:
                self._fill_size_chart(chart, size.scores, size.best.distance)
        self._fill_best_chart(report)
        self._fill_pr_chart(report)

    def _headline(self, report: Report) -> str:
        parts = []
        for s in report.sizes:
            b = s.best
            parts.append(self.tr("{0} bits: best F1 {1:.2f} at k={2}, {3} random matches "
                                 "per file").format(s.bits, b.f1, b.distance, f"{b.chance:.2g}"))
        worst = min(report.sizes, key=lambda s: s.bits)
        msg = "; ".join(parts)
        if worst.bits <= 16 and any(sc.chance >= 1 for sc in worst.scores):
            msg += self.tr(". Pink rows: more chance matches than one per file, so small "
                           "fingerprints drown in coincidences.")
        return msg

    def _fill_size_chart(self, chart: QChart, scores: list[Score], best_k: int) -> None:
        ax_k = QValueAxis()
        ax_k.setTitleText(self.tr("k (max Hamming distance)"))
        ax_k.setRange(scores[0].distance, max(scores[-1].distance, scores[0].distance + 1))
        ax_k.setLabelFormat("%d")
        ax_k.setTickCount(min(9, len(scores)) if len(scores) > 1 else 2)
        ax_v = QValueAxis()
        ax_v.setRange(0, 1.0)
        ax_v.setTickCount(6)
        ax_v.setLabelFormat("%.1f")
        ax_c = QLogValueAxis()
        ax_c.setTitleText(self.tr("chance matches/file"))
        top = max(10.0, max(s.chance for s in scores))
        ax_c.setRange(CHANCE_FLOOR, top)
        ax_c.setLabelFormat("%g")
        ax_c.setBase(10)
        chart.addAxis(ax_k, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(ax_v, Qt.AlignmentFlag.AlignLeft)
        chart.addAxis(ax_c, Qt.AlignmentFlag.AlignRight)
        names = {"precision": self.tr("precision"), "recall": self.tr("recall"),
                 "f1": self.tr("F1")}
        for metric, color in METRIC_COLORS.items():
            ser = QLineSeries()
            ser.setName(names[metric])
            pen = QPen(QColor(color))
            pen.setWidth(3 if metric == "f1" else 2)
            ser.setPen(pen)
            for s in scores:
                ser.append(s.distance, getattr(s, metric))
            chart.addSeries(ser)
            ser.attachAxis(ax_k)
            ser.attachAxis(ax_v)
        chance = QLineSeries()
        chance.setName(self.tr("chance matches/file (log)"))
        pen = QPen(QColor("#7f7f7f"))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidth(2)
        chance.setPen(pen)
        for s in scores:
            chance.append(s.distance, max(CHANCE_FLOOR, s.chance))
        chart.addSeries(chance)
        chance.attachAxis(ax_k)
        chance.attachAxis(ax_c)
        one = QLineSeries()
        one.setName(self.tr("1 random match/file"))
        pen = QPen(QColor("#d62728"))
        pen.setStyle(Qt.PenStyle.DotLine)
        one.setPen(pen)
        one.append(scores[0].distance, 1.0)
        one.append(scores[-1].distance, 1.0)
        chart.addSeries(one)
        one.attachAxis(ax_k)
        one.attachAxis(ax_c)
        if any(s.chance >= 1 for s in scores):
            chart.setBackgroundBrush(QColor("#fff4f2"))
        else:
            chart.setBackgroundBrush(QColor("white"))
        chart.legend().setVisible(False)  # one legend for all four: self.legend

    def _fill_best_chart(self, report: Report) -> None:
        ch = self.best_chart
        ch.removeAllSeries()
        for ax in ch.axes():
            ch.removeAxis(ax)
        series = QBarSeries()
        bs = QBarSet(self.tr("best F1"))
        bs.setColor(QColor(METRIC_COLORS["f1"]))
        for s in report.sizes:
            bs.append(s.best.f1)
        series.append(bs)
        series.setLabelsVisible(True)
        series.setLabelsPosition(QBarSeries.LabelsPosition.LabelsOutsideEnd)
        series.setLabelsFormat("@value")
        series.setLabelsPrecision(3)
        ch.legend().setVisible(False)
        ch.addSeries(series)
        cats = QBarCategoryAxis()
        cats.append([self.tr("{0} bits").format(s.bits) for s in report.sizes])
        ax_v = QValueAxis()
        ax_v.setRange(0, 1.1)
        ax_v.setTickCount(12)
        ax_v.setLabelFormat("%.1f")
        ch.addAxis(cats, Qt.AlignmentFlag.AlignBottom)
        ch.addAxis(ax_v, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(cats)
        series.attachAxis(ax_v)

    def _fill_pr_chart(self, report: Report) -> None:
        ch = self.pr_chart
        ch.removeAllSeries()
        for ax in ch.axes():
            ch.removeAxis(ax)
        ax_r = QValueAxis()
        ax_r.setTitleText(self.tr("recall"))
        ax_r.setRange(0, 1.0)
        ax_p = QValueAxis()
        ax_p.setTitleText(self.tr("precision"))
        ax_p.setRange(0, 1.0)
        ch.addAxis(ax_r, Qt.AlignmentFlag.AlignBottom)
        ch.addAxis(ax_p, Qt.AlignmentFlag.AlignLeft)
        for s in report.sizes:
            ser = QLineSeries()
            ser.setName(self.tr("{0} bits").format(s.bits))
            ser.setPointsVisible(True)
            pen = QPen(QColor(SIZE_COLORS.get(s.bits, "#000000")))
            pen.setWidth(2)
            ser.setPen(pen)
            for sc in s.scores:
                ser.append(sc.recall, sc.precision)
            ch.addSeries(ser)
            ser.attachAxis(ax_r)
            ser.attachAxis(ax_p)

    # ---- export -----------------------------------------------------------------------
    def export_csv(self, path: str) -> None:
        if self._report is None:
            raise ValueError(self.tr("Nothing to export yet"))
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(to_csv(self._report))

    def export_png(self, path: str) -> bool:
        return self.grab().save(path)

    def _export_csv_clicked(self) -> None:
        f, _ = QFileDialog.getSaveFileName(self, self.tr("Export CSV"), "accuracy.csv",
                                           self.tr("CSV files (*.csv)"))
        if f:
            try:
                self.export_csv(f)
            except OSError as e:
                self._fail(str(e))

    def _export_png_clicked(self) -> None:
        f, _ = QFileDialog.getSaveFileName(self, self.tr("Export PNG"), "accuracy.png",
                                           self.tr("PNG images (*.png)"))
        if f and not self.export_png(f):
            self._fail(self.tr("Could not write {0}").format(f))

    def _remove_generated(self) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        """Cancel a running evaluation; remove a generated corpus once nothing uses it."""
        self.cancel()
        if self._worker is None:
            self._remove_generated()
        super().closeEvent(event)
