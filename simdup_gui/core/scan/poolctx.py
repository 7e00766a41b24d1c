"""The scan's process pools (:class:`Workers`): where they come from, a worker that died
seen with its task and replaced, handing a pool over to the grouping. Only
multiprocessing's public API: Process, Pipe, Lock, connection.wait; and the signal module's
pthread_sigmask for the fork server's start (:func:`start_process`)."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing import connection

WARM_MODULE = __package__ + ".warm"
HOOK_MODULE = __package__ + ".server_hook"  # the server's quiet excepthook (its own module:
# known to be the server by being preloaded, not by multiprocessing's command line)
BLAS_MODULE = "simdup_gui._blas"  # imported first: the fork server's numpy gets one thread


def pool_context():
    """A fork server where the platform has one: it imports .warm once, and workers forked
    from it share rjieba's dictionary and the loaded kernels; it outlives a scan, so the
    next scan in the app starts warm. Elsewhere spawn, each worker warming itself: Windows
    has no fork, and macOS's system libraries are not safe to use after a fork (Python's
    own default there is spawn). Both start from a fresh interpreter, never a fork of the
    app's threads."""
    if forks_warm():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload([BLAS_MODULE, HOOK_MODULE, WARM_MODULE])
        return ctx
    return mp.get_context("spawn")


def forks_warm() -> bool:
    """Whether :func:`pool_context` forks workers from a warm fork server (Linux): a pool
    then starts in a fraction of a second; a spawned worker loads numpy and the kernels
    itself first."""
    return sys.platform.startswith("linux") and "forkserver" in mp.get_all_start_methods()


class WorkerDied(Exception):
    """A task's worker process ended before it answered (killed, out of memory, a crash in
    native code): ``pid`` and ``exitcode`` are the worker's."""

    def __init__(self, pid: int, exitcode: int | None) -> None:
        super().__init__(f"worker process {pid} ended (exit code {exitcode})")
        self.pid = pid
        self.exitcode = exitcode


class PoolFailed(RuntimeError):
    """The worker processes could not be started: the fork server ended as it was asked
    for one, twice (the second time it may also be a fork refused); or the workers kept
    ending as they started. A scan goes on in its own process (pipeline._run_pool)."""


@dataclass
class Done:
    """A task's answer (:meth:`Workers.wait`): its ``value``, or the ``error`` it raised
    (:class:`WorkerDied` when its worker ended first)."""

    task: int
    value: object = None
    error: BaseException | None = None


@dataclass
class _Slot:
    process: object
    conn: object  # this end of the worker's own pipe
    task: tuple | None = None  # (id, fn, args, kwargs) the worker is running; (id,) once ready
    ready: bool = False  # its initializer done (it said so before taking any task)


RESTARTS = 3  # workers that may die, per worker in the pool, before it is given up: those
# that die in no task (before they are ready, or idle) with no answer coming meanwhile


class Workers:
    """``processes`` worker processes from ``ctx`` (:func:`pool_context` by default), each
    fed through a pipe of its own, one task at a time: :meth:`submit` queues a call,
    :meth:`wait` gives the answers. Built on multiprocessing's public Process and Pipe, so
    that a worker that dies is seen at once (its sentinel), with the task it held (reported
    as :class:`WorkerDied`), and replaced; the others go on. No lock is shared between
    workers, so ending the pool never waits on one that died holding it, as
    multiprocessing.Pool's terminate() can. Used from one thread at a time."""

    def __init__(self, processes: int, initializer=None, ctx=None) -> None:
        self.ctx = ctx or pool_context()
        self.processes = processes
        self._initializer = initializer
        self._todo: deque[tuple] = deque()
        self._done: list[Done] = []
        self._ids = itertools.count()
        self._restarts = RESTARTS * processes
        self._slots: list[_Slot] = []
        self.running = True
        try:
            for _ in range(processes):
                self._slots.append(self._start())
        except BaseException:
            self.end()
            raise

    def _start(self) -> _Slot:
        """A new worker. A fork server that ends as it is asked to fork one (killed, out of
        memory; while it warms up a cold scan's first seconds) answers nothing:
        multiprocessing raises EOFError, and the scan ended with its traceback. The start
        is tried once more, on a server multiprocessing starts afresh; a second failure
        (EOFError, or any OSError then) is :class:`PoolFailed`."""
        try:
            return self._start_once()
        except (EOFError, ConnectionError):
            pass
        try:
            return self._start_once()
        except (EOFError, OSError) as e:
            why = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
            raise PoolFailed(f"the worker processes could not be started ({why})") from e

    def _start_once(self) -> _Slot:
        here, there = self.ctx.Pipe()
        p = self.ctx.Process(target=_serve, args=(there, self._initializer), daemon=True,
                             name="simdup-worker")
        try:
            start_process(self.ctx, p)
        except BaseException:
            here.close()
            raise
        finally:
            there.close()
        return _Slot(p, here)

    def pids(self) -> tuple[int, ...]:
        """The workers' pids, sorted."""
        return tuple(sorted(s.process.pid for s in self._slots))

    def sound(self) -> bool:
        """Running, with every worker alive."""
        return self.running and all(s.process.is_alive() for s in self._slots)

    def submit(self, fn, args: tuple = (), kwargs: dict | None = None) -> int:
        """Queue ``fn(*args, **kwargs)`` (all picklable; ``fn`` a module's function); its
        task id, which :meth:`wait` gives back with the answer."""
        if not self.running:
            raise RuntimeError("the pool has ended")
        task = (next(self._ids), fn, args, kwargs or {})
        self._todo.append(task)
        self._dispatch()
        return task[0]

    def _dispatch(self) -> None:
        for s in self._slots:
            while self._todo and s.task is None:
                task = self._todo.popleft()
                try:
                    _send_task(s.conn, task)
                except (ConnectionError, EOFError):  # it just ended, without the task: the
                    self._todo.appendleft(task)  # next worker's (wait() replaces this one)
                    break
                except Exception as e:  # noqa: BLE001 - it could not be pickled
                    self._done.append(Done(task[0], error=e))
                    continue
                s.task = task if not s.ready else (task[0],)  # (see _receive)

    def wait(self, timeout: float | None = None) -> list[Done]:
        """The answers that came back (waiting up to ``timeout`` seconds for one; [] when
        none came, at once when none can: nothing in flight and no timeout, or the pool
        ended). A worker found dead is replaced, its task answered by WorkerDied."""
        busy = self._todo or any(s.task is not None for s in self._slots)
        if not self._done and self.running and (busy or timeout is not None):
            ready = set(connection.wait([s.conn for s in self._slots]
                                        + [s.process.sentinel for s in self._slots], timeout))
            for k, s in enumerate(self._slots):
                if s.process.sentinel in ready:  # it ended: what it sent, then a new worker
                    while s.conn.poll() and self._receive(s):
                        pass
                    self._slots[k] = self._replace(s)
                elif s.conn in ready and not self._receive(s):  # EOF: its end closed
                    self._slots[k] = self._replace(s)
            self._dispatch()
        done, self._done = self._done, []
        return done

    def _receive(self, s: _Slot) -> bool:
        """Take the message waiting in ``s``'s pipe (an answer, or that it is ready); False
        when the pipe ended instead (the worker did)."""
        try:
            message = s.conn.recv()
        except (EOFError, OSError):
            return False
        except Exception as e:  # noqa: BLE001 - an answer that cannot be unpickled here
            message = s.task[0], None, RuntimeError(f"unreadable answer: {e!r}")
        if message is None:  # its initializer done
            s.ready = True
            if s.task is not None:  # a started task is only answered now, never sent again:
                s.task = (s.task[0],)  # its arguments let go (the excerpt candidates'
            return True  # 27 MB of sketches were held through the tree's grouping)
        tid, value, error = message
        s.task = None
        self._done.append(Done(tid, value, error))
        self._restarts = RESTARTS * self.processes  # the pool gets somewhere
        return True

    def _replace(self, s: _Slot) -> _Slot:
        """A new worker in the place of ``s``, which ended; the task it had begun answered
        WorkerDied, one it had not yet begun (it died getting ready) queued again."""
        # Not join(1.0): a spawned worker that closed its descriptors fired its sentinel and
        # lives on, and join() would wait for it. One whose pipe ended but that lives on is
        # no worker of ours any more: killed, not left behind.
        connection.wait([s.process.sentinel], 1.0)
        if s.process.is_alive():
            s.process.kill()
        s.process.join()
        s.conn.close()
        if s.task is not None and s.ready:
            self._done.append(Done(s.task[0], error=WorkerDied(s.process.pid,
                                                               s.process.exitcode)))
        else:
            if s.task is not None:
                self._todo.appendleft(s.task)
            self._restarts -= 1
            if self._restarts < 0:  # dying as they start (their initializer, say)
                self.end()
                raise PoolFailed("the worker processes keep ending as they start "
                                   f"(the last exit code {s.process.exitcode})")
        return self._start()

    def close(self) -> None:
        """End the workers once they are idle (every task answered): each is told to stop
        and waited for; one that does not, ended."""
        for s in self._slots:
            try:
                s.conn.send(None)
            except (OSError, EOFError):
                pass
        for s in self._slots:
            s.process.join(5.0)
        self.end()

    def end(self) -> None:
        """End the workers now, whatever they are doing (their tasks are lost)."""
        self.running = False
        for s in self._slots:
            if s.process.is_alive():
                s.process.terminate()
        for s in self._slots:
            s.process.join(2.0)
            if s.process.is_alive():
                s.process.kill()
                s.process.join()
            s.conn.close()
        self._todo.clear()


def _serve(conn, initializer) -> None:
    """A worker process: Ctrl-C is the scan's process's to handle (it ends the workers),
    not a KeyboardInterrupt traceback from each, idle or not; then ``initializer``, then
    the tasks its pipe brings until told to stop (None) or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_when_orphaned()
    if initializer is not None:
        initializer()
    try:
        conn.send(None)  # ready: a task it gets from now on is begun
    except (OSError, EOFError):
        return
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        tid, fn, args, kwargs = task
        try:
            args = tuple(_receive_apart(conn, a) if isinstance(a, _Apart) else a for a in args)
        except (EOFError, OSError):
            return
        try:
            answer = (tid, fn(*args, **kwargs), None)
        except Exception as e:  # noqa: BLE001 - the caller's to report
            answer = (tid, None, e)
        try:
            conn.send(answer)
        except (OSError, EOFError):
            return
        except Exception as e:  # noqa: BLE001 - an answer or error that cannot be pickled
            conn.send((tid, None, RuntimeError(f"{type(e).__name__}: {e}")))


SEND_APART_ABOVE = 1 << 20  # bytes: a numpy array argument this large is sent after its task
FRAME = 1 << 20  # bytes of such an array a message


@dataclass(frozen=True)
class _Apart:
    """In a task's arguments, in place of an array sent after it (:func:`_send_task`)."""

    shape: tuple
    dtype: str


def _send_task(conn, task: tuple) -> None:
    """Send ``task`` (id, fn, args, kwargs) down a worker's pipe. A numpy array among
    ``args`` of over SEND_APART_ABOVE bytes goes after it as raw bytes, FRAME at a time
    (``send_bytes`` of a view: no copy, and the GIL let go while each is written), not
    pickled with it: pickling copies it in one C call that holds the GIL, 90 ms for the
    48 MB of sketches of 100,000 records sent to find the excerpt candidates (47 ms for the
    768 MB tree's 55,112), and a window's thread waits as long. A thread beating every 10 ms
    beside the submit of those 100,000 sketches and the wait for the answer
    (``benchmarks/submit_beats.py --repo CHECKOUT``, two runs of three rounds each way,
    alternating): worst gap 42-49 -> 10-11 ms, submit to answer 180-206 -> 33-103 ms. The
    app's worst stalls on 100,000 records (``gui_stalls.py --files 100000``, ABBA) stayed
    143-249 ms either way: other holds of the GIL set them (docs/performance.md)."""
    tid, fn, args, kwargs = task
    head, arrays = _split(args)
    if not arrays:
        conn.send(task)
        return
    conn.send((tid, fn, head, kwargs))
    for a in arrays:
        raw = memoryview(a.reshape(-1).view("u1"))
        for at in range(0, len(raw), FRAME):
            conn.send_bytes(raw, at, min(FRAME, len(raw) - at))


def _split(args: tuple) -> tuple[tuple, list]:
    """``args`` with each array to send apart replaced by its :class:`_Apart`, and those
    arrays (C-contiguous) in their order."""
    np = sys.modules.get("numpy")  # (no array can be an argument before numpy is imported)
    head, arrays = [], []
    for a in args:
        if np is not None and isinstance(a, np.ndarray) and not a.dtype.hasobject \
                and a.nbytes > SEND_APART_ABOVE:
            arrays.append(np.ascontiguousarray(a))
            a = _Apart(a.shape, a.dtype.str)
        head.append(a)
    return tuple(head), arrays


def _receive_apart(conn, apart: _Apart):
    """The array :func:`_send_task` sent after its task in place of ``apart``."""
    import numpy as np

    a = np.empty(apart.shape, dtype=np.dtype(apart.dtype))
    raw = memoryview(a.reshape(-1).view(np.uint8))
    at = 0
    while at < len(raw):
        at += conn.recv_bytes_into(raw, at)
    return a


ORPHAN_POLL = 0.5  # seconds between a worker's looks at its parent


def _end_when_orphaned() -> None:
    """The worker (:func:`_serve`) ends, on a thread of its own, within ORPHAN_POLL s of its
    parent's end. A fork server killed (kill -9, the OOM killer) closes its workers'
    sentinels: the pool takes them for dead (WorkerDied, exit code 255), runs their tasks
    again on new workers and can no longer signal them (multiprocessing holds them ended),
    while they ran on, adopted by init, each to its task's end: the work done twice, and
    processes (holding the command's output pipes) left behind by an ended pool. Also a
    spawned worker whose scan's process died. A parent that ended before this look is
    seen by the pool already, which closes the worker's pipe (its next send or receive)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="simdup-worker-orphaned", daemon=True).start()


def make_pool(processes: int, initializer=None, ctx=None) -> Workers:
    """:class:`Workers`: ``processes`` of them from ``ctx`` (:func:`pool_context` by
    default), each starting with ``initializer``."""
    return Workers(processes, initializer, ctx)


def start_process(ctx, process) -> None:
    """``process.start()``, ``process`` being of ``ctx``; where ``ctx`` forks from a fork
    server, a server this start launches (the first, or one that ended) never takes SIGINT.
    The server ignores Ctrl-C only once its preload is done; during the preload a Ctrl-C in
    the terminal reached it too and printed a KeyboardInterrupt traceback under the scan's
    own "interrupted". A signal mask is inherited through fork and kept through exec, so the
    server, launched with SIGINT blocked, and the workers it forks never take it; the scan's
    process ends them.

    Public API only. multiprocessing launches the server inside a Process.start() that finds
    none running, from the thread that calls start(). That call runs here on a thread of
    its own which blocks SIGINT (pthread_sigmask changes the calling thread's mask only):
    the caller's mask is never touched, and the caller takes Ctrl-C as ever, also while
    this start waits for the server's preload (seconds after an install: numba compiles).

    The same start launches multiprocessing's resource tracker first when it is not
    running, and that launch ends by unblocking SIGINT and SIGTERM in its thread, whatever
    was blocked before (CPython 3.11-3.13), which would undo the block before the server is
    launched. The tracker, says the documentation, tracks the named semaphores a program
    using the forkserver start method creates: a Lock of ``ctx`` is one, so making one (and
    dropping it) launches the tracker here, before the block. That it starts then (CPython
    registers the semaphore at once) and the unblocking are CPython's behaviour, not
    documented promises: tests/core/scan/test_pool.py checks the server's and a worker's
    mask. Where no Lock can be made (no POSIX semaphores) the start goes on; the server then
    takes Ctrl-C until its preload is done, as multiprocessing's own. Elsewhere (spawn) a
    plain start."""
    if ctx.get_start_method() != "forkserver" or not hasattr(signal, "pthread_sigmask"):
        with safe_path():
            process.start()
        return
    failed: list[BaseException] = []
    starter = threading.Thread(target=_start_held, args=(ctx, process, failed), daemon=True,
                               name="simdup-worker-start")
    starter.start()
    try:
        starter.join()
    except BaseException:  # Ctrl-C while the server warms up: the worker ended when started
        threading.Thread(target=_end_when_started, args=(starter, process), daemon=True,
                         name="simdup-worker-end").start()
        raise
    if failed:
        raise failed[0]


def _start_held(ctx, process, failed: list) -> None:
    """:func:`start_process`'s thread: the resource tracker running, SIGINT blocked in this
    thread, ``process`` started; what it raised put in ``failed``."""
    try:
        with safe_path():
            try:
                ctx.Lock()  # a named semaphore, at once dropped: the tracker runs from here
            except (OSError, ImportError):  # no sem_open: multiprocessing.synchronize says so
                pass
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            process.start()
    except BaseException as e:  # noqa: BLE001 - raised in the caller's thread
        failed.append(e)


_safe = threading.Lock()
_starting = [0, None]  # starts under way; PYTHONSAFEPATH as it was before the first


@contextlib.contextmanager
def safe_path():
    """PYTHONSAFEPATH=1 in the environment while a process is started: the interpreters
    multiprocessing starts (the fork server, its resource tracker, a spawned worker) run
    ``python -c``, which puts the working directory first on sys.path, before the standard
    library, until the preload or the task sets it. A ``multiprocessing`` folder or a
    ``numpy.py`` in the folder the user ran the scan from (a shared or downloads folder,
    where another account can write) was imported by the fork server and ran as the user
    (CPython issue 157916, open). PYTHONSAFEPATH (Python 3.11, the -P option) leaves it
    out; the workers forked from the server inherit it, and nothing they import comes from
    there. The variable is set only while starts are under way and put back after the
    last; another process started meanwhile (none of ours is) would get it too."""
    with _safe:
        if _starting[0] == 0:
            _starting[1] = os.environ.get("PYTHONSAFEPATH")
            os.environ["PYTHONSAFEPATH"] = "1"
        _starting[0] += 1
    try:
        yield
    finally:
        with _safe:
            _starting[0] -= 1
            if _starting[0] == 0:
                if _starting[1] is None:
                    os.environ.pop("PYTHONSAFEPATH", None)
                else:
                    os.environ["PYTHONSAFEPATH"] = _starting[1]


def user_environ() -> dict[str, str]:
    """This process's environment as the user set it: without the PYTHONSAFEPATH that
    :func:`safe_path` holds while our processes start (a local Dask cluster holds it for
    its whole life, scan/distributed.py). For the programs the user opens from the app
    meanwhile (a diff tool, the desktop's application for a file), which would otherwise
    start without their own folder on sys.path."""
    env = dict(os.environ)
    with _safe:
        if _starting[0]:
            if _starting[1] is None:
                env.pop("PYTHONSAFEPATH", None)
            else:
                env["PYTHONSAFEPATH"] = _starting[1]
    return env


def holds_safe_path() -> bool:
    """Whether :func:`safe_path` holds PYTHONSAFEPATH in this process's environment now."""
    with _safe:
        return _starting[0] > 0


def _end_when_started(starter: threading.Thread, process) -> None:
    """End ``process`` once ``starter`` has started it (its caller gave up meanwhile)."""
    starter.join()
    if process.pid is not None:
        process.kill()
        process.join()
