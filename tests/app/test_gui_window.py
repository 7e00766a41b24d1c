"""The main window driven as a user would, under QT_QPA_PLATFORM=offscreen."""

import os
import shutil
from pathlib import Path

import pytest

from simdup_gui.core.defaults import DEFAULT_DISTANCE

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QAbstractItemModelTester  # noqa: E402

from simdup_gui.app.tree_models import RECORD_ROLE  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402

from tests.conftest import EN, OTHER, ZH  # noqa: E402

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings, tmp_path):
    def make(roots, **kw):
        w = MainWindow(roots=[str(r) for r in roots], settings=settings, language="en", **kw)
        qtbot.addWidget(w)
        w.show()
        return w

    return make


def scan(qtbot, w, timeout=60_000):
    with qtbot.waitSignal(w.scanFinished, timeout=timeout) as blocker:
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning(), timeout=5000)
    return blocker.args[0]


def group_names(w):
    out = []
    for g in w.model.groups:
        out.append(sorted(os.path.basename(w.records[m.index].path) for m in g.members))
    return sorted(out)


def test_full_scan_of_the_demo_through_the_window(qtbot, window):
    w = window([DEMO])
    result = scan(qtbot, w)
    assert not result.cancelled
    assert len(w.model.groups) == 4
    assert ["笔记_整理文件.txt", "笔记_整理文件_GBK副本.txt", "笔记_整理文件_改过错字.txt",
            "转载_整理文件.txt"] in group_names(w)
    assert w.problems_model.rowCount() == 2
    assert "4 groups" in w.status_label.text()


def test_regrouping_on_a_size_change_does_not_rescan(qtbot, window, monkeypatch):
    w = window([DEMO])
    scan(qtbot, w)
    from simdup_gui.core import session as session_module

    monkeypatch.setattr(session_module, "scan", lambda *a, **k: pytest.fail("rescanned"))
    with qtbot.waitSignal(w.groupsChanged):
        w.bits_box.setCurrentIndex(w.bits_box.findData(128))
    assert w.model.bits == 128
    assert w.distance() == DEFAULT_DISTANCE[128]
    assert len(w.model.groups) == 4
    with qtbot.waitSignal(w.groupsChanged):
        w.distance_box.setValue(0)
    # at k=0 only identical fingerprints stay together
    for g in w.model.groups:
        assert all(m.distance == 0 for m in g.members)


def test_cancel_mid_scan_keeps_what_was_done(qtbot, window, tmp_path):
    for i in range(400):
        (tmp_path / f"f{i:03d}.txt").write_text(EN + OTHER + str(i), encoding="utf-8")
    w = window([tmp_path])
    w.scan_options = lambda: __import__("simdup_gui.core.scan.pipeline", fromlist=["ScanOptions"]).ScanOptions(
        use_cache=False, workers=1)
    seen = []

    def on_progress(ev):
        seen.append(ev)
        if ev.phase == "fingerprint" and ev.files_done >= 64 and w.worker:
            w.request_cancel(confirm=False)

    with qtbot.waitSignal(w.scanFinished, timeout=60_000) as blocker:
        w.start_scan()
        w.worker.signals.progress.connect(on_progress)
    result = blocker.args[0]
    assert result.cancelled
    assert 0 < len(result.records) < 400
    assert w.records == result.records
    assert "Cancelled" in w.progress_label.text()


def test_a_cancelled_rescan_keeps_the_previous_results_and_marks(qtbot, window, tmp_path):
    """Cancel during a re-scan threw away the complete previous results (188 groups and
    485 marks became 62 and 155): the results and marks stay as they were."""
    (tmp_path / "docs").mkdir()
    for i in range(300):
        (tmp_path / "docs" / f"f{i:03d}.txt").write_text(EN + OTHER + str(i), encoding="utf-8")
    w = window([tmp_path / "docs"])
    w.scan_options = lambda: __import__("simdup_gui.core.scan.pipeline", fromlist=["ScanOptions"]).ScanOptions(
        use_cache=False, workers=1)
    scan(qtbot, w)
    records, groups = list(w.records), list(w.session.groups)
    assert len(records) == 300 and groups
    marked = {w.records[m.index].path for m in groups[0].members[1:]}
    w.session.set_marks(marked)

    def on_progress(ev):
        if ev.phase == "fingerprint" and ev.files_done >= 64 and w.worker:
            w.request_cancel(confirm=False)

    with qtbot.waitSignal(w.scanFinished, timeout=60_000) as blocker:
        w.start_scan()
        w.worker.signals.progress.connect(on_progress)
    assert blocker.args[0].cancelled and len(blocker.args[0].records) < 300
    assert w.records == records and w.session.groups == groups
    assert w.session.marks == marked
    assert "previous results are kept" in w.progress_label.text()


def test_tree_model_passes_qt_model_tester(qtbot, window):
    w = window([DEMO])
    scan(qtbot, w)
    tester = QAbstractItemModelTester(
        w.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    w.tree.expandAll()
    w.tree.setCurrentIndex(w.model.file_index(1, 1))
    rec = w.tree.currentIndex().data(RECORD_ROLE)
    w.model.sort(2, Qt.SortOrder.DescendingOrder)
    sizes = [sum(w.records[m.index].size for m in w.model.groups[gi].members)
             for gi, _ in w.model.rows]
    assert sizes == sorted(sizes, reverse=True)
    assert w.tree.currentIndex().data(RECORD_ROLE) == rec  # the selection follows the file
    for _, members in w.model.rows:
        s = [w.records[m.index].size for m in members]
        assert s == sorted(s, reverse=True)
    w.filter_edit.setText("REPORT")
    assert w.model.shown_group_count() == 1
    w.filter_edit.setText("")
    assert w.model.shown_group_count() == 4
    assert tester


def test_selecting_a_file_shows_its_bit_diff_and_text_diff(qtbot, window, tmp_path):
    (tmp_path / "a.txt").write_text(EN, encoding="utf-8")
    (tmp_path / "b.txt").write_text(EN.replace("five places", "six places", 1), encoding="utf-8")
    (tmp_path / "c.txt").write_text(ZH, encoding="utf-8")
    w = window([tmp_path])
    scan(qtbot, w)
    assert len(w.model.groups) == 1
    g = w.model.groups[0]
    other = next(m for m in g.members if m.index != g.representative)
    for child in range(w.model.member_count(0)):
        idx = w.model.file_index(0, child)
        if idx.data(RECORD_ROLE) == other.index:
            w.tree.setCurrentIndex(idx)
    d = w.bitdiff.diff
    a = w.records[g.representative].fingerprint & ((1 << 64) - 1)
    b = w.records[other.index].fingerprint & ((1 << 64) - 1)
    assert d.distance == (a ^ b).bit_count() == other.distance
    assert set(d.differing) == {i for i in range(64) if ((a ^ b) >> i) & 1}
    assert d.hex_a == f"{a:016x}" and d.hex_b == f"{b:016x}"
    assert (d.columns, d.rows) == (8, 8)
    assert w.textdiff.changed_rows() >= 1
    html = w.textdiff.right.toHtml()
    assert "six" in html


def test_language_switch_translates_the_interface(qtbot, window):
    w = window([DEMO])
    assert w.scan_btn.text() == "Scan"
    w.set_language("zh_CN")
    assert w.scan_btn.text() == "扫描"
    assert w.model.headerData(0, Qt.Orientation.Horizontal) == "名称"
    assert w.accuracy_tab.run_button.text() == "运行"
    assert w.actions.act_undo.text() == "撤销上一次操作"
    w.set_language("en")
    assert w.scan_btn.text() == "Scan"
    assert w.accuracy_tab.run_button.text() == "Run"


def test_folders_and_settings_are_remembered(qtbot, settings, tmp_path):
    w = MainWindow(roots=[str(DEMO)], settings=settings, language="en")
    qtbot.addWidget(w)
    w.bits_box.setCurrentIndex(w.bits_box.findData(32))
    w.distance_box.setValue(3)
    w.close()
    w2 = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w2)
    assert w2.folders.folders() == [str(DEMO)]
    assert (w2.bits(), w2.distance()) == (32, 3)


def test_startup_arguments_fill_the_folder_list(qtbot, settings):
    from simdup_gui.app.main import parse_args

    args = parse_args([str(DEMO), "--bits", "128", "--distance", "12", "--scan"])
    w = MainWindow(roots=args.roots, bits=args.bits, distance=args.distance, settings=settings,
                   language="en")
    qtbot.addWidget(w)
    assert args.scan
    assert w.folders.folders() == [str(DEMO)] and (w.bits(), w.distance()) == (128, 12)
    with pytest.raises(SystemExit):
        parse_args(["--bits", "48"])


def test_settings_from_the_command_line_apply_to_that_run_only(qtbot, settings):
    """`simdup-gui --bits 16` must not make 16 bits the saved default; a change the user
    makes in the window during that run is saved as usual."""
    w = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w)
    w.bits_box.setCurrentIndex(w.bits_box.findData(32))
    w.distance_box.setValue(4)
    w.close()
    w = MainWindow(bits=16, distance=2, settings=settings, language="en")
    qtbot.addWidget(w)
    assert (w.bits(), w.distance()) == (16, 2)
    w.close()
    w = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w)
    assert (w.bits(), w.distance()) == (32, 4)  # the saved choice, not the run's
    w.close()
    w = MainWindow(bits=128, settings=settings, language="en")
    qtbot.addWidget(w)
    w.bits_box.setCurrentIndex(w.bits_box.findData(64))  # the user's own change
    w.close()
    w = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w)
    assert w.bits() == 64


def test_dropping_a_folder_adds_it(qtbot, window, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    w = window([])
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path))])
    ev = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    w.folders.dropEvent(ev)
    assert w.folders.folders() == [str(tmp_path)]


_ = shutil


def test_large_collections_are_grouped_off_the_gui_thread(qtbot, window, monkeypatch):
    import random

    from simdup_gui.app import window as window_module
    from simdup_gui.core.models import FileRecord

    monkeypatch.setattr(window_module, "REGROUP_IN_WORKER_ABOVE", 100)
    rng = random.Random(4)
    recs = []
    for i in range(150):
        f = rng.getrandbits(128)
        recs += [FileRecord(f"/x/{i}_{j}.txt", 10, 1, i, 1, "/x", "utf-8", f ^ j, 50, "t", "c")
                 for j in range(2)]
    w = window([])
    w.verify_box.setCurrentIndex(w.verify_box.findData("none"))  # these records have no text
    w.records = recs
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w.regroup()
        assert w.model.groups == []  # not done synchronously
        w.distance_box.setValue(1)  # a change while grouping is queued, then applied
    qtbot.waitUntil(lambda: not w.session.regrouping, timeout=30_000)
    qtbot.waitUntil(lambda: len(w.model.groups) == 150, timeout=30_000)
    assert w.model.bits == 64


def test_a_background_grouping_reads_on_as_many_processes_as_a_scan(qtbot, window,
                                                                    monkeypatch):
    """The app's grouping after a scan (and any regroup past REGROUP_IN_WORKER_ABOVE files)
    reads its doubtful pairs' files on the scan's number of processes, as the CLI does;
    a small regroup on the GUI thread keeps one."""
    from simdup_gui.app import window as window_module
    from simdup_gui.core.models import FileRecord
    from simdup_gui.core.session import GroupingRequest

    seen: list[int] = []
    run = GroupingRequest.run
    monkeypatch.setattr(GroupingRequest, "run",
                        lambda self, **kw: (seen.append(self.read_workers), run(self, **kw))[1])
    recs = [FileRecord(f"/x/{i}.txt", 10, 1, i, 1, "/x", "utf-8", i << 40, 50, "t", "c")
            for i in range(40)]
    w = window([])
    w.verify_box.setCurrentIndex(w.verify_box.findData("none"))  # these records have no text
    monkeypatch.setattr(os, "cpu_count", lambda: 3)  # (the app's workers: one per core)
    w.records = recs
    monkeypatch.setattr(window_module, "REGROUP_IN_WORKER_ABOVE", 10)
    seen.clear()  # (the window's own groupings as it was set up)
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w.regroup()
    monkeypatch.setattr(window_module, "REGROUP_IN_WORKER_ABOVE", 100)
    w.regroup()  # on the GUI thread
    assert seen == [3, 1]


def test_the_template_switch_regroups_and_is_remembered(qtbot, settings, tmp_path):
    """Settings: "Keep documents made from one template apart" (off by default) is the
    session's measure, regroups when toggled, and is saved."""
    w = MainWindow(roots=[str(DEMO)], settings=settings, language="en")
    qtbot.addWidget(w)
    assert not w.panel.template_check.isChecked() and w.session.settings.measure == "plain"
    with qtbot.waitSignal(w.panel.settingsChanged, timeout=5_000):
        w.panel.template_check.setChecked(True)
    w._sync_settings()
    assert w.session.settings.measure == "template"
    w.close()
    w2 = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w2)
    assert w2.panel.template_check.isChecked()
