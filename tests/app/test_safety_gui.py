"""Issue 10 in the app: the same lock and the same refusals as the CLI, in a message box."""

import os

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QMessageBox  # noqa: E402

from simdup_gui.app import actions_ui  # noqa: E402
from simdup_gui.core.act import lock  # noqa: E402

from tests.actions_helpers import LockHolder  # noqa: E402
from .test_gui_actions import quiet_dialogs, run_action, win  # noqa: E402,F401


@pytest.fixture
def shown(monkeypatch):
    boxes = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: boxes.append(a[2]))
    return boxes


def test_the_app_refuses_while_another_process_acts_and_says_so(qtbot, win, shown,  # noqa: F811
                                                                monkeypatch):
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.3)
    win.actions.mark_all_but_one("oldest")
    marked = set(win.model.marks)
    with LockHolder() as holder:
        started, result = run_action(qtbot, win, "delete", dry_run=False)
    assert started and isinstance(result, actions_ui.Refusal)
    text = f"another simdup action is running (pid {holder.pid})"
    assert shown and shown[0].startswith(text) and str(result) == shown[0]
    assert all(os.path.exists(p) for p in marked)
    assert win.actions.worker is None
    # free again: the same action goes through
    started, report = run_action(qtbot, win, "delete", dry_run=False)
    assert report.count("done") == 2 and not any(os.path.exists(p) for p in marked)


def test_undo_in_the_app_refuses_while_locked(qtbot, win, shown, monkeypatch):  # noqa: F811
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.2)
    with LockHolder() as holder:
        with qtbot.waitSignal(win.actions.actionFinished, timeout=30_000) as blocker:
            win.actions.undo_last()
        qtbot.waitUntil(lambda: win.actions.worker is None)
    assert isinstance(blocker.args[0], actions_ui.Refusal)
    assert shown == [str(blocker.args[0])]
    assert shown[0].startswith(f"another simdup action is running (pid {holder.pid})")


def test_a_crafted_journal_is_refused_in_a_message_box(qtbot, win, shown,  # noqa: F811
                                                       tmp_path):
    import json

    from simdup_gui.core.act.journal import JOURNAL_VERSION

    victim = tmp_path / "victim.txt"
    victim.write_text("not yours")
    journal = tmp_path / "evil.jsonl"
    journal.write_text(json.dumps({
        "type": "start", "version": JOURNAL_VERSION, "id": "x", "time": 1.0,
        "action": "move", "move_to": str(tmp_path / "d"), "flat": False,
        "ops": [{"seq": 0, "action": "move", "path": str(win.src / "gone.txt"), "size": 1,
                 "mtime_ns": 1, "content_hash": "0" * 32, "group_id": 0,
                 "root": str(win.src), "dest": None, "kept": []}]}) + "\n"
        + json.dumps({"type": "done", "seq": 0, "dest": str(victim)}) + "\n")
    with qtbot.waitSignal(win.actions.actionFinished, timeout=30_000) as blocker:
        win.actions.undo_last(str(journal))
    qtbot.waitUntil(lambda: win.actions.worker is None)
    assert isinstance(blocker.args[0], actions_ui.Refusal)
    assert shown and shown[0].startswith(f"refusing journal {journal}")
    assert "not written by simdup for this user" in shown[0]
    assert victim.read_text() == "not yours" and not (win.src / "gone.txt").exists()


def test_a_journal_that_cannot_be_started_is_a_refusal_not_a_traceback(qtbot, win, shown,  # noqa: F811,E501
                                                                        monkeypatch):
    import errno

    from simdup_gui.core.act import journal

    real = journal.JournalWriter.write

    def full(self, entry, sync=True):
        if entry.get("type") == "start":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, entry, sync)

    monkeypatch.setattr(journal.JournalWriter, "write", full)
    win.actions.mark_all_but_one("oldest")
    marked = set(win.model.marks)
    started, result = run_action(qtbot, win, "delete", dry_run=False)
    assert isinstance(result, actions_ui.Refusal)
    assert shown == ["cannot write the journal, so nothing was done: No space left on device"]
    assert all(os.path.exists(p) for p in marked)
