"""The review commands of issue 38, items 7 and 14-17, through the window (pytest-qt,
offscreen): make reference, copy marked to, rename, a custom command, remove marked, the
folder's context actions, the clipboard, keys (no two commands on one key) and the column
chooser."""

import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence  # noqa: E402
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox  # noqa: E402

from simdup_gui.app import dialogs, options as opt  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from simdup_gui.core.presenters.tree import COL_ENCODING, COLUMNS  # noqa: E402

from tests.actions_helpers import T0, write, write_chain  # noqa: E402
from tests.app.conftest import scan  # noqa: E402
from tests.conftest import EN, ZH  # noqa: E402


@pytest.fixture
def quiet(monkeypatch):
    """Questions answered with their first button; notes collected, reports not shown."""
    from simdup_gui.app import actions_ui

    notes = []
    monkeypatch.setattr(dialogs, "run", lambda box: box.buttons()[0])
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name,
                            lambda *a, **k: notes.append(a[1:3]) or QMessageBox.StandardButton.Ok)
    monkeypatch.setattr(actions_ui.ReportDialog, "exec", lambda self: 0)
    return notes


@pytest.fixture
def win(qtbot, tmp_path, quiet):
    """Two pairs, one file with a space and a ';' in its name; scanned."""
    src = tmp_path / "src"
    write(src / "a" / "zh.txt", ZH.encode(), T0)
    write(src / "zh_gbk.txt", ZH.encode("gbk"), T0 + 10**9)
    write(src / "en.txt", EN.encode(), T0)
    write(src / "b c" / "en; copy 'x'.txt", EN.replace("five", "six", 1).encode(), T0 + 10**9)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(roots=[str(src)], settings=settings, language="en")
    qtbot.addWidget(w)
    w.show()
    scan(qtbot, w)
    assert len(w.model.groups) == 2
    w.src, w.notes, w.ini = src, quiet, settings
    return w


def select(w, path):
    """Make the row of ``path`` the current one (its group expanded)."""
    m = w.model
    for row, (_, members) in enumerate(m.rows):
        for child, x in enumerate(members):
            if m.records[x.index].path == path:
                w.groups_view.show_file(row, child)
                w.tree.selectionModel().select(
                    m.file_index(row, child),
                    w.tree.selectionModel().SelectionFlag.ClearAndSelect
                    | w.tree.selectionModel().SelectionFlag.Rows)
                return
    raise AssertionError(f"{path} is not shown")


def reference_of(w, path):
    return w.session.reference_of(path)


def finish(qtbot, w, start):
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        assert start()
    return blocker.args[0]


def test_make_the_selected_file_the_reference_by_its_key(qtbot, win):
    w = win
    copy = str(w.src / "b c" / "en; copy 'x'.txt")
    assert reference_of(w, copy) != copy
    select(w, copy)
    w.tree.setFocus()
    qtbot.keyClick(w.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert reference_of(w, copy) == copy
    assert "is now the reference" in w.statusBar().currentMessage()
    qtbot.keyClick(w.tree, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # keep oldest
    qtbot.waitUntil(lambda: bool(w.session.marks))
    assert copy not in w.session.marks and str(w.src / "en.txt") in w.session.marks


def test_files_below_the_threshold_leave_the_group_with_a_note(qtbot, tmp_path, quiet):
    write_chain(tmp_path / "chain", n=8)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(roots=[str(tmp_path / "chain")], settings=settings, language="en")
    qtbot.addWidget(w)
    scan(qtbot, w)
    g = max(w.session.groups, key=lambda g: len(g.members))
    far = w.session.records[min(g.members, key=lambda m: m.similarity).index].path
    select(w, far)
    w.results_ui.review.act_reference.trigger()
    title, text = quiet[-1]
    assert title == "Files left the group" and far.rsplit("/", 1)[1] in text
    left = [line for line in text.splitlines() if line.startswith(str(tmp_path))]
    assert left and all(w.session.reference_of(p) is None for p in left)


def test_copy_marked_to_a_folder_and_undo(qtbot, win, monkeypatch, tmp_path):
    w = win
    en = str(w.src / "en.txt")
    w.actions._marked(w.session.mark([en]))
    monkeypatch.setattr(dialogs, "pick_folder", lambda *a, **k: str(tmp_path / "out"))
    rep = finish(qtbot, w, lambda: w.results_ui.review.copy_marked())
    assert rep.action == "copy" and rep.count("done") == 1
    copy = tmp_path / "out" / "en.txt"
    assert copy.read_text() == EN and os.path.exists(en)
    rep = finish(qtbot, w, lambda: w.actions.undo_last() or True)
    assert rep.count("done") == 1 and not copy.exists() and os.path.exists(en)


def test_rename_with_f2_and_undo(qtbot, win, monkeypatch):
    w = win
    old = str(w.src / "b c" / "en; copy 'x'.txt")
    select(w, old)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("renamed.txt", True))
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
        w.tree.setFocus()
        qtbot.keyClick(w.tree, Qt.Key.Key_F2)
    new = str(w.src / "b c" / "renamed.txt")
    assert os.path.exists(new) and not os.path.exists(old)
    qtbot.waitUntil(lambda: w.session.reference_of(new) is not None)
    assert "Renamed to renamed.txt" in w.statusBar().currentMessage()
    finish(qtbot, w, lambda: w.actions.undo_last() or True)
    assert os.path.exists(old) and not os.path.exists(new)
    qtbot.waitUntil(lambda: w.session.reference_of(old) is not None)


def test_custom_command_gets_each_file_as_one_argument(qtbot, win, tmp_path):
    w = win
    out = tmp_path / "argv.json"
    script = tmp_path / "tool with space.py"
    script.write_text("import json, sys\n"
                      f"open({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    w.prefs.set(opt.CUSTOM_COMMAND, f"{sys.executable} '{script}' --left %a --right=%b")
    copy = str(w.src / "b c" / "en; copy 'x'.txt")
    select(w, copy)
    w.results_ui.review.act_command.trigger()
    qtbot.waitUntil(out.exists, timeout=30_000)
    qtbot.waitUntil(lambda: out.read_text().endswith("]"), timeout=10_000)
    ref = w.session.reference_of(copy)
    assert json.loads(out.read_text()) == ["--left", copy, f"--right={ref}"]
    assert "Started:" in w.statusBar().currentMessage()


def test_remove_marked_from_results_keeps_the_files(qtbot, win):
    w = win
    gbk = str(w.src / "zh_gbk.txt")
    w.actions._marked(w.session.mark([gbk]))
    w.results_ui.review.act_remove_marked.trigger()
    qtbot.waitUntil(lambda: len(w.model.groups) == 1)
    assert os.path.exists(gbk) and not w.session.marks
    assert "removed from the results" in w.statusBar().currentMessage()


def context_menu(w, path) -> QMenu:
    menu = QMenu(w)
    w.results_ui.review.add_copy_menu(menu, path)
    w.results_ui.review.extend_context_menu(menu, path)
    return menu


def action(menu: QMenu, text: str) -> QAction:
    for a in menu.actions():
        if a.menu() is not None:
            found = [b for b in a.menu().actions() if b.text() == text]
            if found:
                return found[0]
        elif a.text().split("\t")[0] == text:
            return a
    raise AssertionError(f"no {text!r} in {[a.text() for a in menu.actions()]}")


def test_folder_context_actions_and_the_clipboard(qtbot, win):
    w = win
    copy = str(w.src / "b c" / "en; copy 'x'.txt")
    menu = context_menu(w, copy)
    for text, want in (("Name", "en; copy 'x'.txt"), ("Full path", copy),
                       ("Folder", str(w.src / "b c"))):
        action(menu, text).trigger()
        assert QGuiApplication.clipboard().text() == want
    action(menu, "Mark every file in it (and below)").trigger()
    assert w.session.marks == {copy}
    action(menu, "Unmark every file in it (and below)").trigger()
    assert not w.session.marks
    action(menu, "Exclude it from later scans").trigger()
    qtbot.waitUntil(lambda: len(w.model.groups) == 1)
    assert "b?c" in w.panel.exclude_edit.text() and "b?c" in w.prefs.get(opt.EXCLUDE)
    scan(qtbot, w)
    assert not any(r.path.startswith(str(w.src / "b c")) for r in w.session.records)
    menu = context_menu(w, str(w.src / "a" / "zh.txt"))
    action(menu, "Remove its files from the results").trigger()
    qtbot.waitUntil(lambda: len(w.model.groups) == 0)


def test_no_two_commands_share_a_key(win):
    w = win
    keys: dict[str, list[str]] = {}
    for a in w.findChildren(QAction):
        for seq in a.shortcuts():
            keys.setdefault(seq.toString(QKeySequence.SequenceFormat.PortableText),
                            []).append(a.text())
    clashes = {k: v for k, v in keys.items() if len(v) > 1}
    assert not clashes, clashes
    review = w.results_ui.review
    for a in (*w.actions.rule_actions.values(), w.actions.act_invert, w.actions.act_clear,
              review.act_reference, review.act_rename, review.act_copy, review.act_command):
        assert not a.shortcut().isEmpty(), a.text()


def test_column_chooser_hides_columns_and_remembers(qtbot, win, tmp_path):
    w = win
    menu = w.results_ui.review.columns.menu()
    boxes = [a for a in menu.actions() if a.isCheckable()]
    assert len(boxes) == COLUMNS and not boxes[0].isEnabled()  # the name always shows
    encoding = boxes[COL_ENCODING]
    assert encoding.isChecked() and encoding.text() == "Encoding"
    encoding.setChecked(False)
    assert w.tree.isColumnHidden(COL_ENCODING)
    w.save_settings()
    w.close()
    again = MainWindow(roots=[str(w.src)], settings=w.ini, language="en")
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.tree.isColumnHidden(COL_ENCODING))
    box = [a for a in again.results_ui.review.columns.menu().actions()
           if a.isCheckable()][COL_ENCODING]
    assert not box.isChecked()
    box.setChecked(True)
    assert not again.tree.isColumnHidden(COL_ENCODING)
    assert Path(w.src).exists()


def test_the_context_menu_acts_on_the_clicked_file(win):
    w = win
    copy = str(w.src / "b c" / "en; copy 'x'.txt")
    select(w, str(w.src / "en.txt"))  # another file is the current one
    action(context_menu(w, copy), "Make the selected file its group's reference").trigger()
    assert reference_of(w, copy) == copy
