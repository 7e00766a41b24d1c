"""The scan's process pools: where they come from, starting early, handing one over to
the grouping, and giving one up when a worker died."""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.pool
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


def _init_worker(initializer) -> None:
    """Every pool worker's start: Ctrl-C is the scan's process's to handle (it ends the
    pool), not a KeyboardInterrupt traceback from each worker, idle or not; then the
    pool's own ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()


def make_pool(processes: int, initializer=None, ctx=None):
    """A pool of ``processes`` workers from ``ctx`` (:func:`pool_context` by default); a
    fork server not yet running is started by :func:`start_server`."""
    ctx = ctx or pool_context()
    if ctx.get_start_method() == "forkserver":
        start_server()
    return ctx.Pool(processes, initializer=_init_worker, initargs=(initializer,))


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


def start_server() -> None:
    """multiprocessing's fork server started (if not running) with SIGINT blocked, as
    multiprocessing starts its resource tracker. The server ignores Ctrl-C only once its
    preload is done; during the preload a Ctrl-C in the terminal reached it too and printed
    a KeyboardInterrupt traceback under the scan's own "interrupted". The signal mask is
    inherited through the exec, so the server, and the workers it forks, never take SIGINT;
    the scan's process ends them. Here the signal is only held back for the moment of the
    start, and delivered after it. The resource tracker is started first: its start unblocks
    SIGINT (and SIGTERM) when done, whatever the mask was before."""
    from multiprocessing import forkserver, resource_tracker

    resource_tracker.ensure_running()
    block = hasattr(signal, "pthread_sigmask")
    if block:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        if block:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


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
