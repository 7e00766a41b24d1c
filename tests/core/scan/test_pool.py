"""The scan's pools (poolctx.make_pool): they replace a worker that dies, end when closed
or terminated, are handed over when kept, and leave Ctrl-C to the scan."""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.pool
import os
import signal
import threading
import time

import pytest

from simdup_gui.core.scan import poolctx


def _pid(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _die(_: int) -> None:
    os._exit(3)  # inside a task: the worker holds none of the queues' locks


def test_a_dead_worker_is_replaced_and_the_pool_ends():
    """(A worker killed while idle may die holding the task queue's lock, which stalls any
    multiprocessing pool: the scan abandons such a pool, poolctx.abandon. Here it dies in a
    task.)"""
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    try:
        before = {p.pid for p in pool._pool}
        pool.apply_async(_die, (0,))
        deadline = time.monotonic() + 30
        now = before
        while time.monotonic() < deadline:  # (the dead one leaves the list, then a new one
            now = {p.pid for p in pool._pool}  # joins it: not in one step)
            if len(now) == 2 and not before <= now:
                break
            time.sleep(0.05)
        assert len(now) == 2 and len(before - now) == 1  # the dead one replaced
        later = set(pool.map(_pid, range(8), chunksize=1))
        assert later <= now
    finally:  # (close() would wait for ever for the lost task, as CPython's pool does)
        pool.terminate()
        pool.join()
    assert not pool._worker_handler.is_alive() and not pool._result_handler.is_alive()
    assert not any(p.is_alive() for p in pool._pool)
    pool2 = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    pool2.map_async(_pid, range(40), chunksize=1).get(60)
    pool2.close()  # every task answered: close ends it
    pool2.join()
    assert not pool2._worker_handler.is_alive() and not any(p.is_alive() for p in pool2._pool)


def _square(x: int) -> int:
    return x * x


@pytest.fixture
def keeping(monkeypatch):
    monkeypatch.setattr(poolctx, "_keep", True)
    monkeypatch.setattr(poolctx, "_parked", None)
    yield
    poolctx.end_parked()


def test_a_kept_pool_goes_to_the_next_user_of_as_many_workers(keeping):
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    assert pool.map(_square, range(4)) == [0, 1, 4, 9]
    assert poolctx.park(pool, 2)
    got, known = poolctx.take(2)
    assert got is pool and known == poolctx.pids(pool) and len(known) == 2
    assert poolctx.take(2) is None  # taken once
    assert pool.map(_square, range(3)) == [0, 1, 4]  # it still works
    assert poolctx.park(pool, 2)
    assert poolctx.take(3) is None  # another size: not this one, which is ended
    assert pool._state == "TERMINATE"


def test_a_kept_pool_that_no_longer_runs_is_not_handed_over(keeping):
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    pool.close()
    assert poolctx.park(pool, 2)
    assert poolctx.take(2) is None
    pool.join()


def _in_time(fn, seconds: float = 20.0):
    """fn() on a thread; its result, or a failure if it has not returned in time."""
    box = []
    t = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn} did not return in {seconds} s"
    return box[0]


@pytest.mark.parametrize("victim", [0, 1])
@pytest.mark.parametrize("then", ["take", "end"])
def test_a_kept_pool_whose_worker_was_killed_is_given_up_without_waiting(keeping, victim, then):
    """A worker killed while the pool waits (the OOM killer, kill -9) is replaced by the
    pool at once, so the pool looks whole; but the dead one may have held the task queue's
    lock (an idle worker waits for a task holding it), and then the pool runs nothing and
    terminate() waits for ever. The changed pids give it away: not handed over, and ended
    without waiting."""
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    assert pool.map(_square, range(4)) == [0, 1, 4, 9]
    assert poolctx.park(pool, 2)
    dead = poolctx.pids(pool)[victim]
    os.kill(dead, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while ((dead in poolctx.pids(pool) or len(poolctx.pids(pool)) < 2)
           and time.monotonic() < deadline):
        time.sleep(0.01)  # the handler drops the dead worker, then puts a new one in its place
    assert dead not in poolctx.pids(pool) and len(poolctx.pids(pool)) == 2
    if then == "take":
        assert _in_time(lambda: poolctx.take(2)) is None
    else:
        _in_time(poolctx.end_parked)
    assert poolctx._parked is None
    deadline = time.monotonic() + 20
    while mp.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mp.active_children() == []  # no worker left behind, none started in their place


def test_a_pools_workers_leave_ctrl_c_to_the_scan(keeping):
    """Ctrl-C goes to every process of the terminal's group: the workers ignore it (no
    KeyboardInterrupt traceback from each), and the scan's process ends the pool."""
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        assert pool.map(_square, range(2)) == [0, 1]
        (pid,) = poolctx.pids(pool)
        os.kill(pid, signal.SIGINT)
        time.sleep(0.3)
        assert poolctx.pids(pool) == (pid,) and pool.map(_square, range(3)) == [0, 1, 4]
    finally:
        pool.terminate()
        pool.join()


def test_a_second_kept_pool_ends_the_first_and_end_parked_ends_the_last(keeping):
    first = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    second = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    assert poolctx.park(first, 1) and poolctx.park(second, 1)
    assert first._state == "TERMINATE" and second._state == "RUN"
    poolctx.end_parked()
    assert second._state == "TERMINATE" and poolctx.take(1) is None


def test_pools_are_not_kept_unless_asked(monkeypatch):
    """The app ends its pools (idle workers would hold memory between scans)."""
    monkeypatch.setattr(poolctx, "_parked", None)
    assert not poolctx._keep
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        assert not poolctx.park(pool, 1) and poolctx.take(1) is None
    finally:
        pool.terminate()
        pool.join()


def _sig_blocked(pid: int, sig: int) -> bool:
    from tests.conftest import signal_in_mask

    return signal_in_mask(pid, "SigBlk", sig)


@pytest.mark.skipif(not os.path.isdir("/proc/self") or "forkserver" not in mp.get_all_start_methods(),
                    reason="needs Linux's /proc and a fork server")
def test_the_fork_server_starts_with_ctrl_c_held_back_and_the_caller_keeps_its_mask():
    """In a fresh process (so the server is its own): the server blocks SIGINT from its
    start (a Ctrl-C while it warms up prints no traceback), a SIGINT sent to it is never
    delivered, and the caller's mask is as it was."""
    import subprocess
    import sys

    code = """
import os, signal
from multiprocessing import forkserver
from simdup_gui.core.scan import poolctx
from tests.conftest import signal_in_mask
before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
pool = poolctx.make_pool(1)
pid = forkserver._forkserver._forkserver_pid
assert signal_in_mask(pid, "SigBlk", signal.SIGINT)
assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
os.kill(pid, signal.SIGINT)
assert pool.map(abs, range(-2, 1)) == [2, 1, 0]
pool.terminate(); pool.join()
pool = poolctx.make_pool(1)
assert pool.map(abs, [-3]) == [3]
assert forkserver._forkserver._forkserver_pid == pid
pool.terminate(); pool.join()
print("ok")
"""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, timeout=300)
    assert out.stdout.strip() == "ok", out.stderr


def _children(pid: int) -> list[tuple[int, bytes]]:
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as fh:
                s = fh.read()
            if int(s[s.rindex(b")") + 2 :].split()[1]) == pid:
                with open(f"/proc/{d}/cmdline", "rb") as fh:
                    out.append((int(d), fh.read()))
        except (OSError, ValueError):
            pass
    return out


def _importing_numpy(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/maps", "rb") as fh:
            return b"numpy" in fh.read()
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self") or "forkserver" not in mp.get_all_start_methods(),
                    reason="needs Linux's /proc and a fork server")
def test_ctrl_c_while_the_fork_server_warms_up_prints_no_traceback(tmp_path):
    """Ctrl-C goes to the terminal's whole process group. Sent as soon as the command's fork
    server has begun its preload (numpy mapped; numba and the kernels take 0.3-0.5 s more):
    the command says it was interrupted, and nothing prints a KeyboardInterrupt traceback."""
    import subprocess
    import sys

    from tests.conftest import EN

    for i in range(200):  # 6 MB: a pooled scan
        (tmp_path / f"f{i:03d}.txt").write_text(f"{i} " + EN * 40)
    p = subprocess.Popen([sys.executable, "-m", "simdup_gui.cli", "scan", str(tmp_path),
                          "--no-cache", "--workers", "2", "--format", "json"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and p.poll() is None:
            # the server, started by multiprocessing
            if any(b"forkserver" in cmd and _importing_numpy(pid)
                   for pid, cmd in _children(p.pid)):
                break  # its Python is up and loading the engine
            time.sleep(0.002)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)
        err = p.communicate(timeout=60)[1].decode(errors="replace")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err
    assert "interrupted" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # zombies count as alive to kill(); ours are reaped by init once their parent is gone
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as fh:
                    f = fh.read().rsplit(b")", 1)[1].split()
                if int(f[2]) == pgid and f[0] != b"Z":
                    return True
            except (OSError, ValueError, IndexError):
                pass
    return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self") or "forkserver" not in mp.get_all_start_methods(),
                    reason="needs Linux's /proc and a fork server")
@pytest.mark.parametrize("delay", [0.0, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.065, 0.08, 0.1, 0.15, 0.25])
def test_ctrl_c_at_any_moment_of_a_pooled_scan(tmp_path, delay):
    """Ctrl-C to the command's process group at moments spread over a pooled scan, counted
    from its first child (the resource tracker, as the fork server starts): while it
    imports the engine (a KeyboardInterrupt inside a dataclass's generated code once ended
    the command killed by SIGINT, after "interrupted"), while it starts the server (outside
    the command's handler once: a traceback), while the workers run. Each time: exit 130
    and "interrupted", or, if the scan had already finished, its whole JSON; never a
    traceback; and no process of the command is left behind."""
    import json
    import subprocess
    import sys

    from tests.conftest import EN

    for i in range(400):  # 13 MB: a pooled scan of about a second
        (tmp_path / f"f{i:03d}.txt").write_text(f"{i} " + EN * 40)
    p = subprocess.Popen([sys.executable, "-m", "simdup_gui.cli", "scan", str(tmp_path),
                          "--no-cache", "--workers", "2", "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and p.poll() is None and not _children(p.pid):
            time.sleep(0.001)
        time.sleep(delay)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    err = err.decode(errors="replace")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    if p.returncode == 130:
        assert "interrupted" in err
    else:  # the signal came after the scan's end (while the interpreter exited, say)
        assert p.returncode in (0, -signal.SIGINT), (p.returncode, err)
        assert "groups" in json.loads(out), err
    deadline = time.monotonic() + 20
    while _group_alive(p.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _group_alive(p.pid), "a process of the interrupted command was left behind"


def test_a_pool_whose_worker_died_after_the_last_chunk_is_not_kept(tmp_path, keeping, monkeypatch):
    """pipeline._run_pool's last look: a worker that died after the last chunk came back (its
    replacement already running) may have held the task queue's lock, so the pool is given
    up without waiting rather than kept for the doubtful pairs; the scan's records are all
    there and no worker is left behind."""
    import multiprocessing as mp_

    from simdup_gui.core.job import Job
    from simdup_gui.core.scan import pipeline
    from simdup_gui.core.scan.walk import Candidate

    from tests.conftest import EN

    paths = []
    for i in range(24):
        p = tmp_path / f"f{i:02d}.txt"
        p.write_text(f"{i} " + EN * 3)
        paths.append(p)
    chunks = [[Candidate(str(p), str(tmp_path), p.stat().st_size, 0, i, 1)]
              for i, p in enumerate(paths)]
    monkeypatch.setattr(pipeline, "PRELOAD_BYTES", 0)
    pools = []
    real_make = pipeline.make_pool

    def capture(*a, **k):
        pools.append(real_make(*a, **k))
        return pools[-1]
    monkeypatch.setattr(pipeline, "make_pool", capture)
    abandoned = []
    real_abandon = pipeline.abandon
    monkeypatch.setattr(pipeline, "abandon", lambda pool: (abandoned.append(pool),
                                                           real_abandon(pool)))
    got = []

    def take(batch, chunk):
        got.extend(batch)
        if len(got) == len(chunks):  # the last chunk is back: a worker dies now
            pool = pools[0]
            before = poolctx.pids(pool)
            os.kill(before[0], signal.SIGKILL)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # until its replacement runs
                now = poolctx.pids(pool)
                if before[0] not in now and len(now) == 2:
                    break
                time.sleep(0.01)

    pipeline._run_pool(chunks, 2, "shingles", Job(), take)
    assert len(pools) == 1 and abandoned == pools
    assert sorted(r.path for r in got) == sorted(str(p) for p in paths)
    assert poolctx.take(2) is None  # not kept
    deadline = time.monotonic() + 20
    while mp_.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mp_.active_children() == []
