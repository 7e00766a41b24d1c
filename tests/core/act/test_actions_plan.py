"""Planning an action: what is moved where, what is refused, what is skipped, and which
kept copy protects each file (by its text)."""

import os
from pathlib import Path

import pytest

from simdup_gui.core.textsim import text_similarity
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.act.actions import ActionRefused, execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import last_journal
from simdup_gui.core.act.marking import KeepRule, mark_all_but_one
from simdup_gui.core.review.results import Results
from simdup_gui.core.scan.pipeline import ScanOptions, scan

from tests.actions_helpers import T0, results_from_groups, tree_state, write, write_chain


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

def test_keep_rule_on_a_chain_keeps_enough_files_that_the_action_is_not_refused(tmp_path):
    res, docs = chain_results(tmp_path / "src")
    marks = mark_all_but_one(res, KeepRule("oldest"))
    assert text_j(docs[0], docs[-1]) < 0.7
    assert docs[0] not in marks  # the oldest, which the rule keeps
    assert 0 < len(marks) < len(docs) - 1  # more than one file kept on a long chain
    kept = [d for d in docs if d not in marks]
    assert any(text_j(docs[-1], k) >= 0.7 for k in kept)  # the far end keeps a close copy
    plan = plan_action(res, marks, "delete")
    for op in plan.ops:
        assert any(text_j(op.path, k.path) >= 0.7 for k in op.kept)


def test_a_forged_low_similarity_never_lets_a_different_file_go(corpus):
    """A results file is untrusted: with its similarity set to 0.01 and an unrelated file
    put into a group, the plan still refuses, since below DIFFERENT_BELOW texts are
    different by the definition."""
    from simdup_gui.core.models import Member

    res, p, _ = corpus
    idx = {r.path: i for i, r in enumerate(res.records)}
    g = next(g for g in res.groups if any(res.records[m.index].path == p["en_a"]
                                          for m in g.members))
    g.members.append(Member(idx[p["other"]], 30, False))
    res.settings["similarity"] = 0.01
    with pytest.raises(ActionRefused, match="no kept copy at least 50% similar"):
        plan_action(res, {p["other"]}, "delete")
    res.settings["similarity"] = 0.99  # a stricter setting than the floor still applies
    with pytest.raises(ActionRefused, match="at least 99% similar"):
        plan_action(res, {p["en_c"], p["en_b"]}, "delete")
