"""Item 1 of issue 10: one exclusive action lock for apply, undo, resume and the app."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import lock
from simdup_gui.core.review.export import load_results, save_results
from simdup_gui.core.act.fileops import hash_file

from tests.actions_helpers import (REPO, T0, LockHolder, child_env, simdup_proc, tree_state,
                                   write)
from tests.conftest import EN


@pytest.fixture
def pair(tmp_path):
    """One group of two near-duplicates (x, y), and two saved reviews with opposite marks:
    keep-x.json marks y, keep-y.json marks x."""
    big = EN * 2000  # ~2.6 MB: the checks take a while, which widens the race window
    x = write(tmp_path / "src" / "x.txt", big.encode(), T0)
    y = write(tmp_path / "src" / "y.txt", big.replace("five", "six", 1).encode(), T0)
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1"]) == 0
    res = load_results(str(out))
    assert [len(g.members) for g in res.groups] == [2]
    res.marks = {y}
    save_results(res, str(tmp_path / "keep-x.json"))
    res.marks = {x}
    save_results(res, str(tmp_path / "keep-y.json"))
    return tmp_path, x, y


def restore(tmp: Path, x: str, y: str, data: dict[str, bytes]) -> None:
    """Put the deleted copy back (a new inode, so the reviews are updated to it)."""
    for p in (x, y):
        if not os.path.exists(p):
            write(Path(p), data[p], T0)
    for name in ("keep-x.json", "keep-y.json"):
        res = load_results(str(tmp / name))
        for r in res.records:
            r.inode = os.stat(r.path).st_ino
        save_results(res, str(tmp / name))


@pytest.mark.slow
def test_two_processes_with_opposite_keeps_never_delete_both(pair):
    tmp, x, y = pair
    data = {p: Path(p).read_bytes() for p in (x, y)}
    outcomes = []
    for _ in range(12):
        a = simdup_proc("apply", str(tmp / "keep-x.json"), "--delete", "--yes")
        b = simdup_proc("apply", str(tmp / "keep-y.json"), "--delete", "--yes")
        ra, rb = a.communicate(timeout=120), b.communicate(timeout=120)
        left = [p for p in (x, y) if os.path.exists(p)]
        outcomes.append((len(left), a.returncode, b.returncode))
        assert left, f"both copies were deleted:\n{ra}\n{rb}"
        for p in left:
            assert hash_file(p) == hash_file_bytes(data[p])
        for code, (out, err) in ((a.returncode, ra), (b.returncode, rb)):
            assert "Traceback" not in err
            # either it ran (and the second one skipped: its kept copy was gone) or it
            # waited for the lock too long and refused
            assert code == 0 or (code == 2 and "another simdup action is running" in err)
        restore(tmp, x, y, data)
    assert all(n == 1 for n, _, _ in outcomes)  # one delete happened, never two


def hash_file_bytes(b: bytes) -> str:
    import hashlib

    return hashlib.blake2b(b, digest_size=16).hexdigest()


def test_apply_refuses_while_another_process_holds_the_lock(pair, capsys, monkeypatch):
    tmp, x, y = pair
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.3)
    before = tree_state(tmp / "src")
    with LockHolder() as holder:
        t0 = time.monotonic()
        assert main(["apply", str(tmp / "keep-x.json"), "--delete", "--yes"]) == 2
        assert time.monotonic() - t0 >= 0.3  # it waited first
        err = capsys.readouterr().err
        assert err.startswith(f"simdup apply: error: another simdup action is running "
                              f"(pid {holder.pid})")
        assert "Traceback" not in err
    assert tree_state(tmp / "src") == before
    # once the other action is over, the same command runs
    assert main(["apply", str(tmp / "keep-x.json"), "--delete", "--yes"]) == 0
    assert os.path.exists(x) and not os.path.exists(y)


def test_undo_and_resume_refuse_too(pair, capsys, monkeypatch):
    tmp, x, y = pair
    journal = str(tmp / "j.jsonl")
    assert main(["apply", str(tmp / "keep-x.json"), "--move-to", str(tmp / "dups"), "--yes",
                 "--journal", journal]) == 0
    capsys.readouterr()
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.2)
    with LockHolder() as holder:
        for cmd in ("undo", "resume"):
            assert main([cmd, journal]) == 2
            err = capsys.readouterr().err
            assert err.startswith(f"simdup {cmd}: error: another simdup action is running "
                                  f"(pid {holder.pid})")
    assert not os.path.exists(y)
    assert main(["undo", journal]) == 0 and os.path.exists(y)


def test_a_second_process_waits_briefly_for_the_first_then_runs(pair):
    tmp, x, y = pair
    with LockHolder():
        p = simdup_proc("apply", str(tmp / "keep-x.json"), "--delete", "--yes")
        time.sleep(1.5)  # it waits (default 5 s) rather than refusing at once
        assert p.poll() is None
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "delete: 1 done" in out and not os.path.exists(y)


def test_the_lock_is_reentrant_in_its_thread_and_refuses_other_threads(monkeypatch):
    import threading

    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.1)
    seen = []
    with lock.action_lock():
        with lock.action_lock():  # resume runs execute under its own lock
            pass

        def other():
            try:
                with lock.action_lock():
                    seen.append("ran")
            except lock.ActionLocked as e:
                seen.append(str(e))

        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen and seen[0].startswith(f"another simdup action is running (pid {os.getpid()})")
    with lock.action_lock():  # free again
        pass


def test_opposite_deletes_from_two_data_folders_never_take_both_copies(pair, monkeypatch):
    """Two actions with opposite keeps whose action locks differ (two data folders: sudo,
    a Flatpak, two machines on NFS): the second runs in the very moment the first is about
    to delete. The locks taken where the files are make the second skip."""
    from simdup_gui.core.act import actions
    from simdup_gui.core.session import Session

    tmp, x, y = pair
    plans = []
    for name in ("keep-x.json", "keep-y.json"):
        s = Session()
        s.load(str(tmp / name), keep_groups=True)
        plans.append(s.plan("delete"))
    real = actions.unlink_at
    second = []

    def meanwhile(loc, st=None):
        if not second:  # the first action, checks done, about to delete y
            second.append(actions.execute(plans[1], journal=str(tmp / "j2.jsonl")))
        return real(loc, st)

    monkeypatch.setattr(actions, "unlink_at", meanwhile)
    first = actions.execute(plans[0], journal=str(tmp / "j1.jsonl"))
    assert [o.status for o in first.outcomes] == ["done"]
    assert [o.status for o in second[0].outcomes] == ["skipped"]
    assert actions.BUSY_REASON in second[0].outcomes[0].reason
    assert os.path.exists(x) and not os.path.exists(y)


@pytest.mark.slow
def test_two_processes_from_two_data_folders_never_delete_both(pair, tmp_path):
    tmp, x, y = pair
    data = {p: Path(p).read_bytes() for p in (x, y)}
    for i in range(15):
        procs = [subprocess.Popen(
            [sys.executable, "-m", "simdup_gui.cli", "apply", str(tmp / name), "--delete",
             "--yes"], cwd=REPO, env=child_env(XDG_DATA_HOME=str(tmp_path / f"data{j}")),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for j, name in enumerate(("keep-x.json", "keep-y.json"))]
        outs = [p.communicate(timeout=120) for p in procs]
        left = [p for p in (x, y) if os.path.exists(p)]
        assert left, f"both copies were deleted:\n{outs}"
        for p in left:
            assert hash_file(p) == hash_file_bytes(data[p])
        assert all("Traceback" not in err for _, err in outs), outs
        restore(tmp, x, y, data)
