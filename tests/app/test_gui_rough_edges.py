"""Issue 13's rough edges, driven through the window as a user would (pytest-qt, offscreen)."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QHeaderView, QMessageBox  # noqa: E402

from simdup_gui.app import options as opt  # noqa: E402
from simdup_gui.app.main import display_problem  # noqa: E402
from simdup_gui.app.tree_models import RECORD_ROLE  # noqa: E402
from tests.app.conftest import scan  # noqa: E402
from tests.conftest import EN, OTHER  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


# 1 -------------------------------------------------------------------------------------
def test_without_a_display_the_app_says_so_in_one_line_and_exits_2(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    p = subprocess.run([sys.executable, "-m", "simdup_gui", str(DEMO), "--scan"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "xvfb-run" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]


def test_missing_x11_libraries_are_named_by_their_debian_packages():
    msg = display_problem({"DISPLAY": ":0"}, "linux",
                          loads=lambda so: so != "libxcb-cursor.so.0")
    assert msg and "libxcb-cursor0" in msg and "libxkbcommon-x11-0" not in msg
    assert display_problem({"DISPLAY": ":0"}, "linux", loads=lambda so: True) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({}, "darwin") is None


# 2 -------------------------------------------------------------------------------------
def test_ctrl_z_undoes_while_the_distance_box_has_focus_and_says_what_it_did(
        qtbot, reviewed, answers, tmp_path):
    w = reviewed
    w.actions.mark_all_but_one("oldest")
    marked = set(w.model.marks)
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
        w.actions.act_on_marked("move", move_to=str(tmp_path / "dups"))
    qtbot.waitUntil(lambda: w.actions.worker is None)
    assert not any(os.path.exists(p) for p in marked)
    w.activateWindow()
    w.distance_box.setFocus()
    qtbot.waitUntil(lambda: w.distance_box.hasFocus())
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        qtbot.keyClick(w.distance_box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: w.actions.worker is None)
    assert blocker.args[0].action == "undo"
    assert all(os.path.exists(p) for p in marked)
    assert w.statusBar().currentMessage() == "Undo: 2 put back"
    assert w.model.marks == marked  # undo restores the marks too (item 8)


def test_undo_while_busy_and_with_nothing_to_undo_both_say_so(qtbot, reviewed):
    w = reviewed
    w.worker = object()  # a scan under way
    w.actions.undo_last()
    assert "Cannot undo now" in w.statusBar().currentMessage()
    w.worker = None
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
        w.actions.undo_last()
    qtbot.waitUntil(lambda: w.actions.worker is None)
    assert w.statusBar().currentMessage() == "Undo: nothing to do"


def test_a_text_field_keeps_its_own_undo_while_it_has_typing_to_undo(qtbot, reviewed):
    w = reviewed
    w.activateWindow()
    w.panel.include_edit.setFocus()
    qtbot.waitUntil(lambda: w.panel.include_edit.hasFocus())
    qtbot.keyClicks(w.panel.include_edit, "*.md")
    qtbot.keyClick(w.panel.include_edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.panel.include_edit.text() == "" and w.actions.worker is None


# 3 -------------------------------------------------------------------------------------
def test_switching_language_leaves_no_english_behind(qtbot, reviewed):
    w = reviewed
    assert w.progress_label.text().startswith("Scanned 5 files")
    w.tree.setCurrentIndex(w.model.file_index(0, 1))
    assert "line endings" in w.textdiff.info_b.text()
    w.set_language("zh_CN")
    assert w.progress_label.text().startswith("扫描了 5 个文件")
    assert "line endings" not in w.textdiff.info_b.text()
    assert "换行符" in w.textdiff.info_b.text()


def test_the_lab_status_is_all_chinese_in_chinese(qtbot, make, tmp_path):
    from simdup_gui.core.job import Job
    from simdup_gui.core.lab.experiment import EvalOptions, TruthSpec, run_eval
    from simdup_gui.core.lab.synth import generate_corpus

    generate_corpus(6, seed=2).write(str(tmp_path / "c"))
    report = run_eval(Job(), str(tmp_path / "c"), TruthSpec("reference", threshold=0.7),
                      EvalOptions(bits=(64,), workers=1))
    w = make([], language="zh_CN")
    w.accuracy_tab.show_report(report)
    text = w.accuracy_tab.status.text()
    assert "参照" in text and not any(word in text for word in ("reference", "sampling",
                                                                  "pairs", "files"))


# 4 -------------------------------------------------------------------------------------
def test_follow_symbolic_links_and_maximum_size_are_settings(qtbot, make, tmp_path):
    src, elsewhere = tmp_path / "src", tmp_path / "elsewhere"
    src.mkdir()
    elsewhere.mkdir()
    (src / "a.txt").write_text(EN)
    (elsewhere / "b.txt").write_text(EN.replace("five", "six", 1))
    (src / "link.txt").symlink_to(elsewhere / "b.txt")
    (src / "big.txt").write_text(OTHER * 2000)  # about 1.6 MB
    w = make([src])
    scan(qtbot, w)
    reasons = [w.problems_model.index(r, 1).data() for r in range(w.problems_model.rowCount())]
    link = next(r for r in reasons if "symbolic link" in r)
    assert "--" not in link and '"Follow symbolic links"' in link
    assert len(w.model.groups) == 0
    w.panel.follow_links.setChecked(True)
    w.panel.max_size.setValue(1)  # MB
    scan(qtbot, w)
    assert len(w.model.groups) == 1
    reasons = [w.problems_model.index(r, 1).data() for r in range(w.problems_model.rowCount())]
    assert any('"Maximum size"' in r and "1.0 MB" in r for r in reasons)
    w.panel.save()
    assert w.prefs.get(opt.FOLLOW_SYMLINKS) and w.prefs.get(opt.MAX_SIZE_MB) == 1


# 5 -------------------------------------------------------------------------------------
def chart_texts(chart):
    from PySide6.QtGui import QTextDocument

    out = []
    for item in chart.scene().items():
        obj = item.toGraphicsObject()
        if obj is not None and item.isVisible():
            out += [d.toPlainText() for d in obj.findChildren(QTextDocument)]
    return out


def test_best_f1_chart_axis_labels_are_not_cut_on_first_render(qtbot, make, tmp_path):
    from simdup_gui.core.job import Job
    from simdup_gui.core.lab.experiment import EvalOptions, TruthSpec, run_eval
    from simdup_gui.core.lab.synth import generate_corpus

    generate_corpus(6, seed=2).write(str(tmp_path / "c"))
    report = run_eval(Job(), str(tmp_path / "c"), TruthSpec("synthetic"),
                      EvalOptions(workers=1))
    w = make([])
    w.tabs.setCurrentIndex(2)
    w.accuracy_tab.show_report(report)
    qtbot.waitUntil(lambda: "16 bits" in chart_texts(w.accuracy_tab.best_chart))
    texts = chart_texts(w.accuracy_tab.best_chart)
    assert {"16 bits", "32 bits", "64 bits", "128 bits", "0.0", "1.0"} <= set(texts)
    assert not any(t.endswith("...") for t in texts)


# 6 -------------------------------------------------------------------------------------
def test_the_folder_column_stretches_to_the_view(qtbot, reviewed):
    w = reviewed
    header = w.tree.header()
    # given the room the other columns leave (column_widths.py), not dragged itself
    assert header.sectionResizeMode(1) == QHeaderView.ResizeMode.Fixed
    qtbot.waitUntil(lambda: sum(header.sectionSize(c) for c in range(header.count())
                                if not header.isSectionHidden(c))
                    == w.tree.viewport().width())


def test_a_regroup_keeps_expansion_sort_and_selection(qtbot, reviewed):
    w = reviewed
    w.tree.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    zh_group = next(r for r in range(w.model.shown_group_count())
                    if any("zh" in w.records[m.index].path for m in w.model.rows[r][1]))
    w.tree.collapse(w.model.group_index(1 - zh_group))  # the English group collapsed
    pick = w.model.file_index(zh_group, 1)
    path = w.records[pick.data(RECORD_ROLE)].path
    w.tree.setCurrentIndex(pick)
    with qtbot.waitSignal(w.groupsChanged):
        w.threshold_box.setValue(w.threshold_box.value() - 5)
    with qtbot.waitSignal(w.groupsChanged):
        w.distance_box.setValue(w.distance() + 1)
    assert w.tree.header().sortIndicatorSection() == 2
    assert w.tree.header().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    sizes = [sum(w.records[m.index].size for m in w.model.groups[g].members)
             for g, _ in w.model.rows]
    assert sizes == sorted(sizes, reverse=True)
    cur = w.tree.currentIndex()
    assert cur.isValid() and w.records[cur.data(RECORD_ROLE)].path == path
    assert [w.records[i].path for i in w.groups_view.selected_records()] == [path]
    expanded = {r: w.tree.isExpanded(w.model.group_index(r))
                for r in range(w.model.shown_group_count())}
    zh_row = w.model.group_row(cur)
    assert expanded[zh_row] and not expanded[1 - zh_row]


# 7 -------------------------------------------------------------------------------------
def test_small_fingerprints_warn_beside_the_settings(qtbot, reviewed):
    w = reviewed
    label = w.panel.chance_label
    assert not w.panel.settings_form.isRowVisible(label)
    with qtbot.waitSignal(w.groupsChanged):
        w.bits_box.setCurrentIndex(w.bits_box.findData(16))
    w.distance_box.setValue(8)
    assert w.panel.settings_form.isRowVisible(label)
    assert "16 bits" in label.text() and "5 files" in label.text()
    w.bits_box.setCurrentIndex(w.bits_box.findData(128))
    assert not w.panel.settings_form.isRowVisible(label)


# 8 -------------------------------------------------------------------------------------
def test_the_move_dialog_names_its_answers(qtbot, reviewed, answers, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    w = reviewed
    dest = tmp_path / "dups"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(dest))
    w.actions.mark_all_but_one("oldest")
    answers.answers = ["Put all files in one folder"]
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
        assert w.actions.act_on_marked("move")
    qtbot.waitUntil(lambda: w.actions.worker is None)
    layout, confirm = answers.shown[:2]
    assert {b.text() for b in layout.buttons()} >= {"Keep folder structure",
                                                     "Put all files in one folder"}
    assert not {b.text() for b in layout.buttons()} & {"&Yes", "&No", "Yes", "No"}
    assert sorted(os.listdir(dest)) == ["en copy.txt", "zh_gbk.txt"]  # flat
    assert confirm.defaultButton() is confirm.escapeButton()  # Cancel


def test_destructive_confirmations_default_to_cancel(qtbot, reviewed, answers):
    w = reviewed
    w.actions.mark_all_but_one("oldest")
    for action in ("delete", "trash"):
        answers.answers = ["&Cancel"]
        assert not w.actions.act_on_marked(action, dry_run=False)
        box = answers.shown[-1]
        assert box.standardButton(box.defaultButton()) == QMessageBox.StandardButton.Cancel
        assert any(b.text().startswith(("Delete 2 files", "Send 2 files"))
                   for b in box.buttons())
    assert all(os.path.exists(p) for p in w.model.marks)


def test_export_says_where_it_saved_and_a_failure_names_the_file_once(
        qtbot, reviewed, monkeypatch, tmp_path):
    w = reviewed
    monkeypatch.chdir(tmp_path)
    assert w.actions.export_to("groups.csv", "csv")  # started, on the pool
    qtbot.waitUntil(lambda: not w.actions.files.writing(), timeout=30000)
    msg = w.statusBar().currentMessage()
    assert str(tmp_path / "groups.csv") in msg and "2 groups" in msg
    assert not w.status_label.isVisible()  # the message is shown in its place, not beside it
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert w.actions.export_to("/proc/nope/x.csv", "csv")  # started; fails on the pool
    qtbot.waitUntil(lambda: not w.actions.files.writing(), timeout=30000)
    assert shown and shown[0].count("/proc/nope/x.csv") == 1 and "Errno" not in shown[0]



def test_results_are_saved_on_the_pool_from_a_snapshot(qtbot, reviewed, monkeypatch, tmp_path):
    """Save and Export run on the pool (saving 100,000 records took 2 s of a frozen window,
    and syncing even a small file to a busy disk 156 ms): the file holds the results as they
    were when asked for, even if marks change meanwhile; the status bar and Recent results
    say so after."""
    from simdup_gui.app import files_ui
    from simdup_gui.core.review.export import load_results

    w = reviewed
    files = w.actions.files
    path = w.session.records[0].path
    w.model.set_marks({path})
    gate = threading.Event()
    real = files_ui.save_results
    monkeypatch.setattr(files_ui, "save_results", lambda *a: gate.wait(30) and real(*a))
    out = tmp_path / "big.json"
    assert files.write(str(out))
    assert files.writing() and not out.exists()
    assert not files.write(str(tmp_path / "second.json"))  # one at a time, and said so
    assert "Still writing" in w.statusBar().currentMessage()
    w.model.set_marks(set())  # the review goes on; the file keeps what was asked for
    gate.set()
    qtbot.waitUntil(lambda: not files.writing(), timeout=30000)
    assert load_results(str(out)).marks == {path}
    assert str(out) in w.statusBar().currentMessage()
    assert str(out) in [a.toolTip() for a in w.recent.results_menu.actions()]
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    monkeypatch.setattr(files_ui, "save_results", real)
    assert w.actions.export_to("/proc/nope/x.csv", "csv")  # started; fails on the pool
    qtbot.waitUntil(lambda: not files.writing(), timeout=30000)
    assert shown and shown[0].count("/proc/nope/x.csv") == 1


def test_large_results_are_marked_on_the_pool_and_no_click_meanwhile_is_lost(
        qtbot, reviewed, monkeypatch):
    """Above MARK_IN_WORKER_ABOVE records, Mark all but one and Invert are computed on the
    pool (100,000 files: half a second of a frozen window); a mark clicked meanwhile is not
    overwritten by the snapshot's result: the marks are computed again from it."""
    from simdup_gui.app import remark
    from simdup_gui.core.act import marking

    w = reviewed
    monkeypatch.setattr(remark, "MARK_IN_WORKER_ABOVE", 0)
    gate = threading.Event()
    on_window = []  # runs on the window's thread

    def gated(real):
        def run(*a, **k):
            if threading.current_thread() is not threading.main_thread():
                assert gate.wait(30)
            else:
                on_window.append(real.__name__)
            return real(*a, **k)
        return run
    monkeypatch.setattr(marking, "mark_all_but_one", gated(marking.mark_all_but_one))
    monkeypatch.setattr(marking, "invert_marks", gated(marking.invert_marks))
    grouped = {w.records[m.index].path for g in w.session.groups for m in g.members}
    w.actions.mark_all_but_one("oldest")
    assert w.actions.remarker.busy() and not w.session.marks  # computing on the pool
    assert not w.actions.remarker.run(w.session.inverted_marks())  # nothing else starts
    gate.set()
    qtbot.waitUntil(lambda: not w.actions.remarker.busy(), timeout=30_000)
    kept = grouped - w.session.marks
    assert len(w.session.marks) == len(w.session.groups) == len(kept)  # one of each pair
    gate.clear()
    w.actions.invert()
    assert w.actions.remarker.busy()
    clicked = sorted(kept)[0]
    w.model.set_marks(w.session.marks | {clicked})  # a check box ticked meanwhile
    gate.set()
    qtbot.waitUntil(lambda: not w.actions.remarker.busy(), timeout=30_000)
    # inverted from the marks of then: the ticked file unmarked, the other kept one marked
    assert w.session.marks == kept - {clicked}
    assert w.model.marks == w.session.marks
    assert on_window == []  # the second computation ran on the pool too

# 9 -------------------------------------------------------------------------------------
def test_the_translations_ship_inside_the_package():
    from importlib import resources

    qm = resources.files("simdup_gui").joinpath("resources", "i18n", "simdup_zh_CN.qm")
    assert qm.is_file()
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "resources/i18n/*.qm" in text


def test_a_language_that_cannot_be_loaded_is_reported(qtbot, make, monkeypatch, capsys):
    from simdup_gui.app import i18n

    w = make([])
    monkeypatch.setattr(i18n, "I18N_PATH", ("resources", "nowhere"))
    assert not w.set_language("zh_CN")
    assert w.language == "en" and w.scan_btn.text() == "Scan"
    assert "Cannot load the 简体中文 translation" in w.statusBar().currentMessage()
    assert "simdup_zh_CN.qm" in capsys.readouterr().err


# issue 11, GUI part --------------------------------------------------------------------
@pytest.mark.slow
def test_scanning_on_a_local_dask_cluster_from_the_settings(qtbot, make, tmp_path):
    pytest.importorskip("distributed")
    (tmp_path / "a.txt").write_text(EN)
    (tmp_path / "b.txt").write_text(EN.replace("five", "six", 1))
    w = make([tmp_path])
    w.panel.scheduler_edit.setText("local:1")
    assert w.scan_options().scheduler == "local:1"
    with qtbot.waitSignal(w.scanFinished, timeout=120_000):
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning(), timeout=30_000)
    assert len(w.model.groups) == 1


def test_scheduler_errors_are_a_message_never_a_traceback(qtbot, make, tmp_path, monkeypatch):
    from simdup_gui.core.scan import distributed

    (tmp_path / "a.txt").write_text(EN)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append("BUG " + a[2]))
    w = make([tmp_path])
    w.panel.scheduler_edit.setText("local:x")
    w.start_scan()
    assert not w.is_scanning()
    assert shown[-1].startswith('"Dask scheduler" in Settings') and "--" not in shown[-1]

    def no_dask():
        raise distributed.SchedulerError('scanning on a Dask cluster needs Dask: '
                                         'pip install "simdup[dask]"')

    monkeypatch.setattr(distributed, "require_dask", no_dask)
    w.panel.scheduler_edit.setText("local:1")
    w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning(), timeout=60_000)
    assert shown[-1] == 'scanning on a Dask cluster needs Dask: pip install "simdup[dask]"'
    assert "The scan failed." in w.progress_label.text()



def test_widths_kept_from_another_language_never_cut_a_column_title(qtbot, reviewed):
    """Column widths restored from a run in Chinese (距离 is narrow) are the user's and stay,
    but a column narrower than its title in this language is widened to show it whole,
    after a scan's groups show and after a language switch."""
    from simdup_gui.core.presenters.tree import COL_DISTANCE, COL_SIMILARITY

    w = reviewed
    header = w.tree.header()
    for col in (COL_DISTANCE, COL_SIMILARITY):
        w.groups_view.widths.set_user_width(col, 12)
    w.groups_view.shown_groups_changed(w.model.shown_group_count())
    for col in (COL_DISTANCE, COL_SIMILARITY):
        assert w.tree.columnWidth(col) >= header.sectionSizeHint(col) > 12
    w.set_language("zh_CN")
    w.tree.setColumnWidth(COL_DISTANCE, 12)
    w.set_language("en")
    assert w.tree.columnWidth(COL_DISTANCE) >= header.sectionSizeHint(COL_DISTANCE) > 12
