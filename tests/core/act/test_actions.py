import errno
import os
import random
import tempfile
from pathlib import Path

import pytest

from simdup_gui.core.textsim import text_similarity
import send2trash.plat_other as plat_other
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.act import actions
from simdup_gui.core.act import fileops
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.act.actions import ActionRefused, execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.job import Job
from simdup_gui.core.act.journal import journal_to_undo, last_journal, read_journal
from simdup_gui.core.act.marking import (KeepRule, groups_without_kept_file, invert_marks,
                                     mark_all_but_one, toggle_selected)
from simdup_gui.core.act.recovery import resume, undo
from simdup_gui.core.review.results import Results
from simdup_gui.core.scan.pipeline import ScanOptions, scan

from tests.actions_helpers import T0, corpus_results, results_from_groups, tree_state, write


@pytest.fixture
def corpus(tmp_path):
    res, p = corpus_results(tmp_path)
    return res, p, tmp_path


def test_move_keeps_structure_relative_to_the_scan_root(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    marks = mark_all_but_one(res, KeepRule("oldest"))
    rep = execute(plan_action(res, marks, "move", move_to=str(tmp / "dups")))
    assert rep.count("done") == 3 and rep.exit_code == 0
    moved = {o.path: o.dest for o in rep.outcomes}
    assert moved[p["en_c"]] == str(tmp / "dups" / "ccc" / "deep" / "report.txt")
    for src, dest in moved.items():
        assert not os.path.exists(src) and hash_file(dest) == before[src]
    assert hash_file(p["en_a"]) == before[p["en_a"]]


def test_flat_move_name_clash_gets_a_unique_name_and_overwrites_nothing(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    existing = write(tmp / "dups" / "report.txt", b"already here", T0)
    marks = {p["en_b"], p["en_c"]}
    rep = execute(plan_action(res, marks, "move", move_to=str(tmp / "dups"), flat=True))
    dests = sorted(o.dest for o in rep.outcomes)
    assert dests == [str(tmp / "dups" / "report (1).txt"), str(tmp / "dups" / "report (2).txt")]
    assert Path(existing).read_bytes() == b"already here"
    assert {hash_file(d) for d in dests} == {before[p["en_b"]], before[p["en_c"]]}


def test_an_action_that_would_leave_a_group_empty_is_refused_and_touches_nothing(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    marks = {p["en_a"], p["en_b"], p["en_c"], p["zh_gbk"]}
    with pytest.raises(ActionRefused, match="all 3 files are marked"):
        plan_action(res, marks, "delete")
    assert tree_state(tmp / "src") == before
    assert last_journal() is None


def test_marked_files_outside_any_group_are_refused(corpus):
    res, p, _ = corpus
    with pytest.raises(ActionRefused, match="in no group"):
        plan_action(res, {p["other"]}, "trash")


def test_bad_action_or_destination_raises_value_error(corpus):
    res, p, tmp = corpus
    with pytest.raises(ValueError, match="move, trash, delete"):
        plan_action(res, {p["en_b"]}, "shred")
    with pytest.raises(ValueError, match="destination"):
        plan_action(res, {p["en_b"]}, "move")
    with pytest.raises(ValueError, match="not a folder"):
        plan_action(res, {p["en_b"]}, "move", move_to=p["other"])


def test_a_file_changed_after_the_scan_is_skipped_even_with_same_size_and_mtime(corpus):
    res, p, _ = corpus
    data = bytearray(Path(p["en_b"]).read_bytes())
    data[0:5] = b"EVERY"
    st = os.stat(p["en_b"])
    Path(p["en_b"]).write_bytes(bytes(data))
    os.utime(p["en_b"], ns=(st.st_atime_ns, st.st_mtime_ns))
    with open(p["en_c"], "ab") as fh:
        fh.write(b"more")
    rep = execute(plan_action(res, {p["en_b"], p["en_c"]}, "delete"))
    reasons = {o.path: (o.status, o.reason) for o in rep.outcomes}
    assert reasons[p["en_b"]] == ("skipped", "content changed since the scan (hash differs)")
    assert reasons[p["en_c"]][0] == "skipped" and "size changed" in reasons[p["en_c"]][1]
    assert os.path.exists(p["en_b"]) and os.path.exists(p["en_c"])


def test_a_file_is_skipped_when_no_kept_copy_is_left_unchanged(corpus):
    res, p, _ = corpus
    os.remove(p["zh_utf8"])  # the copy we meant to keep vanished after the scan
    rep = execute(plan_action(res, {p["zh_gbk"]}, "delete"))
    (o,) = rep.outcomes
    assert o.status == "skipped" and "no unchanged kept copy" in o.reason
    assert p["zh_utf8"] in o.reason and os.path.exists(p["zh_gbk"])


def test_a_kept_copy_that_is_a_symlink_to_the_marked_file_does_not_count(tmp_path):
    a = write(tmp_path / "a.txt", b"same words" * 50, T0)
    b = write(tmp_path / "b.txt", b"same words" * 50, T0)
    res = results_from_groups([[a, b]], str(tmp_path))
    os.remove(b)
    os.symlink(a, b)  # now b is only a name for a
    rep = execute(plan_action(res, {a}, "delete"))
    assert rep.outcomes[0].status == "skipped" and os.path.exists(a)


def test_dry_run_touches_nothing_and_says_exactly_what_the_real_run_does(corpus):
    res, p, tmp = corpus
    write(tmp / "dups" / "report.txt", b"clash", T0)
    before = tree_state(tmp)
    plan = plan_action(res, mark_all_but_one(res, KeepRule("newest")), "move",
                       move_to=str(tmp / "dups"), flat=True)
    dry = execute(plan, dry_run=True)
    assert tree_state(tmp) == before and last_journal() is None
    assert {o.status for o in dry.outcomes} == {"planned"}
    real = execute(plan)
    assert [(o.path, o.dest) for o in dry.outcomes] == [(o.path, o.dest) for o in real.outcomes]
    assert {o.status for o in real.outcomes} == {"done"}


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


@pytest.fixture
def fake_home_trash(tmp_path, monkeypatch):
    """send2trash's freedesktop trash, pointed at a temporary XDG_DATA_HOME."""
    data = tmp_path / "xdg"
    data.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data / "Trash"))
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)  # same device as "home"
    return data / "Trash"


def test_trash_then_undo_brings_files_back_from_the_freedesktop_trash(corpus, fake_home_trash):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    rep = execute(plan_action(res, {p["en_b"], p["zh_gbk"]}, "trash"),
                  trash=plat_other.send2trash)
    assert rep.count("done") == 2 and all(o.restorable for o in rep.outcomes)
    assert len(list((fake_home_trash / "info").iterdir())) == 2
    back = undo(rep.journal)
    assert back.count("done") == 2
    assert tree_state(tmp / "src") == before
    assert list((fake_home_trash / "info").iterdir()) == []


def test_trash_that_cannot_be_read_back_is_reported_as_not_restorable(corpus):
    res, p, tmp = corpus
    bin_ = tmp / "bin"
    bin_.mkdir()
    rep = execute(plan_action(res, {p["en_b"]}, "trash"),
                  trash=lambda path: os.rename(path, bin_ / "x"))
    assert rep.outcomes[0].status == "done" and rep.outcomes[0].restorable is False
    assert "restore it from the system trash" in rep.outcomes[0].reason
    back = undo(rep.journal)
    assert back.outcomes[0].status == "skipped" and "system trash" in back.outcomes[0].reason


def test_trash_failure_is_reported_as_a_failure(corpus):
    res, p, _ = corpus

    def broken(path):
        raise OSError(errno.EROFS, "Read-only file system", path)

    rep = execute(plan_action(res, {p["en_b"]}, "trash"), trash=broken)
    assert rep.outcomes[0].status == "failed" and "Read-only" in rep.outcomes[0].reason
    assert rep.exit_code == 1 and os.path.exists(p["en_b"])


def test_trash_that_claims_success_but_leaves_the_file_is_a_failure(corpus):
    res, p, _ = corpus
    rep = execute(plan_action(res, {p["en_b"]}, "trash"), trash=lambda path: None)
    assert rep.outcomes[0].status == "failed" and "still there" in rep.outcomes[0].reason


def test_delete_failures_are_reported_never_as_success(corpus, monkeypatch):
    res, p, _ = corpus
    real_unlink = os.unlink

    def deny(path, *a, **kw):
        if str(path) == p["en_c"]:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_unlink(path, *a, **kw)

    monkeypatch.setattr(os, "unlink", deny)
    rep = execute(plan_action(res, {p["en_b"], p["en_c"]}, "delete"))
    out = {o.path: o for o in rep.outcomes}
    assert out[p["en_c"]].status == "failed" and "Permission denied" in out[p["en_c"]].reason
    assert out[p["en_b"]].status == "done" and not os.path.exists(p["en_b"])
    assert os.path.exists(p["en_c"]) and rep.exit_code == 1
    st = read_journal(rep.journal)
    assert {r["type"] for r in st.results.values()} == {"done", "failed"}


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root ignores directory permissions")
def test_delete_in_a_read_only_folder_fails_loudly(corpus):
    res, p, tmp = corpus
    folder = os.path.dirname(p["en_c"])
    os.chmod(folder, 0o555)
    try:
        rep = execute(plan_action(res, {p["en_c"]}, "delete"))
    finally:
        os.chmod(folder, 0o755)
    assert rep.outcomes[0].status == "failed" and os.path.exists(p["en_c"])


def test_a_failed_move_leaves_the_original_in_place(corpus, monkeypatch):
    res, p, tmp = corpus
    real_unlink = os.unlink

    def deny_src(path, *a, **kw):
        if str(path) == p["en_b"]:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_unlink(path, *a, **kw)

    monkeypatch.setattr(os, "unlink", deny_src)
    rep = execute(plan_action(res, {p["en_b"]}, "move", move_to=str(tmp / "dups")))
    assert rep.outcomes[0].status == "failed"
    assert os.path.exists(p["en_b"]) and tree_state(tmp / "dups") == {}


def test_a_move_across_file_systems_copies_verifies_then_removes(corpus, monkeypatch):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    mtime = os.stat(p["en_c"]).st_mtime_ns
    real_link = os.link

    def cross(src, dst, *a, **kw):
        if ".simdup-tmp-" not in str(src):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_link(src, dst, *a, **kw)

    monkeypatch.setattr(os, "link", cross)
    rep = execute(plan_action(res, {p["en_c"]}, "move", move_to=str(tmp / "dups")))
    (o,) = rep.outcomes
    assert o.status == "done" and "copied across file systems" in o.reason
    assert hash_file(o.dest) == before[p["en_c"]] and os.stat(o.dest).st_mtime_ns == mtime
    assert not os.path.exists(p["en_c"])
    assert [n for n in os.listdir(os.path.dirname(o.dest)) if n.startswith(".simdup")] == []


def test_deleting_a_hard_linked_file_says_no_space_is_freed(corpus, tmp_path):
    res, p, _ = corpus
    h = hash_file(p["en_b"])
    os.link(p["en_b"], tmp_path / "elsewhere.txt")
    rep = execute(plan_action(res, {p["en_b"]}, "delete"))
    assert rep.outcomes[0].status == "done" and "hard link" in rep.outcomes[0].reason
    assert hash_file(str(tmp_path / "elsewhere.txt")) == h


def test_cancel_stops_between_files_and_reports_the_rest_as_skipped(corpus):
    res, p, tmp = corpus
    job = Job()
    seen = []

    def on_progress(ev):
        seen.append(ev)
        if ev.phase == "apply" and ev.files_done == 1:
            job.cancel()

    job._on_progress = on_progress
    rep = execute(plan_action(res, mark_all_but_one(res, KeepRule("oldest")), "delete"), job)
    assert rep.cancelled and [o.status for o in rep.outcomes] == ["done", "skipped", "skipped"]
    assert rep.outcomes[2].reason.startswith("cancelled")
    assert os.path.exists(rep.outcomes[2].path)
    assert [e.files_total for e in seen if e.phase == "apply"] == [3, 3]


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


def test_fileops_unique_path_counts_up(tmp_path):
    write(tmp_path / "a.txt", b"x", T0)
    write(tmp_path / "a (1).txt", b"x", T0)
    assert fileops.unique_path(str(tmp_path / "a.txt")) == str(tmp_path / "a (2).txt")
    assert fileops.unique_path(str(tmp_path / "b.txt"), {str(tmp_path / "b.txt")}) == \
        str(tmp_path / "b (1).txt")


# ---- property test ---------------------------------------------------------------------

STEPS = st.one_of(
    st.tuples(st.just("rule"), st.sampled_from(["oldest", "newest", "largest", "smallest",
                                                 "shortest-path", "longest-path"])),
    st.tuples(st.just("toggle"), st.integers(0, 15)),
    st.tuples(st.just("invert")),
    st.tuples(st.just("clear")),
    st.tuples(st.just("edit"), st.integers(0, 15)),
    st.tuples(st.just("act"), st.sampled_from(["move", "trash", "delete"])),
    st.tuples(st.just("undo")),
)


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
       steps=st.lists(STEPS, min_size=1, max_size=10))
def test_random_marks_and_actions_keep_a_file_per_group_and_never_touch_unmarked_files(
        sizes, steps):
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "src"
        groups = [[write(root / f"g{g}" / ("x" * (i + 1)) / "f.txt",
                         f"group {g} copy {i} ".encode() * (10 + 7 * i), T0 + (i * 7 % 3) * 10**9)
                   for i in range(n)] for g, n in enumerate(sizes)]
        res = results_from_groups(groups, str(root))
        paths = [r.path for r in res.records]
        bin_ = Path(d) / "bin"
        bin_.mkdir()
        marks: set[str] = set()
        journals: list[str] = []
        acts = 0

        def fake_trash(path):
            os.rename(path, bin_ / f"{len(os.listdir(bin_))}")

        for step in steps:
            kind = step[0]
            if kind == "rule":
                marks = mark_all_but_one(res, KeepRule(step[1]))
            elif kind == "toggle":
                marks = toggle_selected(marks, [paths[step[1] % len(paths)]])
            elif kind == "invert":
                marks = invert_marks(res, marks)
            elif kind == "clear":
                marks = set()
            elif kind == "edit":
                p = paths[step[1] % len(paths)]
                if os.path.exists(p):
                    with open(p, "ab") as fh:
                        fh.write(b"edited")
            elif kind == "undo" and journals:
                undo(journals.pop())
            elif kind == "act":
                before = tree_state(root)
                try:
                    dest = str(Path(d) / "dups") if step[1] == "move" else None
                    plan = plan_action(res, marks, step[1], move_to=dest)
                except ActionRefused as e:
                    assert groups_without_kept_file(res, marks) or "similar in text" in str(e)
                    assert tree_state(root) == before
                    continue
                acts += 1  # a fresh journal each time: an existing one is never reused
                journals.append(str(Path(d) / "j" / f"{acts}.jsonl"))
                rep = execute(plan, journal=journals[-1], trash=fake_trash)
                done = {o.path for o in rep.outcomes if o.status == "done"}
                assert done <= marks
                after = tree_state(root)
                assert {p: h for p, h in before.items() if p not in done} == after
            for g in groups:
                assert any(os.path.exists(p) for p in g), "a group lost its last file"


# ---- the kept copy must be similar to the file it protects (not just in its group) -------

def write_chain(root: Path, n: int = 12, words: int = 300, seed: int = 2) -> list[str]:
    """``n`` docs, each a 4% word edit of the previous: one linked chain, ends far apart."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    doc = [rng.choice(vocab) for _ in range(words)]
    paths = []
    for i in range(n):
        if i:
            for j in rng.sample(range(words), words * 4 // 100):
                doc[j] = rng.choice(vocab)
        paths.append(write(root / f"doc{i:02d}.txt", (" ".join(doc) + "\n").encode(),
                           T0 + i * 10**9))
    return paths


def chain_results(root: Path, bits: int = 64, k: int = 8) -> tuple[Results, list[str]]:
    """The chain grouped by SimHash alone (linked): one group whose ends differ in text."""
    paths = write_chain(root)
    r = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    groups, _ = build_groups(r.records, bits, k, verify="none")
    assert [len(g.members) for g in groups] == [12], "the chain should form one linked group"
    return Results(r.records, groups, r.problems,
                   {"bits": bits, "distance": k, "similarity": 0.7}, r.stats), paths


def text_j(a: str, b: str) -> float:
    return text_similarity(Path(a).read_text(), Path(b).read_text())


def test_verified_grouping_splits_the_chain_so_no_group_holds_its_far_ends(tmp_path):
    docs = write_chain(tmp_path / "src")
    r = scan([str(tmp_path / "src")], ScanOptions(use_cache=False, workers=1))
    groups, _ = build_groups(r.records, 64, 12)
    assert text_j(docs[0], docs[-1]) < 0.5
    for g in groups:
        ref = r.records[g.representative].path
        for m in g.members:
            assert text_j(ref, r.records[m.index].path) >= 0.7 - 1e-9
        paths = {r.records[i].path for i in g.indices()}
        assert not {docs[0], docs[-1]} <= paths


def test_deleting_the_far_end_of_a_linked_chain_is_refused_naming_the_most_similar_kept_copy(
        tmp_path):
    res, docs = chain_results(tmp_path / "src")
    assert text_j(docs[0], docs[-1]) < 0.7
    before = tree_state(tmp_path / "src")
    marks = set(docs[1:])  # every doc but the first, marked by hand
    with pytest.raises(ActionRefused) as e:
        plan_action(res, marks, "delete")
    msg = str(e.value)
    pct = f"{text_j(docs[0], docs[-1]):.0%}"
    assert docs[-1] in msg and docs[0] in msg and pct in msg and "70%" in msg
    assert tree_state(tmp_path / "src") == before and last_journal() is None


def test_each_op_is_protected_only_by_kept_copies_similar_in_text(tmp_path):
    res, docs = chain_results(tmp_path / "src")
    marks = {docs[5], docs[6]}
    plan = plan_action(res, marks, "delete")
    for op in plan.ops:
        assert op.kept, op.path
        for k in op.kept:
            assert text_j(op.path, k.path) >= 0.7
    assert {k.path for k in plan.ops[0].kept} < set(docs) - marks


def test_the_kept_copy_is_judged_by_the_files_text_not_by_fingerprints_in_the_results(tmp_path):
    a = write(tmp_path / "a.txt", b"same text in both files", T0)
    b = write(tmp_path / "b.txt", b"same text\r\nin both files", T0)
    c = write(tmp_path / "c.txt", b"quite another text altogether", T0)
    res = results_from_groups([[a, b, c]], str(tmp_path))
    # forged claims: far fingerprints for the twins, equal text hashes for the stranger
    res.records[0].fingerprint, res.records[1].fingerprint = 0, (1 << 64) - 1
    res.records[2].text_hash = res.records[0].text_hash
    plan = plan_action(res, {b}, "delete")
    assert [k.path for k in plan.ops[0].kept] == [a]
    with pytest.raises(ActionRefused, match="similar in text"):
        plan_action(res, {a, b}, "delete")


def test_results_without_a_similarity_use_the_default_threshold(tmp_path):
    res, docs = chain_results(tmp_path / "src")
    del res.settings["similarity"]
    with pytest.raises(ActionRefused, match="70%"):
        plan_action(res, set(docs[1:]), "delete")


# ---- reference folders are enforced when acting ---------------------------------------------

def test_marks_under_a_reference_folder_are_refused_at_action_time(corpus):
    res, p, tmp = corpus
    before = tree_state(tmp / "src")
    with pytest.raises(ActionRefused, match="reference folder") as e:
        plan_action(res, {p["en_a"], p["zh_gbk"]}, "delete", reference=[str(tmp / "src" / "a")])
    assert p["en_a"] in str(e.value) and p["zh_gbk"] not in str(e.value)
    assert plan_action(res, {p["zh_gbk"]}, "delete", reference=[str(tmp / "src" / "a")]).ops
    assert tree_state(tmp / "src") == before


# ---- undo picks the newest journal that still has something to undo -------------------

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


def test_keep_rule_on_a_chain_keeps_enough_files_that_the_action_is_not_refused(tmp_path):
    res, docs = chain_results(tmp_path / "src")
    marks = mark_all_but_one(res, KeepRule("oldest"))
    assert text_j(docs[0], docs[-1]) < 0.7
    assert docs[0] not in marks and docs[-1] not in marks
    assert 0 < len(marks) < len(docs) - 1  # more than one file kept on a long chain
    plan = plan_action(res, marks, "delete")
    for op in plan.ops:
        assert any(text_j(op.path, k.path) >= 0.7 for k in op.kept)
