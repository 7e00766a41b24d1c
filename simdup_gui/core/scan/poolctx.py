"""The scan's process pools: where they come from, starting early, and giving one up.

Kept apart from the pipeline so that the CLI can start the fork server before it imports
the engine (numpy, the grouping): its warm-up then runs beside those imports.
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import multiprocessing.pool
import os
import signal
import sys
import threading

WARM_MODULE = __package__ + ".warm"
BLAS_MODULE = "simdup_gui._blas"  # imported first: the fork server's numpy gets one thread


def pool_context():
    """A fork server where the platform has one: it imports .warm once, and workers forked
    from it share rjieba's dictionary and the loaded kernels; it outlives a scan, so the
    next scan in the app starts warm. Elsewhere spawn, each worker warming itself: Windows
    has no fork, and macOS's system libraries are not safe to use after a fork (Python's
    own default there is spawn). Both start from a fresh interpreter, never a fork of the
    app's threads."""
    if sys.platform.startswith("linux") and "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload([BLAS_MODULE, WARM_MODULE])
        return ctx
    return mp.get_context("spawn")


class _Pool(multiprocessing.pool.Pool):
    """multiprocessing's Pool whose worker-handler thread does not wake for results.

    CPython's handler waits on the workers' sentinels, its change notifier and the result
    pipe; while a result sits in that pipe (the result thread has not read it yet) the wait
    returns at once, and the handler loops: a new selector, the workers polled, the wait
    again. With chunks of records coming back that spin took 0.1-0.2 s of the scan's CPU on
    the 25 MB mix (py-spy, by thread), and the GIL from the threads that do the work. The
    handler has nothing to do for a result: it tends workers (their sentinels) and its own
    state, and a change of either (close, terminate, the cache emptied) is announced on the
    notifier, which it still waits on."""

    def _get_sentinels(self):
        return [self._change_notifier._reader]


def _init_worker(initializer) -> None:
    """Every pool worker's start: Ctrl-C is the scan's process's to handle (it ends the
    pool), not a KeyboardInterrupt traceback from each worker, idle or not; then the
    pool's own ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()


def make_pool(processes: int, initializer=None, ctx=None):
    """A pool of ``processes`` workers from ``ctx`` (:func:`pool_context` by default); a
    fork server not yet running is started as :func:`prestart` starts it."""
    ctx = ctx or pool_context()
    if ctx.get_start_method() == "forkserver":
        _start_server()
    return _Pool(processes, initializer=_init_worker, initargs=(initializer,), context=ctx)


def pids(pool) -> tuple[int, ...]:
    """The pool's worker pids, sorted. Pool keeps its processes in ``_pool``; its handler
    thread replaces a worker that dies within milliseconds and without telling, so a
    changed set of pids is how a death shows."""
    return tuple(sorted(p.pid for p in list(getattr(pool, "_pool", ()))))


def sound(pool, processes: int, known: tuple[int, ...]) -> bool:
    """Whether ``pool`` still runs with the ``processes`` workers ``known`` (its pids when
    it was last known good), all alive. A worker killed meanwhile may have held the task
    queue's lock: its replacement then never gets a task, and terminate() waits for ever."""
    workers = list(getattr(pool, "_pool", ()))
    return (getattr(pool, "_state", None) == "RUN" and len(workers) == processes
            and pids(pool) == known and all(p.is_alive() for p in workers))


def end_pool(pool, processes: int, known: tuple[int, ...]) -> None:
    """End a pool: terminated and joined when :func:`sound`, else given up (:func:`abandon`),
    so that ending it never waits on a dead worker's lock."""
    if sound(pool, processes, known):
        pool.terminate()
        pool.join()
    else:
        abandon(pool)


_keep = False
_parked: tuple | None = None  # (pool, processes, pids): a pool whose work is done (park())


def keep_pools(on: bool = True) -> None:
    """In this process a pool whose work is done is handed to the next user that needs as
    many workers (:func:`park`, :func:`take`) instead of being ended: the command line's
    scan reads the doubtful pairs' files on the workers that fingerprinted, warm, not on
    two more forked for it, and no core waits meanwhile. Off by default: in the app idle
    workers would hold their memory between scans. :func:`end_parked` ends what is left."""
    global _keep
    _keep = on


def keeping() -> bool:
    """Whether this process keeps pools (:func:`keep_pools`)."""
    return _keep


def park(pool, processes: int) -> bool:
    """Keep ``pool`` (of ``processes`` workers, all its tasks done) for :func:`take`, ending
    any pool kept before; True when kept (the caller must not end it then), False when
    this process does not keep pools (:func:`keep_pools`). Its pids are noted: a worker
    that dies while it waits shows as a changed pid (:func:`sound`)."""
    global _parked
    if not _keep:
        return False
    end_parked()
    _parked = (pool, processes, pids(pool))
    return True


def take(processes: int):
    """The kept pool, with ``pids`` its workers had when kept (for :func:`end_pool`), if it
    has ``processes`` workers, the same ones, alive, and still runs; else None (a kept pool
    that does not fit is ended)."""
    global _parked
    if _parked is None:
        return None
    pool, n, known = _parked
    _parked = None
    if n == processes and sound(pool, n, known):
        return pool, known
    end_pool(pool, n, known)
    return None


def end_parked() -> None:
    """End the kept pool, if any (:func:`end_pool`: never waiting on a dead worker)."""
    global _parked
    if _parked is not None:
        pool, n, known = _parked
        _parked = None
        end_pool(pool, n, known)


def prestart(fork: bool = False) -> bool:
    """Start the fork server now, if the pools use one and it is not running: its warm-up
    (about 0.3 s: numba, the kernels, the tables) overlaps whatever the caller does next,
    and the scan's pool forks its workers from it. False where there is none or it cannot
    start (the pool then starts it, as without this).

    ``fork``: the caller (the command line, before any thread) lets the server be a fork
    of its own process (:func:`_fork_server`) where that is safe; it then starts with what
    both processes import (numpy, the engine's scan modules) already imported, once."""
    ctx = pool_context()
    if ctx.get_start_method() != "forkserver":
        return False
    if fork:
        # imported here in any case (and in the server): outside the try below, so that a
        # Ctrl-C that numpy's import turns into an ImportError reaches the caller as one
        fork = _import_shared()
    try:
        _start_server(fork)
    except Exception:  # noqa: BLE001 - only an early start: the pool tries again
        return False
    return True


def _import_shared() -> bool:
    """Import SHARED_MODULES where the server may be forked from this process; whether it
    may (it is checked again just before the fork)."""
    from multiprocessing import forkserver

    if not _may_fork_server(forkserver._forkserver):
        return False
    for name in SHARED_MODULES:
        importlib.import_module(name)
    return True


def _start_server(fork: bool = False) -> None:
    """multiprocessing's fork server started (if not running) with SIGINT blocked, as
    multiprocessing starts its resource tracker. The server ignores Ctrl-C only once its
    preload is done; during the preload (our warm-up, 0.3-0.5 s) a Ctrl-C in the terminal
    reached it too and printed a KeyboardInterrupt traceback under the scan's own
    "interrupted". The signal mask is inherited through the exec (and a fork), so the
    server, and the workers it forks, never take SIGINT; the scan's process ends them.
    Here the signal is only held back for the moment of the start, and delivered after it.
    The resource tracker is started first: its start unblocks SIGINT (and SIGTERM) when
    done, whatever the mask was before, which would let the server start with it
    unblocked. ``fork``: see :func:`prestart`."""
    from multiprocessing import forkserver, resource_tracker

    resource_tracker.ensure_running()
    block = hasattr(signal, "pthread_sigmask")
    if block:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        # checked again after the imports (a user's OPENBLAS_NUM_THREADS gives numpy's
        # import threads of its own)
        if fork and _may_fork_server(forkserver._forkserver):
            _fork_server(forkserver._forkserver)
        forkserver.ensure_running()  # (nothing to do when the fork's server runs)
    finally:
        if block:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


# What the scan's process and the fork server's warm-up both import (numpy, the decoding,
# the features' Python side): the command line's process imports them before it forks the
# server, and the server does not import them again.
SHARED_MODULES = ("simdup_gui.core.scan.fingerprint",)

# multiprocessing.forkserver.main's parameters, the same from Python 3.10 to 3.13; a fork
# server is only forked from this process where they are these, and the server takes no
# key (ForkServer has no _forkserver_authkey): elsewhere multiprocessing starts its own.
_SERVER_MAIN_ARGS = ("listener_fd", "alive_r", "preload", "main_path", "sys_path")
_SERVER_STATE = ("_forkserver_address", "_forkserver_alive_fd", "_forkserver_pid",
                 "_preload_modules", "_lock")


def _threads() -> int:
    """This process's threads, the native ones included (/proc); 0 when unknown."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _may_fork_server(fs) -> bool:
    """Whether the fork server may be a fork of this process: it has one thread (a fork
    copies only the caller's, and locks another held would stay held in the copy; Qt's
    and OpenBLAS's threads count too) and multiprocessing's fork server is the one this
    code knows."""
    from multiprocessing import forkserver

    code = getattr(forkserver.main, "__code__", None)
    return (code is not None and code.co_argcount == len(_SERVER_MAIN_ARGS)
            and code.co_varnames[: code.co_argcount] == _SERVER_MAIN_ARGS
            and not code.co_kwonlyargcount
            and all(hasattr(fs, name) for name in _SERVER_STATE)
            and not hasattr(fs, "_forkserver_authkey")
            and fs._forkserver_pid is None and _threads() == 1)


def _fork_server(fs) -> None:
    """ForkServer.ensure_running with the server forked from this process, not started as
    a new interpreter: the same listening socket, the same "alive" pipe, the same state
    noted, then the same ``forkserver.main`` with the same preload (.warm), in the fork.

    What that saves: the new interpreter's start and its imports of multiprocessing, numpy
    and the engine's scan modules (SHARED_MODULES, imported by prestart before), about
    0.07-0.12 s of CPU from the command's start to its pool up (benchmarks/poolup.py:
    median 0.618 -> 0.546 s over the processes), which the cores then spend on files.

    The fork holds what a new server would not: every other descriptor of this process
    is closed in it first (as multiprocessing's spawn closes them), and what refers to
    them or to this process (the resource tracker's pipe, its finalizers, its children,
    its signal handlers, the fork server's lock it holds here) is forgotten or reset.
    Buffered output is flushed before the fork, so that it is not written twice. The fork
    never returns into the caller's code: it ends with os._exit."""
    import socket
    from multiprocessing import connection, util

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    with fs._lock:
        with socket.socket(socket.AF_UNIX) as listener:
            address = connection.arbitrary_address("AF_UNIX")
            listener.bind(address)
            if not util.is_abstract_socket_namespace(address):
                os.chmod(address, 0o600)
            listener.listen()
            alive_r, alive_w = os.pipe()
            try:
                pid = os.fork()
                if pid == 0:
                    _serve(listener.fileno(), alive_r, fs._preload_modules)
            except BaseException:
                os.close(alive_w)
                raise
            finally:
                os.close(alive_r)
        fs._forkserver_address = address
        fs._forkserver_alive_fd = alive_w
        fs._forkserver_pid = pid


def _serve(listener_fd: int, alive_r: int, preload: list[str]):
    """The forked fork server: multiprocessing's, after what the fork brought along is
    dropped. Never returns."""
    code = 1
    try:
        _close_all_but((0, 1, 2, listener_fd, alive_r))
        _default_handlers()  # as a new interpreter's: not the caller's
        from multiprocessing import forkserver, process, resource_tracker, util

        forkserver._forkserver._lock = threading.Lock()  # held by the caller at the fork

        tracker = resource_tracker._resource_tracker
        tracker._fd = tracker._pid = None  # the caller's pipe (closed above); each worker
        # gets it again from the process that asks for it (forkserver._serve_one)
        util._finalizer_registry.clear()  # the caller's: its temporary folder's removal...
        process._children = set()
        forkserver.main(listener_fd, alive_r, preload)
        code = 0
    except SystemExit as e:  # every client gone: main() ends so
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    except BaseException:  # noqa: BLE001 - said, and the caller starts a server of its own
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


def _close_all_but(keep) -> None:
    """Close every file descriptor but ``keep``: those /proc/self/fd lists (the open ones,
    above the limit on open files too), not every number up to that limit, which
    os.closerange tries one by one where the close_range call is missing or refused (old
    kernels, seccomp): minutes with a limit of 2**30."""
    keep = set(keep)
    try:
        fds = [int(fd) for fd in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):  # no /proc: up to the limit
        try:
            top = max(os.sysconf("SC_OPEN_MAX"), max(keep) + 1)
        except (OSError, ValueError):
            top = 1 << 16
        fds = range(top)
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:  # (the listing's own, closed already; or not open)
                pass


def _default_handlers() -> None:
    """Every signal the caller handles in Python back to its default (SIGINT to Python's
    KeyboardInterrupt), as in a new interpreter."""
    for sig in signal.valid_signals():
        try:
            handler = signal.getsignal(sig)
        except (OSError, ValueError):
            continue
        if sig == signal.SIGINT:
            if handler is not signal.default_int_handler:
                signal.signal(sig, signal.default_int_handler)
        elif callable(handler):
            signal.signal(sig, signal.SIG_DFL)


def running() -> bool:
    """Whether this process has a fork server running."""
    from multiprocessing import forkserver

    return getattr(forkserver._forkserver, "_forkserver_pid", None) is not None


def stop(wait: bool = True) -> None:
    """End this process's fork server, if it runs, without waiting for its warm-up. A command
    that started it early and then never used it (a scan small enough to run in its own
    process) must not leave it behind: on a fresh install numba compiles the kernels in it
    for many seconds after the command returned, and a folder deleted meanwhile made it
    print a traceback into the user's terminal. Its cache files are written atomically.

    ``wait=False``: only the signal, for a process about to exit (the command line): the
    server dies at once all the same, and the 10-15 ms its exit takes (unmapping numba's
    100 MB) are not this process's to wait for (:func:`_forget`)."""
    from multiprocessing import forkserver

    fs = forkserver._forkserver
    pid = getattr(fs, "_forkserver_pid", None)
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    if not wait:
        _forget(fs)
        return
    try:
        fs._stop()  # closes its pipe, waits for it, forgets it (the next pool starts another)
    except (OSError, AttributeError):
        pass


def _forget(fs) -> None:
    """What ForkServer._stop does but the wait: its pipe closed, its socket removed, its pid
    forgotten, so :func:`running` says no and the next pool starts a new server instead of
    connecting to the one that is exiting. Nobody waits for it: it stays a zombie until
    this process exits (the command line, at once)."""
    try:
        with fs._lock:
            if fs._forkserver_alive_fd is not None:
                os.close(fs._forkserver_alive_fd)
            fs._forkserver_alive_fd = None
            fs._forkserver_pid = None
            address, fs._forkserver_address = fs._forkserver_address, None
        from multiprocessing import util

        if address and not util.is_abstract_socket_namespace(address):
            os.unlink(address)
    except (OSError, AttributeError):
        pass


def abandon(pool) -> None:
    """End a pool one of whose workers died: its workers killed, its threads told to stop
    on a daemon thread. Pool.terminate may wait for ever on the task queue's lock when the
    dead worker held it, so nobody waits for it. Its worker handler is told to stop first:
    it would otherwise start a new worker in the place of each one killed here, which the
    terminate that never gets the lock would never end."""
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None:
        handler._state = multiprocessing.pool.TERMINATE
        try:  # woken and waited for: it may be between dropping a dead worker and adding
            pool._change_notifier.put(None)  # its replacement, which would then live on
        except (AttributeError, OSError, ValueError):
            pass
        if handler is not threading.current_thread():
            handler.join(1.0)
    for p in list(getattr(pool, "_pool", ())):
        try:
            p.kill()
            p.join(1.0)  # reaped: no zombie left in a process that goes on
        except (OSError, ValueError, AttributeError, AssertionError):
            pass
    threading.Thread(target=pool.terminate, daemon=True, name="simdup-abandoned-pool").start()
