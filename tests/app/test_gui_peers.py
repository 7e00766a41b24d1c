"""Issue 13's "what peers' users expect": the ignore list, views, keys (pytest-qt, offscreen)."""

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDesktopServices  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from simdup_gui.app.results_ui import IgnoreListDialog  # noqa: E402
from simdup_gui.app.tree_models import RECORD_ROLE  # noqa: E402
from simdup_gui.core.group.ignore import default_path  # noqa: E402
from simdup_gui.core.presenters.tree import COL_AGE_DELTA, COL_SIZE_DELTA  # noqa: E402
from tests.app.conftest import scan  # noqa: E402


def shown_paths(w):
    return {w.records[m.index].path for _, members in w.model.rows for m in members}


def select_file(w, path):
    m = w.model
    for row, (_, members) in enumerate(m.rows):
        for child, x in enumerate(members):
            if w.records[x.index].path == path:
                return w.groups_view.show_file(row, child)
    raise AssertionError(path)


def zh_pair(w):
    return sorted(p for p in shown_paths(w) if "zh" in os.path.basename(p))


# 10 ------------------------------------------------------------------------------------
def test_not_duplicates_of_the_reference_is_remembered_for_the_next_scan(qtbot, reviewed, make):
    w = reviewed
    a, b = zh_pair(w)
    select_file(w, b)
    w.results_ui.act_ignore_pair.trigger()
    assert len(w.model.groups) == 1 and not {a, b} & shown_paths(w)
    saved = json.loads(Path(default_path()).read_text(encoding="utf-8"))
    assert saved["pairs"] == [sorted([a, b])]
    w.close()
    w2 = make([w.src])
    scan(qtbot, w2)
    assert len(w2.model.groups) == 1
    dialog = IgnoreListDialog(w2.session, w2)
    qtbot.addWidget(dialog)
    assert dialog.list.count() == 1 and "↔" in dialog.list.item(0).text()
    dialog.clear_all()
    assert dialog.list.count() == 0
    w2._show_groups()
    assert len(w2.model.groups) == 2


def test_ignore_a_file_and_remove_from_results_from_the_context_menu_actions(qtbot, reviewed):
    w = reviewed
    a, b = zh_pair(w)
    select_file(w, a)
    w.results_ui.act_remove.trigger()
    assert len(w.model.groups) == 1 and not os.path.exists(default_path())
    en = sorted(shown_paths(w))[0]
    select_file(w, en)
    w.results_ui.act_ignore_file.trigger()
    assert len(w.model.groups) == 0
    assert json.loads(Path(default_path()).read_text(encoding="utf-8"))["files"] == [en]
    assert "0 groups" in w.groups_view.summary.text()


def test_a_bad_ignore_list_is_a_warning_not_a_traceback(qtbot, make, tmp_path, capsys):
    os.makedirs(os.path.dirname(default_path()), exist_ok=True)
    with open(default_path(), "w") as f:
        f.write('{"version": 1, "files": [3]}')
    w = make([tmp_path])
    assert '"files" must be a list' in w.statusBar().currentMessage()
    assert "warning" in capsys.readouterr().out
    assert len(w.session.ignore) == 0



def test_duplicates_only_on_the_pool_keeps_expansion_and_selection(qtbot, reviewed, monkeypatch):
    """Large results are rebuilt on the pool when Duplicates only is toggled (100,000 files
    took 60-130 ms of the window's thread); the expanded groups and the selected file stay."""
    from simdup_gui.app import tree_models

    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 0)
    w = reviewed
    gv, m = w.groups_view, w.model
    gv.collapse_all()
    gi, members = m.rows[0]
    dup = w.records[[x.index for x in members if x.index != m.groups[gi].representative][0]].path
    select_file(w, dup)
    w.results_ui.act_dupes_only.setChecked(True)
    assert m.busy()  # rebuilt on the pool, the old rows shown meanwhile
    qtbot.waitUntil(lambda: not m.busy(), timeout=30_000)
    assert all(len(ms) == 1 for _, ms in m.rows)
    assert gv.view_state().current == dup and dup in gv.view_state().selected
    row = next(r for r, (g, _) in enumerate(m.rows) if g == gi)
    assert w.tree.isExpanded(m.group_index(row))
    w.results_ui.act_dupes_only.setChecked(False)
    qtbot.waitUntil(lambda: not m.busy(), timeout=30_000)
    assert sum(len(ms) for _, ms in m.rows) == 4 and gv.view_state().current == dup

# 11 ------------------------------------------------------------------------------------
def test_duplicates_only_hides_references_and_the_summary_follows_the_marks(qtbot, reviewed):
    w = reviewed
    assert w.groups_view.summary.text().startswith("2 groups · 0 marked")
    w.results_ui.act_dupes_only.setChecked(True)
    assert all(len(members) == 1 for _, members in w.model.rows)
    reps = {w.records[w.model.groups[gi].representative].path for gi, _ in w.model.rows}
    assert not reps & shown_paths(w)
    w.results_ui.act_dupes_only.setChecked(False)
    assert sum(len(ms) for _, ms in w.model.rows) == 4
    w.actions.mark_all_but_one("oldest")
    size = sum(r.size for r in w.records if r.path in w.model.marks)
    from simdup_gui.core.models import human_size

    assert f"2 marked, {human_size(size)} to reclaim" in w.groups_view.summary.text()


def test_delta_columns_show_and_hide_and_every_column_sorts(qtbot, reviewed):
    w = reviewed
    assert w.tree.isColumnHidden(COL_SIZE_DELTA)  # off by default: the folder needs the room
    w.results_ui.act_deltas.setChecked(True)
    assert not w.tree.isColumnHidden(COL_SIZE_DELTA)
    texts = {w.model.file_index(0, r, COL_SIZE_DELTA).data()
             for r in range(w.model.member_count(0))}
    assert "—" in texts and len(texts) == 2
    w.results_ui.act_deltas.setChecked(False)
    assert w.tree.isColumnHidden(COL_SIZE_DELTA) and w.tree.isColumnHidden(COL_AGE_DELTA)
    for col in range(w.model.columnCount()):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            w.tree.sortByColumn(col, order)
            qtbot.waitUntil(lambda: not getattr(w.model, "busy", lambda: False)())
            assert sum(len(ms) for _, ms in w.model.rows) == 4


# 13 ------------------------------------------------------------------------------------
def test_space_toggles_marks_delete_trashes_and_shift_delete_deletes(qtbot, reviewed, answers):
    w = reviewed
    w.activateWindow()
    w.tree.setFocus()
    qtbot.waitUntil(w.tree.hasFocus)
    a, b = zh_pair(w)
    select_file(w, b)
    qtbot.keyClick(w.tree, Qt.Key.Key_Space)
    assert w.model.marks == {b}
    qtbot.keyClick(w.tree, Qt.Key.Key_Space)
    assert w.model.marks == set()
    qtbot.keyClick(w.tree, Qt.Key.Key_Space)
    answers.answers = ["Cancel"]  # Delete: to the trash, as in file managers
    qtbot.keyClick(w.tree, Qt.Key.Key_Delete)
    box = answers.shown[-1]
    assert box.defaultButton().text() == "Cancel" and "trash" in box.text()
    assert "permanently" not in box.text() and os.path.exists(b)
    answers.answers = ["Cancel"]  # Shift+Delete: for good, and the question says so
    qtbot.keyClick(w.tree, Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier)
    box = answers.shown[-1]
    assert box.defaultButton().text() == "Cancel" and "permanently" in box.text()
    assert os.path.exists(b)
    answers.answers = [box.buttons()[0].text() if box.buttons()[0].text() != "Cancel"
                       else box.buttons()[1].text()]
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
        qtbot.keyClick(w.tree, Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier)
    assert not os.path.exists(b)


def test_space_in_the_distance_box_is_not_a_mark(qtbot, reviewed):
    w = reviewed
    a, b = zh_pair(w)
    select_file(w, b)
    w.activateWindow()
    w.distance_box.setFocus()
    qtbot.waitUntil(w.distance_box.hasFocus)
    qtbot.keyClick(w.distance_box, Qt.Key.Key_Space)
    qtbot.keyClick(w.distance_box, Qt.Key.Key_Delete)
    assert w.model.marks == set()


def test_arrows_move_between_files_and_groups_and_enter_opens(qtbot, reviewed, monkeypatch):
    opened = []
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    w = reviewed
    w.activateWindow()
    w.tree.setFocus()
    qtbot.waitUntil(w.tree.hasFocus)
    m = w.model
    w.tree.setCurrentIndex(m.group_index(0))
    qtbot.keyClick(w.tree, Qt.Key.Key_Down)
    first = w.tree.currentIndex().data(RECORD_ROLE)
    assert first is not None and first >= 0
    qtbot.keyClick(w.tree, Qt.Key.Key_Return)
    assert opened == [QUrl.fromLocalFile(w.records[first].path)]
    for _ in range(2):
        qtbot.keyClick(w.tree, Qt.Key.Key_Down)
    assert w.tree.currentIndex() == m.group_index(1)  # past the two files: the next group
    qtbot.keyClick(w.tree, Qt.Key.Key_Left)
    assert not w.tree.isExpanded(m.group_index(1))
    qtbot.keyClick(w.tree, Qt.Key.Key_Return)  # a group row: Enter opens it
    assert w.tree.isExpanded(m.group_index(1)) and len(opened) == 1


def test_mark_by_name_pattern(qtbot, reviewed, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    w = reviewed
    assert w.results_ui.act_pattern in w.actions.mark_menu.actions()
    assert w.results_ui.mark_matching("*GBK*")
    assert {os.path.basename(p) for p in w.model.marks} == {"zh_gbk.txt"}
    assert w.results_ui.mark_matching(r"^en\b", regex=True)
    assert {os.path.basename(p) for p in w.model.marks} == {"zh_gbk.txt", "en.txt", "en copy.txt"}
    assert not w.results_ui.mark_matching("(", regex=True)
    assert "regular expression" in shown[-1]


# 14 ------------------------------------------------------------------------------------
def test_recent_folders_and_results_are_in_the_file_menu(qtbot, reviewed, make, tmp_path):
    w = reviewed
    assert [a.toolTip() for a in w.recent.folders_menu.actions()] == [str(w.src)]
    saved = tmp_path / "r.json"
    assert w.actions.files.write(str(saved))
    qtbot.waitUntil(lambda: not w.actions.files.writing(), timeout=30000)
    for i in range(9):
        w.recent.add_folders([str(tmp_path / f"gone{i}")])
    w.recent.refresh()
    folders = w.recent.folders_menu.actions()
    assert len(folders) == 8 and folders[0].text().startswith("&1")
    assert not folders[0].isEnabled()  # a folder that is gone is greyed
    w.close()
    w2 = make([tmp_path])
    w2.recent.refresh()
    result = w2.recent.results_menu.actions()[0]
    assert result.toolTip() == str(saved) and result.isEnabled()
    result.trigger()
    qtbot.waitUntil(lambda: len(w2.model.groups) == 2)


def test_window_layout_splitters_and_columns_are_remembered(qtbot, make, tmp_path, settings):
    w = make([tmp_path])
    main = w.centralWidget()
    main.setSizes([420, 980])
    w.groups_view.widths.set_user_width(0, 333)  # as a drag of its edge does
    w.results_ui.act_dupes_only.setChecked(True)
    sizes = main.sizes()
    w.close()
    w2 = make([tmp_path])
    assert w2.centralWidget().sizes() == sizes
    assert w2.tree.columnWidth(0) == 333
    assert w2.results_ui.act_dupes_only.isChecked()
    w2.session.roots = []
    w2._show_groups()
    assert w2.tree.columnWidth(0) == 333  # new groups keep the widths the user chose


# 15 ------------------------------------------------------------------------------------
def test_the_diff_follows_a_dark_palette_and_back(qtbot, reviewed):
    from PySide6.QtGui import QColor, QGuiApplication, QPalette
    from simdup_gui.core.presenters import colours

    w = reviewed
    a, b = zh_pair(w)
    select_file(w, b)
    assert colours.current().name == "light"
    assert colours.LIGHT.row_bg["replace"] in w.groups_view.textdiff.diff.left + \
        w.groups_view.textdiff.diff.right or w.groups_view.textdiff.changed_rows() == 0
    old = QGuiApplication.palette()
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"),
                         (QPalette.ColorRole.Base, "#1b1b1d"),
                         (QPalette.ColorRole.Text, "#e8eaed"),
                         (QPalette.ColorRole.WindowText, "#e8eaed")):
        dark.setColor(role, QColor(colour))
    try:
        QGuiApplication.setPalette(dark)
        qtbot.waitUntil(lambda: colours.current().name == "dark")
        html = w.groups_view.textdiff.diff.left
        assert colours.LIGHT.text not in html
        assert w.groups_view.textdiff.changed_rows() == 0 or colours.DARK.text in html
        # the chance warning and an action's report are readable on dark too
        assert colours.DARK.warning in w.panel.chance_label.styleSheet()
        from simdup_gui.app.dialogs import ReportDialog
        from simdup_gui.core.act.actions import Outcome, ActionReport

        rep = ActionReport("trash", [Outcome(a, "failed", "trash", reason="gone"),
                               Outcome(b, "done", "trash")])
        page = ReportDialog(rep, w).findChild(__import__("PySide6.QtWidgets", fromlist=[
            "QTextBrowser"]).QTextBrowser).toHtml().lower()
        assert colours.DARK.status["failed"] in page and colours.DARK.status["done"] in page
        assert colours.LIGHT.status["failed"] not in page
    finally:
        QGuiApplication.setPalette(old)
        qtbot.waitUntil(lambda: colours.current().name == "light")


def test_a_file_opened_while_a_local_cluster_holds_the_safe_path_opens_in_the_users_env(
        monkeypatch):
    """While poolctx.safe_path holds PYTHONSAFEPATH (a local Dask cluster's life), Enter's
    desktop application is started through xdg-open in the user's environment, not by Qt in
    ours; otherwise by Qt, as always."""
    from simdup_gui.app import desktop
    from simdup_gui.core.scan import poolctx

    started, opened = [], []
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    monkeypatch.setattr(desktop, "run_detached", lambda args: started.append(
        (args, poolctx.user_environ().get("PYTHONSAFEPATH"))))
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    with poolctx.safe_path():
        assert desktop.open_path("/tmp/a file.txt")
    assert started == [(["xdg-open", "/tmp/a file.txt"], None)] and opened == []
    assert desktop.open_path("/tmp/a file.txt")
    assert opened == [QUrl.fromLocalFile("/tmp/a file.txt")] and len(started) == 1
