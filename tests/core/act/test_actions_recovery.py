"""Undo, resume and roll back from journals, after a crash, a cancel or a second action."""

import os
from pathlib import Path

import pytest

from simdup_gui.core.act import actions
from simdup_gui.core.act.actions import execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.job import Job
from simdup_gui.core.act.journal import journal_to_undo, last_journal, read_journal
from simdup_gui.core.act.marking import (KeepRule, mark_all_but_one)
from simdup_gui.core.act.recovery import resume, undo

from tests.actions_helpers import T0, tree_state, write


def test_undo_restores_every_byte_and_the_original_paths(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    stat_before = {f: os.stat(f).st_mtime_ns for f in before}
    rep = execute(plan_action(res, mark_all_but_one(res, KeepRule("largest")), "move",
                              move_to=str(tmp / "dups")))
    assert rep.count("done") == 3
    back = undo()  # the last journal, from the user data folder
    assert back.count("done") == 3 and back.exit_code == 0
    assert tree_state(tmp / "src") == before
    assert {f: os.stat(f).st_mtime_ns for f in before} == stat_before
    assert tree_state(tmp / "dups") == {} and not os.path.exists(tmp / "dups" / "ccc")
    assert undo(rep.journal).count("done") == 0  # undoing twice does nothing more
    with pytest.raises(FileNotFoundError, match="nothing left to undo"):
        undo()  # and by default there is nothing left to undo

def crash_on_third_move(monkeypatch):
    """Make the third move stop dead after linking the new name (a power cut)."""
    calls = []
    real = actions.move_file

    def crashing(src, dest, expected_hash, tmp=None):
        calls.append(src)
        if len(calls) == 3:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.link(src, dest)
            raise KeyboardInterrupt
        return real(src, dest, expected_hash, tmp)

    monkeypatch.setattr(actions, "move_file", crashing)


def cut_journal_after_crash(path: str) -> None:
    """Drop the end entry the crash handler wrote, and leave half a line instead."""
    lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    assert '"end"' in lines[-1]
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines[:-1])
        fh.write('{"type": "done", "se')


def interrupted_move(corpus, monkeypatch):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    marks = mark_all_but_one(res, KeepRule("oldest"))  # 3 files
    plan = plan_action(res, marks, "move", move_to=str(tmp / "dups"))
    journal = str(tmp / "j.jsonl")
    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        crash_on_third_move(m)
        execute(plan, journal=journal)
    cut_journal_after_crash(journal)
    st = read_journal(journal)
    assert st.interrupted and st.pending() == [2] and st.torn_lines == 1
    return plan, journal, before


def test_an_interrupted_move_is_resumed_from_its_cut_off_journal(corpus, monkeypatch):
    res, p, tmp = corpus
    plan, journal, before = interrupted_move(corpus, monkeypatch)
    rep = resume(journal)
    assert [o.status for o in rep.outcomes] == ["done"] and rep.exit_code == 0
    for op in plan.ops:
        assert not os.path.exists(op.path)
    assert sorted(tree_state(tmp / "dups").values()) == sorted(before[op.path] for op in plan.ops)
    assert not read_journal(journal).interrupted
    assert undo(journal).count("done") == 3 and tree_state(tmp / "src") == before


def test_an_interrupted_move_is_rolled_back_from_its_cut_off_journal(corpus, monkeypatch):
    res, p, tmp = corpus
    plan, journal, before = interrupted_move(corpus, monkeypatch)
    rep = undo(journal)
    assert rep.count("done") == 3 and rep.count("failed") == 0
    assert "interrupted half-way" in rep.outcomes[0].reason
    assert tree_state(tmp / "src") == before
    assert tree_state(tmp / "dups") == {}


def test_a_cancelled_action_can_be_resumed_with_fresh_checks(corpus):
    res, p, tmp = corpus
    job = Job(lambda ev: job.cancel())
    rep = execute(plan_action(res, mark_all_but_one(res, KeepRule("oldest")), "delete"), job)
    assert rep.cancelled and rep.count("done") == 0
    rest = resume(rep.journal)
    assert rest.count("done") == 3


def test_undo_never_overwrites_a_file_that_took_the_original_path(corpus):
    res, p, tmp = corpus
    rep = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dups")))
    write(tmp / "src" / "bb" / "report.txt", b"new file", T0)
    back = undo(rep.journal)
    assert back.outcomes[0].status == "skipped" and "original path" in back.outcomes[0].reason
    assert Path(p["en_b"]).read_bytes() == b"new file"
    assert os.path.exists(rep.outcomes[0].dest)

def test_a_second_undo_restores_the_action_before_the_last(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    a = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dupsA")))
    b = execute(plan_action(res, {p["zh_gbk"]}, "move", move_to=str(tmp / "dupsB")))
    assert a.count("done") == 1 and b.count("done") == 1
    first = undo()
    assert first.journal == b.journal and first.count("done") == 1
    assert os.path.exists(p["zh_gbk"]) and not os.path.exists(p["en_b"])
    second = undo()
    assert second.journal == a.journal and second.count("done") == 1
    assert tree_state(tmp / "src") == before
    with pytest.raises(FileNotFoundError, match="nothing left to undo"):
        undo()


def test_an_action_where_every_file_was_skipped_does_not_hide_the_real_last_one(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    real = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dups")))
    plan = plan_action(res, {p["zh_gbk"]}, "delete")
    Path(p["zh_utf8"]).write_bytes(b"changed")  # its only kept copy: so it is skipped
    skipped = execute(plan)
    assert skipped.count("skipped") == 1 and skipped.journal != real.journal
    assert last_journal() == skipped.journal and journal_to_undo() == real.journal
    assert undo().journal == real.journal
    assert os.path.exists(p["en_b"]) and hash_file(p["en_b"]) == before[p["en_b"]]


def test_undo_skips_unreadable_and_empty_journals(corpus):
    res, p, tmp = corpus
    real = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dups")))
    folder = os.path.dirname(real.journal)
    Path(folder, "zz-empty.jsonl").write_bytes(b"")
    Path(folder, "zz-garbage.jsonl").write_bytes(b"\xff\xfe not json\n")
    Path(folder, "zz-torn.jsonl").write_bytes(b'{"type": "sta')
    assert last_journal() == journal_to_undo() == real.journal
    assert undo().count("done") == 1 and os.path.exists(p["en_b"])


# ---- journals are never reused -------------------------------------------------------------

def test_an_existing_journal_file_is_refused_and_left_as_it_was(corpus):
    res, p, tmp = corpus
    journal = str(tmp / "j.jsonl")
    first = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dups")),
                    journal=journal)
    assert first.count("done") == 1
    text = Path(journal).read_bytes()
    with pytest.raises(FileExistsError, match="already exists"):
        execute(plan_action(res, {p["zh_gbk"]}, "move", move_to=str(tmp / "dups")),
                journal=journal)
    assert Path(journal).read_bytes() == text and os.path.exists(p["zh_gbk"])
    assert undo(journal).count("done") == 1 and os.path.exists(p["en_b"])


def test_a_journal_that_cannot_be_started_is_not_left_behind(corpus, monkeypatch):
    res, p, tmp = corpus
    plan = plan_action(res, {p["en_b"]}, "delete")
    real_write = actions.JournalWriter.write

    def fail_start(self, entry, sync=True):
        if entry.get("type") == "start":
            raise OSError(28, "No space left on device")
        return real_write(self, entry, sync)

    monkeypatch.setattr(actions.JournalWriter, "write", fail_start)
    journal = tmp / "j" / "j.jsonl"
    with pytest.raises(OSError, match="No space"):
        execute(plan, journal=str(journal))
    assert not journal.exists() and os.path.exists(p["en_b"])
