"""Actions -> Release held originals…: after replacing copies by links, free the originals
held for undo (a dry run on the pool, a confirmation with Cancel as default, the release on
the pool, its report)."""

import os
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QMessageBox  # noqa: E402

from simdup_gui.core.act.journal import held_dir  # noqa: E402

from tests.app.conftest import scan  # noqa: E402
from tests.conftest import EN, ZH  # noqa: E402


@pytest.fixture
def linked(make, qtbot, tmp_path, monkeypatch, answers):
    """A window over two pairs of byte-identical files, the newer of each replaced by a
    hard link to the older (confirmed through the dialog)."""
    from simdup_gui.app import actions_ui

    monkeypatch.setattr(actions_ui.ReportDialog, "exec", lambda self: 0)
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    for name, text, t in (("en.txt", EN, 1), ("a/en copy.txt", EN, 2), ("zh.txt", ZH, 1),
                          ("a/zh copy.txt", ZH, 2)):
        (src / name).write_text(text, encoding="utf-8")
        os.utime(src / name, ns=(t * 10**9, t * 10**9))
    w = make([src])
    scan(qtbot, w)
    assert len(w.model.groups) == 2
    w.actions.mark_all_but_one("oldest")
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        assert w.actions.act_on_marked("hardlink", dry_run=False)
    qtbot.waitUntil(lambda: w.actions.worker is None)
    assert blocker.args[0].count("done") == 2
    assert len(held_files()) == 2
    w.src = src
    answers.shown.clear()
    return w


def held_files():
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(held_dir()) for f in fs)


def release(qtbot, w, trigger=False):
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        if trigger:
            w.actions.act_release.trigger()
        else:
            assert w.actions.release_held()
    qtbot.waitUntil(lambda: w.actions.worker is None)
    return blocker.args[0]


def test_the_menu_item_asks_then_releases_and_the_links_keep_their_bytes(qtbot, linked,
                                                                        answers):
    w = linked
    assert w.actions.act_release in w.actions.actions_menu.actions()
    assert w.actions.act_release.text() == "Release held originals…"
    rep = release(qtbot, w, trigger=True)
    assert rep.action == "release" and rep.count("done") == 2 and not rep.dry_run
    assert held_files() == []
    (box,) = answers.shown
    assert any(b.text() == "Release 2 originals" for b in box.buttons())
    assert "Delete 2 held originals" in box.text()
    assert box.standardButton(box.defaultButton()) == QMessageBox.StandardButton.Cancel
    assert (w.src / "a" / "en copy.txt").read_text(encoding="utf-8") == EN
    assert os.path.samefile(w.src / "en.txt", w.src / "a" / "en copy.txt")
    assert w.statusBar().currentMessage().startswith("Release held originals: 2 released; ")
    assert w.statusBar().currentMessage().endswith(" freed")


def test_cancel_releases_nothing(qtbot, linked, answers):
    w = linked
    answers.answers = ["&Cancel"]
    assert release(qtbot, w) is None
    assert len(held_files()) == 2 and w.statusBar().currentMessage() == "Nothing released."


def test_a_kept_copy_edited_since_is_reported_and_its_original_kept(qtbot, linked, answers):
    w = linked
    with open(w.src / "zh.txt", "r+b") as fh:  # a hard link: "a/zh copy.txt" changes too
        fh.write(b"EDITED")
    rep = release(qtbot, w)
    assert sorted(o.status for o in rep.outcomes) == ["done", "skipped"]
    (skipped,) = [o for o in rep.outcomes if o.status == "skipped"]
    assert "only copy of those bytes" in skipped.reason
    (held,) = held_files()
    assert Path(held).read_text(encoding="utf-8") == ZH


def test_nothing_to_release_says_so_without_asking(qtbot, linked, answers):
    w = linked
    release(qtbot, w)
    answers.shown.clear()
    rep = release(qtbot, w)
    assert rep.outcomes == [] and answers.shown == []
    assert "nothing to do" in w.statusBar().currentMessage()


def test_an_undo_after_the_release_keeps_the_links(qtbot, linked):
    w = linked
    release(qtbot, w)
    with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000) as blocker:
        w.actions.undo_last()
    qtbot.waitUntil(lambda: w.actions.worker is None)
    rep = blocker.args[0]
    assert rep.count("skipped") == 2 and not rep.failed
    assert all("released" in o.reason for o in rep.outcomes)
    assert (w.src / "a" / "zh copy.txt").read_text(encoding="utf-8") == ZH


def test_the_menu_item_in_chinese(make):
    w = make([], language="zh_CN")
    assert w.actions.act_release.text() == "释放保留的原件…"
