"""simdup's own folders and files (caches, tables, the numba cache): only this user's; and
atomic writes of any file simdup writes (tables, the ignore list, results, exports).

Every folder of ours is created 0700 whatever the umask (``os.makedirs``'s mode is masked
by it), and one found open to others is closed to them, or refused when it is not ours.
Files are written to a temporary name made with ``O_EXCL`` (``tempfile``) inside such a
folder and then renamed over the final name: a link planted at a predictable name is never
followed, and a reader never sees half a file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable

from .owners import chain_problem, uid

PRIVATE = 0o700


class NotPrivate(OSError):
    """A folder of ours that another account owns, or that is a link."""


def cache_dir() -> str:
    import platformdirs

    return platformdirs.user_cache_dir("simdup", appauthor=False)


def private_dir(path: str) -> str:
    """``path`` as a folder only this user can use: each missing folder of it is created
    0700 (made without following a link, then closed to others through its descriptor);
    ``path`` must be a real folder (not a link) owned by this user, made 0700 if it is
    open to others, and no folder above it may be in another account's reach
    (owners.chain_problem), or it could be swapped for theirs. NotPrivate where not."""
    path = os.path.abspath(path)
    missing = []
    head = path
    while not os.path.lexists(head):
        missing.append(head)
        parent = os.path.dirname(head)
        if parent == head:
            break
        head = parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE)
        except FileExistsError:
            pass
        _close_to_others(folder)
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise NotPrivate(f"{path} is not a folder")
    if st.st_uid != uid():
        raise NotPrivate(f"{path} belongs to another account")
    if stat.S_IMODE(st.st_mode) & 0o077:
        _close_to_others(path)
    why = chain_problem(os.path.join(path, "x"))
    if why is not None:
        raise NotPrivate(f"{path} {why.replace('lies in', 'is').replace('lies under', 'is under')}")
    return path


def _close_to_others(folder: str) -> None:
    """chmod 0700 through a descriptor opened without following a link (a link planted in
    place of a folder we just made must not send the chmod elsewhere)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(folder, flags)
    except OSError as e:
        raise NotPrivate(f"{folder} is not a folder of ours ({e.strerror or e})") from None
    try:
        if os.fstat(fd).st_uid == uid():
            os.fchmod(fd, PRIVATE)
    finally:
        os.close(fd)


def write_private(path: str, write: Callable[[object], None]) -> None:
    """Write a file at ``path`` atomically: ``write(fh)`` fills a new temporary file beside
    it (``<name>.<random>.tmp``, made with O_EXCL, mode 0600), which then replaces
    ``path``. Nothing is written through a link planted at either name."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    """The process umask, read without changing it (Linux), else the usual 022."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def shared_mode(path: str) -> int:
    """The mode a file written over ``path`` gets: the mode it has, or would have had, but
    never writable by other accounts (a results file names files to act on, and `apply`
    refuses one that others can write: act/trust.py)."""
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o666 & ~_umask()
    return mode & ~0o022


def write_atomic(path: str, text: str | Iterable[str]) -> None:
    """Write to a temporary file beside ``path`` and rename it over: never half a file, and
    an existing file is left as it was if anything fails. File names that are not valid
    UTF-8 (surrogate escapes, e.g. in CSV) are written as their original bytes. ``text``
    may come in pieces (:func:`iter_json`), written as they are made."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".simdup-save-", dir=folder)
    except OSError as e:  # name the file the user chose, not the temporary one (a caller
        # says "cannot write" itself: "cannot write X: No such file or directory", once)
        raise OSError(e.errno, e.strerror, path) from e
    try:
        try:  # mkstemp makes it private: give it the mode the file would have had
            os.chmod(tmp, shared_mode(path))
        except OSError:
            pass
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
            if isinstance(text, str):
                fh.write(text)
            else:
                for piece in text:
                    fh.write(piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
