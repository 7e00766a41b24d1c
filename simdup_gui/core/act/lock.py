"""One action at a time: apply, undo, resume (CLI and app alike) hold an exclusive lock.

The lock is ``fcntl.flock`` on ``<user data folder>/action.lock`` (the folder the journals
are in), so it covers every process of this user, and the kernel drops it when its holder
dies (a killed apply never leaves a stale lock). The holder writes its pid into the file
so the refusal can name it. Within one process the lock is re-entrant for the thread that
holds it (resume runs execute under its own lock); another thread of the same process is
refused like another process.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Iterator

from ..ourfiles import private_dir

WAIT_SECONDS = 5.0  # how long a second action waits before it refuses
_POLL = 0.05

_thread_lock = threading.RLock()
_depth = 0
_fd: int | None = None


class ActionLocked(RuntimeError):
    """Another simdup action holds the lock; nothing was done."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        super().__init__("another simdup action is running"
                         + (f" (pid {pid})" if pid else "")
                         + "; wait for it to finish, then try again")


def data_dir() -> str:
    """This user's simdup data folder (journals, the journal key, the action lock)."""
    from platformdirs import user_data_dir

    return user_data_dir("simdup", appauthor=False)


def lock_path() -> str:
    return os.path.join(data_dir(), "action.lock")


def _try_flock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: a byte-range lock on the first byte
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise


def _unlock(fd: int) -> None:
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)
    except ImportError:
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _holder(path: str) -> int | None:
    try:
        with open(path, "rb") as fh:
            text = fh.read(32).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except OSError:
        return None


@contextlib.contextmanager
def action_lock(wait: float | None = None) -> Iterator[None]:
    """Hold the action lock for the ``with`` block; waits up to ``wait`` seconds (default
    :data:`WAIT_SECONDS`) for another action to finish, then raises :class:`ActionLocked`."""
    global _depth, _fd
    wait = WAIT_SECONDS if wait is None else wait
    if not _thread_lock.acquire(timeout=max(wait, 0.001)):
        raise ActionLocked(os.getpid())
    try:
        if _depth == 0:
            path = lock_path()
            private_dir(os.path.dirname(path))
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)
            deadline = time.monotonic() + wait
            while not _try_flock(fd):
                if time.monotonic() >= deadline:
                    pid = _holder(path)
                    os.close(fd)
                    raise ActionLocked(pid)
                time.sleep(_POLL)
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except (OSError, AttributeError):
                pass  # the pid is only for the message
            _fd = fd
        _depth += 1
    except BaseException:
        _thread_lock.release()
        raise
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _fd is not None:
            fd, _fd = _fd, None
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass
            try:
                _unlock(fd)
            finally:
                os.close(fd)
        _thread_lock.release()
