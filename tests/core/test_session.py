"""The review session without Qt: scan, group, mark, act, undo, save and load."""

import hashlib
import os

import pytest

from simdup_gui.core.act.actions import ActionRefused
from simdup_gui.core.job import Job
from simdup_gui.core.models import FileRecord
from simdup_gui.core.session import GroupingRequest, Refusal, ReviewSettings, Session

from tests.conftest import EN, OTHER, ZH


def digest(p):
    with open(p, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


@pytest.fixture
def folder(tmp_path):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    (src / "a" / "zh.txt").write_bytes(ZH.encode())
    (src / "zh_gbk.txt").write_bytes(ZH.encode("gbk"))
    (src / "en.txt").write_text(EN)
    (src / "a" / "en copy.txt").write_text(EN.replace("five", "six", 1))
    (src / "other.txt").write_text(OTHER)
    os.utime(src / "a" / "zh.txt", ns=(1, 1_000_000_000))
    os.utime(src / "en.txt", ns=(1, 1_000_000_000))
    return src


@pytest.fixture
def session(folder):
    s = Session([str(folder)])
    s.scan()
    return s


def names(s):
    return sorted(sorted(os.path.basename(s.records[m.index].path) for m in g.members)
                  for g in s.groups)


def test_scan_finds_records_and_groups(session):
    assert len(session.records) == 5 and not session.cancelled
    assert names(session) == [["en copy.txt", "en.txt"], ["zh.txt", "zh_gbk.txt"]]
    assert session.file_count() == 4


def test_scan_reports_progress_through_the_job(folder):
    seen = []
    Session([str(folder)]).scan(job=Job(seen.append))
    assert any(ev.phase == "fingerprint" for ev in seen)


def test_regroup_uses_the_settings_and_keeps_marks_by_path(session, folder):
    session.mark_keep("oldest")
    marks = set(session.marks)
    session.settings.distance = 0
    session.regroup()
    assert session.grouped_marks() < marks  # the edited copy left its group
    session.settings.distance = 16
    session.regroup()
    assert session.grouped_marks() == marks


def test_stale_groups_are_not_kept(session):
    req = session.grouping_request()
    session.settings.distance = 3
    assert not session.set_groups(req, [], "")
    assert len(session.groups) == 2


def test_background_regroup_runs_again_after_a_change(session):
    req = session.begin_regroup()
    assert isinstance(req, GroupingRequest) and session.regrouping
    assert session.begin_regroup() is None  # one at a time: the change waits
    session.settings.distance = 0
    kept, again = session.end_regroup(req.run())
    assert not kept and again and not session.regrouping
    req = session.begin_regroup()
    assert session.end_regroup(req.run()) == (True, False)
    assert all(m.distance == 0 for g in session.groups for m in g.members)


def test_marking_rules_toggle_invert_clear_and_reference(session, folder):
    session.mark_keep("oldest")
    assert session.marks == {str(folder / "zh_gbk.txt"), str(folder / "a" / "en copy.txt")}
    assert session.marked_size() == sum(os.path.getsize(p) for p in session.marks)
    changed = session.toggle([str(folder / "zh_gbk.txt")])
    assert changed == {str(folder / "zh_gbk.txt")}
    session.invert()
    assert str(folder / "zh_gbk.txt") in session.marks
    session.set_reference([str(folder / "a")])
    assert not any(p.startswith(str(folder / "a")) for p in session.marks)
    session.mark([str(folder / "a" / "zh.txt")])  # reference files are never marked
    assert str(folder / "a" / "zh.txt") not in session.marks
    session.clear_marks()
    assert session.marks == set()


def test_act_then_undo_restores_every_byte(session, folder, tmp_path):
    before = {str(p): digest(p) for p in folder.rglob("*.txt")}
    session.mark_keep("oldest")
    plan = session.plan("move", move_to=str(tmp_path / "dups"))
    report = session.execute(plan, journal=str(tmp_path / "j.jsonl"))
    assert report.count("done") == 2
    assert session.finish_action(report)
    session.regroup()
    assert session.groups == [] and len(session.records) == 3 and session.marks == set()
    undone = session.undo(str(tmp_path / "j.jsonl"))
    session.finish_action(undone)
    session.regroup()
    assert {str(p): digest(p) for p in folder.rglob("*.txt")} == before
    assert len(session.records) == 5 and len(session.groups) == 2
    assert session.last_report is undone


def test_a_dry_run_changes_nothing(session):
    session.mark_keep("newest")
    report = session.execute(session.plan("delete"), dry_run=True)
    assert report.count("planned") == 2
    assert not session.finish_action(report)
    assert all(os.path.exists(p) for p in session.marks)


def test_marking_every_copy_is_refused(session):
    g = session.groups[0]
    session.set_marks({session.records[m.index].path for m in g.members})
    with pytest.raises(ActionRefused, match="no copy"):
        session.plan("delete")


def test_undo_with_nothing_to_undo_is_an_empty_report():
    assert Session.undo().summary() == "undo: nothing to do"


def test_a_crafted_journal_is_a_refusal(tmp_path):
    j = tmp_path / "j.jsonl"
    j.write_text('{"type": "start"}\n')
    with pytest.raises(Refusal):
        Session.undo(str(j))


def test_save_and_load_keep_marks_size_and_distance(session, folder, tmp_path):
    session.settings.bits, session.settings.distance = 128, 20
    session.regroup()
    session.mark_keep("largest")
    marks = set(session.marks)
    session.save(str(tmp_path / "r.json"))
    other = Session(reference=[str(folder / "a")])
    other.load(str(tmp_path / "r.json"))
    other.regroup()
    assert (other.settings.bits, other.settings.distance) == (128, 20)
    assert other.marks == {p for p in marks if not p.startswith(str(folder / "a"))}
    assert names(other) == names(session)


def test_results_carry_the_review_settings(session, folder):
    res = session.results()
    assert res.settings == {"bits": 64, "distance": 16, "features": "shingles",
                            "grouping": "linked", "verify": "sketch", "similarity": 0.7,
                            "measure": "plain", "roots": [str(folder)], "include": [], "exclude": [],
                            "min_size": 1, "max_size": None, "follow_symlinks": False,
                            "documents": True, "index": session.index_plan}
    assert "candidate pairs" in session.index_plan  # what the grouping did, saved with it


def test_an_empty_session_groups_to_nothing():
    s = Session(settings=ReviewSettings(verify="none"))
    s.regroup()
    assert s.groups == [] and s.grouped_marks() == set()
    s.records = [FileRecord("/x/a", 1, 1, 1, 1, "/x", "utf-8", 5, 10, "t", "c")]
    s.regroup()
    assert s.groups == []


def test_saved_results_keep_the_threshold_and_roots_and_load_back(tmp_path):
    """The app's saved results carry the similarity threshold and verification the review
    used (keep rules and action checks read them), and name the roots the records were
    scanned under, so the file passes the results loader's checks when read back."""
    from simdup_gui.core.session import Session
    from tests.actions_helpers import make_corpus

    make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")])
    s.settings.similarity = 0.85
    s.scan()
    s.roots = [str(tmp_path / "elsewhere")]  # the folder list changed after the scan
    out = str(tmp_path / "r.json")
    s.save(out)
    t = Session()
    t.load(out)
    assert t.settings.similarity == 0.85 and t.settings.verify == s.settings.verify
    assert t.results().settings["roots"] == [str(tmp_path / "src")]
    assert [r.path for r in t.records] == [r.path for r in s.records]


def test_clearing_a_cache_that_cannot_be_written_is_a_refusal(tmp_path, monkeypatch):
    import sqlite3

    from simdup_gui.core.scan import cache as cache_mod
    from simdup_gui.core.session import Refusal, Session

    def refuse(self):
        raise sqlite3.OperationalError("the cache is read-only")
    monkeypatch.setattr(cache_mod.FingerprintCache, "clear", refuse)
    with pytest.raises(Refusal, match="cannot clear the fingerprint cache .*read-only"):
        Session().clear_cache()


def test_a_regroup_of_the_same_records_classes_them_once(session, monkeypatch):
    """The classes of identical texts and the fingerprint arrays are made once per records
    list: regroups at another size, distance or threshold reuse them (the classing alone
    held the GIL 85-95 ms at 100,000 files); new records are classed again."""
    from simdup_gui.core.group import classes

    calls = {"classes": 0, "words": 0}
    real_classes, real_words = classes.text_classes, classes.fingerprint_words

    def count_classes(records):
        calls["classes"] += 1
        return real_classes(records)

    def words(records):
        calls["words"] += 1
        return real_words(records)
    monkeypatch.setattr(classes, "text_classes", count_classes)
    monkeypatch.setattr(classes, "fingerprint_words", words)
    before = [[m.index for m in g.members] for g in session.groups]
    for bits, distance, similarity in ((128, 26, 0.7), (64, 12, 0.8), (64, 16, 0.7)):
        session.settings.bits, session.settings.distance = bits, distance
        session.settings.similarity = similarity
        session.regroup()
    assert calls == {"classes": 0, "words": 0}  # made by the scan's own grouping
    assert [[m.index for m in g.members] for g in session.groups] == before  # same settings
    session.records = list(session.records)  # another list: classed again, once
    session.regroup()
    session.settings.bits = 128
    session.regroup()
    assert calls == {"classes": 1, "words": 1}
