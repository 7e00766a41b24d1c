"""The scan's pools (poolctx.Workers): a worker that dies is reported with its task and
replaced, pools end without waiting on a dead or stubborn worker, are handed over when
kept, and leave Ctrl-C to the scan."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from simdup_gui.core.scan import poolctx


def _pid(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _die(_: int) -> None:
    os._exit(3)


def _square(x: int) -> int:
    return x * x


def _fail(x: int) -> int:
    raise ValueError(f"no {x}")


def _unpicklable(_: int):
    return lambda: None


def _stubborn(_: int) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(600)


def _run(pool: poolctx.Workers, fn, args: list, timeout: float = 60.0) -> list:
    """Each of ``args`` through ``fn`` on ``pool``: the Done answers in the order given."""
    tasks = [pool.submit(fn, (a,)) for a in args]
    got: dict = {}
    deadline = time.monotonic() + timeout
    while len(got) < len(tasks) and time.monotonic() < deadline:
        for d in pool.wait(1.0):
            got[d.task] = d
    assert len(got) == len(tasks), "tasks not answered in time"
    return [got[t] for t in tasks]


def _values(pool, fn, args) -> list:
    return [d.value for d in _run(pool, fn, args)]


def _no_children_left() -> None:
    deadline = time.monotonic() + 20
    while mp.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mp.active_children() == []


def test_a_dead_workers_task_is_answered_and_the_worker_replaced():
    """A worker that dies in a task: that task alone is answered WorkerDied (with the
    worker's pid and exit code); a new worker takes its place; the other tasks, queued
    before and after, are all answered by the others."""
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    try:
        before = set(pool.pids())
        answers = _run(pool, _pid, [0, 1, 2]) + _run(pool, _die, [0]) + _run(pool, _pid,
                                                                           range(6))
        died = answers[3].error
        assert isinstance(died, poolctx.WorkerDied) and died.exitcode == 3
        assert died.pid in before and died.pid not in pool.pids()
        assert len(pool.pids()) == 2 and pool.sound()
        assert all(d.error is None for k, d in enumerate(answers) if k != 3)
        assert {d.value for d in answers[4:]} <= set(pool.pids())
    finally:
        pool.close()
    assert not pool.sound()
    _no_children_left()


def test_errors_come_back_as_answers_and_the_worker_goes_on():
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        fail, odd, ok = _run(pool, _fail, [7]) + _run(pool, _unpicklable, [0]) + _run(
            pool, _square, [3])
        assert isinstance(fail.error, ValueError) and "no 7" in str(fail.error)
        assert isinstance(odd.error, RuntimeError) and odd.value is None
        assert ok.error is None and ok.value == 9
        bad = pool.submit(_square, (lambda: 0,))  # a task that cannot be pickled
        (d,) = pool.wait(1.0)
        assert d.task == bad and d.error is not None and pool.sound()
    finally:
        pool.end()
    _no_children_left()


def _digest(a, small, b) -> tuple:
    import hashlib

    return (a.shape, a.dtype.str, hashlib.sha256(a.tobytes()).hexdigest(), small,
            b.shape, b.dtype.str, hashlib.sha256(b.tobytes()).hexdigest())


def test_large_arrays_reach_a_task_whole_sent_apart_from_it():
    """Arrays over SEND_APART_ABOVE bytes go after their task as raw frames (never pickled
    with it: that copy holds the GIL); the worker gets them whole, in their shape and
    dtype, beside the other arguments (a strided big-endian view too), and the next task
    is unaffected. What goes before the frames carries no array bytes."""
    import pickle

    import numpy as np

    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**63, size=(40_000, 64), dtype=np.uint64)  # 20 MB: 20 frames
    b = rng.random((3000, 200)).astype(">f8")[:, ::2]  # 2.4 MB, not contiguous
    small = np.arange(10)
    head, arrays = poolctx._split((a, "x", b, small))
    assert [type(x) for x in head] == [poolctx._Apart, str, poolctx._Apart, np.ndarray]
    assert len(pickle.dumps(head)) < 1000 and len(arrays) == 2
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        task = pool.submit(_digest, (a, "x", b))
        got = []
        deadline = time.monotonic() + 60
        while not got and time.monotonic() < deadline:
            got += pool.wait(1.0)
        assert [d.task for d in got] == [task] and got[0].error is None
        assert got[0].value == _digest(a, "x", np.ascontiguousarray(b))
        assert _values(pool, _square, [5]) == [25]
    finally:
        pool.close()
    _no_children_left()


def test_end_does_not_wait_for_a_worker_that_ignores_sigterm():
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    pool.submit(_stubborn, (0,))
    assert _values(pool, _square, [5]) == [25]
    time.sleep(0.5)  # the stubborn task has begun
    _in_time(pool.end, 15.0)
    _no_children_left()


def _crash_on_start() -> None:
    os._exit(5)


def test_workers_that_die_as_they_start_are_an_error_not_a_loop():
    pool = poolctx.make_pool(1, _crash_on_start, ctx=mp.get_context("spawn"))
    with pytest.raises(RuntimeError, match="keep ending as they start"):
        _in_time(lambda: [pool.wait(1.0) for _ in range(60)], 120.0)
    _no_children_left()


def test_workers_that_die_as_they_start_with_tasks_queued_are_an_error_too():
    """The tasks queued for workers that end in their initializer were never begun: they are
    not answered WorkerDied (the scan would send each chunk again, then record all its
    files as problems); the pool gives up with the error, as when no task is queued."""
    pool = poolctx.make_pool(1, _crash_on_start, ctx=mp.get_context("spawn"))
    for x in range(5):
        pool.submit(_square, (x,))
    answers: list = []

    def collect():
        for _ in range(60):
            answers.extend(pool.wait(1.0))
    with pytest.raises(RuntimeError, match="keep ending as they start"):
        _in_time(collect, 120.0)
    assert answers == []
    _no_children_left()


def test_a_scan_whose_workers_die_as_they_start_fingerprints_its_files_itself(
        tmp_path, monkeypatch, caplog):
    """Workers that keep ending as they start (poolctx.PoolFailed): the scan goes on in its
    own process, every text file fingerprinted once, with one warning; a document, read
    only on workers (a crash in its library would end the scan here), is a problem."""
    from simdup_gui.core.job import Job
    from simdup_gui.core.models import FileRecord, Problem
    from simdup_gui.core.scan import pipeline
    from simdup_gui.core.scan.walk import Candidate

    paths = []
    for i in range(6):
        p = tmp_path / f"f{i}.txt"
        p.write_text(f"file number {i} says something of its own " * 3)
        paths.append(p)
    doc = tmp_path / "report.docx"
    doc.write_bytes(b"PK\x03\x04 not really")
    paths.append(doc)
    chunks = [[Candidate(str(p), str(tmp_path), p.stat().st_size, 0, i, 1)]
              for i, p in enumerate(paths)]
    monkeypatch.setattr(pipeline, "PRELOAD_BYTES", 0)
    monkeypatch.setattr(pipeline, "make_pool", lambda n, init, ctx: poolctx.make_pool(
        n, _crash_on_start, mp.get_context("spawn")))
    got: list = []
    taken: list = []

    def take(batch, chunk):
        got.extend(batch)
        taken.extend(c.path for c in chunk)

    with caplog.at_level("WARNING"):
        _in_time(lambda: pipeline._run_pool(chunks, 2, "shingles", Job(), take), 120.0)
    records = [r for r in got if isinstance(r, FileRecord)]
    assert sorted(r.path for r in records) == sorted(str(p) for p in paths[:6])
    assert sorted(taken) == sorted(str(p) for p in paths)  # each file once
    note, problem = [p for p in got if isinstance(p, Problem)]
    assert problem.path == str(doc) and problem.kind == "error"
    assert "not read: the worker processes keep ending as they start" in problem.reason
    assert note.path == str(tmp_path) and note.kind == "error"  # (the app's Problems tab)
    assert note.reason.startswith("the worker processes keep ending as they start")
    assert "went on in its own process" in note.reason
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "goes on in its own process" in warnings[0]
    _no_children_left()


def _answer_then_exit(x: int) -> int:
    """Answers, then its process ends (killed just after it answered, say)."""
    threading.Timer(0.05, os._exit, (7,)).start()
    return x


def test_a_task_queued_behind_an_answer_whose_worker_then_died_goes_to_the_next_worker():
    """The worker answered and then ended, both seen in one wait(): the next task is not
    sent to the dead worker and answered WorkerDied (it never ran); the new worker runs it."""
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        first = pool.submit(_answer_then_exit, (1,))
        second = pool.submit(_square, (3,))
        deadline = time.monotonic() + 30
        while pool.sound() and time.monotonic() < deadline:
            time.sleep(0.01)
        got: dict = {}
        while len(got) < 2 and time.monotonic() < deadline + 30:
            got.update((d.task, d) for d in pool.wait(1.0))
        assert got[first].error is None and got[first].value == 1
        assert got[second].error is None and got[second].value == 9
    finally:
        pool.end()
    _no_children_left()


def test_idle_workers_killed_now_and_then_do_not_end_a_long_running_pool():
    """The restart limit is for workers that die without getting anywhere: idle workers
    killed once in a while (the OOM killer), with answers coming between, are replaced as
    often as it happens; the pool does not give up as if they died as they start."""
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    try:
        for k in range(2 * poolctx.RESTARTS * 2 + 1):
            assert _values(pool, _square, [k]) == [k * k]
            os.kill(pool.pids()[0], signal.SIGKILL)
            deadline = time.monotonic() + 20
            while pool.sound() and time.monotonic() < deadline:
                time.sleep(0.01)
            pool.wait(1.0)  # sees the death: a new worker
            assert pool.sound()
    finally:
        pool.end()
    _no_children_left()


def test_wait_without_a_timeout_returns_when_nothing_is_in_flight_and_after_end():
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        assert _values(pool, _square, [2]) == [4]
        assert _in_time(lambda: pool.wait(None), 20.0) == []  # no answer could ever come
    finally:
        pool.end()
    assert pool.wait(None) == [] and pool.wait(0.1) == []
    with pytest.raises(RuntimeError, match="ended"):
        pool.submit(_square, (1,))


def _close_pipe_and_live_on(_: int) -> None:
    """Closes every descriptor (its pipe among them) and lives on: not the pool's any more."""
    os.closerange(3, 65536)
    time.sleep(120)


def test_a_worker_whose_pipe_ended_but_that_lives_on_is_not_left_behind():
    """Its task is answered WorkerDied at once (not when it ends: with spawn its closed
    sentinel made join() wait for it) and it is killed, not left running outside the pool."""
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        (d,) = _run(pool, _close_pipe_and_live_on, [0])
        assert isinstance(d.error, poolctx.WorkerDied)
        assert _values(pool, _square, [3]) == [9]
    finally:
        pool.end()
    _no_children_left()


def _in_time(fn, seconds: float = 20.0):
    """fn() on a thread; its result (or its exception raised), or a failure if it has not
    returned in time."""
    box = []

    def run():
        try:
            box.append((fn(), None))
        except BaseException as e:  # noqa: BLE001 - raised below
            box.append((None, e))
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn} did not return in {seconds} s"
    value, error = box[0]
    if error is not None:
        raise error
    return value


def test_a_pools_workers_leave_ctrl_c_to_the_scan():
    """Ctrl-C goes to every process of the terminal's group: the workers ignore it (no
    KeyboardInterrupt traceback from each), and the scan's process ends the pool."""
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        assert _values(pool, _square, range(2)) == [0, 1]
        (pid,) = pool.pids()
        os.kill(pid, signal.SIGINT)
        time.sleep(0.3)
        assert pool.pids() == (pid,) and _values(pool, _square, range(3)) == [0, 1, 4]
    finally:
        pool.end()


def _sig_blocked(pid: int, sig: int) -> bool:
    from tests.conftest import signal_in_mask

    return signal_in_mask(pid, "SigBlk", sig)


_FORK_SERVER = pytest.mark.skipif(
    not os.path.isdir("/proc/self") or "forkserver" not in mp.get_all_start_methods(),
    reason="needs Linux's /proc and a fork server")
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


def _python(code: str, timeout: float = 300, **env: str):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=_ROOT, timeout=timeout, env={**os.environ, **env})


@_FORK_SERVER
def test_the_fork_server_starts_with_ctrl_c_held_back_and_the_caller_keeps_its_mask():
    """In a fresh process (so the server and the resource tracker are its own): the server
    blocks SIGINT from its start (a Ctrl-C while it warms up prints no traceback), and so do
    the workers it forks; a SIGINT sent to it is never delivered; the caller's mask is as
    it was, SIGTERM it had blocked included (the tracker's start unblocks SIGINT and SIGTERM
    in the thread that starts it); a server started again after it died holds SIGINT back
    too."""
    code = """
import os, signal, time
from simdup_gui.core.scan import poolctx
from tests.conftest import signal_in_mask
from tests.core.scan.test_pool import _children, _running
before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) | {signal.SIGTERM}
def run(pool, x):
    t = pool.submit(abs, (x,))
    got = []
    while not got:
        got = pool.wait(5.0)
    assert got[0].task == t
    return got[0].value
def server():
    (pid,) = [p for p, cmd in _children(os.getpid()) if b"forkserver" in cmd]
    return pid
pool = poolctx.make_pool(1)
pid = server()
assert signal_in_mask(pid, "SigBlk", signal.SIGINT), "server"
assert signal_in_mask(pool.pids()[0], "SigBlk", signal.SIGINT), "worker"
assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before, "caller"
os.kill(pid, signal.SIGINT)
assert [run(pool, x) for x in range(-2, 1)] == [2, 1, 0]
pool.end()
pool = poolctx.make_pool(1)
assert run(pool, -3) == 3
assert server() == pid
pool.end()
os.kill(pid, signal.SIGKILL)
while _running(pid):  # until it is dead (a zombie: multiprocessing reaps it, then starts one)
    time.sleep(0.01)
pool = poolctx.make_pool(1)
assert server() != pid, "not started again"
assert signal_in_mask(server(), "SigBlk", signal.SIGINT), "server started again"
assert signal_in_mask(pool.pids()[0], "SigBlk", signal.SIGINT), "its worker"
assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before, "caller, again"
assert run(pool, -4) == 4
pool.end()
print("ok")
"""
    out = _python(code)
    assert out.stdout.strip() == "ok", out.stderr


@_FORK_SERVER
def test_ctrl_c_reaches_the_caller_while_the_fork_server_warms_up(tmp_path):
    """The first worker's start waits for the server's preload (seconds after an install):
    SIGINT is held back from the server only, so a Ctrl-C meanwhile interrupts the caller
    at once, not when the preload is done; no process of the pool's is left behind."""
    (tmp_path / "slow_preload.py").write_text("import time\ntime.sleep(4)\n")
    code = """
import multiprocessing as mp, os, signal, threading, time
from simdup_gui.core.scan import poolctx
from tests.core.scan.test_pool import _children
# as a terminal's command gets it (a shell's background job, CI's, ignores SIGINT)
signal.signal(signal.SIGINT, signal.default_int_handler)
ctx = mp.get_context("forkserver")
ctx.set_forkserver_preload(["slow_preload"])
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
t0 = time.monotonic()
try:
    poolctx.make_pool(1, ctx=ctx)
except KeyboardInterrupt:
    print("interrupted", round(time.monotonic() - t0, 2))
print(*(p for p, _ in _children(os.getpid())))
"""
    out = _python(code, PYTHONPATH=os.pathsep.join([str(tmp_path), _ROOT]))
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("interrupted"), (out.stdout, out.stderr)
    assert float(lines[0].split()[1]) < 2.5, lines  # the preload sleeps 4 s
    assert "Traceback" not in out.stderr, out.stderr
    pids = [int(p) for p in lines[1].split()]  # the resource tracker, the server
    deadline = time.monotonic() + 30
    while deadline > time.monotonic() and any(map(_running, pids)):
        time.sleep(0.1)
    assert not any(map(_running, pids)), "left behind"


@_FORK_SERVER
def test_a_fork_server_that_cannot_start_is_one_clear_error(tmp_path):
    """A fork server that ends in its preload every time (no memory for it, say): the
    worker's start is tried twice, then poolctx.PoolFailed says so, not EOFError."""
    (tmp_path / "dying_preload.py").write_text("import os\nos._exit(3)\n")
    code = """
import multiprocessing as mp
from simdup_gui.core.scan import poolctx
ctx = mp.get_context("forkserver")
ctx.set_forkserver_preload(["dying_preload"])
try:
    poolctx.make_pool(1, ctx=ctx)
except poolctx.PoolFailed as e:
    print("failed:", e)
"""
    out = _python(code, PYTHONPATH=os.pathsep.join([str(tmp_path), _ROOT]))
    assert out.stdout.strip() == ("failed: the worker processes could not be started "
                                  "(EOFError: unexpected EOF)"), (out.stdout, out.stderr[-2000:])
    assert "Traceback" not in out.stderr, out.stderr


@_FORK_SERVER
def test_a_fork_server_killed_while_it_warms_up_is_started_again(tmp_path):
    """The fork server killed during its preload (the OOM killer, kill -9 in a cold scan's
    first seconds): the worker's start, which was waiting for it, gets no answer
    (multiprocessing's EOFError ended the scan with a traceback); it is tried once more on
    a new server, and the pool works."""
    (tmp_path / "slow_preload.py").write_text("import time\ntime.sleep(2)\n")
    code = """
import multiprocessing as mp, os, signal, threading, time
from simdup_gui.core.scan import poolctx
from tests.core.scan.test_pool import _children

def kill_server():
    while True:
        found = [p for p, cmd in _children(os.getpid()) if b"forkserver" in cmd]
        if found:
            time.sleep(0.3)  # in its preload
            os.kill(found[0], signal.SIGKILL)
            return
        time.sleep(0.01)

if __name__ == "__main__":
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["slow_preload"])
    threading.Thread(target=kill_server, daemon=True).start()
    pool = poolctx.make_pool(1, ctx=ctx)
    t = pool.submit(abs, (-7,))
    got = []
    while not got:
        got = pool.wait(5.0)
    print(got[0].task == t, got[0].value)
    pool.end()
"""
    script = tmp_path / "killed_server.py"
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         cwd=_ROOT, timeout=120, env={
                             **os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), _ROOT])})
    assert out.stdout.split() == ["True", "7"], out.stderr[-2000:]


@_FORK_SERVER
def test_workers_of_a_fork_server_that_died_do_not_outlive_their_pool():
    """The fork server killed (kill -9, the OOM killer) while its workers run tasks: their
    sentinels end with it, so the pool takes them for dead (WorkerDied, exit code 255) and
    can no longer signal them (multiprocessing thinks them ended). They live on, adopted by
    init, running the task their replacement runs again; they must not outlive the pool by
    more than a moment, nor run their 60 s task to its end."""
    code = """
import os, signal, time
from simdup_gui.core.scan import poolctx
from tests.core.scan.test_pool import _children, _running
pool = poolctx.make_pool(2)
old = pool.pids()
(server,) = [p for p, cmd in _children(os.getpid()) if b"forkserver" in cmd]
tasks = {pool.submit(time.sleep, (60,)) for _ in old}
time.sleep(0.5)
os.kill(server, signal.SIGKILL)
got = []
deadline = time.monotonic() + 60
while len(got) < len(tasks) and time.monotonic() < deadline:
    got += pool.wait(1.0)
assert {d.task for d in got} == tasks, got
assert all(isinstance(d.error, poolctx.WorkerDied) for d in got), got
assert pool.sound() and not set(pool.pids()) & set(old), "replaced"
pool.end()
deadline = time.monotonic() + 5
while any(map(_running, old)) and time.monotonic() < deadline:
    time.sleep(0.05)
print("left", *(p for p in old if _running(p)))
"""
    out = _python(code)
    assert out.stdout.strip() == "left", (out.stdout, out.stderr)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


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
def _terminal_sigint() -> None:
    """Ctrl-C as a terminal's command gets it: a shell's background job (a CI run started
    with ``&``) ignores SIGINT, and its children start so."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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
                         start_new_session=True, preexec_fn=_terminal_sigint)
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


def _hold(seconds: float, array) -> int:
    time.sleep(seconds)
    return int(array.size)


def test_a_started_task_lets_its_arguments_go_once_its_worker_is_ready():
    """Only the answer (or WorkerDied) is owed then, never a resend: the 27 MB of sketches
    sent to find the excerpt candidates were held through the whole grouping."""
    import weakref

    import numpy as np

    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        big = np.ones(1 << 17)
        gone = weakref.ref(big)
        task = pool.submit(_hold, (3.0, big))
        del big
        got = []
        deadline = time.monotonic() + 60
        while not all(s.ready for s in pool._slots) and time.monotonic() < deadline:
            got += pool.wait(0.05)
        assert not got and gone() is None  # running, its array let go
        while not got and time.monotonic() < deadline:
            got += pool.wait(1.0)
        assert [(d.task, d.value, d.error) for d in got] == [(task, 1 << 17, None)]
    finally:
        pool.close()
    _no_children_left()


@_FORK_SERVER
def test_the_fork_server_preloads_its_quiet_excepthook(monkeypatch):
    """The server knows it is the server by its preload (server_hook, a module nothing else
    imports), not by multiprocessing's command line: there, a forked worker whose scan was
    interrupted (its task's pipe gone: OSError, EOFError) prints no traceback; anything
    else is printed as before."""
    asked = []
    ctx = mp.get_context("forkserver")
    monkeypatch.setattr(type(ctx), "set_forkserver_preload",
                        lambda self, names: asked.append(list(names)))
    assert poolctx.pool_context() is ctx
    assert asked == [[poolctx.BLAS_MODULE, poolctx.HOOK_MODULE, poolctx.WARM_MODULE]]
    code = ("import sys\n"
            f"import {poolctx.HOOK_MODULE}\n"
            "for e in (OSError('gone'), EOFError('ended'), ValueError('shown')):\n"
            "    sys.excepthook(type(e), e, None)\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stderr
    assert "shown" in err and "gone" not in err and "ended" not in err
    here = subprocess.run([sys.executable, "-c", f"import sys, {poolctx.WARM_MODULE}\n"
                           "print(sys.excepthook is sys.__excepthook__)"],
                          capture_output=True, text=True, timeout=300, check=True).stdout
    assert here.split() == ["True"]  # warming a process (a spawned worker) leaves it alone
