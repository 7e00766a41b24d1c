"""Link actions and their races (issue 39, item 4): an edit made through a link is named by
undo, a file other links point to is not acted on, a copy across disks never fills the
disk, and an edit made while the original is being held is not lost."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from simdup_gui.core.act import actions, fileops
from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.act.recovery import undo
from simdup_gui.core.act.release import release
from tests.actions_helpers import T0, results_from_groups, write
from tests.conftest import EN, OTHER


def _twins(tmp_path):
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0 + 10**9)
    b = write(root / "sub" / "b.txt", EN.encode(), T0)
    return root, a, b, results_from_groups([[a, b]], str(root))


def _link(res, b, kind, tmp_path):
    """The link action, journaled where journals go by default (the user data folder)."""
    rep = execute(bind_scan_identity(plan_action(res, {b}, kind), res))
    return rep, rep.journal


def test_undo_names_an_edit_made_through_the_link(tmp_path):
    root, a, b, res = _twins(tmp_path)
    rep, journal = _link(res, b, "symlink", tmp_path)
    assert rep.outcomes[0].status == "done" and os.path.islink(b)
    with open(b, "a", encoding="utf-8") as fh:  # the user edits "b": it is a's text
        fh.write("an edit made through the link\n")
    (o,) = undo(journal).outcomes
    assert o.status == "done"
    assert "edited through the link" in o.reason and a in o.reason
    assert Path(b).read_text(encoding="utf-8") == EN  # b's original back
    assert "an edit made through the link" in Path(a).read_text(encoding="utf-8")  # kept


def test_a_file_that_simdups_links_point_to_is_not_acted_on(tmp_path):
    """After a symlink action and its release, the kept copy is the only home of those
    bytes; a later delete of it (another review) would leave the link dangling."""
    root, a, b, res = _twins(tmp_path)
    rep, journal = _link(res, b, "symlink", tmp_path)
    assert rep.outcomes[0].status == "done"
    assert release(journal).outcomes[0].status == "done"
    c = write(root / "c.txt", EN.encode(), T0 + 2 * 10**9)
    later = results_from_groups([[c, a]], str(root))
    (o,) = execute(bind_scan_identity(plan_action(later, {a}, "delete"), later)).outcomes
    assert o.status == "skipped" and "symbolic link(s) that simdup made point to it" in o.reason
    assert os.path.exists(a) and Path(b).read_text(encoding="utf-8") == EN


def test_a_copy_across_disks_needs_room_and_never_fills_the_disk(tmp_path, monkeypatch):
    root, a, b, res = _twins(tmp_path)
    before = Path(b).read_bytes()

    def no_link(*args, **kw):  # the holding folder is on another disk
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    class Full:
        f_bavail, f_frsize = 10, 4096  # 40 KB free

    monkeypatch.setattr(fileops.os, "link", no_link)
    monkeypatch.setattr(fileops.os, "fstatvfs", lambda fd: Full())
    rep, _ = _link(res, b, "symlink", tmp_path)
    (o,) = rep.outcomes
    assert o.status == "failed" and "not enough free space" in o.reason
    assert not os.path.islink(b) and Path(b).read_bytes() == before
    assert not [n for n in os.listdir(Path(b).parent) if n.startswith(fileops.TMP_PREFIX)]


def test_an_edit_while_the_original_is_copied_is_not_lost(tmp_path, monkeypatch):
    root, a, b, res = _twins(tmp_path)
    real = actions.duplicate_at

    def copied_then_edited(*args, **kw):
        got = real(*args, **kw)
        with open(b, "r+", encoding="utf-8") as fh:  # in place: same inode
            fh.seek(0)
            fh.write(OTHER[:40])
        os.utime(b, ns=(T0 + 5 * 10**9, T0 + 5 * 10**9))
        return got

    monkeypatch.setattr(actions, "duplicate_at", copied_then_edited)
    rep, _ = _link(res, b, "symlink", tmp_path)
    (o,) = rep.outcomes
    assert o.status == "skipped" and "changed while its original was being held" in o.reason
    assert not os.path.islink(b) and Path(b).read_text(encoding="utf-8").startswith(OTHER[:40])
