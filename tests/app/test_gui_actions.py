"""Marking and acting on duplicates through the window (pytest-qt, offscreen)."""

import hashlib
import os

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings  # noqa: E402

from simdup_gui.app.window import MainWindow  # noqa: E402
from simdup_gui.core.act.actions import ActionReport  # noqa: E402

from tests.conftest import EN, ZH  # noqa: E402


def digest(p):
    with open(p, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


@pytest.fixture
def quiet_dialogs(monkeypatch):
    """Answer Yes to every question; warnings, notes and reports show nothing."""
    from PySide6.QtWidgets import QMessageBox

    from simdup_gui.app import actions_ui

    from simdup_gui.app import dialogs

    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(dialogs, "run", lambda box: box.buttons()[0])  # the first answer
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: QMessageBox.StandardButton.Ok)
    monkeypatch.setattr(actions_ui.ReportDialog, "exec", lambda self: 0)


@pytest.fixture
def win(qtbot, tmp_path, quiet_dialogs):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    (src / "a" / "zh.txt").write_bytes(ZH.encode())
    (src / "zh_gbk.txt").write_bytes(ZH.encode("gbk"))
    (src / "en.txt").write_text(EN)
    (src / "a" / "en copy.txt").write_text(EN.replace("five", "six", 1))
    os.utime(src / "a" / "zh.txt", ns=(1, 1_000_000_000))
    os.utime(src / "en.txt", ns=(1, 1_000_000_000))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(roots=[str(src)], settings=settings, language="en")
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.scanFinished, timeout=60_000):
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning())
    assert len(w.model.groups) == 2
    w.src = src
    return w


def run_action(qtbot, w, *args, **kw):
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        started = w.actions.act_on_marked(*args, **kw)
    qtbot.waitUntil(lambda: w.actions.worker is None)
    return started, blocker.args[0]


def test_keep_oldest_then_move_then_undo_restores_every_byte(qtbot, win, tmp_path):
    before = {p: digest(p) for p in (str(x) for x in win.src.rglob("*.txt"))}
    win.actions.mark_all_but_one("oldest")
    assert win.model.marks == {str(win.src / "zh_gbk.txt"), str(win.src / "a" / "en copy.txt")}
    assert "2 marked" in win.status_label.text()
    dest = tmp_path / "dups"
    started, report = run_action(qtbot, win, "move", move_to=str(dest), journal=str(
        tmp_path / "j.jsonl"))
    assert started and isinstance(report, ActionReport)
    assert report.count("done") == 2 and not report.failed
    assert (dest / "a" / "en copy.txt").exists() and (dest / "zh_gbk.txt").exists()
    assert not (win.src / "zh_gbk.txt").exists()
    assert len(win.model.groups) == 0  # both groups now have a single file
    with qtbot.waitSignal(win.actions.actionFinished, timeout=30_000):
        win.actions.undo_last(str(tmp_path / "j.jsonl"))
    qtbot.waitUntil(lambda: win.actions.worker is None)
    after = {p: digest(p) for p in (str(x) for x in win.src.rglob("*.txt"))}
    assert after == before
    assert len(win.model.groups) == 2


def test_marking_every_copy_is_refused_and_nothing_moves(qtbot, win, tmp_path):
    g = win.model.groups[0]
    win.model.set_marks({win.records[m.index].path for m in g.members})
    started, err = run_action(qtbot, win, "move", move_to=str(tmp_path / "d"))
    assert not started and "no copy" in str(err)
    assert all(os.path.exists(win.records[m.index].path) for m in g.members)


def test_dry_run_touches_nothing(qtbot, win, tmp_path):
    win.actions.mark_all_but_one("newest")
    marked = set(win.model.marks)
    started, report = run_action(qtbot, win, "delete", dry_run=True)
    assert report.dry_run and report.count("planned") == len(marked) == 2
    assert all(os.path.exists(p) for p in marked)
    assert len(win.model.groups) == 2


def test_reference_folder_files_are_never_marked(qtbot, win):
    win.actions.set_reference([str(win.src / "a")])
    win.actions.mark_all_but_one("shortest-path")
    assert win.model.marks and not any(p.startswith(str(win.src / "a")) for p in win.model.marks)
    win.actions.invert()
    assert not any(p.startswith(str(win.src / "a")) for p in win.model.marks)
    win.actions.clear()
    assert win.model.marks == set()


def test_save_and_load_keep_the_marks(qtbot, win, tmp_path):
    win.actions.mark_all_but_one("largest")
    marks = set(win.model.marks)
    path = tmp_path / "review.json"
    win.actions.save_to(str(path))
    win.actions.clear()
    win.actions.load_from(str(path))
    assert win.model.marks == marks
    assert len(win.model.groups) == 2


def test_marks_survive_regrouping(qtbot, win):
    win.actions.mark_all_but_one("oldest")
    marks = set(win.model.marks)
    with qtbot.waitSignal(win.groupsChanged):
        win.distance_box.setValue(0)  # the edited copy leaves its group
    assert win.model.grouped_marks() < marks
    with qtbot.waitSignal(win.groupsChanged):
        win.distance_box.setValue(8)
    assert win.model.grouped_marks() == marks


def test_marks_under_a_reference_folder_are_refused_when_acting(qtbot, win, tmp_path):
    under_ref = str(win.src / "a" / "zh.txt")
    win.model.set_marks({under_ref})  # e.g. marked before the folder became a reference
    win.actions.reference = [str(win.src / "a")]  # not via set_reference, which unmarks
    started, err = run_action(qtbot, win, "delete", dry_run=False)
    assert not started and "reference folder" in str(err) and under_ref in str(err)
    assert os.path.exists(under_ref)


def test_loading_results_drops_marks_under_reference_folders(qtbot, win, tmp_path):
    win.actions.mark_all_but_one("longest-path")
    marks = set(win.model.marks)
    assert any(p.startswith(str(win.src / "a")) for p in marks)
    path = tmp_path / "review.json"
    win.actions.save_to(str(path))
    win.actions.set_reference([str(win.src / "a")])
    win.actions.load_from(str(path))
    assert win.model.marks == {p for p in marks if not p.startswith(str(win.src / "a"))}


def test_resume_finishes_a_cancelled_move_from_its_journal(qtbot, win, tmp_path):
    from simdup_gui.core.act.actions import execute, plan_action
    from simdup_gui.core.job import Job

    win.actions.mark_all_but_one("oldest")
    res = win.actions.results()
    plan = plan_action(res, res.marks, "move", move_to=str(tmp_path / "dups"))
    job = Job()
    job._on_progress = lambda ev: job.cancel() if ev.files_done >= 1 else None
    journal = str(tmp_path / "j.jsonl")
    first = execute(plan, job, journal=journal)
    assert first.count("done") == 1 and first.cancelled
    with qtbot.waitSignal(win.actions.actionFinished, timeout=30_000) as blocker:
        win.actions.resume_journal(journal)
    qtbot.waitUntil(lambda: win.actions.worker is None)
    assert blocker.args[0].count("done") == 1
    assert not any(os.path.exists(p) for p in res.marks)


def test_clear_cache_empties_it(qtbot, win, tmp_path):
    from simdup_gui.core.scan.cache import FingerprintCache

    cache = FingerprintCache()
    assert cache.count() >= 4  # the fixture's scan filled it
    cache.close()
    assert win.actions.clear_cache() >= 4
    cache = FingerprintCache()
    assert cache.count() == 0
    cache.close()


def test_undo_with_nothing_to_undo_says_so(qtbot, win):
    with qtbot.waitSignal(win.actions.actionFinished, timeout=30_000) as blocker:
        win.actions.undo_last()
    qtbot.waitUntil(lambda: win.actions.worker is None)
    assert blocker.args[0].summary() == "undo: nothing to do"


def test_a_failed_export_is_shown_not_swallowed(qtbot, win, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    shown = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("/proc/x.csv", ""))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    win.actions.files.export_actions["csv"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=30000)  # written on the pool
    assert "/proc/x.csv" in shown[0]
