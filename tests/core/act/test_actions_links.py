"""Issue 13, item 12: replace a marked file by a hard or symbolic link to a byte-identical
kept copy, with the checks, journal and undo of the other actions. The original is held
in the user data folder (``held/<journal id>/``) until undo puts it back byte-exact."""

import errno
import os
import signal
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import actions
from simdup_gui.core.act.actions import NEAR_REASON, bind_scan_identity, execute, plan_action
from simdup_gui.core.act.fileops import TMP_PREFIX, hash_file
from simdup_gui.core.act.journal import (JOURNAL_VERSION, JournalRefused, JournalWriter,
                                         held_dir, journal_to_undo, read_journal)
from simdup_gui.core.act.recovery import resume, undo
from simdup_gui.core.review.export import save_results

from tests.actions_helpers import T0, results_from_groups, write
from tests.conftest import EN

REPO = Path(__file__).resolve().parents[3]
LINKS = ("hardlink", "symlink")


@pytest.fixture
def twins(tmp_path):
    """root/a.txt (kept) and root/sub/b.txt (marked), byte-identical; b has an older mtime
    and a mode other than the default, so a restore that is not byte- and metadata-exact
    shows. (a has b's mode: a hard link between files of other modes is refused.)"""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0 + 10**9)
    b = write(root / "sub" / "b.txt", EN.encode(), T0)
    os.chmod(b, 0o640)
    os.chmod(a, 0o640)
    res = results_from_groups([[a, b]], str(root))
    return root, a, b, res


def state(path):
    st = os.lstat(path)
    return (Path(path).read_bytes(), st.st_ino, st.st_mtime_ns, stat.S_IMODE(st.st_mode))


def is_link(kind, path, target):
    if kind == "symlink":
        return os.path.islink(path) and os.readlink(path) == target
    return not os.path.islink(path) and os.path.samefile(path, target)


def held_files():
    out = []
    for dirpath, _, files in os.walk(held_dir()):
        out += [os.path.join(dirpath, f) for f in files]
    return out


def temps(root):
    return [f for _, _, fs in os.walk(root) for f in fs if f.startswith(TMP_PREFIX)]


@pytest.mark.parametrize("kind", LINKS)
def test_replace_by_a_link_then_undo_restores_the_original_exactly(twins, kind):
    root, a, b, res = twins
    before, kept = state(b), state(a)
    rep = execute(bind_scan_identity(plan_action(res, {b}, kind), res))
    (o,) = rep.outcomes
    assert o.status == "done" and o.dest == a and "held" in o.reason, o
    assert is_link(kind, b, a) and Path(b).read_bytes() == before[0]
    (h,) = held_files()
    assert h.startswith(held_dir(read_journal(rep.journal).start["id"]))
    assert Path(h).read_bytes() == before[0] and os.stat(h).st_ino == before[1]
    assert journal_to_undo() == rep.journal
    u = undo()
    assert [x.status for x in u.outcomes] == ["done"], u.outcomes
    assert state(b) == before  # every byte, its mode and mtime, even its inode (held by a link)
    assert state(a) == kept
    assert held_files() == [] and temps(root) == [] and os.listdir(held_dir()) == []
    assert journal_to_undo() is None


@pytest.mark.parametrize("kind", LINKS)
def test_a_file_changed_after_the_scan_is_not_replaced(twins, kind):
    root, a, b, res = twins
    plan = bind_scan_identity(plan_action(res, {b}, kind), res)
    with open(b, "ab") as fh:
        fh.write(b"an edit after the scan\n")
    edited = state(b)
    (o,) = execute(plan).outcomes
    assert o.status == "skipped" and "changed since the scan" in o.reason
    assert state(b) == edited and held_files() == [] and temps(root) == []


@pytest.mark.parametrize("kind", LINKS)
def test_a_kept_copy_changed_after_the_scan_is_not_linked_to(twins, kind):
    root, a, b, res = twins
    plan = bind_scan_identity(plan_action(res, {b}, kind), res)
    os.utime(a, ns=(T0, T0 + 5 * 10**9))
    (o,) = execute(plan).outcomes
    assert o.status == "skipped" and "byte-identical kept copy" in o.reason and a in o.reason
    assert not os.path.islink(b) and not os.path.samefile(a, b)


@pytest.mark.parametrize("kind", LINKS)
def test_near_duplicates_are_skipped_with_the_reason(tmp_path, kind, capsys):
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    res = results_from_groups([[a, b]], str(root))
    plan = bind_scan_identity(plan_action(res, {b}, kind), res)
    assert any("not byte-identical" in n for n in plan.notes)
    dry = execute(plan, dry_run=True)
    assert dry.outcomes[0].status == "skipped" and dry.outcomes[0].reason == NEAR_REASON
    before = state(b)
    (o,) = execute(plan).outcomes
    assert o.status == "skipped" and o.reason == NEAR_REASON
    assert state(b) == before and held_files() == []


def test_a_hard_link_across_file_systems_is_skipped(twins, monkeypatch):
    root, a, b, res = twins
    plan = bind_scan_identity(plan_action(res, {b}, "hardlink"), res)

    def exdev(*args, **kw):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", exdev)
    before = state(b)
    rep = execute(plan)
    (o,) = rep.outcomes
    assert o.status == "skipped" and "another file system" in o.reason, o
    assert state(b) == before and held_files() == [] and temps(root) == []
    assert rep.exit_code == 0 and read_journal(rep.journal).pending() == []


def test_a_symlink_whose_original_cannot_be_hard_linked_holds_a_verified_copy(
        twins, monkeypatch):
    """The holding folder on another file system: the original is copied there, fsynced
    and checked, and undo copies it back."""
    root, a, b, res = twins
    plan = bind_scan_identity(plan_action(res, {b}, "symlink"), res)
    before = state(b)

    def exdev(*args, **kw):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    with monkeypatch.context() as m:
        m.setattr(os, "link", exdev)
        (o,) = execute(plan).outcomes
        assert o.status == "done" and "copied" in o.reason, o
        (h,) = held_files()
        assert Path(h).read_bytes() == before[0] and os.stat(h).st_ino != before[1]
        u = undo()
    assert [x.status for x in u.outcomes] == ["done"], u.outcomes
    now = state(b)
    assert now[0] == before[0] and now[2:] == before[2:] and held_files() == []


def test_the_file_replaced_meanwhile_is_never_overwritten(twins, monkeypatch):
    """Between the checks and the rename another file takes the name: it stays."""
    root, a, b, res = twins
    plan = bind_scan_identity(plan_action(res, {b}, "symlink"), res)
    real = actions.duplicate_at

    def swap_then_hold(src, st, dest, h):
        how = real(src, st, dest, h)
        os.replace(write(root / "sub" / "new.txt", b"someone else's file\n", T0), b)
        return how

    monkeypatch.setattr(actions, "duplicate_at", swap_then_hold)
    (o,) = execute(plan).outcomes  # seen by the last look before the rename
    assert o.status == "skipped" and "changed while its original was being held" in o.reason
    assert Path(b).read_bytes() == b"someone else's file\n"
    assert temps(root) == [] and held_files() == []


def test_undo_leaves_alone_what_the_user_put_in_place_of_the_link(twins):
    root, a, b, res = twins
    rep = execute(bind_scan_identity(plan_action(res, {b}, "symlink"), res))
    os.unlink(b)
    Path(b).write_bytes(b"the user's own new file\n")
    (o,) = undo(rep.journal).outcomes
    assert o.status == "skipped" and "something else" in o.reason
    assert Path(b).read_bytes() == b"the user's own new file\n"
    assert len(held_files()) == 1  # the original stays held: nothing is lost


# ---- killed half-way: resume finishes it, undo rolls it back --------------------------------

CHILD = """
import os, signal, sys
sys.path.insert(0, {repo!r})
from simdup_gui.core.act import actions
from tests.actions_helpers import results_from_groups
root, a, b, kind, point, journal = sys.argv[1:]
res = results_from_groups([[a, b]], root)
plan = actions.bind_scan_identity(actions.plan_action(res, {{b}}, kind), res)
real = getattr(actions, point)

def then_die(*args, **kw):
    real(*args, **kw)
    os.kill(os.getpid(), signal.SIGKILL)

setattr(actions, point, then_die)
actions.execute(plan, journal=journal)
"""


def killed_at(tmp_path, twins, kind, point):
    """Run the action in a child process that is SIGKILLed right after ``point``."""
    root, a, b, res = twins
    journal = str(tmp_path / "j.jsonl")
    proc = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO)), str(root), a, b,
                           kind, point, journal], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert read_journal(journal).pending() == [0]
    return journal


POINTS = ("make_link_at", "duplicate_at", "replace_at")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("kind", LINKS)
def test_killed_then_resumed_finishes_the_link_and_loses_nothing(tmp_path, twins, kind,
                                                                 point):
    root, a, b, res = twins
    before = state(b)
    journal = killed_at(tmp_path, twins, kind, point)
    rep = resume(journal)
    assert [o.status for o in rep.outcomes] == ["done"], rep.outcomes
    assert is_link(kind, b, a) and temps(root) == []
    (h,) = held_files()
    assert Path(h).read_bytes() == before[0]
    assert read_journal(journal).pending() == []
    u = undo(journal)
    assert [o.status for o in u.outcomes] == ["done"], u.outcomes
    now = state(b)
    assert now[0] == before[0] and now[2:] == before[2:] and held_files() == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("kind", LINKS)
def test_killed_then_rolled_back_restores_the_original(tmp_path, twins, kind, point):
    root, a, b, res = twins
    before = state(b)
    journal = killed_at(tmp_path, twins, kind, point)
    rep = undo(journal)
    assert all(o.status == "done" for o in rep.outcomes), rep.outcomes
    now = state(b)
    assert now[0] == before[0] and now[2:] == before[2:] and not os.path.islink(b)
    assert temps(root) == [] and held_files() == []
    assert read_journal(journal).pending() == [] and journal_to_undo() is None


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_an_original_edited_after_a_cut_off_link_is_kept_with_the_held_copy(tmp_path, twins,
                                                                            monkeypatch):
    """Killed after holding a verified copy (holding folder on another file system), then
    the user edits the original: resume keeps both and says where the scanned file is."""
    root, a, b, res = twins
    before = state(b)
    journal = str(tmp_path / "j.jsonl")
    child = CHILD.replace("setattr(actions, point, then_die)", """
setattr(actions, point, then_die)
import errno
real_link = os.link
def no_cross(src, dst, *a, **kw):
    if kw.get("dst_dir_fd") is not None and os.path.basename(str(dst)) == "b.txt":
        raise OSError(errno.EXDEV, "Invalid cross-device link")
    return real_link(src, dst, *a, **kw)
os.link = no_cross
""")
    proc = subprocess.run([sys.executable, "-c", child.format(repo=str(REPO)), str(root), a, b,
                           "symlink", "duplicate_at", journal], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    with open(b, "ab") as fh:
        fh.write(b"an edit after the interruption\n")
    rep = resume(journal)
    (o,) = rep.outcomes
    assert o.status == "skipped" and "kept both" in o.reason, o
    assert Path(b).read_bytes().endswith(b"an edit after the interruption\n")
    (h,) = held_files()
    assert Path(h).read_bytes() == before[0]


# ---- journals ------------------------------------------------------------------------------

def _link_journal(path, root, a, b, held_folder, **begin):
    h = hash_file(b)
    jid = uuid.uuid4().hex
    op = {"seq": 0, "action": "symlink", "path": b, "size": 1, "mtime_ns": T0,
          "content_hash": h, "group_id": 0, "root": str(root), "dest": None,
          "kept": [{"path": a, "size": 1, "mtime_ns": T0, "content_hash": h}],
          "ino": 0, "dev": 0}
    b_entry = {"type": "begin", "seq": 0, "path": b, "target": a, "target_dev": 1,
               "target_ino": 1, "tmp": os.path.join(os.path.dirname(b), TMP_PREFIX + "x"),
               "held": os.path.join(held_folder, "0", "b.txt")}
    b_entry.update(begin)
    with JournalWriter(str(path), new=True) as w:
        w.write({"type": "start", "version": JOURNAL_VERSION, "id": jid, "time": 1.0,
                 "action": "symlink", "move_to": None, "flat": False, "held": held_folder,
                 "ops": [op]})
        w.write(b_entry)
        w.write({"type": "done", "seq": 0, "how": "link"})
    return str(path)


@pytest.mark.parametrize("bad", ["held-folder", "held-file", "target", "tmp"])
def test_a_link_journal_may_only_touch_its_holding_folder_and_kept_copies(twins, tmp_path,
                                                                         bad, capsys):
    root, a, b, res = twins
    victim = write(tmp_path / "outside" / "victim.txt", b"never touch me\n", T0)
    held = held_dir(uuid.uuid4().hex)
    kw: dict = {}
    if bad == "held-folder":
        held = str(tmp_path / "outside")
    elif bad == "held-file":
        kw["held"] = victim
    elif bad == "target":
        kw["target"] = victim
    else:
        kw["tmp"] = str(tmp_path / "outside" / (TMP_PREFIX + "x"))
    journal = _link_journal(tmp_path / "j.jsonl", root, a, b, held, **kw)
    with pytest.raises(JournalRefused):
        undo(journal)
    assert main(["undo", journal]) == 2
    assert "refusing journal" in capsys.readouterr().err
    assert Path(victim).read_bytes() == b"never touch me\n"


# ---- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", LINKS)
def test_apply_on_the_command_line_dry_run_then_real_then_undo(twins, tmp_path, capsys, kind):
    root, a, b, res = twins
    res.marks = {b}
    results = str(tmp_path / "results.json")
    save_results(res, results)
    before = state(b)
    assert main(["apply", results, f"--{kind}", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "planned" in out and f"keeps {a}" in out and "would replace with" in out
    assert state(b) == before
    assert main(["apply", results, f"--{kind}", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "1 done" in out and is_link(kind, b, a)
    assert main(["undo"]) == 0
    assert state(b) == before and held_files() == []


def test_link_flags_exclude_the_other_actions(twins, tmp_path, capsys):
    root, a, b, res = twins
    results = str(tmp_path / "results.json")
    save_results(res, results)
    with pytest.raises(SystemExit) as e:
        main(["apply", results, "--hardlink", "--delete"])
    assert e.value.code == 2
    with pytest.raises(SystemExit):
        main(["apply", results, "--hardlink", "--symlink"])
    assert "not allowed with" in capsys.readouterr().err


UNDO_CHILD = """
import os, signal, sys
sys.path.insert(0, {repo!r})
from simdup_gui.core.act import recovery
journal, point = sys.argv[1:]
real = getattr(recovery, point)

def then_die(*args, **kw):
    real(*args, **kw)
    os.kill(os.getpid(), signal.SIGKILL)

setattr(recovery, point, then_die)
recovery.undo(journal)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("point", ("duplicate_at", "replace_at"))
@pytest.mark.parametrize("kind", LINKS)
def test_an_undo_killed_half_way_finishes_next_time(tmp_path, twins, kind, point):
    root, a, b, res = twins
    before = state(b)
    journal = str(tmp_path / "j.jsonl")
    execute(bind_scan_identity(plan_action(res, {b}, kind), res), journal=journal)
    proc = subprocess.run([sys.executable, "-c", UNDO_CHILD.format(repo=str(REPO)), journal,
                           point], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    rep = undo(journal)
    assert [o.status for o in rep.outcomes] == ["done"], rep.outcomes
    now = state(b)
    assert now[0] == before[0] and now[2:] == before[2:] and not os.path.islink(b)
    assert temps(root) == [] and held_files() == [] and journal_to_undo() is None


def test_results_without_devices_still_link(twins):
    """`simdup scan --format json` records no device (0): found by the random trials, the
    kept copy was then always taken for "changed just now"."""
    root, a, b, res = twins
    for r in res.records:
        r.dev = 0
    (o,) = execute(bind_scan_identity(plan_action(res, {b}, "hardlink"), res)).outcomes
    assert o.status == "done", o
