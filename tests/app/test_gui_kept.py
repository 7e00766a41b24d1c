"""The session kept across runs (issue 38, item 2): restored at the next start and checked
against the disk, a damaged one is a note, and closing with unsaved marks asks."""

import json

import pytest

pytest.importorskip("PySide6")

from simdup_gui.app.window import MainWindow  # noqa: E402
from tests.app.conftest import scan, two_pairs  # noqa: E402
from tests.conftest import EN  # noqa: E402


@pytest.fixture
def src(tmp_path):
    return two_pairs(tmp_path / "src")


@pytest.fixture
def kept_path(tmp_path):
    return str(tmp_path / "data" / "simdup" / "session.json")


@pytest.fixture
def window(qtbot, settings, kept_path):
    def window(roots=()):
        w = MainWindow(roots=[str(r) for r in roots], settings=settings, language="en",
                       keep_session=kept_path)
        qtbot.addWidget(w)
        w.resize(1400, 900)
        w.show()
        return w

    return window


def _marked_review(qtbot, window, src):
    """A scanned window with the GBK copy marked and selected."""
    w = window([src])
    scan(qtbot, w)
    assert len(w.model.groups) == 2
    gbk = str(src / "zh_gbk.txt")
    w.model.marks_changed(w.session.mark([gbk]))
    row, child = w.model.positions.of_path[gbk]
    w.groups_view.show_file(row, child)
    return w, gbk


def _wait_checked(qtbot, w):
    qtbot.waitUntil(lambda: not w.is_scanning() and "checked it against the disk"
                    in w.statusBar().currentMessage(), timeout=60_000)


def test_restart_restores_groups_marks_and_selection(qtbot, window, src, kept_path, answers):
    w, gbk = _marked_review(qtbot, window, src)
    answers.answers = ["Save and quit"]
    assert w.close()
    assert len(answers.shown) == 1 and "Marks on 1 file were not" in answers.shown[0].text()
    w2 = window()  # no folder given: the kept session is shown
    assert len(w2.model.groups) == 2  # at once, as they were
    assert w2.session.marks == {gbk}
    assert w2.folders.folders() == [str(src)]
    assert w2.groups_view.record_at(w2.tree.currentIndex()) is not None
    assert w2.session.records[w2.groups_view.record_at(w2.tree.currentIndex())].path == gbk
    _wait_checked(qtbot, w2)  # the warm rescan found nothing changed
    assert "nothing changed" in w2.statusBar().currentMessage()
    assert len(w2.model.groups) == 2 and w2.session.marks == {gbk}
    assert w2.session.unsaved_marks() == 0  # restored marks are kept: no question at quit
    assert w2.close() and len(answers.shown) == 1


def test_a_file_deleted_between_runs_is_dropped_and_said(qtbot, window, src, answers):
    w, gbk = _marked_review(qtbot, window, src)
    assert w.close()  # Save and quit (the first answer)
    (src / "zh_gbk.txt").unlink()
    (src / "en.txt").write_text(EN + "A line added since.\n")
    w2 = window()
    _wait_checked(qtbot, w2)
    msg = w2.statusBar().currentMessage()
    assert "1 file gone and 1 file changed" in msg
    paths = {w2.session.records[m.index].path for g in w2.session.groups for m in g.members}
    assert gbk not in paths and str(src / "a" / "zh.txt") not in paths  # its pair is gone
    assert str(src / "en.txt") in paths  # changed, still a near copy: grouped by its new text
    assert w2.session.marks == set()


@pytest.mark.parametrize("text", [b"{not json", b"\xff\xfe\x00garbage", b'{"version": 99}',
                                  "kept"])
def test_a_damaged_session_is_a_note_and_an_empty_window(qtbot, window, src, kept_path,
                                                         answers, text):
    if text == "kept":  # a results file whose kept entry names a relative path
        w, _ = _marked_review(qtbot, window, src)
        assert w.close()
        with open(kept_path, encoding="utf-8") as fh:
            data = json.load(fh)
        data["settings"]["kept"]["selected"] = ["relative/path.txt"]
        text = json.dumps(data).encode()
    else:
        import os

        os.makedirs(os.path.dirname(kept_path), mode=0o700, exist_ok=True)
    with open(kept_path, "wb") as fh:
        fh.write(text)
    w2 = window()
    msg = w2.statusBar().currentMessage()
    assert msg.startswith("The last session could not be restored") and "\n" not in msg
    assert "Traceback" not in msg
    assert w2.session.records == [] and len(w2.model.groups) == 0 and not w2.is_scanning()


def test_the_quit_question_comes_only_with_unsaved_marks(qtbot, window, src, kept_path,
                                                         answers, tmp_path):
    w = window([src])
    scan(qtbot, w)
    assert w.close() and answers.shown == []  # no marks: nothing to ask, the session kept
    w = window([src])
    scan(qtbot, w)
    gbk = str(src / "zh_gbk.txt")
    w.model.marks_changed(w.session.mark([gbk]))
    answers.answers = ["Cancel"]
    assert not w.close() and w.isVisible()  # Cancel: the window stays
    assert len(answers.shown) == 1
    w.actions.save_to(str(tmp_path / "results.json"))
    assert w.close() and len(answers.shown) == 1  # saved: nothing to ask


def test_quit_without_saving_forgets_the_session(qtbot, window, src, kept_path, answers):
    import os

    w, _ = _marked_review(qtbot, window, src)
    answers.answers = ["Save and quit"]
    assert w.close() and os.path.exists(kept_path)
    w2 = window()
    _wait_checked(qtbot, w2)
    w2.model.marks_changed(w2.session.mark([str(src / "a" / "en copy.txt")]))
    answers.answers = ["Quit without saving"]
    assert w2.close() and not os.path.exists(kept_path)
    assert window().session.records == []  # the next start shows nothing


def test_folders_given_win_over_the_kept_session(qtbot, window, src, tmp_path, answers):
    w, _ = _marked_review(qtbot, window, src)
    assert w.close()
    other = tmp_path / "other"
    other.mkdir()
    w2 = window([other])
    assert w2.session.records == [] and len(w2.model.groups) == 0 and not w2.is_scanning()
    assert str(other) in w2.folders.folders()


def test_a_window_without_a_kept_session_asks_nothing(qtbot, make, answers, src):
    w = make([src])
    scan(qtbot, w)
    w.model.marks_changed(w.session.mark([str(src / "zh_gbk.txt")]))
    assert w.close() and answers.shown == []


def test_a_large_session_is_read_in_a_child_process(qtbot, window, src, answers, monkeypatch):
    from simdup_gui.app import kept_ui

    w, gbk = _marked_review(qtbot, window, src)
    assert w.close()
    monkeypatch.setattr(kept_ui, "LOAD_IN_WORKER_ABOVE", 0)  # every session is "large"
    w2 = window()
    assert w2.kept.restoring() and w2.session.records == []  # the window is up meanwhile
    qtbot.waitUntil(lambda: len(w2.model.groups) == 2, timeout=30_000)
    assert w2.session.marks == {gbk}
    _wait_checked(qtbot, w2)


def test_a_size_given_on_the_command_line_wins_over_the_kept_one(qtbot, settings, src,
                                                                 kept_path, window, answers):
    w, _ = _marked_review(qtbot, window, src)
    assert w.bits() == 64
    assert w.close()
    w2 = MainWindow(bits=32, settings=settings, language="en", keep_session=kept_path)
    qtbot.addWidget(w2)
    w2.show()
    assert w2.bits() == 32  # the kept groups show, and the check regroups at 32 bits
    _wait_checked(qtbot, w2)
    assert w2.session.group_bits == 32 and len(w2.model.groups) == 2
