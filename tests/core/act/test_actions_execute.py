"""Carrying out a plan: moves, the trash and deletes, and every way they can fail."""

import errno
import os

import pytest

import send2trash.plat_other as plat_other

from simdup_gui.core.act import fileops
from simdup_gui.core.act.actions import execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.job import Job
from simdup_gui.core.act.journal import read_journal
from simdup_gui.core.act.marking import (KeepRule, mark_all_but_one)
from simdup_gui.core.act.recovery import undo

from tests.actions_helpers import T0, tree_state, write


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

def test_fileops_unique_path_counts_up(tmp_path):
    write(tmp_path / "a.txt", b"x", T0)
    write(tmp_path / "a (1).txt", b"x", T0)
    assert fileops.unique_path(str(tmp_path / "a.txt")) == str(tmp_path / "a (2).txt")
    assert fileops.unique_path(str(tmp_path / "b.txt"), {str(tmp_path / "b.txt")}) == \
        str(tmp_path / "b (1).txt")
