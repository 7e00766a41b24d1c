"""The left panel: folders to scan, the settings, Scan / Cancel and the progress."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from simdup_gui.core.group.cluster import GROUPING_MODES
from simdup_gui.core.models import ALLOWED_BITS
from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.progress import (ProgressView, chance_warning, distance_hint,
                                                 mode_name, scale_warning)
from simdup_gui.core.scan.distributed import SchedulerError, parse_scheduler
from simdup_gui.core.scan.features import FEATURE_MODES
from simdup_gui.core.session import ReviewSettings

from . import dialogs
from . import options as opt
from .folders import FolderList
from .vscroll import VerticalScroll

PROGRESS_LINES = 3  # the progress text's height: counts and rate, the file being read


def _combo(values, named: bool = False) -> QComboBox:
    """A combo box whose items carry ``values`` as data (shown as text when ``named``)."""
    box = QComboBox()
    for v in values:
        box.addItem(str(v) if named else "", v)
    return box


class _RunOnly:
    """The preferences, but a value the command line set for this run (and the user left
    as it was) is not saved."""

    def __init__(self, prefs, run_only: dict) -> None:
        self.prefs, self.run_only = prefs, run_only

    def set(self, option, value: object) -> None:
        if option.key not in self.run_only or self.run_only[option.key] != value:
            self.prefs.set(option, value)


def _select(box: QComboBox, value) -> None:
    box.setCurrentIndex(max(0, box.findData(value)))


class ScanPanel(QWidget):
    """Widgets only: the window reads :meth:`review_settings` and shows progress here.
    ``settingsChanged`` fires when a setting that changes the groups changes."""

    settingsChanged = Signal()

    def __init__(self, prefs: opt.Preferences, parent=None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.folders = FolderList()
        self.add_btn = QPushButton()
        self.add_btn.clicked.connect(self.choose_folder)
        self.remove_btn = QPushButton()
        self.remove_btn.clicked.connect(self.folders.remove_selected)
        self.bits_box = _combo(ALLOWED_BITS, named=True)
        self.distance_box = QSpinBox()
        self.distance_box.setRange(0, 64)
        self.similarity_label = QLabel()
        self.similarity_label.setWordWrap(True)
        self.mode_box = _combo(FEATURE_MODES)  # named in retranslate
        self.grouping_box = _combo(GROUPING_MODES)
        self.verify_box = _combo(("sketch", "none"))  # named in retranslate
        self.threshold_box = QSpinBox()
        self.threshold_box.setRange(30, 100)
        self.threshold_box.setSuffix(" %")
        self.template_check = QCheckBox()  # measure: template-aware (ticked) or plain
        self.include_edit = QLineEdit()
        self.exclude_edit = QLineEdit()
        self.min_size = QSpinBox()
        self.min_size.setRange(1, 1 << 30)
        self.min_size.setSuffix(" B")
        self.max_size = QSpinBox()  # MB; 0: no limit
        self.max_size.setRange(0, 1 << 20)
        self.max_size.setSuffix(" MB")
        self.follow_links = QCheckBox()
        self.documents_check = QCheckBox()  # read .pdf .docx .odt .epub .rtf (issue 41)
        self.scheduler_edit = QLineEdit()
        self.chance_label = QLabel()  # a warning when small fingerprints match by chance
        self.chance_label.setWordWrap(True)
        self.recolour()
        self.file_count = 0  # files scanned, for the chance warning
        self.scan_btn = QPushButton()
        self.scan_btn.setDefault(True)
        self.cancel_btn = QPushButton()
        self.cancel_btn.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        # room for the scan's lines (counts, the file being read) from the start: the panel
        # does not jump when a scan begins or ends
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.progress_label.setMinimumHeight(PROGRESS_LINES
                                             * self.progress_label.fontMetrics().lineSpacing())
        self._layout()
        self.bits_box.currentIndexChanged.connect(self._bits_changed)
        self.distance_box.valueChanged.connect(self._distance_changed)
        self.grouping_box.currentIndexChanged.connect(lambda _i: self.settingsChanged.emit())
        self.verify_box.currentIndexChanged.connect(self._verify_changed)
        self.threshold_box.valueChanged.connect(lambda _v: self.settingsChanged.emit())
        self.template_check.toggled.connect(lambda _on: self.settingsChanged.emit())
        self.scheduler_edit.textChanged.connect(lambda _t: self.update_hint())

    def _layout(self) -> None:
        self.folders_box = QGroupBox()
        fl = QVBoxLayout(self.folders_box)
        fl.addWidget(self.folders)
        row = QHBoxLayout()
        row.addWidget(self.add_btn)
        row.addWidget(self.remove_btn)
        fl.addLayout(row)
        self.settings_box = QGroupBox()
        form = self.settings_form = QFormLayout(self.settings_box)
        fields = (self.threshold_box, self.template_check, self.verify_box, self.bits_box,
                  self.distance_box,
                  self.similarity_label, self.chance_label, self.mode_box, self.grouping_box,
                  self.include_edit, self.exclude_edit, self.min_size, self.max_size,
                  self.follow_links, self.documents_check, self.scheduler_edit)
        self.form_labels = [QLabel() for _ in fields]
        # rows without a label (check boxes, the hint, the warning) use the whole width:
        # the panel needs less of the window, and the warning fewer lines
        spanning = (self.template_check, self.similarity_label, self.chance_label,
                    self.follow_links, self.documents_check)
        for label, w in zip(self.form_labels, fields, strict=True):
            if w in spanning:
                form.addRow(w)
            else:
                form.addRow(label, w)
        # the folders and settings scroll when the window is too short for them (1280x720
        # cut the 16-bit warning); Scan, Cancel and the progress stay in view below
        inner = QWidget()
        il = QVBoxLayout(inner)
        il.setContentsMargins(0, 0, 0, 0)
        il.addWidget(self.folders_box, 1)
        il.addWidget(self.settings_box)
        self.scroller = VerticalScroll(inner)
        ll = QVBoxLayout(self)
        ll.addWidget(self.scroller, 1)
        row2 = QHBoxLayout()
        row2.addWidget(self.scan_btn)
        row2.addWidget(self.cancel_btn)
        ll.addLayout(row2)
        ll.addWidget(self.progress)
        ll.addWidget(self.progress_label)

    def retranslate(self) -> None:
        self.folders_box.setTitle(self.tr("Folders to scan (drop folders here)"))
        self.add_btn.setText(self.tr("Add folder…"))
        self.remove_btn.setText(self.tr("Remove"))
        self.settings_box.setTitle(self.tr("Settings"))
        labels = [self.tr("Text similarity at least"), "", self.tr("Verify"),
                  self.tr("Fingerprint size (bits)"), self.tr("Candidate distance k"),
                  "", "", self.tr("Features"), self.tr("Grouping"),
                  self.tr("Include patterns"), self.tr("Exclude patterns"),
                  self.tr("Minimum size"), self.tr("Maximum size"), "", "",
                  self.tr("Dask scheduler")]
        for label, text in zip(self.form_labels, labels):
            label.setText(text)
        self.include_edit.setPlaceholderText(self.tr("e.g. *.txt *.md (empty: all text files)"))
        self.exclude_edit.setPlaceholderText(self.tr("e.g. *.log build"))
        self.max_size.setSpecialValueText(self.tr("no limit"))
        self.max_size.setToolTip(self.tr("Larger files are skipped and listed under Problems."))
        self.template_check.setText(self.tr("Keep documents made from one template apart"))
        self.template_check.setToolTip(self.tr(
            "Man pages of one generator, or one licence notice in many projects, share most "
            "of their text without being copies of each other: when ticked, a pair whose "
            "shared text is found in many other documents is not grouped. Copies are."))
        self.follow_links.setText(self.tr("Follow symbolic links"))
        self.follow_links.setToolTip(self.tr(
            "Scan the files and folders that symbolic links point to (each file once). "
            "Unticked, links are listed under Problems."))
        self.documents_check.setText(self.tr("Read documents (PDF, Word, OpenDocument, EPUB, RTF)"))
        self.documents_check.setToolTip(self.tr(
            "Compare the text of .pdf, .docx, .odt, .epub and .rtf files with text files. "
            "Unticked, these files are left out of the scan."))
        self.scheduler_edit.setPlaceholderText(self.tr("empty: this machine"))
        self.scheduler_edit.setToolTip(self.tr(
            "Fingerprint on a Dask cluster: local:N starts N workers here, tcp://host:8786 "
            "uses a running scheduler (every worker must see the folders at the same path). "
            "Empty: this machine's cores. Needs pip install \"simdup[dask]\"."))
        self.mode_box.setToolTip(self.tr("shingles: words and word pairs, TF-IDF weighted "
                                         "(best measured accuracy); tokens: words only; "
                                         "topk: the seeds' top-K keywords"))
        self.grouping_box.setToolTip(self.tr("With SimHash only: linked joins files by any "
                                             "chain of near pairs; strict keeps every pair "
                                             "in a group within k"))
        for box in (self.mode_box, self.grouping_box):
            for i in range(box.count()):
                box.setItemText(i, mode_name(box.itemData(i)))
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
        self.update_hint()

    # ---- settings ------------------------------------------------------------------
    def restore(self, roots, bits, distance) -> None:
        """Fill the widgets from the command line, else the preferences. The settings the
        command line gave (``--bits``, ``--distance``) apply to this run only: :meth:`save`
        keeps the saved values unless the user changed them in the window. Folders given
        there join the folder list, which is remembered."""
        p = self.prefs
        self.run_only: dict[str, object] = {}
        for f in (roots or p.get(opt.FOLDERS)):
            self.folders.add_folder(f)
        if bits:
            self.run_only[opt.BITS.key] = bits
        b = bits or p.get(opt.BITS)
        self.bits_box.blockSignals(True)
        self.bits_box.setCurrentIndex(ALLOWED_BITS.index(b if b in ALLOWED_BITS else 64))
        self.bits_box.blockSignals(False)
        self.distance_box.setMaximum(self.bits())
        self.distance_box.setValue(distance if distance is not None
                                   else p.get(opt.distance_option(self.bits())))
        if distance is not None:
            self.run_only[opt.distance_option(self.bits()).key] = self.distance()
        _select(self.mode_box, p.get(opt.FEATURES))
        _select(self.grouping_box, p.get(opt.GROUPING))
        _select(self.verify_box, p.get(opt.VERIFY))
        self.template_check.setChecked(p.get(opt.MEASURE) == "template")
        self.threshold_box.setValue(p.get(opt.SIMILARITY_PERCENT))
        self._enable_for_verify()
        self.include_edit.setText(p.get(opt.INCLUDE))
        self.exclude_edit.setText(p.get(opt.EXCLUDE))
        self.min_size.setValue(p.get(opt.MIN_SIZE))
        self.max_size.setValue(p.get(opt.MAX_SIZE_MB))
        self.follow_links.setChecked(p.get(opt.FOLLOW_SYMLINKS))
        self.documents_check.setChecked(p.get(opt.DOCUMENTS))
        self.scheduler_edit.setText(p.get(opt.SCHEDULER))

    def save(self) -> None:
        p = _RunOnly(self.prefs, getattr(self, "run_only", {}))
        p.set(opt.FOLDERS, self.folders.folders())
        p.set(opt.BITS, self.bits())
        p.set(opt.distance_option(self.bits()), self.distance())
        p.set(opt.FEATURES, self.mode_box.currentData())
        p.set(opt.GROUPING, self.grouping_box.currentData())
        p.set(opt.VERIFY, self.verify_box.currentData())
        p.set(opt.MEASURE, "template" if self.template_check.isChecked() else "plain")
        p.set(opt.SIMILARITY_PERCENT, self.threshold_box.value())
        p.set(opt.INCLUDE, self.include_edit.text())
        p.set(opt.EXCLUDE, self.exclude_edit.text())
        p.set(opt.MIN_SIZE, self.min_size.value())
        p.set(opt.MAX_SIZE_MB, self.max_size.value())
        p.set(opt.FOLLOW_SYMLINKS, self.follow_links.isChecked())
        p.set(opt.DOCUMENTS, self.documents_check.isChecked())
        p.set(opt.SCHEDULER, self.scheduler_edit.text().strip())

    def bits(self) -> int:
        return int(self.bits_box.currentData())

    def distance(self) -> int:
        return self.distance_box.value()

    def review_settings(self) -> ReviewSettings:
        return ReviewSettings(
            bits=self.bits(), distance=self.distance(), features=self.mode_box.currentData(),
            grouping=self.grouping_box.currentData(), verify=self.verify_box.currentData(),
            measure="template" if self.template_check.isChecked() else "plain",
            similarity=self.threshold_box.value() / 100,
            include=tuple(self.include_edit.text().split()),
            exclude=tuple(self.exclude_edit.text().split()), min_size=self.min_size.value(),
            max_size=self.max_size.value() << 20 or None,
            follow_symlinks=self.follow_links.isChecked(),
            documents=self.documents_check.isChecked(),
            scheduler=self.scheduler_edit.text().strip())

    def settings_problem(self) -> str:
        """Why the settings cannot be scanned with, naming the field to change ("" if fine)."""
        if self.max_size.value() and self.max_size.value() << 20 < self.min_size.value():
            return self.tr("The maximum size is below the minimum size: raise \"Maximum size\" "
                           "or lower \"Minimum size\" in Settings.")
        text = self.scheduler_edit.text().strip()
        if text:
            try:
                parse_scheduler(text)
            except SchedulerError:
                return self.tr("\"Dask scheduler\" in Settings must be empty (this machine), "
                               "local:N (N workers here) or an address such as "
                               "tcp://host:8786, not \"{0}\".").format(text)
        return ""

    def show_size(self, bits: int, distance: int) -> None:
        """Show a size and distance set elsewhere (loaded results), regrouping nothing."""
        for box in (self.bits_box, self.distance_box):
            box.blockSignals(True)
        self.bits_box.setCurrentIndex(self.bits_box.findData(bits))
        self.distance_box.setMaximum(bits)
        self.distance_box.setValue(distance)
        for box in (self.bits_box, self.distance_box):
            box.blockSignals(False)
        self.update_hint()

    def _bits_changed(self, _i) -> None:
        b = self.bits()
        self.distance_box.blockSignals(True)
        self.distance_box.setMaximum(b)
        self.distance_box.setValue(self.prefs.get(opt.distance_option(b)))
        self.distance_box.blockSignals(False)
        self.update_hint()
        self.settingsChanged.emit()

    def _distance_changed(self, _v) -> None:
        self.prefs.set(opt.distance_option(self.bits()), self.distance())
        self.update_hint()
        self.settingsChanged.emit()

    def _enable_for_verify(self) -> None:
        verified = self.verify_box.currentData() != "none"
        self.threshold_box.setEnabled(verified)
        self.template_check.setEnabled(verified)
        self.grouping_box.setEnabled(not verified)

    def _verify_changed(self, _i) -> None:
        self._enable_for_verify()
        self.update_hint()
        self.settingsChanged.emit()

    def recolour(self) -> None:
        """The warning in the scheme's colour (light or dark, as the window is painted)."""
        self.chance_label.setStyleSheet(f"color: {colours.current().warning}")

    def update_hint(self) -> None:
        verify = self.verify_box.currentData()
        self.similarity_label.setText(distance_hint(self.bits(), self.distance(), verify))
        warning = " ".join(filter(None, (
            chance_warning(self.file_count, self.bits(), self.distance(), verify),
            scale_warning(self.file_count, self.scheduler_edit.text()))))
        self.chance_label.setText(warning)
        self.settings_form.setRowVisible(self.chance_label, bool(warning))

    def set_file_count(self, files: int) -> None:
        """The number of files scanned, which the chance warning depends on."""
        self.file_count = files
        self.update_hint()

    # ---- running -------------------------------------------------------------------
    def choose_folder(self) -> None:
        d = dialogs.pick_folder(self, self.tr("Add a folder to scan"))
        if d:
            self.folders.add_folder(d)

    def set_running(self, running: bool, text: str = "") -> None:
        self.scan_btn.setEnabled(not running)
        self.cancel_btn.setEnabled(running)
        if running:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 1)
            self.progress.setValue(1)
            self.progress.setFormat("")
        if text:
            self.progress_label.setText(text)

    def show_progress(self, view: ProgressView) -> None:
        self.progress.setRange(0, view.total)
        if view.total:
            self.progress.setValue(view.done)
            self.progress.setFormat(view.bar_format)
        self.progress_label.setText(view.text)
