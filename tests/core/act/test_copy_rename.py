"""Copy marked files to a folder and rename a file (issue 38, item 14): journaled, undone,
and checked like a move (never over a file, the source unchanged inside its root)."""

import json
import os
from pathlib import Path

import pytest

from simdup_gui.core.act import actions
from simdup_gui.core.act.actions import bind_scan_identity, execute
from simdup_gui.core.act.copyplan import plan_copy, plan_rename
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import (JournalRefused, check_journal, last_journal,
                                          read_journal)
from simdup_gui.core.act.recovery import resume, undo
from simdup_gui.core.session import ReviewSettings, Session

from tests.actions_helpers import make_corpus, tree_state, write


def test_copy_marked_to_a_folder_and_undo_removes_the_copies(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    plan = bind_scan_identity(plan_copy(res, {p["en_b"], p["zh_gbk"]}, str(tmp / "out")), res)
    rep = execute(plan)
    assert rep.count("done") == 2 and rep.exit_code == 0
    assert tree_state(tmp / "src") == before  # the originals are untouched
    copied = tree_state(tmp / "out")
    assert sorted(copied) == [str(tmp / "out" / "bb" / "report.txt"),
                              str(tmp / "out" / "bb" / "zh-gbk.txt")]
    assert set(copied.values()) == {before[p["en_b"]], before[p["zh_gbk"]]}
    assert os.stat(tmp / "out" / "bb" / "report.txt").st_ino != os.stat(p["en_b"]).st_ino
    back = undo(rep.journal)
    assert back.count("done") == 2
    assert tree_state(tmp / "out") == {} and tree_state(tmp / "src") == before


def test_a_copy_never_writes_over_a_file_there(corpus):
    res, p, tmp = corpus
    there = write(tmp / "out" / "report.txt", b"mine, not a copy\n", 0)
    rep = execute(bind_scan_identity(plan_copy(res, {p["en_b"]}, str(tmp / "out"), flat=True),
                                     res))
    assert rep.count("done") == 1
    assert Path(there).read_bytes() == b"mine, not a copy\n"
    assert rep.outcomes[0].dest == str(tmp / "out" / "report (1).txt")
    assert hash_file(rep.outcomes[0].dest) == hash_file(p["en_b"])


def test_undo_leaves_an_edited_copy_and_the_last_copy(corpus):
    res, p, tmp = corpus
    rep = execute(bind_scan_identity(plan_copy(res, {p["en_b"], p["en_c"]}, str(tmp / "out")),
                                     res))
    edited, last = (o.dest for o in rep.outcomes)
    with open(edited, "ab") as fh:
        fh.write(b"my edit\n")
    os.unlink(p["en_c"])  # the original went: the copy is now the only one of its text
    back = undo(rep.journal)
    assert back.count("done") == 0 and back.count("skipped") == 2
    reasons = " ".join(o.reason for o in back.outcomes)
    assert "was changed since it was made" in reasons and "may be the last one" in reasons
    assert os.path.exists(edited) and os.path.exists(last)


def test_a_copy_of_a_file_changed_since_the_scan_is_skipped(corpus):
    res, p, tmp = corpus
    plan = bind_scan_identity(plan_copy(res, {p["en_b"]}, str(tmp / "out")), res)
    with open(p["en_b"], "ab") as fh:
        fh.write(b"edited after the scan\n")
    rep = execute(plan)
    assert rep.count("skipped") == 1 and "since the scan" in rep.outcomes[0].reason
    assert not (tmp / "out").exists() or tree_state(tmp / "out") == {}


def test_copy_dry_run_touches_nothing(corpus):
    res, p, tmp = corpus
    rep = execute(bind_scan_identity(plan_copy(res, {p["en_b"]}, str(tmp / "out")), res),
                  dry_run=True)
    assert rep.count("planned") == 1 and not (tmp / "out").exists() and rep.journal is None


def test_rename_and_undo(corpus):
    res, p, tmp = corpus
    old = p["en_b"]
    data = Path(old).read_bytes()
    rep = execute(bind_scan_identity(plan_rename(res, old, "report v2.txt"), res))
    new = str(Path(old).with_name("report v2.txt"))
    assert rep.count("done") == 1 and rep.outcomes[0].dest == new
    assert not os.path.exists(old) and Path(new).read_bytes() == data
    assert undo(rep.journal).count("done") == 1
    assert Path(old).read_bytes() == data and not os.path.exists(new)


@pytest.mark.parametrize("name", ["", " ", "a/b.txt", "..", ".", "x\0y",
                                  ".simdup-tmp-0123"])
def test_rename_refuses_what_is_not_a_plain_new_name(corpus, name):
    res, p, _ = corpus
    with pytest.raises(ValueError):
        plan_rename(res, p["en_b"], name)


def test_rename_never_replaces_a_file(corpus):
    res, p, tmp = corpus
    with pytest.raises(ValueError, match="exists already"):
        plan_rename(res, p["en_b"], "zh-gbk.txt")  # a file of the same folder
    plan = bind_scan_identity(plan_rename(res, p["en_b"], "new.txt"), res)
    there = write(tmp / "src" / "bb" / "new.txt", b"appeared meanwhile\n", 0)
    rep = execute(plan)
    assert rep.count("skipped") == 1 and "never replaces" in rep.outcomes[0].reason
    assert Path(there).read_bytes() == b"appeared meanwhile\n" and os.path.exists(p["en_b"])


def test_a_journal_that_renames_into_another_folder_is_refused(corpus):
    res, p, tmp = corpus
    rep = execute(bind_scan_identity(plan_rename(res, p["en_b"], "x.txt"), res))
    state = read_journal(rep.journal, verify=False)
    state.ops[0]["dest"] = str(tmp / "src" / "a" / "x.txt")  # forged: another folder
    with pytest.raises(JournalRefused, match="not a new name in its folder"):
        check_journal(state)


def test_a_copy_cut_off_half_way_is_resumed(corpus, monkeypatch):
    res, p, tmp = corpus
    real = actions.copy_at
    calls = []

    def crashing(src, st, dest, expected, tmp_name=None):
        calls.append(src)
        if len(calls) == 2:  # half a copy under its temporary name, then a power cut
            Path(tmp_name).write_bytes(b"half")
            raise KeyboardInterrupt
        return real(src, st, dest, expected, tmp_name)

    monkeypatch.setattr(actions, "copy_at", crashing)
    plan = bind_scan_identity(plan_copy(res, {p["en_b"], p["en_c"], p["zh_gbk"]},
                                        str(tmp / "out"), flat=True), res)
    with pytest.raises(KeyboardInterrupt):
        execute(plan)
    monkeypatch.setattr(actions, "copy_at", real)
    journal = last_journal()
    lines = Path(journal).read_text().splitlines()
    assert '"end"' in lines[-1]
    Path(journal).write_text("\n".join(lines[:-1]) + "\n")  # the end entry was never written
    rep = resume(journal)
    assert rep.count("done") == 2 and rep.exit_code == 0  # the two not yet done
    out = tree_state(tmp / "out")
    assert len(out) == 3 and not any(".simdup-tmp-" in f for f in out)
    assert sorted(out.values()) == sorted(hash_file(p[n]) for n in ("en_b", "en_c", "zh_gbk"))


def test_session_rename_keeps_the_file_in_its_group_and_undo_brings_the_old_name(tmp_path):
    paths = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    s.mark([paths["en_b"]])
    new = str(Path(paths["en_b"]).with_name("renamed.txt"))
    assert s.finish_action(s.execute(s.plan_rename(paths["en_b"], "renamed.txt")))
    s.regroup()
    grouped = {s.records[i].path for g in s.groups for i in g.indices()}
    assert new in grouped and paths["en_b"] not in grouped and new in s.marks
    assert s.finish_action(s.undo())
    s.regroup()
    grouped = {s.records[i].path for g in s.groups for i in g.indices()}
    assert paths["en_b"] in grouped and new not in grouped and paths["en_b"] in s.marks


def test_a_file_under_a_reference_folder_is_never_renamed(tmp_path):
    paths = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1),
                reference=[str(tmp_path / "src" / "bb")])
    s.scan()
    with pytest.raises(ValueError, match="reference folder"):
        s.plan_rename(paths["en_b"], "x.txt")
    assert s.plan_rename(paths["en_a"], "x.txt").ops[0].dest.endswith("x.txt")


def test_session_copy_plans_only_the_marked_files(tmp_path):
    paths = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    s.mark([paths["en_b"], paths["other"]])  # "other" is in no group
    plan = s.plan_copy(str(tmp_path / "src" / "copies"))
    assert [op.path for op in plan.ops] == [paths["en_b"]]
    assert any("inside the scanned folder" in n for n in plan.notes)
    rep = s.execute(plan)
    assert not s.finish_action(rep)  # the records do not change
    assert json.loads(json.dumps(rep.to_dict()))["counts"]["done"] == 1
