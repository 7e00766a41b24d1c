"""Item 3 of issue 10: settling a move cut off between link and unlink never deletes an
original that was edited meanwhile."""

import errno
import os
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import fileops
from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import read_journal
from simdup_gui.core.act.recovery import resume, undo

from tests.actions_helpers import T0, results_from_groups, write
from tests.conftest import EN


class Killed(BaseException):
    """Stands for the process being killed at that point."""


def cut_end(journal: str) -> None:
    """Drop the end entry the interrupted run wrote (a real kill writes none)."""
    lines = Path(journal).read_bytes().splitlines(keepends=True)
    assert b'"end"' in lines[-1]
    Path(journal).write_bytes(b"".join(lines[:-1]))


@pytest.fixture
def half_moved(tmp_path, monkeypatch):
    """A move of root/b.txt to dups/b.txt, cut off after the new name was linked and
    before the old one was unlinked (the real move code, stopped at its unlink)."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    res = results_from_groups([[a, b]], str(root))
    plan = bind_scan_identity(plan_action(res, {b}, "move", move_to=str(tmp_path / "dups")),
                              res)
    journal = str(tmp_path / "j.jsonl")
    real = fileops.unlink_at

    def killed_at_unlink(loc, st=None):
        if str(loc) == b:
            raise Killed
        return real(loc, st)

    with monkeypatch.context() as m, pytest.raises(Killed):
        m.setattr(fileops, "unlink_at", killed_at_unlink)
        execute(plan, journal=journal)
    cut_end(journal)
    dest = str(tmp_path / "dups" / "b.txt")
    assert os.path.samefile(b, dest) and read_journal(journal).pending() == [0]
    return tmp_path, b, dest, journal


def edit_by_rename(path: str, data: bytes) -> None:
    """Save an edit the way editors do: write a temporary file, rename it over (so the
    original name gets a new inode)."""
    ino = os.stat(path).st_ino
    Path(path + ".swp").write_bytes(data)
    os.replace(path + ".swp", path)
    assert os.stat(path).st_ino != ino


@pytest.mark.parametrize("how", ["resume", "undo"])
def test_an_original_edited_after_the_link_survives_resume_and_rollback(half_moved, how):
    tmp, b, dest, journal = half_moved
    old = hash_file(dest)
    edit_by_rename(b, b"my edit, saved after the interrupted move\n")
    rep = resume(journal) if how == "resume" else undo(journal)
    assert Path(b).read_bytes() == b"my edit, saved after the interrupted move\n"
    assert hash_file(dest) == old  # the file as it was stays too: nothing is lost
    (o,) = [o for o in rep.outcomes if o.path == b]
    assert o.status == "skipped" and "kept both" in o.reason and dest in o.reason
    st = read_journal(journal)
    assert st.pending() == [] and st.results[0]["type"] == "kept-both"
    # and nothing later takes it back or redoes it
    again = resume(journal)
    assert Path(b).read_bytes().startswith(b"my edit") and os.path.exists(dest)
    assert [o.status for o in again.outcomes] == []


def test_an_unchanged_original_is_settled_as_before(half_moved):
    tmp, b, dest, journal = half_moved
    h = hash_file(b)
    rep = resume(journal)
    assert [o.status for o in rep.outcomes] == ["done"]
    assert not os.path.exists(b) and hash_file(dest) == h


def test_an_original_edited_in_place_after_a_copied_move_survives(tmp_path, monkeypatch):
    """Across file systems the new name is a copy (another inode): the original then has
    to still hold the recorded content to be removed."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    res = results_from_groups([[a, b]], str(root))
    plan = plan_action(res, {b}, "move", move_to=str(tmp_path / "dups"))
    journal = str(tmp_path / "j.jsonl")
    real_link, real_unlink = os.link, fileops.unlink_at

    def cross(src, dst, *a, **kw):
        if fileops.TMP_PREFIX not in str(src):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_link(src, dst, *a, **kw)

    def killed(loc, st=None):
        if str(loc) == b:
            raise Killed
        return real_unlink(loc, st)

    with monkeypatch.context() as m, pytest.raises(Killed):
        m.setattr(os, "link", cross)
        m.setattr(fileops, "unlink_at", killed)
        execute(plan, journal=journal)
    cut_end(journal)
    dest = str(tmp_path / "dups" / "b.txt")
    assert not os.path.samefile(b, dest) and hash_file(b) == hash_file(dest)
    with open(b, "ab") as fh:  # an edit in place: same inode, new content
        fh.write(b"appended later\n")
    rep = resume(journal)
    assert rep.outcomes[0].status == "skipped" and "kept both" in rep.outcomes[0].reason
    assert Path(b).read_bytes().endswith(b"appended later\n") and os.path.exists(dest)


def test_resume_on_the_command_line_says_it_kept_both(half_moved, capsys):
    tmp, b, dest, journal = half_moved
    edit_by_rename(b, b"edited\n")
    assert main(["resume", journal]) == 0
    out = capsys.readouterr().out
    assert "kept both" in out and Path(b).read_bytes() == b"edited\n" and os.path.exists(dest)


@pytest.mark.parametrize("cross", [False, True])
def test_an_undo_cut_off_after_putting_the_file_back_finishes_next_time(tmp_path,
                                                                        monkeypatch, cross):
    """Found by the random trials: an undo killed between placing the file back and
    removing it from the destination left both (and, across file systems, a temporary
    copy); the next undo said "something else is now at the original path"."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    h = hash_file(b)
    res = results_from_groups([[a, b]], str(root))
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp_path / "dups")))
    dest = rep.outcomes[0].dest
    real_link, real_unlink = os.link, fileops.unlink_at

    def cross_fs(src, dst, *a, **kw):
        if fileops.TMP_PREFIX not in str(src):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_link(src, dst, *a, **kw)

    def killed(loc, st=None):
        if str(loc) == dest:
            raise Killed
        return real_unlink(loc, st)

    with monkeypatch.context() as m, pytest.raises(Killed):
        if cross:
            m.setattr(os, "link", cross_fs)
        m.setattr(fileops, "unlink_at", killed)
        undo(rep.journal)
    assert os.path.exists(b) and os.path.exists(dest)  # both, cut off half-way
    again = undo(rep.journal)
    assert [o.status for o in again.outcomes] == ["done"], again.outcomes
    assert "cut off" in again.outcomes[0].reason
    assert hash_file(b) == h and not os.path.exists(dest)
    assert [n for n in os.listdir(root) if n.startswith(fileops.TMP_PREFIX)] == []
